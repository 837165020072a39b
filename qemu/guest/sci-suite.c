// SPDX-License-Identifier: GPL-2.0
/*
 * sci-suite: run one guest selftest suite with a time limit.
 *
 * usage: sci-suite TIMEOUT COMMAND [ARGS...]
 *
 * COMMAND runs in a session of its own, stdin from /dev/null, descriptors
 * 0-2 only, its stdout and stderr read through a pipe and copied to ours
 * with every line prefixed by "# " (the kselftest runner's format).  The
 * exit status is COMMAND's, or 128 + the signal that ended it.
 *
 * The suite's processes are the session's, and any process that holds the
 * pipe (one that left the session with setsid()).  When COMMAND has not
 * finished after TIMEOUT seconds, sci-suite reports what hangs before it
 * kills anything: each of those processes with its state, wait channel and
 * kernel stack ("# hang: " lines; from a child process that gives up after
 * 20 s, as reading a stack can block), with its command line, last CPU,
 * seccomp state and signal masks; each CPU's timer state (queued sleepers
 * against "now", the programmed clock event, /proc/interrupts), the blocked
 * tasks of the whole guest (sysrq w) and every CPU's backtrace (sysrq l),
 * then the end of the kernel log.  3 s later it lists the suite's processes
 * again: sysrq l's NMIs wake idle CPUs, so a process that went on then
 * was waiting for a lost timer interrupt.  Then it
 * kills them and exits with 124, whether or not they died: one stuck in
 * the kernel does not hold the output pipe of the rest of the run open,
 * which is how one hang used to stop every later suite.  Processes left
 * behind after COMMAND exited are killed after a grace period of 5 s.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
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

static void put_line(void)
{
	fputs("# ", stdout);
	fwrite(line, 1, len, stdout);	/* NUL bytes included */
	putchar('\n');
	len = 0;
}

static void emit(const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || len == sizeof(line)) {
			put_line();
			if (buf[i] == '\n')
				continue;
		}
		line[len++] = buf[i];
	}
	fflush(stdout);
}

static void flush_partial(void)
{
	if (len)
		put_line();
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

/* The suite's output pipe, as /proc/PID/fd shows it ("pipe:[INO]"). */
static char pipe_name[64];
/* sci-suite itself, which holds the pipe too. */
static pid_t self;

/* Does @pid hold the suite's output pipe? */
static bool holds_pipe(int pid)
{
	char path[320], target[64];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		ssize_t n;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = 0;
			found = !strcmp(target, pipe_name);
		}
	}
	closedir(d);
	return found;
}

/*
 * Call fn(pid) for every live process of the suite: session SID, or a
 * holder of its output pipe (not sci-suite or its reporting child);
 * returns how many.
 */
static int for_each_member(int sid, void (*fn)(int pid))
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
		if (pid == self || pid == getpid() ||
		    proc_stat(pid, &s, &state, comm, sizeof(comm)) < 0 || state == 'Z')
			continue;
		if (s != sid && !holds_pipe(pid))
			continue;
		n++;
		if (fn)
			fn(pid);
	}
	closedir(d);
	return n;
}

/*
 * Print the lines of FILE that contain one of KEYS (NULL-terminated), at
 * most MAX of them, after PREFIX; a printed line that contains NEXT (if
 * given) also prints the line that follows it.
 */
static void grep_file(const char *file, const char *const *keys, const char *next,
		      int max, const char *prefix)
{
	char buf[512];
	bool take_next = false;
	FILE *f = fopen(file, "re");
	int n = 0;

	if (!f) {
		printf("%s%s: %s\n", prefix, file, strerror(errno));
		return;
	}
	while (n < max && fgets(buf, sizeof(buf), f)) {
		bool hit = take_next;

		buf[strcspn(buf, "\n")] = 0;
		for (const char *const *k = keys; !hit && *k; k++)
			hit = strstr(buf, *k) != NULL;
		take_next = hit && !take_next && next && strstr(buf, next);
		if (hit) {
			printf("%s%s\n", prefix, buf);
			n++;
		}
	}
	fclose(f);
}

/*
 * Its open descriptors (at most 16): a process that reads a pipe whose
 * write end it holds itself waits for ever.
 */
static void describe_fds(int pid)
{
	char path[320], target[64], line[1024];
	struct dirent *de;
	size_t len = 0;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return;
	line[0] = 0;
	while (n < 16 && (de = readdir(d))) {
		ssize_t r;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, de->d_name);
		r = readlink(path, target, sizeof(target) - 1);
		if (r <= 0)
			continue;
		target[r] = 0;
		len += snprintf(line + len, sizeof(line) - len, " %s:%s",
				de->d_name, target);
		if (len >= sizeof(line))
			break;
		n++;
	}
	closedir(d);
	printf("# hang:     fds:%s\n", line);
}

/*
 * What a wait channel does not say: the command line, the CPU it last ran
 * on, its seccomp state and pending or blocked signals.
 */
static void describe_more(int pid)
{
	static const char *const keys[] = { "Seccomp", "SigPnd", "ShdPnd", "SigBlk",
					    "SigCgt", "Cpus_allowed_list", NULL };
	char path[64], buf[1024], *p;
	int n, field = 0, cpu = -1;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	n = read_file(path, buf, sizeof(buf));
	for (int i = 0; i < n - 1; i++)
		if (!buf[i])
			buf[i] = ' ';
	printf("# hang:     cmdline: %.200s\n", n > 0 ? buf : "-");
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	p = read_file(path, buf, sizeof(buf)) > 0 ? strrchr(buf, ')') : NULL;
	/* field 39 is the CPU; field 3 follows the ')' of the command name */
	for (field = 2; p && *p; p++)
		if (*p == ' ' && ++field == 39) {
			cpu = atoi(p + 1);
			break;
		}
	printf("# hang:     last ran on cpu %d\n", cpu);
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	grep_file(path, keys, NULL, 10, "# hang:     ");
	describe_fds(pid);
}

/*
 * Per-CPU timer state: each CPU's next programmed event against "now",
 * the sleepers queued (hrtimer_wakeup) with their expiry, and the local
 * timer and IPI counts.  A sleeper whose expiry is long past says that a
 * timer interrupt was lost; a count that does not move, which CPU.
 */
static void describe_timers(void)
{
	static const char *const tl[] = { "cpu:", "now at", "expires_next",
					  "next_event", "Clock Event Device",
					  "hrtimer_wakeup", "tick_sched_timer",
					  "event_handler", "Per CPU device",
					  "Broadcast device", NULL };
	static const char *const irq[] = { "CPU", "LOC", "RES", "CAL", "TLB",
					   "SPU", NULL };

	printf("# hang: /proc/interrupts:\n");
	grep_file("/proc/interrupts", irq, NULL, 8, "# hang:   ");
	printf("# hang: /proc/timer_list:\n");
	grep_file("/proc/timer_list", tl, ", S:", 100, "# hang:   ");
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
	describe_more(pid);
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

/*
 * The other user processes of the guest (not kernel threads, not init, not
 * sci-suite): a process that left the session with setsid() and holds a
 * pipe the suite reads, other than the output pipe, shows up here.
 */
static void describe_others(int sid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[64], cmd[8];

	if (!d)
		return;
	while ((de = readdir(d))) {
		char state, comm[64];
		int pid, s, ppid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = atoi(de->d_name);
		if (pid == 1 || pid == self || pid == getpid())
			continue;
		ppid = proc_stat(pid, &s, &state, comm, sizeof(comm));
		if (ppid < 0 || ppid == 2 || pid == 2 || s == sid || holds_pipe(pid))
			continue;
		/* kernel threads have an empty command line */
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		if (read_file(path, cmd, sizeof(cmd)) <= 0)
			continue;
		describe(pid);
	}
	closedir(d);
}

static void brief(int pid)
{
	char path[64], wchan[128] = "?", state, comm[64];
	int sid;

	proc_stat(pid, &sid, &state, comm, sizeof(comm));
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	read_file(path, wchan, sizeof(wchan));
	printf("# hang:   pid %d state %c comm %s wchan %s\n", pid, state, comm,
	       wchan[0] ? wchan : "-");
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
	for_each_member(sid, describe);
	printf("# hang: the guest's other user processes:\n");
	describe_others(sid);
	describe_timers();
	/*
	 * Blocked tasks of the whole guest, with stacks, to the kernel log;
	 * only in the test guest (its /init installs /sci/tests.list).
	 */
	fd = access("/sci/tests.list", F_OK) ? -1 :
		open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "w", 1) != 1)
			printf("# hang: sysrq w: %s\n", strerror(errno));
		/* every CPU's backtrace (an NMI each: it also wakes an idle CPU) */
		if (write(fd, "l", 1) != 1)
			printf("# hang: sysrq l: %s\n", strerror(errno));
		sleep(1);
		close(fd);
	}
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, sizeof(klog) - 1);
	if (n > 0) {
		klog[n] = 0;
		for (p = klog + n; p > klog; p--)
			if (p[-1] == '\n' && p != klog + n && ++lines >= 80)
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

/* Copy what the pipe holds now (at most 1 MiB, 1 s: a writer may go on). */
static void drain(int fd)
{
	double end = now() + 1;
	size_t total = 0;
	char buf[4096];

	while (total < (1 << 20) && now() < end) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		emit(buf, n);
		total += n;
	}
	flush_partial();
}

/* report_hang() from a child process, given at most 25 s. */
static void report_hang_bounded(int sid, const char *cmd, int tmo)
{
	pid_t r;

	flush_partial();
	r = fork();
	if (r == 0) {
		/* SIGALRM ends a read of /proc/PID/stack that waits killably. */
		alarm(20);
		report_hang(sid, cmd, tmo);
		fflush(stdout);
		_exit(0);
	}
	for (int i = 0; r > 0 && i < 250; i++) {
		if (waitpid(r, NULL, WNOHANG) == r)
			return;
		usleep(100000);
	}
	if (r > 0)
		printf("# hang: the report did not finish in 25 s\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int fds[2], status = 0, exited = 0, eof = 0, tmo;
	double deadline, grace = 0;
	char buf[4096];
	struct stat st;
	pid_t pid;

	if (argc < 3 || (tmo = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: sci-suite TIMEOUT COMMAND [ARGS...]\n");
		return 2;
	}
	if (pipe2(fds, O_CLOEXEC) < 0 || fstat(fds[0], &st) < 0) {
		perror("sci-suite: pipe2");
		return 2;
	}
	snprintf(pipe_name, sizeof(pipe_name), "pipe:[%lu]", (unsigned long)st.st_ino);
	self = getpid();
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
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	deadline = now() + tmo;

	for (;;) {
		double t = now(), until;

		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			grace = t + 5;
		}
		if (exited && (eof || t >= grace) && !for_each_member(pid, NULL))
			break;			/* done, nothing left behind */
		if (!exited && t >= deadline) {
			drain(fds[0]);
			report_hang_bounded(pid, argv[2], tmo);
			/*
			 * sysrq l sent every CPU an NMI: did that unblock
			 * anything (a CPU idle with a timer event lost)?
			 */
			sleep(3);
			printf("# hang: 3 s after the report, %d processes of the suite:\n",
			       for_each_member(pid, NULL));
			for_each_member(pid, brief);
			fflush(stdout);
			for_each_member(pid, kill_one);
			kill(-pid, SIGKILL);
			break;
		}
		if (exited && t >= grace) {
			int left = for_each_member(pid, NULL);

			drain(fds[0]);
			printf("# sci-suite: %d processes left behind by %s, killed\n",
			       left, argv[2]);
			for_each_member(pid, kill_one);
			kill(-pid, SIGKILL);
			break;
		}
		until = exited ? grace : deadline;
		if (eof) {
			/* Nothing to read: wait for the exit, the grace or the limit. */
			usleep(until - t < 0.2 ? (useconds_t)((until - t) * 1e6) + 1 : 200000);
			continue;
		}
		/* Wake up at least once a second to notice the child's exit. */
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		int r = poll(&pfd, 1, until - t < 1 ? (int)((until - t) * 1000) + 1 : 1000);

		if (r < 0 && errno != EINTR) {
			eof = 1;
		} else if (r > 0) {
			ssize_t n = read(fds[0], buf, sizeof(buf));

			if (n > 0)
				emit(buf, n);
			else if (n == 0 || (errno != EINTR && errno != EAGAIN))
				eof = 1;	/* every writer is gone */
		}
	}
	drain(fds[0]);
	if (!exited) {
		int left;

		/* Give the kills a moment, then say what did not die. */
		for (int i = 0; i < 50 && for_each_member(pid, NULL); i++)
			usleep(100000);
		waitpid(pid, &status, WNOHANG);
		left = for_each_member(pid, NULL);
		if (left) {
			printf("# hang: %d processes survived SIGKILL:\n", left);
			for_each_member(pid, describe);
		}
		printf("# sci-suite: %s timed out after %d s\n", argv[2], tmo);
		fflush(stdout);
		return 124;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
