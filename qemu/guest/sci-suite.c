// SPDX-License-Identifier: GPL-2.0
/*
 * sci-suite: run one guest selftest suite with a time limit.
 *
 * usage: sci-suite TIMEOUT COMMAND [ARGS...]
 *
 * COMMAND runs in a session of its own, stdin from /dev/null, its stdout and
 * stderr read through a pipe and copied to ours with every line prefixed by
 * "# " (the kselftest runner's format).  The exit status is COMMAND's, or
 * 128 + the signal that ended it.
 *
 * When COMMAND has not finished after TIMEOUT seconds, sci-suite reports
 * what hangs before it kills anything: every process of the session with
 * its state, wait channel and kernel stack ("# hang: " lines), the blocked
 * tasks of the whole guest (sysrq w, in the kernel log) and the end of the
 * kernel log.  Then it kills the session and exits with 137, whether or not
 * the processes died: one stuck in the kernel does not hold the output pipe
 * of the rest of the run open, which is how one hang used to stop every
 * later suite.  Processes that the suite left behind after COMMAND exited
 * are killed after a grace period of 5 s.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char line[4096];
static size_t len;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void emit(const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || len == sizeof(line) - 1) {
			line[len] = 0;
			printf("# %s\n", line);
			len = 0;
			if (buf[i] == '\n')
				continue;
		}
		line[len++] = buf[i];
	}
	fflush(stdout);
}

static void flush_partial(void)
{
	if (len) {
		line[len] = 0;
		printf("# %s\n", line);
		len = 0;
	}
	fflush(stdout);
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* Session id, state and command name of PID from /proc/PID/stat. */
static int proc_stat(int pid, int *sid, char *state, char *comm, size_t commsz)
{
	char path[64], buf[1024], *open_paren, *close_paren;
	int ppid, pgrp;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return -1;
	snprintf(comm, commsz, "%.*s", (int)(close_paren - open_paren - 1),
		 open_paren + 1);
	if (sscanf(close_paren + 2, "%c %d %d %d", state, &ppid, &pgrp, sid) != 4)
		return -1;
	return ppid;
}

/* Call fn(pid) for every process of session SID; returns how many. */
static int for_each_in_session(int sid, void (*fn)(int pid))
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char state, comm[64];
		int pid, s;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = atoi(de->d_name);
		if (proc_stat(pid, &s, &state, comm, sizeof(comm)) < 0 || s != sid)
			continue;
		if (state == 'Z')
			continue;
		n++;
		if (fn)
			fn(pid);
	}
	closedir(d);
	return n;
}

static void describe(int pid)
{
	char path[64], buf[4096], comm[64], wchan[128] = "?", state;
	int sid, ppid = proc_stat(pid, &sid, &state, comm, sizeof(comm));
	char *p, *nl;

	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	read_file(path, wchan, sizeof(wchan));
	printf("# hang: pid %d ppid %d state %c comm %s wchan %s\n",
	       pid, ppid, state, comm, wchan[0] ? wchan : "-");
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	if (read_file(path, buf, sizeof(buf)) > 0) {
		for (p = buf; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				break;
			*nl = 0;
			printf("# hang:     %s\n", p);
		}
	}
}

static void kill_one(int pid)
{
	kill(pid, SIGKILL);
}

static void report_hang(int sid, const char *cmd, int tmo)
{
	static char klog[1 << 17];
	int fd, n, lines = 0;
	char *p;

	flush_partial();
	printf("# hang: %s did not finish in %d s; the processes of its session:\n",
	       cmd, tmo);
	for_each_in_session(sid, describe);
	/*
	 * Blocked tasks of the whole guest, with stacks, to the kernel log;
	 * only in the test guest (its /init installs /sci/tests.list).
	 */
	fd = access("/sci/tests.list", F_OK) ? -1 :
		open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "w", 1) != 1)
			printf("# hang: sysrq w: %s\n", strerror(errno));
		close(fd);
	}
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, sizeof(klog) - 1);
	if (n > 0) {
		klog[n] = 0;
		for (p = klog + n; p > klog; p--)
			if (p[-1] == '\n' && p != klog + n && ++lines >= 40)
				break;
		printf("# hang: the end of the kernel log:\n");
		while (*p) {
			char *nl = strchr(p, '\n');

			if (nl)
				*nl = 0;
			printf("# hang:   %s\n", p);
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int fds[2], status = 0, exited = 0, timed_out = 0, tmo;
	double deadline, grace = 0;
	char buf[4096];
	pid_t pid;

	if (argc < 3 || (tmo = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: sci-suite TIMEOUT COMMAND [ARGS...]\n");
		return 2;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		perror("sci-suite: pipe2");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("sci-suite: fork");
		return 2;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setsid();
		if (null >= 0)
			dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		/*
		 * Only 0, 1 and 2 open (seccomp_bpf's addfd test counts its
		 * descriptors), whatever the runner had open.
		 */
		if (syscall(SYS_close_range, 3, ~0U, 0))
			for (int fd = 3; fd < 1024; fd++)
				close(fd);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "sci-suite: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	deadline = now() + tmo;

	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		double t = now(), until = exited ? grace : deadline;
		int r;

		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			grace = t + 5;
			continue;
		}
		if (t >= until) {
			if (!exited) {
				timed_out = 1;
				report_hang(pid, argv[2], tmo);
			} else {
				flush_partial();
				printf("# sci-suite: %d processes left behind by %s, killed\n",
				       for_each_in_session(pid, NULL), argv[2]);
			}
			kill(-pid, SIGKILL);
			for_each_in_session(pid, kill_one);
			break;
		}
		/* Wake up at least once a second to notice the child's exit. */
		r = poll(&pfd, 1, until - t < 1 ? (int)((until - t) * 1000) + 1 : 1000);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0) {
			ssize_t n = read(fds[0], buf, sizeof(buf));

			if (n > 0) {
				emit(buf, n);
			} else if (n == 0 || errno != EINTR) {
				/* EOF: every writer is gone. */
				if (!exited && waitpid(pid, &status, 0) == pid)
					exited = 1;
				break;
			}
		}
	}
	flush_partial();
	if (timed_out) {
		int left;

		/* Give the kills a moment, then say what did not die. */
		for (int i = 0; i < 50 && (left = for_each_in_session(pid, NULL)); i++)
			usleep(100000);
		waitpid(pid, &status, WNOHANG);
		left = for_each_in_session(pid, NULL);
		if (left) {
			printf("# hang: %d processes survived SIGKILL:\n", left);
			for_each_in_session(pid, describe);
		}
		fflush(stdout);
		return 137;
	}
	if (!exited)
		waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
