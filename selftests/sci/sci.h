/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the SCI guest selftests. */
#ifndef SCI_SELFTEST_H
#define SCI_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The test hooks of CONFIG_SYSCALL_ISOLATION_TEST (arch/x86/mm/sci_test.c) */
#define SCI_TEST_PATH		"/sys/kernel/debug/sci/test"
#define SCI_TEST_GET_ANSWER	_IO('S', 0)
#define SCI_TEST_WRITE_DMESG	_IOW('S', 1, char *)
#define SCI_TEST_WRITE_DMESG_BAD _IOW('S', 2, char *)
#define SCI_TEST_CALL_ADDR	_IOW('S', 3, unsigned long)
#define SCI_TEST_SLEEP_BAD	_IOW('S', 4, unsigned long)
#define SCI_TEST_BIG_FUNC	_IO('S', 5)
#define SCI_TEST_READ_CALL	_IOW('S', 6, unsigned long)
#define SCI_TEST_CALL_UNMAPPED	_IOW('S', 7, unsigned long)
#define SCI_TEST_STALE		_IOW('S', 8, unsigned long)
#define SCI_TEST_WRITE_STATE	_IOW('S', 9, unsigned long)
#define SCI_TEST_PIVOT		_IO('S', 10)
#define SCI_TEST_KEPT		_IOW('S', 11, unsigned long)
#define SCI_TEST_IRQ_WINDOW	_IO('S', 12)
#define SCI_TEST_USER_PGD_COPY	_IO('S', 13)
#define SCI_TEST_SOFTIRQ	_IO('S', 14)

/*
 * Install a filter: syscall @nr (or every syscall when @nr is -1) returns
 * @ret, the others are allowed.  Sets no_new_privs.
 */
static inline int sci_filter(int nr, unsigned int ret)
{
	struct sock_filter one[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, ret),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter all[] = {
		BPF_STMT(BPF_RET | BPF_K, ret),
	};
	struct sock_fprog prog = {
		.len = nr < 0 ? 1 : 4,
		.filter = nr < 0 ? all : one,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static inline int sci_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, total = 0;

	if (fd < 0)
		return -1;
	while (total < (ssize_t)len - 1 &&
	       (n = read(fd, buf + total, len - 1 - total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return total;
}

static inline int sci_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* A counter from /sys/kernel/debug/sci/stats, or -1. */
static inline long sci_stat(const char *name)
{
	char buf[2048], *p;
	size_t len = strlen(name);

	if (sci_read_file("/sys/kernel/debug/sci/stats", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ' ')
			return atol(p + len + 1);
	return -1;
}

static inline long sci_read_long(const char *path)
{
	char buf[64];

	if (sci_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atol(buf);
}

/* Start tracing grants of thread group @pid (0 stops). */
static inline int sci_trace_start(pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", pid);
	return sci_write_file("/sys/kernel/debug/sci/trace_pid", buf);
}

/* Does the grant trace hold a line of @type ("code", "data") for @sym+? */
static inline int sci_trace_has(const char *type, const char *sym)
{
	static char buf[1 << 20];
	char needle[256];

	if (sci_read_file("/sys/kernel/debug/sci/trace", buf, sizeof(buf)) < 0)
		return -1;
	snprintf(needle, sizeof(needle), " %s %s+", type, sym);
	return strstr(buf, needle) != NULL;
}

/* The address of kernel symbol @name from /proc/kallsyms, or 0. */
static inline unsigned long sci_ksym(const char *name)
{
	static char buf[1 << 23];
	static int len;
	char needle[300], *p;

	if (!len)
		len = sci_read_file("/proc/kallsyms", buf, sizeof(buf));
	if (len <= 0)
		return 0;
	snprintf(needle, sizeof(needle), " %s\n", name);
	p = strstr(buf, needle);
	if (!p)
		return 0;
	while (p > buf && p[-1] != '\n')
		p--;
	return strtoul(p, NULL, 16);
}

/*
 * Was the page holding @sym's first byte granted as code while syscall @nr
 * ran?  A call into @sym only faults if its page was not mapped yet, so the
 * proof that the handler ran isolated is a code grant of its page.
 */
static inline int sci_trace_code_page(int nr, const char *sym)
{
	static char buf[1 << 20];
	unsigned long want = sci_ksym(sym) & ~4095UL;
	char *line, *save, name[256];
	unsigned long off;
	int pid, lnr;

	if (!want || sci_read_file("/sys/kernel/debug/sci/trace", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%d %d code %255[^+]+0x%lx", &pid, &lnr, name, &off) != 4)
			continue;
		if (lnr == nr && ((sci_ksym(name) + off) & ~4095UL) == want)
			return 1;
	}
	return 0;
}

static inline int sci_trace_count(void)
{
	static char buf[1 << 20];
	int n = 0;
	char *p;

	if (sci_read_file("/sys/kernel/debug/sci/trace", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p; p++)
		n += *p == '\n';
	return n;
}

/* Reap @pid after reading its /proc/PID/sci into @rec (may be NULL). */
static inline int sci_reap(pid_t pid, char *rec, size_t len)
{
	siginfo_t si;
	char path[64];
	int status;

	if (rec) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
			return -1;
		snprintf(path, sizeof(path), "/proc/%d/sci", pid);
		if (sci_read_file(path, rec, len) < 0)
			rec[0] = '\0';
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

#ifdef __KSELFTEST_HARNESS_H
#define ASSERT_KILLED(status) do {					\
	ASSERT_TRUE(WIFSIGNALED(status));				\
	ASSERT_EQ(SIGKILL, WTERMSIG(status));				\
} while (0)

#define ASSERT_EXIT0(status) do {					\
	ASSERT_TRUE(WIFEXITED(status));					\
	ASSERT_EQ(0, WEXITSTATUS(status));				\
} while (0)
#endif

#endif
