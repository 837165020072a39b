/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ioctl interface of /dev/sci_testmod, shared by the module
 * (sci_testmod.c) and its selftest (../sci/sci_module.c).
 */
#ifndef SCI_TESTMOD_H
#define SCI_TESTMOD_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SCI_TESTMOD_N		64

struct sci_testmod_sum {
	__u64 v[SCI_TESTMOD_N];
	__u64 sum;
};

struct sci_testmod_info {
	__u64 sum_fn;
	__u64 sled_fn;
};

#define SCI_TESTMOD_SUM		_IOWR('M', 0, struct sci_testmod_sum)
#define SCI_TESTMOD_GADGET	_IO('M', 1)
#define SCI_TESTMOD_INFO	_IOR('M', 2, struct sci_testmod_info)

#endif
