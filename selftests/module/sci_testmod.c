// SPDX-License-Identifier: GPL-2.0
/*
 * sci_testmod: a module for the SCI selftests (selftests/sci/sci_module.c).
 *
 * /dev/sci_testmod (a misc device: a killed isolated syscall inside a
 * debugfs or proc file's operation would leave the file's user count
 * raised, and the module could never be unloaded), ioctls (CAP_SYS_ADMIN):
 *   SCI_TESTMOD_SUM     struct sci_testmod_sum: sum the array with a
 *                       function of this module that calls the kernel
 *                       (kmalloc, memcpy, kfree) and copy the result back;
 *                       an isolated syscall running module code end to end
 *   SCI_TESTMOD_GADGET  call one page into sci_testmod_sled(): a jump into
 *                       the middle of a module function, harmless without
 *                       SCI (NOPs), a violation when isolated
 *   SCI_TESTMOD_INFO    struct sci_testmod_info: the addresses of
 *                       sci_testmod_sum_array() and sci_testmod_sled()
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "sci_testmod.h"

/* Two pages of NOPs, page-aligned: harmless wherever it is entered. */
noinline __aligned(PAGE_SIZE) void sci_testmod_sled(void)
{
	asm volatile(".fill 2 * 4096, 1, 0x90");
}

static void (*sci_testmod_sled_ptr)(void) = sci_testmod_sled;

static noinline int sci_testmod_sum_array(struct sci_testmod_sum *s)
{
	__u64 *copy = kmalloc(sizeof(s->v), GFP_KERNEL);
	int i;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, s->v, sizeof(s->v));
	s->sum = 0;
	for (i = 0; i < SCI_TESTMOD_N; i++)
		s->sum += copy[i];
	kfree(copy);
	return 0;
}

static long sci_testmod_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	struct sci_testmod_info info;
	struct sci_testmod_sum *s;
	void (*fn)(void);
	long ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case SCI_TESTMOD_SUM:
		s = kmalloc(sizeof(*s), GFP_KERNEL);
		if (!s)
			return -ENOMEM;
		ret = -EFAULT;
		if (!copy_from_user(s, uarg, sizeof(*s))) {
			ret = sci_testmod_sum_array(s);
			if (!ret && copy_to_user(uarg, s, sizeof(*s)))
				ret = -EFAULT;
		}
		kfree(s);
		return ret;
	case SCI_TESTMOD_GADGET:
		fn = (void (*)(void))((unsigned long)READ_ONCE(sci_testmod_sled_ptr) +
				      PAGE_SIZE);
		fn();
		return 0;
	case SCI_TESTMOD_INFO:
		info.sum_fn = (unsigned long)sci_testmod_sum_array;
		info.sled_fn = (unsigned long)sci_testmod_sled;
		return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
	}
	return -ENOTTY;
}

static const struct file_operations sci_testmod_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= sci_testmod_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice sci_testmod_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sci_testmod",
	.fops	= &sci_testmod_fops,
	.mode	= 0600,
};

static int __init sci_testmod_init(void)
{
	return misc_register(&sci_testmod_dev);
}

static void __exit sci_testmod_exit(void)
{
	misc_deregister(&sci_testmod_dev);
}

module_init(sci_testmod_init);
module_exit(sci_testmod_exit);
MODULE_DESCRIPTION("SCI selftest module: isolated syscalls into module code");
MODULE_LICENSE("GPL");
