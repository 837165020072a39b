// SPDX-License-Identifier: GPL-2.0
/*
 * System Call Isolation at work: isolated syscalls run, their handlers show
 * up as verified code grants, a jump into the middle of a function kills
 * the process (and only it), learning mode reports without killing, and
 * isolation survives sleeping and migrating to another CPU.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/reboot.h>

#include "kselftest_harness.h"
#include "sci.h"

static int test_fd(void)
{
	return open(SCI_TEST_PATH, O_RDWR);
}

TEST(enabled)
{
	char buf[512];
	unsigned int action = SECCOMP_RET_ISOLATE;

	ASSERT_EQ(0, syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action));
	ASSERT_LT(0, sci_read_file("/proc/sys/kernel/seccomp/actions_avail",
				   buf, sizeof(buf)));
	ASSERT_NE(NULL, strstr(buf, "isolate"));
	ASSERT_LE(0, sci_stat("syscalls"));
}

/* sci=on disables PCID: switches between tables are then full flushes. */
TEST(get_answer)
{
	int fd = test_fd(), status;
	long before = sci_stat("syscalls");
	pid_t pid;

	ASSERT_LE(0, fd);
	/* Not isolated. */
	ASSERT_EQ(42, ioctl(fd, SCI_TEST_GET_ANSWER));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(ioctl(fd, SCI_TEST_GET_ANSWER) == 42 ? 0 : 1);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_EXIT0(status);
	ASSERT_LT(before, sci_stat("syscalls"));
}

/* The demo: the bad call completes unisolated, and is killed isolated. */
TEST(bad_call)
{
	int fd = test_fd(), status;
	long kills = sci_stat("kills");
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(4, ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "bad!"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "isolated bad call");
		_exit(0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("/proc/%d/sci: %s", pid, rec);
	ASSERT_KILLED(status);
	ASSERT_NE(NULL, strstr(rec, "violations: 1\n"));
	ASSERT_NE(NULL, strstr(rec, "enforced: 1\n"));
	ASSERT_NE(NULL, strstr(rec, "target: sci_test_target+0x1000/"));
	ASSERT_NE(NULL, strstr(rec, "syscall: 16\n"));
	ASSERT_LT(kills, sci_stat("kills"));
}

/* A kill is not an oops: no taint, no oops counted. */
TEST(kill_is_not_an_oops)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long taint = sci_read_long("/proc/sys/kernel/tainted");
	int fd = test_fd(), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "x");
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_KILLED(status);
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	ASSERT_EQ(taint, sci_read_long("/proc/sys/kernel/tainted"));
}

TEST(learning_mode)
{
	int fd = test_fd(), status;
	long learned = sci_stat("learned");
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_LEARN))
			_exit(90);
		_exit(ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "learn") == 5 ? 0 : 1);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	ASSERT_EXIT0(status);
	ASSERT_NE(NULL, strstr(rec, "enforced: 0\n"));
	ASSERT_NE(NULL, strstr(rec, "target: sci_test_target+0x1000/"));
	ASSERT_LT(learned, sci_stat("learned"));
}

/* A sandboxed program cannot stack a learning filter to stop enforcement. */
TEST(learning_stack_bypass)
{
	int fd = test_fd(), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE) ||
		    sci_filter(-1, SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_LEARN))
			_exit(90);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "bypass?");
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_KILLED(status);
}

/* A legitimate call of a three-page function: faults mid-function, allowed. */
TEST(multi_page_function)
{
	int fd = test_fd(), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_BIG_FUNC));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(ioctl(fd, SCI_TEST_BIG_FUNC) == 0 ? 0 : 1);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_EXIT0(status);
}

/* Reading a text page (a data grant, NX) must not make it executable. */
TEST(read_then_jump)
{
	static char buf[1 << 22];
	unsigned long target = 0;
	int fd = test_fd(), status;
	char *p;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_LT(0, sci_read_file("/proc/kallsyms", buf, sizeof(buf)));
	p = strstr(buf, " sci_test_target\n");
	ASSERT_NE(NULL, p);
	while (p > buf && p[-1] != '\n')
		p--;
	target = strtoul(p, NULL, 16) + 4096;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_READ_CALL, target);
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_KILLED(status);
}

/* A kernel fetch from a user page is a violation, not an oops. */
TEST(jump_to_user_page)
{
	int fd = test_fd(), status;
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned char *code;
	pid_t pid;

	ASSERT_LE(0, fd);
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, code);
	code[0] = 0xc3;		/* ret */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_CALL_ADDR, (unsigned long)code);
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_KILLED(status);
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Sleep inside the isolated syscall, be moved to the other CPU meanwhile,
 * then make the bad call: isolation must have followed the task.
 */
TEST(sleep_migrate_then_bad_call)
{
	int fd = test_fd(), status, sync[2];
	long switches = sci_stat("switches_out");
	cpu_set_t set;
	char stat[1024], path[64], *p;
	int i, cpu = -1;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(91);
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		close(sync[0]);
		if (write(sync[1], "x", 1) != 1)
			_exit(92);
		ioctl(fd, SCI_TEST_SLEEP_BAD, 800UL);
		_exit(0);
	}
	close(sync[1]);
	ASSERT_EQ(1, read(sync[0], path, 1));
	usleep(300 * 1000);
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	ASSERT_EQ(0, sched_setaffinity(pid, sizeof(set), &set));
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 50; i++) {
		siginfo_t si = { 0 };

		ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT | WNOHANG));
		if (si.si_pid == pid)
			break;
		usleep(50 * 1000);
	}
	/* Field 39 of stat: the CPU the task last ran on. */
	ASSERT_LT(0, sci_read_file(path, stat, sizeof(stat)));
	p = strrchr(stat, ')');
	ASSERT_NE(NULL, p);
	for (i = 2; i < 39 && p; i++)
		p = strchr(p + 1, ' ');
	ASSERT_NE(NULL, p);
	cpu = atoi(p + 1);
	status = sci_reap(pid, NULL, 0);
	TH_LOG("killed on CPU %d, SCI switch-outs %ld -> %ld", cpu, switches,
	       sci_stat("switches_out"));
	ASSERT_EQ(1, cpu);
	ASSERT_KILLED(status);
	ASSERT_LT(switches, sci_stat("switches_out"));
}

/* Wait (up to 2 s) until @pid sleeps: "S" in /proc/PID/stat */
static int wait_asleep(pid_t pid)
{
	char path[64], stat[512], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 200; i++) {
		usleep(10000);
		if (sci_read_file(path, stat, sizeof(stat)) > 0 &&
		    (p = strrchr(stat, ')')) && p[1] == ' ' && p[2] == 'S')
			return 0;
	}
	return -1;
}

/*
 * An isolated syscall that sleeps leaves the SCI tables through the
 * scheduler's door, an exception whose return goes back to them (series
 * 0100): each sleep is counted there (sched_doors), and each switch out
 * and back through it (resumes_on_sci).  Three isolated reads of an
 * empty pipe, each written only once the reader sleeps, must sleep
 * there; the task must stay isolated: a bad call after them is killed.
 */
TEST(isolated_sleep_goes_through_the_door)
{
	long doors = sci_stat("sched_doors"), resumes = sci_stat("resumes_on_sci");
	int fd = test_fd(), fds[2], ack[2], status, i;
	pid_t pid;
	char c;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, doors);
	ASSERT_LE(0, resumes);
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pipe(ack));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(fds[1]);
		close(ack[0]);
		if (sci_filter(__NR_read, SECCOMP_RET_ISOLATE))
			_exit(90);
		/* Each byte read, said back (write(2) is not isolated) */
		for (i = 0; i < 3; i++)
			if (read(fds[0], &c, 1) != 1 || write(ack[1], &c, 1) != 1)
				_exit(91);
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(92);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "bad call after sleeps");
		_exit(0);
	}
	close(fds[0]);
	close(ack[1]);
	/* The next byte only once the reader took the last and sleeps again */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, wait_asleep(pid));
		ASSERT_EQ(1, write(fds[1], "x", 1));
		ASSERT_EQ(1, read(ack[0], &c, 1));
	}
	close(fds[1]);
	close(ack[0]);
	status = sci_reap(pid, NULL, 0);
	TH_LOG("door entries %ld -> %ld, resumes %ld -> %ld", doors,
	       sci_stat("sched_doors"), resumes, sci_stat("resumes_on_sci"));
	ASSERT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) >= 90);
	ASSERT_KILLED(status);
	/* Other isolated tasks may sleep too: at least these three. */
	ASSERT_LE(doors + 3, sci_stat("sched_doors"));
	ASSERT_LE(resumes + 3, sci_stat("resumes_on_sci"));
}

/*
 * reboot(2) in a pid namespace other than the initial one kills the
 * namespace's init and exits the caller (reboot_pid_ns(): do_exit(0)),
 * from inside the syscall; the init's parent then sees it killed by
 * SIGHUP (LINUX_REBOOT_CMD_RESTART).  Isolated, that exit leaves the SCI
 * state like exit_group() does: it must not be taken for a chain's call
 * of the way off the SCI tables (a false kill, and a violation on record).
 * The namespace's parent must see what it sees without isolation.
 */
static int reboot_in_pid_namespace(int isolate)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		pid_t init;
		int st;

		if (unshare(CLONE_NEWPID))
			_exit(90);
		init = fork();
		if (init < 0)
			_exit(91);
		if (init == 0) {
			if (isolate && sci_filter(__NR_reboot, SECCOMP_RET_ISOLATE))
				_exit(92);
			syscall(__NR_reboot, LINUX_REBOOT_MAGIC1,
				LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_RESTART, NULL);
			_exit(93);
		}
		if (waitpid(init, &st, 0) != init)
			_exit(94);
		/* The init's status: an exit code, or 100 + its signal */
		if (WIFEXITED(st))
			_exit(WEXITSTATUS(st));
		_exit(100 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(isolated_reboot_in_pid_namespace_exits)
{
	long violations = sci_stat("violations");
	int plain, isolated;

	ASSERT_LE(0, violations);
	plain = reboot_in_pid_namespace(0);
	isolated = reboot_in_pid_namespace(1);
	TH_LOG("init's status: %d unisolated, %d isolated (100 + signal); violations %ld -> %ld",
	       plain, isolated, violations, sci_stat("violations"));
	ASSERT_EQ(100 + SIGHUP, plain);
	ASSERT_EQ(plain, isolated);
	/* Nothing else isolated runs meanwhile: no violation at all */
	ASSERT_EQ(violations, sci_stat("violations"));
}

/*
 * What a reader blocked on an empty pipe waits in, by /proc/PID/wchan,
 * with read() isolated or not, in @buf; the reader is then released.
 */
static void pipe_reader_wchan(struct __test_metadata *_metadata, int isolate,
			      char *buf, size_t len)
{
	char path[64];
	int fds[2], i;
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char c;

		close(fds[1]);
		if (isolate && sci_filter(__NR_read, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(read(fds[0], &c, 1) == 1 ? 0 : 91);
	}
	close(fds[0]);
	/* Asleep before wchan is read */
	ASSERT_EQ(0, wait_asleep(pid));
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	ASSERT_LT(0, sci_read_file(path, buf, len));
	ASSERT_EQ(1, write(fds[1], "x", 1));
	close(fds[1]);
	i = sci_reap(pid, NULL, 0);
	ASSERT_EXIT0(i);
}

/*
 * A task asleep in an isolated syscall sleeps in the scheduler's door
 * (series 0100): its wchan must still name what it waits in, as without
 * isolation, not the door's exception handler.
 */
TEST(isolated_sleep_wchan_names_the_waiter)
{
	char plain[128], isolated[128];

	pipe_reader_wchan(_metadata, 0, plain, sizeof(plain));
	pipe_reader_wchan(_metadata, 1, isolated, sizeof(isolated));
	TH_LOG("wchan: %s unisolated, %s isolated", plain, isolated);
	ASSERT_STRNE("0", plain);
	ASSERT_STREQ(plain, isolated);
}

static void *spin(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/* A violation in one thread kills the whole thread group. */
TEST(two_threads_killed)
{
	int fd = test_fd(), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, spin, NULL))
			_exit(91);
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "threads");
		pthread_join(t, NULL);
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_KILLED(status);
}

/*
 * Each syscall, routed through ISOLATE, works, and its own handler shows
 * up in the grant trace as verified code: counters alone prove nothing.
 */
static int isolated_workload(const char *what)
{
	char buf[64];
	int p[2], fd;
	pid_t c;

	if (!strcmp(what, "getpid"))
		return syscall(__NR_getpid) == getpid() ? 0 : 1;
	if (!strcmp(what, "vsyscall")) {
		/* time() through the legacy vsyscall page: emulated on #PF */
		long (*vtime)(long *) = (long (*)(long *))0xffffffffff600400UL;

		return vtime(NULL) > 1000000000L ? 0 : 1;
	}
	if (!strcmp(what, "read") || !strcmp(what, "write")) {
		if (pipe(p) || write(p[1], "abc", 3) != 3 || read(p[0], buf, 3) != 3)
			return 1;
		fd = open("/proc/self/stat", O_RDONLY);
		return fd >= 0 && read(fd, buf, sizeof(buf)) > 0 ? 0 : 1;
	}
	if (!strcmp(what, "openat"))
		return open("/proc/self/status", O_RDONLY) >= 0 ? 0 : 1;
	if (!strcmp(what, "mmap")) {
		char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return 1;
		memset(m, 1, 1 << 20);
		return munmap(m, 1 << 20);
	}
	if (!strcmp(what, "clone") || !strcmp(what, "vfork")) {
		int status;

		c = !strcmp(what, "vfork") ? vfork() : fork();
		if (c == 0)
			_exit(7);
		if (c < 0 || waitpid(c, &status, 0) != c)
			return 1;
		return WIFEXITED(status) && WEXITSTATUS(status) == 7 ? 0 : 1;
	}
	if (!strcmp(what, "execve")) {
		execl("/bin/true", "true", NULL);
		return 1;
	}
	if (!strcmp(what, "exit_group"))
		syscall(__NR_exit_group, 0);
	return 1;
}

static void check_isolated(struct __test_metadata *_metadata, const char *what,
			   int nr, const char *handler)
{
	int sync[2], status, has;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sync[1]);
		if (read(sync[0], &c, 1) != 1)
			_exit(92);
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(isolated_workload(what));
	}
	close(sync[0]);
	ASSERT_EQ(0, sci_trace_start(pid));
	ASSERT_EQ(1, write(sync[1], "x", 1));
	close(sync[1]);
	status = sci_reap(pid, NULL, 0);
	has = sci_trace_code_page(nr, handler);
	TH_LOG("%s: %d trace lines, page of %s %s in syscall %d", what,
	       sci_trace_count(), handler, has ? "granted" : "NOT granted", nr);
	ASSERT_EQ(0, sci_trace_start(0));
	ASSERT_EXIT0(status);
	ASSERT_EQ(1, has);
}

TEST(isolated_getpid) { check_isolated(_metadata, "getpid", __NR_getpid, "__x64_sys_getpid"); }
TEST(isolated_read) { check_isolated(_metadata, "read", __NR_read, "__x64_sys_read"); }
TEST(isolated_write) { check_isolated(_metadata, "write", __NR_write, "__x64_sys_write"); }
TEST(isolated_openat) { check_isolated(_metadata, "openat", __NR_openat, "__x64_sys_openat"); }
TEST(isolated_mmap) { check_isolated(_metadata, "mmap", __NR_mmap, "__x64_sys_mmap"); }
TEST(isolated_fork) { check_isolated(_metadata, "clone", __NR_clone, "__x64_sys_clone"); }
TEST(isolated_vfork) { check_isolated(_metadata, "vfork", __NR_vfork, "__x64_sys_vfork"); }
TEST(isolated_execve) { check_isolated(_metadata, "execve", __NR_execve, "__x64_sys_execve"); }
/*
 * Syscall number -1 (what a tracer sets to skip a syscall) and numbers out
 * of range run no syscall body: under an isolating filter they return
 * -ENOSYS as they do without one, they are not killed.
 */
TEST(isolated_no_syscall)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (syscall(-1) != -1 || errno != ENOSYS)
			_exit(1);
		if (syscall(4000) != -1 || errno != ENOSYS)
			_exit(2);
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	TH_LOG("status 0x%x", status);
	ASSERT_EXIT0(status);
}

/* The emulated vsyscall runs isolated like the syscall it stands for. */
TEST(isolated_vsyscall)
{
	char maps[1 << 16];

	ASSERT_LT(0, sci_read_file("/proc/self/maps", maps, sizeof(maps)));
	if (!strstr(maps, "[vsyscall]"))
		SKIP(return, "no vsyscall page (vsyscall=none or no emulation)");
	check_isolated(_metadata, "vsyscall", __NR_time, "__x64_sys_time");
}

TEST(isolated_exit_group) { check_isolated(_metadata, "exit_group", __NR_exit_group, "__x64_sys_exit_group"); }

/*
 * A tracer changes the syscall at its TRACE stop: the recheck decides
 * isolation anew.  @from is made, the tracer turns it into @to; filter one
 * traces @from, filter two isolates @isolated.  Returns the child's status;
 * the grant trace of the child is left for the caller.
 */
static int trace_and_change(struct __test_metadata *_metadata, int from, int to,
			    int isolated)
{
	int status, sync[2];
	pid_t pid, ppid = getpid();
	long ret;
	char c;

	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sync[1]);
		if (read(sync[0], &c, 1) != 1 || ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(92);
		raise(SIGSTOP);
		if (sci_filter(from, SECCOMP_RET_TRACE | 1) ||
		    sci_filter(isolated, SECCOMP_RET_ISOLATE))
			_exit(90);
		/* The result travels in the exit status: 0 = ppid, 1 = pid. */
		ret = syscall(from);
		_exit(ret == ppid ? 0 : ret == getpid() ? 1 : 2);
	}
	close(sync[0]);
	ASSERT_EQ(0, sci_trace_start(pid));
	ASSERT_EQ(1, write(sync[1], "x", 1));
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
			struct user_regs_struct regs;

			ASSERT_EQ(0, ptrace(PTRACE_GETREGS, pid, 0, &regs));
			ASSERT_EQ(from, (int)regs.orig_rax);
			regs.orig_rax = to;
			ASSERT_EQ(0, ptrace(PTRACE_SETREGS, pid, 0, &regs));
			ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, 0, 0));
		} else {
			ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(status)));
		}
	}
	return status;
}

/* getpid (not isolated) becomes getppid (isolated): it runs isolated. */
TEST(trace_change_to_isolated)
{
	int status = trace_and_change(_metadata, __NR_getpid, __NR_getppid,
				      __NR_getppid);
	int has = sci_trace_code_page(__NR_getppid, "__x64_sys_getppid");

	ASSERT_EQ(0, sci_trace_start(0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));	/* getppid's result */
	ASSERT_EQ(1, has);
}

/* getppid (isolated) becomes getpid (not isolated): it runs unisolated. */
TEST(trace_change_to_unisolated)
{
	int status = trace_and_change(_metadata, __NR_getppid, __NR_getpid,
				      __NR_getppid);
	int lines = sci_trace_count();

	ASSERT_EQ(0, sci_trace_start(0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(1, WEXITSTATUS(status));	/* getpid's result */
	ASSERT_EQ(0, lines);
}

/*
 * With 5-level paging (LA57, booted without no5lvl) user memory above 47
 * bits exists, under PGD entries that point at P4D tables of the mm, which
 * the SCI tables mirror.  An isolated task maps memory there, has the
 * kernel write it and read it (a pipe, across a page boundary) and unmaps
 * it, in three PGD entries: the unmap frees the P4D table, whose mirror
 * must go first (with DEBUG_VM, sci_check_table_free() warns otherwise).
 */
#define HIGH_ADDR(i)	((char *)((1UL << 52) + ((unsigned long)(i) << 48)))

static int high_user_rounds(void)
{
	const char msg[] = "high user memory";
	char buf[sizeof(msg)];
	int p[2], i;

	if (pipe(p))
		return 80;
	for (i = 0; i < 3; i++) {
		char *m = mmap(HIGH_ADDR(i), 8192, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

		if (m != HIGH_ADDR(i))
			return 10 + i;
		if (write(p[1], msg, sizeof(msg)) != sizeof(msg) ||
		    read(p[0], m + 4096 - 8, sizeof(msg)) != sizeof(msg))
			return 20 + i;
		if (write(p[1], m + 4096 - 8, sizeof(msg)) != sizeof(msg) ||
		    read(p[0], buf, sizeof(buf)) != sizeof(buf) || strcmp(buf, msg))
			return 30 + i;
		if (munmap(m, 8192))
			return 40 + i;
	}
	return 0;
}

TEST(five_level_user_half)
{
	long before = sci_stat("syscalls");
	void *probe = mmap(HIGH_ADDR(0), 4096, PROT_READ,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	int status;
	pid_t pid;

	if (probe != HIGH_ADDR(0))
		SKIP(return, "4-level paging: no user address above 47 bits (the LA57 boot runs this)");
	ASSERT_EQ(0, munmap(probe, 4096));
	ASSERT_EQ(0, high_user_rounds());	/* natively */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(high_user_rounds());
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("isolated: status 0x%x (exit 1x-4x: round failed)", status);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* mmap, 4 pipe transfers and munmap, three times, isolated */
	ASSERT_LE(before + 18, sci_stat("syscalls"));
}

TEST_HARNESS_MAIN
