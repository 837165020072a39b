/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A small classic-BPF interpreter over struct seccomp_data, for the tests. */
#ifndef SCI_TEST_BPF_H
#define SCI_TEST_BPF_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#define TEST_AUDIT_ARCH_X86_64	0xc000003eU
#define TEST_AUDIT_ARCH_I386	0x40000003U

struct test_seccomp_data {
	int nr;
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t args[6];
};

/*
 * Run @prog on @d as the kernel would.  Returns 0 and the filter's return
 * value in *ret, or -1 if the program is invalid (a bad opcode, a jump or
 * load out of range, falling off the end).
 */
int bpf_run(const struct sock_filter *prog, size_t len,
	    const struct test_seccomp_data *d, uint32_t *ret);
/* The same, and how many instructions ran (the return included). */
int bpf_run_steps(const struct sock_filter *prog, size_t len,
		  const struct test_seccomp_data *d, uint32_t *ret,
		  unsigned int *steps);

#endif
