// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.sci_violation_limit: a violation kills the process without an oops
 * until the limit is reached; the violation that reaches it is an oops
 * like any other kernel bug (a kill in the middle of a syscall may leak
 * what it held).  0 means no limit.
 *
 * The oops is deliberate: the test brackets it with markers in the kernel
 * log ("sci-selftest: expected oops begin/end") that qemu/tapsum.py honours.
 * It taints the kernel (D), so this test runs after the others.
 */
#define _GNU_SOURCE
#include <signal.h>

#include "kselftest_harness.h"
#include "sci.h"

#define LIMIT "/proc/sys/kernel/sci_violation_limit"

/* One isolated bad call in a child; its wait status. */
static int violate(int fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "limit");
		_exit(0);
	}
	return sci_reap(pid, NULL, 0);
}

TEST(limit_escalates_to_oops)
{
	long old = sci_read_long(LIMIT), count = sci_stat("violation_count");
	long oops = sci_read_long("/sys/kernel/oops_count");
	int fd = open(SCI_TEST_PATH, O_RDWR), status;
	char val[32];

	ASSERT_LE(0, fd);
	ASSERT_LE(0, old);
	ASSERT_LE(0, count);
	ASSERT_LE(0, oops);

	/* No limit: a violation is a kill, never an oops. */
	ASSERT_EQ(0, sci_write_file(LIMIT, "0"));
	status = violate(fd);
	ASSERT_KILLED(status);
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	count = sci_stat("violation_count");

	/* The next violation is below the limit, the one after reaches it. */
	snprintf(val, sizeof(val), "%ld", count + 2);
	ASSERT_EQ(0, sci_write_file(LIMIT, val));
	status = violate(fd);
	ASSERT_KILLED(status);
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));

	ASSERT_EQ(0, sci_write_file("/dev/kmsg", "sci-selftest: expected oops begin\n"));
	status = violate(fd);
	ASSERT_EQ(0, sci_write_file("/dev/kmsg", "sci-selftest: expected oops end\n"));
	snprintf(val, sizeof(val), "%ld", old);
	ASSERT_EQ(0, sci_write_file(LIMIT, val));
	TH_LOG("status 0x%x, oops_count %ld -> %ld, tainted %ld", status, oops,
	       sci_read_long("/sys/kernel/oops_count"),
	       sci_read_long("/proc/sys/kernel/tainted"));
	/* The oops path ends the task with SIGSEGV, as die() does. */
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSEGV, WTERMSIG(status));
	ASSERT_EQ(oops + 1, sci_read_long("/sys/kernel/oops_count"));
	ASSERT_NE(0, sci_read_long("/proc/sys/kernel/tainted") & (1 << 7));
}

/*
 * A real oops inside an isolated syscall (found by review): die() rewinds
 * the stack to pt_regs and do_exit()'s frames take the place of the
 * syscall's, while its SCI state is still active.  deactivate_mm() must
 * not take those frames for the syscall's: neither kill the task a
 * second time nor write the saved frames over them.  One oops, the task
 * ends with SIGSEGV, and isolated syscalls go on working.
 */
#define SCI_TEST_OOPS	_IO('S', 33)

TEST(oops_in_isolated_syscall_ends_task_only)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int fd = open(SCI_TEST_PATH, O_RDWR), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, oops);
	ASSERT_EQ(-1, ioctl(fd, SCI_TEST_OOPS));
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, sci_write_file("/dev/kmsg", "sci-selftest: expected oops begin\n"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_OOPS);
		_exit(91);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_EQ(0, sci_write_file("/dev/kmsg", "sci-selftest: expected oops end\n"));
	TH_LOG("status %#x, oops_count %ld -> %ld", status, oops,
	       sci_read_long("/sys/kernel/oops_count"));
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSEGV, WTERMSIG(status));
	ASSERT_EQ(oops + 1, sci_read_long("/sys/kernel/oops_count"));
	/* The kernel goes on: an isolated syscall in another task works. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(ioctl(fd, SCI_TEST_GET_ANSWER) == 42 ? 0 : 92);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(oops + 1, sci_read_long("/sys/kernel/oops_count"));
}

TEST_HARNESS_MAIN
