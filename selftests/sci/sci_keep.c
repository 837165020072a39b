// SPDX-License-Identifier: GPL-2.0
/*
 * Kept grants (SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP): an isolated
 * syscall's grants stay mapped for the task's next isolated syscalls, so a
 * repeated syscall takes no fault; with SECCOMP_ISOLATE_KEEP_DATA only the
 * data grants stay and every fetch is still checked; a syscall whose
 * verdict keeps less drops what it may not use before it runs; a kept grant never outlives the
 * kernel's own mapping (vfree, set_memory_ro, set_direct_map_*) and is
 * never left writable on a page that became SCI state; stacked filters keep
 * only when all of them ask to; the flag can be probed.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "sci.h"

#define KEEP	(SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP)
#define KEEPD	(SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP_DATA)

/* SCI_TEST_KEPT steps and kinds (arch/x86/mm/sci_test.c) */
enum { KEPT_GRANT, KEPT_CHANGE, KEPT_CHECK, KEPT_RELEASE, KEPT_NOISE };
enum { KIND_VFREE, KIND_SET_MEMORY_RO, KIND_DIRECT_MAP, KIND_SCI_STATE };
#define KEPT(step, kind)	(((unsigned long)(step) << 8) | (kind))

static int test_fd(void)
{
	return open(SCI_TEST_PATH, O_RDWR);
}

/*
 * ioctl() returns @ret, except the SCI_TEST_KEPT step @strict_step, which
 * returns plain SECCOMP_RET_ISOLATE (keeps nothing); the rest is allowed.
 */
static int ioctl_filter(unsigned int ret, int strict_step)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff00),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)strict_step << 8, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ISOLATE),
		BPF_STMT(BPF_RET | BPF_K, ret),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static int action_avail(unsigned int action)
{
	return syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
}

TEST(keep_flag_is_probed)
{
	ASSERT_EQ(0, action_avail(SECCOMP_RET_ISOLATE));
	ASSERT_EQ(0, action_avail(KEEP));
	ASSERT_EQ(0, action_avail(KEEP | SECCOMP_ISOLATE_LEARN));
	ASSERT_EQ(0, action_avail(KEEPD));
	ASSERT_EQ(0, action_avail(KEEP | KEEPD | SECCOMP_ISOLATE_LEARN));
	/* A flag this kernel does not know: the action is unknown. */
	ASSERT_EQ(-1, action_avail(SECCOMP_RET_ISOLATE | 0x8));
	ASSERT_EQ(EOPNOTSUPP, errno);
	ASSERT_EQ(-1, action_avail(KEEP | 0x8000));
	ASSERT_EQ(EOPNOTSUPP, errno);
}

enum { ALL_FAULTS, DATA_FAULTS, CODE_FAULTS };
static int which_faults;

static long faults(void)
{
	long code = sci_stat("code_faults"), data = sci_stat("data_faults");

	return which_faults == DATA_FAULTS ? data :
	       which_faults == CODE_FAULTS ? code : code + data;
}

/* Global events that drop grants: stale_grants, recycles, keep_revokes. */
static long grant_drops(void)
{
	return sci_stat("stale_grants") + sci_stat("recycles") +
	       sci_stat("keep_revokes");
}

/* Context switches of the calling thread, voluntary or not. */
static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * In a child: one getpid to warm up, then 100 more; how many SCI faults
 * (which_faults) the 100 took, as the exit status (capped at 250), or 251+
 * on an error.  @ret2, when not 0, is a second filter stacked on the first.
 *
 * The fault counters are global, and three things besides the filter's
 * verdict legitimately move them in a window:
 * - a migration: the new CPU's per-CPU pages are not granted yet;
 * - a context switch in the middle of an isolated getpid: the syscall then
 *   takes other paths (rcu_read_unlock()'s slow path, the scheduler's),
 *   whose data was never granted;
 * - a kernel mapping change anywhere in the machine, which revalidates
 *   kept grants away (stale_grants), the data-grant cap (recycles), a keep
 *   that could not be charged (keep_revokes).
 * The child is pinned to one CPU, and a window in which it was switched
 * out or grants were dropped is measured again (up to 50 times; 249 when
 * no window was quiet).  Each such window is reported on stderr.
 */
static int getpid_faults(unsigned int ret, unsigned int ret2)
{
	int status, i, tries;
	long before, n, drops, csw;
	cpu_set_t set;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		CPU_ZERO(&set);
		CPU_SET(sched_getcpu(), &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(255);
		if (sci_filter(__NR_getpid, ret) || (ret2 && sci_filter(__NR_getpid, ret2)))
			_exit(251);
		syscall(__NR_getpid);
		for (tries = 0; tries < 50; tries++) {
			before = faults();
			drops = grant_drops();
			csw = switches();
			for (i = 0; i < 100; i++)
				if (syscall(__NR_getpid) != getpid())
					_exit(252);
			csw = switches() - csw;
			drops = grant_drops() - drops;
			n = faults() - before;
			if (!csw && !drops)
				_exit(n < 0 ? 253 : n > 250 ? 250 : n);
			fprintf(stderr, "# window %d measured again: %ld faults, %ld context switches, %ld grants dropped\n",
				tries, n, csw, drops);
		}
		_exit(249);
	}
	status = sci_reap(pid, NULL, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 254;
}

/* Kept grants: a repeated isolated syscall takes no fault at all. */
TEST(kept_getpid_takes_no_fault)
{
	long kept = sci_stat("kept");
	int strict, keep;

	ASSERT_LE(0, kept);
	strict = getpid_faults(SECCOMP_RET_ISOLATE, 0);
	keep = getpid_faults(KEEP, 0);
	TH_LOG("faults in 100 isolated getpid: %d without keeping, %d keeping grants",
	       strict, keep);
	/* The control: without the flag every getpid faults its pages in. */
	ASSERT_LE(100, strict);
	ASSERT_GT(251, strict);
	ASSERT_EQ(0, keep);
	ASSERT_LE(kept + 101, sci_stat("kept"));
}

/* Keeping data only: no data fault, every code page faults (checked). */
TEST(keep_data_keeps_no_code)
{
	int data, code;

	which_faults = DATA_FAULTS;
	data = getpid_faults(KEEPD, 0);
	which_faults = CODE_FAULTS;
	code = getpid_faults(KEEPD, 0);
	which_faults = ALL_FAULTS;
	TH_LOG("100 isolated getpid keeping data grants: %d data faults, %d code faults",
	       data, code);
	ASSERT_EQ(0, data);
	ASSERT_LE(100, code);
	ASSERT_GT(251, code);
}

/* Stacked filters keep only as far as every isolating filter asks. */
TEST(stacked_keep_and_keep_data_keep_data)
{
	int data, code;

	which_faults = DATA_FAULTS;
	data = getpid_faults(KEEP, KEEPD);
	which_faults = CODE_FAULTS;
	code = getpid_faults(KEEPD, KEEP);
	which_faults = ALL_FAULTS;
	ASSERT_EQ(0, data);
	ASSERT_LE(100, code);
	ASSERT_GT(251, code);
	/* With a filter that keeps nothing, nothing is kept. */
	which_faults = DATA_FAULTS;
	data = getpid_faults(KEEPD, SECCOMP_RET_ISOLATE);
	which_faults = ALL_FAULTS;
	ASSERT_LE(100, data);
	ASSERT_GT(251, data);
}

/*
 * What SECCOMP_ISOLATE_KEEP gives up, and SECCOMP_ISOLATE_KEEP_DATA does
 * not: an earlier syscall ran sci_test_target() through all its pages
 * (SCI_TEST_BIG_FUNC); a later syscall jumps into its second page
 * (SCI_TEST_WRITE_DMESG_BAD).  Kept code pages: the jump does not fault
 * and completes (the documented weakening).  When the later syscall keeps
 * only data (or nothing), the code grants are gone when it starts: the
 * jump faults and kills.  Returns the child's status.
 */
static int jump_after_big_func(unsigned int big_ret, unsigned int bad_ret)
{
	int fd = open(SCI_TEST_PATH, O_RDWR), status;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)SCI_TEST_WRITE_DMESG_BAD, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, bad_ret),
		BPF_STMT(BPF_RET | BPF_K, big_ret),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	pid_t pid;

	if (fd < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			_exit(90);
		if (ioctl(fd, SCI_TEST_BIG_FUNC))
			_exit(91);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "sci_keep: jump into a kept page");
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	close(fd);
	return status;
}

TEST(keep_gives_up_jumps_into_kept_code_keep_data_does_not)
{
	int keep = jump_after_big_func(KEEP, KEEP);
	int keepd = jump_after_big_func(KEEP, KEEPD);
	int none = jump_after_big_func(KEEP, SECCOMP_RET_ISOLATE);
	int data_only = jump_after_big_func(KEEPD, KEEPD);

	TH_LOG("jump into a page of a function an earlier syscall ran: status 0x%x keeping all, 0x%x when the jumping syscall keeps data only, 0x%x when it keeps nothing, 0x%x keeping data only throughout",
	       keep, keepd, none, data_only);
	ASSERT_EXIT0(keep);
	ASSERT_KILLED(keepd);
	ASSERT_KILLED(none);
	ASSERT_KILLED(data_only);
}

/* Stacked filters keep only when every isolating filter asks to. */
TEST(stacked_filters_keep_only_if_all_ask)
{
	int both, one;

	both = getpid_faults(KEEP, KEEP);
	one = getpid_faults(KEEP, SECCOMP_RET_ISOLATE);
	TH_LOG("faults in 100 isolated getpid: %d with two keeping filters, %d when one does not keep",
	       both, one);
	ASSERT_EQ(0, both);
	ASSERT_LE(100, one);
	ASSERT_GT(251, one);
	/* An ALLOW filter on top does not stop the isolating one keeping. */
	ASSERT_EQ(0, getpid_faults(KEEP, SECCOMP_RET_ALLOW));
}

#define KEEP_MAX "/proc/sys/kernel/sci_keep_max_tables"

/* kernel.sci_keep_max_tables = 0: no task keeps, whatever it asks. */
TEST(sysctl_zero_keeps_nothing)
{
	long old = sci_read_long(KEEP_MAX);
	int off, on;

	ASSERT_LT(0, old);
	ASSERT_EQ(-1, sci_write_file(KEEP_MAX, "513"));
	ASSERT_EQ(0, sci_write_file(KEEP_MAX, "0"));
	off = getpid_faults(KEEP, 0);
	ASSERT_EQ(0, sci_write_file(KEEP_MAX, "64"));
	on = getpid_faults(KEEP, 0);
	TH_LOG("faults in 100 keeping getpid: %d with the sysctl at 0, %d at 64", off, on);
	if (old != 64) {
		char val[32];

		snprintf(val, sizeof(val), "%ld", old);
		sci_write_file(KEEP_MAX, val);
	}
	ASSERT_LE(100, off);
	ASSERT_GT(251, off);
	ASSERT_EQ(0, on);
}

/* The dump of a task at rest: "kept: 1", its grants and their tables. */
TEST(kept_grants_at_rest)
{
	static char buf[1 << 16];
	int rfd[2], pfd[2], i, status;
	unsigned int ret[2] = { SECCOMP_RET_ISOLATE, KEEP };
	char pidbuf[32], c;

	for (i = 0; i < 2; i++) {
		unsigned int grants = ~0U, kept = ~0U;
		unsigned long pages = 0, rest, min;
		char *p;
		pid_t pid;

		ASSERT_EQ(0, pipe(rfd));
		ASSERT_EQ(0, pipe(pfd));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			close(pfd[1]);
			if (sci_filter(__NR_getpid, ret[i]))
				_exit(90);
			syscall(__NR_getpid);
			write(rfd[1], "r", 1);
			read(pfd[0], &c, 1);
			_exit(0);
		}
		close(pfd[0]);
		ASSERT_EQ(1, read(rfd[0], &c, 1));
		snprintf(pidbuf, sizeof(pidbuf), "%d", pid);
		ASSERT_EQ(0, sci_write_file("/sys/kernel/debug/sci/dump_pid", pidbuf));
		ASSERT_LT(0, sci_read_file("/sys/kernel/debug/sci/dump", buf, sizeof(buf)));
		close(pfd[1]);
		close(rfd[0]);
		close(rfd[1]);
		status = sci_reap(pid, NULL, 0);
		TH_LOG("status 0x%x", status);
		ASSERT_EXIT0(status);
		p = strstr(buf, "kept: ");
		ASSERT_NE(NULL, p);
		kept = atoi(p + 6);
		p = strstr(buf, "grants: ");
		ASSERT_NE(NULL, p);
		grants = atoi(p + 8);
		p = strstr(buf, "\ntable_pages: ");
		ASSERT_NE(NULL, p);
		pages = atol(p + 14);
		/*
		 * The premapped set's tables at rest: the stack's PUD, PMD and
		 * PTE (and a P4D with 5 levels), and up to as many more for
		 * the top page of the door stack, wherever vmalloc() put it.
		 */
		p = strstr(buf, "premap_table_pages: ");
		ASSERT_NE(NULL, p);
		rest = atol(p + 20);
		min = strstr(buf, "paging_levels: 5\n") ? 4 : 3;
		TH_LOG("%s: kept %u, grants %u, table_pages %lu at rest (%lu without kept grants)",
		       i ? "keeping" : "not keeping", kept, grants, pages, rest);
		ASSERT_LE(min, rest);
		ASSERT_GE(2 * min, rest);
		ASSERT_EQ((unsigned int)i, kept);
		if (i) {
			ASSERT_LT(0, grants);
			ASSERT_LT(rest, pages);
			/* kernel.sci_keep_max_tables (64 by default) */
			ASSERT_GE(64, pages);
		} else {
			ASSERT_EQ(0, grants);
			ASSERT_EQ(rest, pages);
		}
	}
}

/*
 * A kept grant of a fresh page (@kind) in a child; the parent then makes
 * its change (unless @change is 0) while the child is between syscalls; the
 * child's next isolated syscall checks the page: that syscall keeps too,
 * unless @strict_check.  Returns the child's exit status: 0 when the check
 * found what was expected (@expect_mapped: the grant is still there).
 */
/* Unrelated kernel mapping changes the parent makes after its change. */
static int kept_noise;
/* If set (shared memory), the child's /proc/self/sci after its check. */
static char *kept_proc;

static int kept_scenario(struct __test_metadata *_metadata, int kind,
			 int change, int strict_check, int expect_mapped)
{
	int fd = test_fd(), rfd[2], pfd[2], status, ret, err;
	long old_max = sci_read_long(KEEP_MAX);
	char c, val[32];
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_LT(0, old_max);
	/*
	 * Room to keep whatever the grant needs (with KASAN, every access
	 * also touches shadow memory: many more tables).
	 */
	ASSERT_EQ(0, sci_write_file(KEEP_MAX, "512"));
	ASSERT_EQ(0, pipe(rfd));
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pfd[1]);
		if (ioctl_filter(KEEP, strict_check ? KEPT_CHECK : -1))
			_exit(90);
		if (ioctl(fd, SCI_TEST_KEPT, KEPT(KEPT_GRANT, kind)))
			_exit(10 + errno);
		/* Before the change: the grant must have been kept (3: not). */
		if (change && !strict_check) {
			if (!ioctl(fd, SCI_TEST_KEPT, KEPT(KEPT_CHECK, kind)))
				_exit(3);
			if (errno != EEXIST)
				_exit(10 + errno);
		}
		write(rfd[1], "g", 1);
		if (read(pfd[0], &c, 1) != 1)
			_exit(91);
		ret = ioctl(fd, SCI_TEST_KEPT, KEPT(KEPT_CHECK, kind));
		err = errno;
		if (kept_proc)
			sci_read_file("/proc/self/sci", kept_proc, 4096);
		if (!ret)
			_exit(expect_mapped ? 2 : 0);
		if (err != EEXIST)
			_exit(10 + err);
		/* 1: the grant is still mapped (writable) */
		_exit(expect_mapped ? 0 : 1);
	}
	close(pfd[0]);
	close(rfd[1]);
	if (read(rfd[0], &c, 1) == 1 && change)
		EXPECT_EQ(0, ioctl(fd, SCI_TEST_KEPT, KEPT(KEPT_CHANGE, kind)));
	if (kept_noise)
		EXPECT_EQ(0, ioctl(fd, SCI_TEST_KEPT, KEPT(KEPT_NOISE, kept_noise)));
	write(pfd[1], "c", 1);
	status = sci_reap(pid, NULL, 0);
	EXPECT_EQ(0, ioctl(fd, SCI_TEST_KEPT, KEPT(KEPT_RELEASE, kind)));
	close(pfd[1]);
	close(rfd[0]);
	close(fd);
	snprintf(val, sizeof(val), "%ld", old_max);
	EXPECT_EQ(0, sci_write_file(KEEP_MAX, val));
	TH_LOG("status 0x%x (exit 1: a stale grant survived, 2 or 3: the grant was not kept)",
	       status);
	return status;
}

/* The control for the tests below: without a change, the grant is kept. */
TEST(kept_grant_survives_between_syscalls)
{
	int status = kept_scenario(_metadata, KIND_DIRECT_MAP, 0, 0, 1);

	ASSERT_EXIT0(status);
}

/* A syscall whose verdict does not keep starts from the premapped set. */
TEST(non_keeping_syscall_revokes_kept_grants)
{
	long revokes = sci_stat("keep_revokes");
	int status = kept_scenario(_metadata, KIND_DIRECT_MAP, 0, 1, 0);

	ASSERT_EXIT0(status);
	ASSERT_LT(revokes, sci_stat("keep_revokes"));
}

static void check_kept_stale(struct __test_metadata *_metadata, int kind)
{
	long stale = sci_stat("stale_grants");
	int status = kept_scenario(_metadata, kind, 1, 0, 0);

	ASSERT_EXIT0(status);
	ASSERT_LT(stale, sci_stat("stale_grants"));
}

TEST(kept_grant_vfree) { check_kept_stale(_metadata, KIND_VFREE); }

/*
 * A keeping task checks only its grants in the ranges the kernel changed
 * since its last check, when the last 64 changes cover that time; every
 * grant otherwise.  The stale grant must go either way: after 2 more
 * changes (its range is among the last 64) and after 80 (it is not).
 * The child's /proc/self/sci counts the checks of each kind its syscalls
 * made: after 80 changes at least one checked every grant; after 2, none
 * did.  Not the last check's kind: the child's own read of the file is a
 * syscall too, which checks the ranges the kernel changed meanwhile (a
 * debug guest's kworkers did, and the last check said "ranges").
 */
static void check_kept_stale_noise(struct __test_metadata *_metadata,
				   int noise, int want_all)
{
	unsigned long ranges = 0, all = 0;
	const char *p;

	kept_proc = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, kept_proc);
	kept_noise = noise;
	check_kept_stale(_metadata, KIND_VFREE);
	kept_noise = 0;
	TH_LOG("the child's /proc/self/sci after its check:\n%s", kept_proc);
	p = strstr(kept_proc, "kept_checks: ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, sscanf(p, "kept_checks: %lu ranges, %lu all", &ranges, &all));
	if (want_all) {
		EXPECT_LE(1, all);
	} else {
		EXPECT_LE(1, ranges);
		EXPECT_EQ(0, all);
	}
	munmap(kept_proc, 4096);
	kept_proc = NULL;
}

TEST(kept_grant_vfree_then_2_changes)
{
	check_kept_stale_noise(_metadata, 2, 0);
}

TEST(kept_grant_vfree_then_80_changes)
{
	check_kept_stale_noise(_metadata, 80, 1);
}

/*
 * The control of the range path: a kept grant outside every range the
 * kernel changed meanwhile survives a check of those ranges.
 */
TEST(kept_grant_outside_changed_ranges_survives)
{
	int status;

	kept_proc = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, kept_proc);
	kept_noise = 2;
	status = kept_scenario(_metadata, KIND_DIRECT_MAP, 0, 0, 1);
	kept_noise = 0;
	TH_LOG("the child's /proc/self/sci after its check:\n%s", kept_proc);
	ASSERT_EXIT0(status);
	ASSERT_NE(NULL, strstr(kept_proc, "kept_check: ranges\n"));
	munmap(kept_proc, 4096);
	kept_proc = NULL;
}

/* A page granted writable, freed and taken again for SCI state. */
TEST(kept_grant_page_becomes_sci_state) { check_kept_stale(_metadata, KIND_SCI_STATE); }

/* The checks still apply to new pages: a bad call kills a keeping task. */
TEST(keeping_task_still_killed_for_a_bad_jump)
{
	int fd = test_fd(), status;
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (ioctl_filter(KEEP, -1))
			_exit(90);
		/* Keeps the good call's grants, then jumps mid-function. */
		if (ioctl(fd, SCI_TEST_GET_ANSWER) != 42)
			_exit(91);
		ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, "sci_keep: bad call");
		_exit(0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status 0x%x, record:\n%s", status, rec);
	ASSERT_KILLED(status);
	ASSERT_NE(NULL, strstr(rec, "reason: unverified jump"));
}

/*
 * Class 6 of the red team (sci_redteam.c): what SECCOMP_ISOLATE_KEEP
 * accumulates.  A keeping task that runs many different syscalls keeps
 * the code pages they granted, where jumps are not verified any more:
 * kernel.sci_keep_max_code bounds them.  Returns the code grants the
 * task holds at rest after the workload (spinning in user space, no
 * syscall in flight), from its table dump, and the executable pages of
 * the dump in @xpages; -1 on failure.
 */
#define KEEP_MAX_CODE "/proc/sys/kernel/sci_keep_max_code"

static void keep_workload(void)
{
	char buf[4096];
	struct stat st;
	int i, fd, p[2];
	void *m;

	for (i = 0; i < 3; i++) {
		syscall(__NR_getpid);
		syscall(__NR_getppid);
		syscall(__NR_getuid);
		syscall(__NR_sched_yield);
		fd = open("/proc/self/status", O_RDONLY);
		if (fd >= 0) {
			read(fd, buf, sizeof(buf));
			close(fd);
		}
		stat("/", &st);
		getcwd(buf, sizeof(buf));
		if (!pipe(p)) {
			write(p[1], "x", 1);
			read(p[0], buf, 1);
			close(p[0]);
			close(p[1]);
		}
		m = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED) {
			memset(m, 1, 65536);
			munmap(m, 65536);
		}
		fd = open("/tmp", O_RDONLY | O_DIRECTORY);
		if (fd >= 0) {
			syscall(__NR_getdents64, fd, buf, sizeof(buf));
			close(fd);
		}
		usleep(1000);
	}
}

static long kept_code(long *xpages)
{
	static char buf[1 << 16];
	char pidbuf[32], *p, *line, *save;
	volatile int *go;
	long code = -1;
	pid_t pid;

	*xpages = -1;
	go = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	if (go == MAP_FAILED)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (sci_filter(-1, KEEP))
			_exit(90);
		keep_workload();
		/* At rest: no syscall in flight while the parent reads the dump. */
		__atomic_store_n(&go[0], 1, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&go[1], __ATOMIC_ACQUIRE))
			__builtin_ia32_pause();
		_exit(0);
	}
	while (!__atomic_load_n(&go[0], __ATOMIC_ACQUIRE) &&
	       waitpid(pid, NULL, WNOHANG) == 0)
		usleep(1000);
	snprintf(pidbuf, sizeof(pidbuf), "%d", pid);
	if (go[0] && !sci_write_file("/sys/kernel/debug/sci/dump_pid", pidbuf) &&
	    sci_read_file("/sys/kernel/debug/sci/dump", buf, sizeof(buf)) > 0 &&
	    (p = strstr(buf, "code_grants: "))) {
		code = atol(p + 13);
		*xpages = 0;
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			unsigned long s, e, n;
			char prot[8];

			if (sscanf(line, "0x%lx-0x%lx %lu %7s", &s, &e, &n,
				   prot) == 4 && prot[0] == 'x')
				*xpages += n;
		}
	}
	__atomic_store_n(&go[1], 1, __ATOMIC_RELEASE);
	if (sci_reap(pid, NULL, 0))
		code = -1;
	munmap((void *)go, 4096);
	return code;
}

TEST(keep_max_code_bounds_kept_code)
{
	long old = sci_read_long(KEEP_MAX_CODE), capped = sci_stat("keep_code_capped");
	long code_hi, code_lo, code_0, x_hi, x_lo, x_0;
	char val[32];

	ASSERT_LE(0, old);
	ASSERT_EQ(-1, sci_write_file(KEEP_MAX_CODE, "16385"));
	ASSERT_EQ(0, sci_write_file(KEEP_MAX_CODE, "16384"));
	code_hi = kept_code(&x_hi);
	ASSERT_EQ(0, sci_write_file(KEEP_MAX_CODE, "16"));
	code_lo = kept_code(&x_lo);
	ASSERT_EQ(0, sci_write_file(KEEP_MAX_CODE, "0"));
	code_0 = kept_code(&x_0);
	snprintf(val, sizeof(val), "%ld", old);
	sci_write_file(KEEP_MAX_CODE, val);
	TH_LOG("at rest: %ld kept code grants, %ld executable pages with the sysctl at 16384; %ld, %ld at 16; %ld, %ld at 0 (the premapped set)",
	       code_hi, x_hi, code_lo, x_lo, code_0, x_0);
	ASSERT_EQ(0, code_0);
	ASSERT_LT(0, x_0);
	/* The workload keeps more than 16 code pages when nothing caps it. */
	ASSERT_LT(16, code_hi);
	ASSERT_LT(x_0 + 16, x_hi);
	/* Capped: at most 16 executable pages beyond the premapped set. */
	ASSERT_LE(0, code_lo);
	ASSERT_GE(16, code_lo);
	ASSERT_GE(x_0 + 16, x_lo);
	ASSERT_LT(capped, sci_stat("keep_code_capped"));
}

TEST_HARNESS_MAIN
