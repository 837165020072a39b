// SPDX-License-Identifier: GPL-2.0
/*
 * SECCOMP_RET_ISOLATE as a seccomp action: availability reporting and the
 * fail-closed rule.  Each test asserts the behaviour that is correct for the
 * running boot: where isolation is available the isolated syscall runs,
 * where it is not (a kernel or boot without SCI) the process is killed with
 * SIGSYS, even when another stacked filter says LOG, TRACE or USER_NOTIF.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#ifndef SECCOMP_RET_ISOLATE
#error "build against the patched kernel's headers"
#endif

/* The parent's pid, read before any filter is installed. */
static pid_t expected_ppid;

static int isolate_available(void)
{
	unsigned int action = SECCOMP_RET_ISOLATE;

	if (!syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action))
		return 1;
	if (errno != EOPNOTSUPP) {
		fprintf(stderr, "GET_ACTION_AVAIL: unexpected errno %d\n", errno);
		return -1;
	}
	return 0;
}

/* A filter that returns @ret for getppid and allows everything else. */
static int install(unsigned int ret, unsigned int flags)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, ret),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = insns };

	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static int read_sysctl(const char *name, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/kernel/seccomp/%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int has_word(const char *list, const char *word)
{
	char copy[512], *tok, *save;

	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, word))
			return 1;
	return 0;
}

/* Runs @fn in a child; returns its wait status. */
static int run_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		expected_ppid = getppid();
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(90);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* Exit 0 if one getppid() ran and returned the right value. */
static int call_getppid(void)
{
	return syscall(__NR_getppid) == expected_ppid ? 0 : 1;
}

static int only_isolate(void)
{
	if (install(SECCOMP_RET_ISOLATE, 0))
		return 91;
	return call_getppid();
}

static int isolate_learn(void)
{
	if (install(SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_LEARN, 0))
		return 91;
	return call_getppid();
}

static int isolate_then_log(void)
{
	if (install(SECCOMP_RET_ISOLATE, 0) || install(SECCOMP_RET_LOG, 0))
		return 91;
	return call_getppid();
}

static int log_then_isolate(void)
{
	if (install(SECCOMP_RET_LOG, 0) || install(SECCOMP_RET_ISOLATE, 0))
		return 91;
	return call_getppid();
}

static int reserved_bits(void)
{
	if (install(SECCOMP_RET_ISOLATE | 0x8000, 0))
		return 91;
	return call_getppid();
}

static int isolate_and_errno(void)
{
	if (install(SECCOMP_RET_ISOLATE, 0) ||
	    install(SECCOMP_RET_ERRNO | EPERM, 0))
		return 91;
	return syscall(__NR_getppid) == -1 && errno == EPERM ? 0 : 1;
}

/* The outcome a getppid child must have on this boot. */
#define EXPECT_ISOLATED_RUN(status, avail) do {				\
	if (avail) {							\
		ASSERT_TRUE(WIFEXITED(status));				\
		ASSERT_EQ(0, WEXITSTATUS(status));			\
	} else {							\
		ASSERT_TRUE(WIFSIGNALED(status));			\
		ASSERT_EQ(SIGSYS, WTERMSIG(status));			\
	}								\
} while (0)

TEST(action_avail_matches_sysctl)
{
	char avail[512];
	int a = isolate_available();

	ASSERT_LE(0, a);
	ASSERT_EQ(0, read_sysctl("actions_avail", avail, sizeof(avail)));
	TH_LOG("isolation %savailable; actions_avail: %s", a ? "" : "not ", avail);
	ASSERT_EQ(a, has_word(avail, "isolate"));
	/* The pre-existing actions are all still listed. */
	ASSERT_TRUE(has_word(avail, "kill_process") && has_word(avail, "allow") &&
		    has_word(avail, "user_notif") && has_word(avail, "log"));
}

TEST(actions_logged_accepts_isolate_only_when_available)
{
	char old[512], now[512];
	int a = isolate_available(), fd, ret;

	ASSERT_LE(0, a);
	ASSERT_EQ(0, read_sysctl("actions_logged", old, sizeof(old)));
	fd = open("/proc/sys/kernel/seccomp/actions_logged", O_WRONLY);
	ASSERT_LE(0, fd);
	ret = write(fd, "kill_process isolate", 20);
	close(fd);
	if (!a) {
		ASSERT_EQ(-1, ret);
		ASSERT_EQ(EINVAL, errno);
		return;
	}
	ASSERT_EQ(20, ret);
	ASSERT_EQ(0, read_sysctl("actions_logged", now, sizeof(now)));
	ASSERT_TRUE(has_word(now, "isolate"));
	fd = open("/proc/sys/kernel/seccomp/actions_logged", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(old), write(fd, old, strlen(old)));
	close(fd);
}

TEST(isolate_alone)
{
	int a = isolate_available();

	ASSERT_LE(0, a);
	EXPECT_ISOLATED_RUN(run_child(only_isolate), a);
}

TEST(isolate_learn_flag)
{
	int a = isolate_available();

	ASSERT_LE(0, a);
	EXPECT_ISOLATED_RUN(run_child(isolate_learn), a);
}

TEST(stacked_log_newer)
{
	int a = isolate_available();

	ASSERT_LE(0, a);
	EXPECT_ISOLATED_RUN(run_child(isolate_then_log), a);
}

TEST(stacked_log_older)
{
	int a = isolate_available();

	ASSERT_LE(0, a);
	EXPECT_ISOLATED_RUN(run_child(log_then_isolate), a);
}

TEST(reserved_data_bits_kill)
{
	int status = run_child(reserved_bits);

	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSYS, WTERMSIG(status));
}

TEST(errno_outranks_isolate)
{
	int status = run_child(isolate_and_errno);

	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

/* TRACE filter with a tracer that continues the syscall, plus ISOLATE. */
TEST(stacked_trace_with_tracer)
{
	int a = isolate_available(), status, events = 0;
	pid_t pid;

	ASSERT_LE(0, a);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		expected_ppid = getppid();
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(90);
		raise(SIGSTOP);
		if (install(SECCOMP_RET_TRACE | 7, 0) || install(SECCOMP_RET_ISOLATE, 0))
			_exit(91);
		_exit(call_getppid());
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status));
	ASSERT_EQ(0, ptrace(PTRACE_SETOPTIONS, pid, 0,
			    PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, 0, 0));
	for (;;) {
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			events++;
			ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, 0, 0));
		} else {
			ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(status)));
		}
	}
	/* Available: the tracer saw the event and the syscall ran isolated. */
	ASSERT_EQ(a ? 1 : 0, events);
	EXPECT_ISOLATED_RUN(status, a);
}

static void *notif_supervisor(void *arg)
{
	int fd = *(int *)arg;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req))
			return NULL;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp))
			return NULL;
	}
}

static int notif_then_isolate(void)
{
	pthread_t t;
	int fd = install(SECCOMP_RET_USER_NOTIF, SECCOMP_FILTER_FLAG_NEW_LISTENER);

	if (fd < 0 || install(SECCOMP_RET_ISOLATE, 0))
		return 91;
	if (pthread_create(&t, NULL, notif_supervisor, &fd))
		return 92;
	return call_getppid();
}

TEST(stacked_user_notif_continue)
{
	int a = isolate_available();

	ASSERT_LE(0, a);
	EXPECT_ISOLATED_RUN(run_child(notif_then_isolate), a);
}

/*
 * ia32 syscalls are never isolated (sci.rst, "Limits"): a filter that
 * isolates everything must fail closed on an int $0x80 from a 64-bit
 * process (AUDIT_ARCH_I386), killing it, never run it unisolated.  Needs
 * IA32_EMULATION: without it the int $0x80 itself faults.
 */
static long int80_getppid(void)
{
	long ret = 64;	/* __NR_getppid of the i386 table */

	asm volatile("int $0x80" : "+a"(ret) : : "memory", "r8", "r9",
		     "r10", "r11");
	return ret;
}

static int int80_plain(void)
{
	return int80_getppid() == expected_ppid ? 0 : 1;
}

static int int80_isolate_all(void)
{
	struct sock_filter all[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ISOLATE),
	};
	struct sock_fprog prog = { .len = 1, .filter = all };

	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return 91;
	return int80_plain() ? 1 : 2;
}

TEST(ia32_int80_isolate_fails_closed)
{
	int status;

	/*
	 * abi.vsyscall32 exists with IA32_EMULATION only; without it the
	 * int $0x80 is a #GP that the kernel log reports as a trap.
	 */
	if (access("/proc/sys/abi/vsyscall32", F_OK))
		SKIP(return, "no IA32_EMULATION in this kernel (KCONFIG=distro has it)");
	status = run_child(int80_plain);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	status = run_child(int80_isolate_all);
	TH_LOG("int $0x80 getppid under an isolate-all filter: status %#x (exit 2: ran unisolated)",
	       status);
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSYS, WTERMSIG(status));
}

/*
 * A 32-bit program (selftests/ia32/hello32.c): runs natively and under a
 * filter that allows everything; under a filter that isolates everything,
 * raw or sci-run's (libseccomp, whose filter checks the architecture), it
 * is killed by SIGSYS at its first i386 syscall, never run unisolated
 * (sci-run then exits 128 + SIGSYS and says so).
 */
#define HELLO32	"/sci/bin/ia32/hello32"

static unsigned int hello32_action;

static int exec_hello32(void)
{
	struct sock_filter all[] = {
		BPF_STMT(BPF_RET | BPF_K, hello32_action),
	};
	struct sock_fprog prog = { .len = 1, .filter = all };

	if (hello32_action &&
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return 91;
	execl(HELLO32, HELLO32, (char *)NULL);
	return 92;
}

static int sci_run_hello32(void)
{
	execl("/sci/bin/sci-run", "sci-run", "--isolate-all", "--", HELLO32,
	      (char *)NULL);
	return 93;
}

TEST(ia32_program_isolate_fails_closed)
{
	int status, avail;

	if (access("/proc/sys/abi/vsyscall32", F_OK))
		SKIP(return, "no IA32_EMULATION in this kernel (KCONFIG=distro has it)");
	ASSERT_EQ(0, access(HELLO32, X_OK));
	hello32_action = 0;
	status = run_child(exec_hello32);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	hello32_action = SECCOMP_RET_ALLOW;
	status = run_child(exec_hello32);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	hello32_action = SECCOMP_RET_ISOLATE;
	status = run_child(exec_hello32);
	TH_LOG("32-bit program under an isolate-all filter: status %#x", status);
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSYS, WTERMSIG(status));
	/*
	 * sci-run waits for its child and exits 128 + the signal; where the
	 * kernel has no isolation (sci=off), it refuses to load the policy
	 * (125) and runs nothing.
	 */
	avail = isolate_available();
	ASSERT_LE(0, avail);
	status = run_child(sci_run_hello32);
	TH_LOG("32-bit program under sci-run --isolate-all: status %#x (isolation %savailable)",
	       status, avail ? "" : "not ");
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(avail ? 128 + SIGSYS : 125, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
