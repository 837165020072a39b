// SPDX-License-Identifier: GPL-2.0
/*
 * The ways out of SCI that a reviewer can name, one test each, with the
 * outcome asserted (Documentation/x86/sci.rst, "Threat model" and
 * "Limits").  Each test first runs its case unisolated, where it must
 * complete, so that a kill under SCI is SCI's doing and a pass is not a
 * test that cannot fail.
 */
#define _GNU_SOURCE
#include <signal.h>

#include "kselftest_harness.h"
#include "sci.h"

static int test_fd(void)
{
	return open(SCI_TEST_PATH, O_RDWR);
}

/*
 * Run SCI_TEST_SOFTIRQ until the tasklet ran on the IRQ stack (it may run
 * in ksoftirqd instead); the IRQ-stack bytes it used, or a negative errno.
 */
static long softirq_depth(int fd)
{
	long ret = -EAGAIN;
	int i;

	for (i = 0; i < 100 && ret == -EAGAIN; i++) {
		ret = ioctl(fd, SCI_TEST_SOFTIRQ);
		if (ret < 0)
			ret = -errno;
	}
	return ret;
}

/*
 * Class 10, paths that leave the SCI tables without SCI knowing: a softirq
 * that an isolated syscall runs itself from local_bh_enable() (any
 * spin_unlock_bh() after an interrupt raised one) runs on the CPU's IRQ
 * stack, which the SCI tables of an isolated syscall must map whole: a
 * page fault on an unmapped stack page cannot be delivered, and the double
 * fault that follows would kill the process as a stack pivot.  The tasklet
 * goes 6 KiB deep, past the IRQ stack's top page.
 */
TEST(softirq_on_irq_stack)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int fd = test_fd(), status, pfd[2];
	long depth, isolated = 0;
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	depth = softirq_depth(fd);
	TH_LOG("unisolated: the tasklet used %ld bytes of the IRQ stack", depth);
	ASSERT_LT(4096, depth);
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pfd[0]);
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		depth = softirq_depth(fd);
		if (write(pfd[1], &depth, sizeof(depth)) != sizeof(depth))
			_exit(91);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &isolated, sizeof(isolated)) != sizeof(isolated))
		isolated = 0;
	close(pfd[0]);
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("isolated: %ld bytes, status %#x, /proc/%d/sci: %s", isolated,
	       status, pid, rec);
	ASSERT_EXIT0(status);
	ASSERT_LT(4096, isolated);
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST_HARNESS_MAIN
