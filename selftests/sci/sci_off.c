// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel built with SCI but booted with sci=off: isolation is not
 * available, and a filter that asks for it fails closed (the process is
 * killed by SIGSYS), while the test hooks' bad call completes unisolated.
 * Run in a guest booted with sci=off, and in ones booted with sci=on where
 * SCI refuses to enable (pti=off; percpu_alloc=page).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "sci.h"

/* The kernel log as one string (static buffer). */
static const char *kernel_log(void)
{
	static char buf[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/*
 * Off because the command line says sci=off (then silently), or because
 * SCI refused to enable, with one message saying why: no page table
 * isolation (a guest booted with pti=off), or per-CPU areas outside the
 * direct map, where SCI's read-only per-CPU state would have a writable
 * alias (percpu_alloc=page).
 */
TEST(off_for_a_stated_reason)
{
	char cmdline[4096];
	const char *log = kernel_log(), *msg;

	ASSERT_LT(0, sci_read_file("/proc/cmdline", cmdline, sizeof(cmdline)));
	msg = strstr(log, "sci: not enabled: ");
	if (strstr(cmdline, "sci=off")) {
		ASSERT_EQ(NULL, msg);
		return;
	}
	ASSERT_NE(NULL, strstr(cmdline, "sci=on"));
	ASSERT_NE(NULL, msg);
	TH_LOG("%.*s", (int)strcspn(msg, "\n"), msg);
	if (strstr(cmdline, "pti=off")) {
		ASSERT_EQ(0, strncmp(msg, "sci: not enabled: it needs page table isolation", 47));
	} else {
		ASSERT_NE(NULL, strstr(cmdline, "percpu_alloc=page"));
		ASSERT_EQ(0, strncmp(msg, "sci: not enabled: percpu_alloc=page", 35));
	}
	/* One message, not one per CPU or per attempt. */
	ASSERT_EQ(NULL, strstr(msg + 1, "sci: not enabled: "));
	ASSERT_EQ(NULL, strstr(log, "system call isolation enabled"));
}

TEST(not_available)
{
	unsigned int action = SECCOMP_RET_ISOLATE;
	char buf[512];
	struct stat st;

	ASSERT_EQ(-1, syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action));
	ASSERT_EQ(EOPNOTSUPP, errno);
	ASSERT_LT(0, sci_read_file("/proc/sys/kernel/seccomp/actions_avail",
				   buf, sizeof(buf)));
	ASSERT_EQ(NULL, strstr(buf, "isolate"));
	/* No SCI state is exposed when it is off. */
	ASSERT_NE(0, stat("/sys/kernel/debug/sci/stats", &st));
}

TEST(isolate_fails_closed)
{
	int fd = open(SCI_TEST_PATH, O_RDWR), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	/* Unisolated, the bad call is harmless and completes. */
	ASSERT_EQ(3, ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "off"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_GET_ANSWER);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSYS, WTERMSIG(status));
}

TEST_HARNESS_MAIN
