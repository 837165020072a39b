// SPDX-License-Identifier: GPL-2.0
/*
 * SCI holding up under the kernel's own changes, memory pressure and an
 * attacker: grants never outlive the kernel mapping they copy, SCI's own
 * state is never writable from an isolated syscall, data grants are capped
 * and recycled instead of killing, SCI page tables are accounted and
 * freed, failed allocations fail closed, and the user half of the SCI
 * tables follows the mm while another thread maps and unmaps a top-level
 * slot.
 */
#define _GNU_SOURCE
#include <asm/ldt.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#include "kselftest_harness.h"
#include "sci.h"

static int test_fd(void)
{
	return open(SCI_TEST_PATH, O_RDWR);
}

/* Tests that take long under TCG (and longer with KASAN): own timeouts. */
#define SCI_TEST_ALLOC_DELAY	_IOW('S', 24, unsigned long)

FIXTURE(slow) {};
FIXTURE_SETUP(slow) {}
/* user_half_alloc_race's delay never outlives a failed test. */
FIXTURE_TEARDOWN(slow)
{
	int fd = test_fd();

	if (fd >= 0) {
		ioctl(fd, SCI_TEST_ALLOC_DELAY, 0UL);
		close(fd);
	}
}

/* ------------------------------------------------------------------ */
/* Stale grants: vfree, set_memory_ro, set_direct_map_invalid_noflush */

enum { STALE_VFREE, STALE_SET_MEMORY_RO, STALE_DIRECT_MAP };

static void check_stale(struct __test_metadata *_metadata, unsigned long which)
{
	long stale = sci_stat("stale_grants");
	int fd = test_fd(), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, stale);
	/* Not isolated: the hook has nothing granted and says so. */
	ASSERT_EQ(-1, ioctl(fd, SCI_TEST_STALE, which));
	ASSERT_EQ(EAGAIN, errno);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (!ioctl(fd, SCI_TEST_STALE, which))
			_exit(0);
		/* 1: the grant survived the kernel's change */
		_exit(errno == EEXIST ? 1 : 10 + errno);
	}
	status = sci_reap(pid, NULL, 0);
	TH_LOG("status 0x%x (exit 1: stale grant left mapped)", status);
	ASSERT_EXIT0(status);
	ASSERT_LT(stale, sci_stat("stale_grants"));
}

TEST(stale_grant_vfree) { check_stale(_metadata, STALE_VFREE); }
TEST(stale_grant_set_memory_ro) { check_stale(_metadata, STALE_SET_MEMORY_RO); }
TEST(stale_grant_set_direct_map) { check_stale(_metadata, STALE_DIRECT_MAP); }

/*
 * KFENCE's own unmapping of a freed object (set_pte() and a local flush,
 * no IPI): a grant of that page must not let the isolated syscall read the
 * freed object.  Needs CONFIG_KFENCE (KCONFIG=distro).
 */
#define SCI_TEST_KFENCE		_IO('S', 22)

static int kfence_child(int fd, bool isolate)
{
	if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
		return 90;
	if (ioctl(fd, SCI_TEST_KFENCE) == 0)
		return 0;
	return errno == EEXIST ? 1 : errno == EAGAIN ? 2 : 3;
}

TEST(stale_grant_kfence)
{
	long stale = sci_stat("stale_grants");
	int fd = test_fd(), status, isolated;
	pid_t pid;

	ASSERT_LE(0, fd);
	if (ioctl(fd, SCI_TEST_KFENCE) && errno == EOPNOTSUPP)
		SKIP(return, "no KFENCE in this kernel (KCONFIG=distro has it)");
	for (isolated = 0; isolated < 2; isolated++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(kfence_child(fd, isolated));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		TH_LOG("%s: status 0x%x (exit 1: the freed object was read, 2: no KFENCE object in 5 s)",
		       isolated ? "isolated" : "unisolated", status);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
			SKIP(return, "no KFENCE object in 5 s (kfence.sample_interval?)");
		ASSERT_EXIT0(status);
	}
	/* The isolated run dropped its grant of the page. */
	ASSERT_LT(stale, sci_stat("stale_grants"));
}

/* ------------------------------------------------------------------ */
/* SCI's own state is never writable from an isolated syscall */

static void check_write_state(struct __test_metadata *_metadata,
			      unsigned long which)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long kills = sci_stat("kills");
	int fd = test_fd(), status;
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, ioctl(fd, SCI_TEST_WRITE_STATE, which));
	ASSERT_EQ(EAGAIN, errno);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_WRITE_STATE, which);
		_exit(0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("/proc/%d/sci: %s", pid, rec);
	ASSERT_KILLED(status);
	ASSERT_NE(NULL, strstr(rec, "reason: write to SCI state\n"));
	/* A data address is never printed raw (KASLR): hashed, not 0xffff8... */
	ASSERT_EQ(NULL, strstr(rec, "target: 0xffff"));
	ASSERT_LT(kills, sci_stat("kills"));
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST(write_cpu_sci_killed) { check_write_state(_metadata, 0); }
TEST(write_own_pgd_killed) { check_write_state(_metadata, 1); }
TEST(write_descriptor_killed) { check_write_state(_metadata, 2); }
TEST(write_grant_array_killed) { check_write_state(_metadata, 3); }
TEST(write_table_page_killed) { check_write_state(_metadata, 4); }

/*
 * What SCI's own code writes and trusts beyond the task's state: the
 * pointer to the template's PGD, which every new task's tables copy their
 * kernel half from, this CPU's pool of zeroed pages that become page
 * tables in the fault path, and the reserve behind the pools.  Forged,
 * each gives the attacker page tables of its own choosing.
 */
TEST(write_template_pointer_killed) { check_write_state(_metadata, 6); }
TEST(write_page_pool_killed) { check_write_state(_metadata, 7); }
TEST(write_page_reserve_killed) { check_write_state(_metadata, 8); }

/*
 * More of the same, found by review: the grant trace (its buffer pointer,
 * length and task, which every traced fault writes through on the full
 * tables), the list of an mm's SCI states that mirroring a user PGD
 * entry writes through, and the state that the fixes above added (the
 * word of the page map that says the task's PGD is SCI state, the
 * task's bucket of sleeping isolated tasks).
 */
TEST(write_trace_state_killed) { check_write_state(_metadata, 9); }
TEST(write_state_map_killed) { check_write_state(_metadata, 10); }
TEST(write_sleepers_killed) { check_write_state(_metadata, 11); }
TEST(write_mm_state_list_killed) { check_write_state(_metadata, 12); }

/*
 * The generation of kernel changes (found by review): a keeping task's
 * grants are checked against the kernel's tables again when it moved
 * since they were, for the ranges its ring says changed.  Written back to
 * an older value, or a slot of the ring pointed elsewhere, a kept grant
 * of a page that became SCI state (a page table) stays writable.
 */
TEST(write_kernel_generation_killed) { check_write_state(_metadata, 13); }
TEST(write_generation_ring_killed) { check_write_state(_metadata, 14); }

/*
 * The limits that bound what a task keeps and holds (kernel.sci_*, found
 * by review): written from an isolated syscall, kernel.sci_keep_max_code
 * raised lets a keeping task keep any number of executable pages (class
 * 6).  They are SCI state; the sysctls are root's to change, and not
 * from an isolated syscall (-EPERM), where the write would be one to SCI
 * state.
 */
TEST(write_keep_limit_killed) { check_write_state(_metadata, 15); }

/*
 * The count that kernel.sci_violation_limit is compared with (second
 * review): written back to 0, the limit never escalates to an oops.
 */
TEST(write_violation_count_killed) { check_write_state(_metadata, 16); }

/*
 * poking_mm's tables for poking_addr (found by review): every text poke,
 * a BPF JIT's from an isolated bpf(2) included, writes a PTE in them and
 * then copies its bytes through it on poking_mm's full tables.  They were
 * ordinary memory: a PMD entry pointed at a PTE table of the attacker's
 * (or the PTE itself, between a poke's write and its copy) makes the
 * next legitimate poke write its bytes to any physical page, SCI state
 * included (Dirty Pagetable, with __text_poke() as the writer).  17 the
 * PTE, 18 the PMD entry, 19 the PUD entry, 20 the P4D entry (the PGD
 * entry with 4-level paging), 21 the PGD entry.
 */
TEST(write_poking_pte_killed) { check_write_state(_metadata, 17); }
TEST(write_poking_pmd_killed) { check_write_state(_metadata, 18); }
TEST(write_poking_pud_killed) { check_write_state(_metadata, 19); }
TEST(write_poking_p4d_killed) { check_write_state(_metadata, 20); }
TEST(write_poking_pgd_killed) { check_write_state(_metadata, 21); }

#define KEEP_MAX_CODE	"/proc/sys/kernel/sci_keep_max_code"

TEST(isolated_sysctl_write_refused)
{
	char val[32], after[32];
	int fd, status, len;
	pid_t pid;

	ASSERT_LT(0, sci_read_file(KEEP_MAX_CODE, val, sizeof(val)));
	len = strlen(val);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fd = open(KEEP_MAX_CODE, O_WRONLY);
		if (fd < 0)
			_exit(90);
		if (sci_filter(__NR_write, SECCOMP_RET_ISOLATE))
			_exit(91);
		if (write(fd, val, len) != -1)
			_exit(92);
		_exit(errno == EPERM ? 0 : 93);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("isolated write of %s: status %#x (exit 92: written, 93: another error)",
	       val, status);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Unisolated, root still sets it. */
	fd = open(KEEP_MAX_CODE, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(len, write(fd, val, len));
	close(fd);
	ASSERT_LT(0, sci_read_file(KEEP_MAX_CODE, after, sizeof(after)));
	EXPECT_STREQ(val, after);
}

/*
 * Which pages are SCI state must not be something the syscall can write.
 * struct page is kernel data like any other, granted writable to every
 * syscall that takes a reference or a lock in it: page->private of each
 * piece is set to what a page that is no SCI state has (from inside the
 * same isolated syscall), then the piece is written.  Were the mark
 * believed, the write would be granted, and a writable PGD or page table
 * maps anything executable.
 */
#define SCI_TEST_STATE_UNMARK	0x100
#define SCI_TEST_STATE_AS_OWN	0x200

TEST(write_unmarked_pgd_killed)
{
	check_write_state(_metadata, 1 | SCI_TEST_STATE_UNMARK);
}

TEST(write_unmarked_descriptor_killed)
{
	check_write_state(_metadata, 2 | SCI_TEST_STATE_UNMARK);
}

TEST(write_unmarked_grant_array_killed)
{
	check_write_state(_metadata, 3 | SCI_TEST_STATE_UNMARK);
}

TEST(write_unmarked_table_page_killed)
{
	check_write_state(_metadata, 4 | SCI_TEST_STATE_UNMARK);
}

/*
 * The same for the mark of the tables every task shares (the template):
 * page->private of the kernel image's shared table is set to that of the
 * task's own PGD page, in an isolated syscall, and the task exits.  Were
 * the mark believed, the exit would free a table that every other SCI
 * task still walks.  SCI_TEST_TEMPLATE_KEPT, before the exit, says
 * whether the table is still known as shared (and marks it shared again
 * when it is not, so that a failure here does not free it).
 */
#define SCI_TEST_TEMPLATE_KEPT	_IO('S', 26)

TEST(template_table_marked_as_own_not_freed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int fd = test_fd(), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioctl(fd, SCI_TEST_WRITE_STATE, 5 | SCI_TEST_STATE_AS_OWN))
			_exit(91);
		/* Before the exit, which frees the task's own tables. */
		_exit(ioctl(fd, SCI_TEST_TEMPLATE_KEPT) == 1 ? 0 : 92);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("status 0x%x (exit 91: the write failed, 92: the table was taken for the task's own)",
	       status);
	ASSERT_EXIT0(status);
	ASSERT_EQ(1, ioctl(fd, SCI_TEST_TEMPLATE_KEPT));
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

/*
 * A stack pivot to kernel memory the SCI tables do not map: the page fault
 * cannot be delivered on that stack, the CPU raises a double fault, and SCI
 * kills the process instead of the double fault's panic.
 */
TEST(stack_pivot_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int fd = test_fd(), status;
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	/* Unisolated, the pivot is harmless: the stack page is mapped. */
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_PIVOT));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_PIVOT);
		_exit(0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("/proc/%d/sci: %s", pid, rec);
	ASSERT_KILLED(status);
	ASSERT_NE(NULL, strstr(rec, "reason: stack moved to unmapped memory (#DF)\n"));
	ASSERT_NE(NULL, strstr(rec, "target: sci_test_pivot+"));
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	/* The CPU that took the double fault goes on isolating. */
	ASSERT_EQ(42, ioctl(fd, SCI_TEST_GET_ANSWER));
}

/*
 * Work after the syscall body: the final fput() of a file that an isolated
 * close() released, and so the file's ->release, runs isolated too (SCI
 * runs the task work the syscall queued before it leaves the SCI tables).
 * test_release's ->release makes the bad call.
 */
TEST(isolated_close_runs_release_isolated)
{
	int fd, status;
	char rec[4096];
	pid_t pid;

	/* Unisolated, the bad call in ->release completes. */
	fd = open("/sys/kernel/debug/sci/test_release", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		fd = open("/sys/kernel/debug/sci/test_release", O_RDONLY);
		if (fd < 0 || sci_filter(__NR_close, SECCOMP_RET_ISOLATE))
			_exit(90);
		close(fd);	/* the last reference */
		_exit(0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("/proc/%d/sci: %s", pid, rec);
	ASSERT_KILLED(status);
	ASSERT_NE(NULL, strstr(rec, "syscall: 3\n"));
	ASSERT_NE(NULL, strstr(rec, "target: sci_test_target+0x1000/"));
}

/* ------------------------------------------------------------------ */
/* Data grants are capped (kernel.sci_max_data_grants) and recycled */

#define MAX_GRANTS "/proc/sys/kernel/sci_max_data_grants"
#define CAP_FILE "/tmp/sci_cap_data"
#define CAP_SIZE (2 << 20)

TEST_F_TIMEOUT(slow, data_grant_cap_recycles, 300)
{
	static unsigned char buf[CAP_SIZE];
	long recycles = sci_stat("recycles"), kills = sci_stat("kills");
	long old = sci_read_long(MAX_GRANTS);
	int fd, status;
	char val[32];
	pid_t pid;
	size_t i;

	ASSERT_LT(0, old);
	/* The sysctl refuses a cap that could starve one instruction. */
	ASSERT_EQ(-1, sci_write_file(MAX_GRANTS, "8"));
	ASSERT_EQ(-1, sci_write_file(MAX_GRANTS, "1000000"));
	ASSERT_EQ(old, sci_read_long(MAX_GRANTS));

	for (i = 0; i < CAP_SIZE; i++)
		buf[i] = (unsigned char)(i * 7 + i / 4096);
	fd = open(CAP_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(CAP_SIZE, write(fd, buf, CAP_SIZE));
	close(fd);

	ASSERT_EQ(0, sci_write_file(MAX_GRANTS, "64"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		static unsigned char in[CAP_SIZE];
		ssize_t n, got = 0;

		fd = open(CAP_FILE, O_RDONLY);
		if (fd < 0 || sci_filter(__NR_read, SECCOMP_RET_ISOLATE))
			_exit(90);
		/* One isolated read touches 512 page-cache pages. */
		while (got < CAP_SIZE && (n = read(fd, in + got, CAP_SIZE - got)) > 0)
			got += n;
		_exit(got == CAP_SIZE && !memcmp(in, buf, CAP_SIZE) ? 0 : 1);
	}
	status = sci_reap(pid, NULL, 0);
	snprintf(val, sizeof(val), "%ld", old);
	ASSERT_EQ(0, sci_write_file(MAX_GRANTS, val));
	unlink(CAP_FILE);
	TH_LOG("recycles %ld -> %ld", recycles, sci_stat("recycles"));
	ASSERT_EXIT0(status);
	ASSERT_LT(recycles, sci_stat("recycles"));
	ASSERT_EQ(kills, sci_stat("kills"));
}

/* ------------------------------------------------------------------ */
/* Accounting and freeing of SCI page tables */

static long meminfo_kb(const char *key)
{
	char buf[8192], *p;

	/* Fold the per-CPU counter deltas first, or the figure lags. */
	sci_write_file("/proc/sys/vm/stat_refresh", "1");

	if (sci_read_file("/proc/meminfo", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, key);
	return p ? atol(p + strlen(key) + 1) : -1;
}

/*
 * @n children that each join cgroup @procs (a cgroup.procs path, or NULL),
 * make one getpid (for which a filter returns @ret, or none when @ret is 0)
 * and wait for the pipe to close; while they all live, @measure(@arg) runs
 * and its result is returned (-1 on a setup failure).
 */
static long with_children(int n, unsigned int ret, const char *procs,
			  long (*measure)(void *), void *arg)
{
	int pfd[2], rfd[2], i;
	pid_t pids[64];
	long result;
	char c;

	if (n > 64 || pipe(pfd) || pipe(rfd))
		return -1;
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -1;
		if (pids[i] == 0) {
			close(pfd[1]);
			if (procs && sci_write_file(procs, "0"))
				_exit(91);
			if (ret && sci_filter(__NR_getpid, ret))
				_exit(90);
			syscall(__NR_getpid);
			write(rfd[1], "r", 1);
			read(pfd[0], &c, 1);
			_exit(0);
		}
	}
	for (i = 0; i < n; i++)
		if (read(rfd[0], &c, 1) != 1)
			return -1;
	result = measure(arg);
	close(pfd[1]);
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	close(pfd[0]);
	close(rfd[0]);
	close(rfd[1]);
	return result;
}

/* PageTables (kB), and the SCI counters into @arg (two longs). */
static long measure_page_tables(void *arg)
{
	long *counters = arg;

	counters[0] = sci_stat("tables");
	counters[1] = sci_stat("table_pages");
	return meminfo_kb("PageTables:");
}

static long children_page_tables(int n, unsigned int ret, long *tables,
				 long *table_pages)
{
	long counters[2] = { -1, -1 };
	long kb = with_children(n, ret, NULL, measure_page_tables, counters);

	*tables = counters[0];
	*table_pages = counters[1];
	return kb;
}

/* @n processes, one after the other, that make getpid (with @ret) twice. */
static int run_processes(int n, unsigned int ret)
{
	int i, status;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0) {
			if (ret && sci_filter(__NR_getpid, ret))
				_exit(90);
			_exit(syscall(__NR_getpid) > 0 && syscall(__NR_getpid) > 0 ?
			      0 : 1);
		}
		status = sci_reap(pid, NULL, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(slow, page_tables_accounted_and_freed, 600)
{
	long pt0, t0 = sci_stat("tables"), tp0 = sci_stat("table_pages");
	long t, tp, plain, iso, sci_kb;

	/*
	 * Warm up: the kernel's own tables for the vmalloc'd stacks of many
	 * processes come and stay; they are not SCI's.
	 */
	ASSERT_EQ(0, run_processes(200, 0));
	pt0 = meminfo_kb("PageTables:");
	ASSERT_LT(0, pt0);
	plain = children_page_tables(50, 0, &t, &tp);
	ASSERT_LT(0, plain);
	ASSERT_EQ(t0, t);
	iso = children_page_tables(50, SECCOMP_RET_ISOLATE, &t, &tp);
	ASSERT_LT(0, iso);
	ASSERT_EQ(t0 + 50, t);
	/* Each task: its order-1 PGD plus the pages below it. */
	sci_kb = ((t - t0) * 2 + (tp - tp0)) * 4;
	TH_LOG("PageTables: %ld kB at start, %ld with 50 plain children, %ld with 50 isolated; SCI tables %ld kB (%ld kB per task)",
	       pt0, plain, iso, sci_kb, sci_kb / 50);
	ASSERT_LE(sci_kb, iso - plain + 64);

	/* 200 more isolated processes come and go: nothing stays behind. */
	ASSERT_EQ(0, run_processes(100, SECCOMP_RET_ISOLATE));
	ASSERT_EQ(0, run_processes(100, SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP));
	TH_LOG("after 200 isolated processes: PageTables %ld kB, tables %ld, table_pages %ld",
	       meminfo_kb("PageTables:"), sci_stat("tables"), sci_stat("table_pages"));
	ASSERT_EQ(t0, sci_stat("tables"));
	ASSERT_EQ(tp0, sci_stat("table_pages"));
	ASSERT_GE(pt0 + 16, meminfo_kb("PageTables:"));
}

/*
 * Fresh tasks whose first isolated syscall is a fork: it needs many new
 * page-table pages while the page allocator's own code runs isolated (a
 * fault there holds the zone lock).  The fault path takes pages only from
 * SCI's pools: this used to deadlock within a few hundred tasks.
 */
TEST_F_TIMEOUT(slow, fresh_isolated_forks, 600)
{
	long kills = sci_stat("kills");
	int i, status;

	for (i = 0; i < 300; i++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0) {
			pid_t c;

			if (sci_filter(-1, SECCOMP_RET_ISOLATE))
				_exit(90);
			c = fork();
			if (c == 0)
				_exit(0);
			_exit(c > 0 && waitpid(c, &status, 0) == c &&
			      WIFEXITED(status) ? 0 : 1);
		}
		status = sci_reap(pid, NULL, 0);
		ASSERT_EXIT0(status);
	}
	ASSERT_EQ(kills, sci_stat("kills"));
}

/*
 * The per-mm LDT remap sits in a PGD slot between the user half and the
 * direct map: the SCI tables mirror it like the user half (the debug
 * configuration checks at each isolated entry that they match the mm).
 */
TEST(ldt_slot_mirrored)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct user_desc d = {
			.entry_number = 0, .limit = 0xfffff, .seg_32bit = 1,
			.limit_in_pages = 1, .useable = 1,
		};
		int i;

		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		/* Isolated before and after the LDT (and its remap) appears. */
		for (i = 0; i < 10; i++)
			syscall(__NR_getpid);
		if (syscall(__NR_modify_ldt, 1, &d, sizeof(d)))
			_exit(1);
		for (i = 0; i < 10; i++)
			syscall(__NR_getpid);
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	ASSERT_EXIT0(status);
}

/*
 * PTI's user copy of a PGD has no mm: a write to its LDT entry (which
 * map_ldt_struct_to_user() makes with set_pgd()) must not reach the SCI
 * tables, whatever its struct page holds where pt_mm is (the hook plants
 * the mm there; a modify_ldt() once oopsed on garbage left there).
 */
TEST(pti_user_pgd_copy_not_mirrored)
{
	int fd = test_fd(), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_getpid, SECCOMP_RET_ISOLATE))
			_exit(90);
		/* SCI tables for this task; the ioctl itself is not isolated. */
		syscall(__NR_getpid);
		if (!ioctl(fd, SCI_TEST_USER_PGD_COPY))
			_exit(0);
		_exit(errno == EEXIST ? 1 : 10 + errno);
	}
	status = sci_reap(pid, NULL, 0);
	TH_LOG("status 0x%x (exit 1: the user copy's entry reached the SCI tables)",
	       status);
	ASSERT_EXIT0(status);
}

#define CGROOT "/sys/fs/cgroup"

/* "pagetables" of memory.stat of cgroup @cg, in bytes, or -1. */
static long cg_pagetables(const char *cg)
{
	char path[256], buf[8192], *p;

	snprintf(path, sizeof(path), CGROOT "/%s/memory.stat", cg);
	if (sci_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "pagetables ");
	return p ? atol(p + strlen("pagetables ")) : -1;
}

/* memory.stat "pagetables" of cgroup @arg (a name), once stats flushed. */
static long measure_cg_pagetables(void *arg)
{
	/* memcg statistics are flushed every 2 s (or past a threshold). */
	sleep(4);
	return cg_pagetables(arg);
}

static long cg_children(const char *cg, int n, unsigned int ret)
{
	char procs[256];

	snprintf(procs, sizeof(procs), CGROOT "/%s/cgroup.procs", cg);
	return with_children(n, ret, procs, measure_cg_pagetables,
			     (void *)cg);
}

/* The SCI tables of a task in a memory cgroup are charged to it. */
TEST_F_TIMEOUT(slow, memcg_charged, 300)
{
	long plain, iso, keep;
	char ctl[256];

	if (access(CGROOT "/cgroup.controllers", F_OK) &&
	    mount("none", CGROOT, "cgroup2", 0, NULL))
		SKIP(return, "no cgroup2 (CONFIG_CGROUPS)");
	ASSERT_LT(0, sci_read_file(CGROOT "/cgroup.controllers", ctl, sizeof(ctl)));
	if (!strstr(ctl, "memory"))
		SKIP(return, "no memory controller (CONFIG_MEMCG)");
	ASSERT_EQ(0, sci_write_file(CGROOT "/cgroup.subtree_control", "+memory"));
	ASSERT_EQ(0, mkdir(CGROOT "/sci_plain", 0755) && errno != EEXIST);
	ASSERT_EQ(0, mkdir(CGROOT "/sci_iso", 0755) && errno != EEXIST);
	ASSERT_EQ(0, mkdir(CGROOT "/sci_keep", 0755) && errno != EEXIST);
	plain = cg_children("sci_plain", 10, 0);
	iso = cg_children("sci_iso", 10, SECCOMP_RET_ISOLATE);
	keep = cg_children("sci_keep", 10, SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP);
	TH_LOG("memory.stat pagetables with 10 children: %ld bytes plain, %ld isolated (%ld per task for SCI), %ld keeping grants (%ld per task more)",
	       plain, iso, (iso - plain) / 10, keep, (keep - iso) / 10);
	/*
	 * A child moved into the cgroup after fork() keeps its page tables
	 * charged where they were; what it allocates afterwards, its SCI
	 * tables among them (the PGD and the stack's PUD and PMD: 16 KiB a
	 * task), is charged to the new cgroup.
	 */
	ASSERT_LE(0, plain);
	ASSERT_LE(10 * 16384, iso - plain);
	/*
	 * Kept grants hold the tables copied for them at rest (at least the
	 * PTE table of the task's own data): charged when the syscall
	 * returned, although the fault path took them from uncharged pools.
	 */
	ASSERT_LE(10 * 4096, keep - iso);
	rmdir(CGROOT "/sci_plain");
	rmdir(CGROOT "/sci_iso");
	rmdir(CGROOT "/sci_keep");
}

/*
 * An SCI fault between trace_hardirqs_on() and the instruction that
 * enables interrupts keeps lockdep's state (on), as an NMI there does.
 */
TEST(lockdep_state_survives_a_fault_in_the_irq_window)
{
	int fd = test_fd(), status;
	pid_t pid;

	if (access("/proc/lockdep", F_OK))
		SKIP(return, "no lockdep (CONFIG_PROVE_LOCKING is in the debug configuration)");
	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int i;

		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		/* Each isolated ioctl faults on the hook's page afresh. */
		for (i = 0; i < 20; i++)
			if (ioctl(fd, SCI_TEST_IRQ_WINDOW))
				_exit(errno == EPROTO ? 1 : errno == EOPNOTSUPP ? 2 :
				      10 + errno);
		_exit(0);
	}
	status = sci_reap(pid, NULL, 0);
	TH_LOG("status 0x%x (exit 1: lockdep lost its state, 2: lockdep is off)",
	       status);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		SKIP(return, "lockdep is off (debug_locks 0: an earlier report)");
	ASSERT_EXIT0(status);
}

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

TEST_F_TIMEOUT(slow, kmemleak_finds_nothing, 1200)
{
	static char report[1 << 16];
	int fd = test_fd(), i;

	if (access(KMEMLEAK, F_OK))
		SKIP(return, "CONFIG_DEBUG_KMEMLEAK is not set in this kernel");
	ASSERT_LE(0, fd);
	/*
	 * "clear" forgets only what a scan reported, and kmemleak reports an
	 * object only once its contents stayed the same over two scans (its
	 * checksum): report, with two scans, what was leaked before (the
	 * deliberate kills of earlier tests in the middle of a syscall, see
	 * Documentation/x86/sci.rst, and ACPI's caches when its init fails at
	 * boot in this guest), then clear.
	 */
	sleep(6);
	ASSERT_EQ(0, sci_write_file("/dev/kmsg", "sci-selftest: expected kmemleak begin\n"));
	ASSERT_EQ(0, sci_write_file(KMEMLEAK, "scan"));
	ASSERT_EQ(0, sci_write_file(KMEMLEAK, "scan"));
	ASSERT_EQ(0, sci_write_file(KMEMLEAK, "clear"));
	ASSERT_EQ(0, sci_write_file("/dev/kmsg", "sci-selftest: expected kmemleak end\n"));
	for (i = 0; i < 200; i++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0) {
			if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
				_exit(90);
			/* Every tenth one is killed by a violation. */
			ioctl(fd, i % 10 ? SCI_TEST_GET_ANSWER :
			      SCI_TEST_WRITE_DMESG_BAD, "leak?");
			_exit(0);
		}
		sci_reap(pid, NULL, 0);
	}
	/* kmemleak reports objects older than 5 s only. */
	sleep(6);
	ASSERT_EQ(0, sci_write_file(KMEMLEAK, "scan"));
	ASSERT_EQ(0, sci_write_file(KMEMLEAK, "scan"));
	ASSERT_LE(0, sci_read_file(KMEMLEAK, report, sizeof(report)));
	TH_LOG("kmemleak: %s", report[0] ? report : "(nothing)");
	ASSERT_EQ(NULL, strstr(report, "unreferenced object"));
}

/* ------------------------------------------------------------------ */
/* Fault injection: a failed SCI allocation never runs a syscall unisolated */

#define FPA "/sys/kernel/debug/fail_page_alloc/"

static int fpa_set(const char *knob, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FPA "%s", knob);
	return sci_write_file(path, val);
}

/* Children with a fresh mm each: outcome counts of one isolated getpid. */
static void fpa_round(int n, int *ok, int *enomem, int *killed, int *other)
{
	int i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0) {
			(*other)++;
			continue;
		}
		if (pid == 0) {
			long r;

			if (sci_filter(__NR_getpid, SECCOMP_RET_ISOLATE))
				_exit(90);
			if (sci_write_file("/proc/self/make-it-fail", "1"))
				_exit(91);
			r = syscall(__NR_getpid);
			_exit(r > 0 ? 0 : r == -1 && errno == ENOMEM ? 1 : 2);
		}
		status = sci_reap(pid, NULL, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			(*ok)++;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
			(*enomem)++;
		else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			(*killed)++;
		else
			(*other)++;
	}
}

TEST_F_TIMEOUT(slow, fail_page_alloc_fails_closed, 600)
{
	long t0 = sci_stat("tables"), tp0 = sci_stat("table_pages");
	long sys0 = sci_stat("syscalls");
	int ok = 0, enomem = 0, killed = 0, other = 0;

	if (access(FPA "probability", F_OK))
		SKIP(return, "CONFIG_FAIL_PAGE_ALLOC is not set in this kernel");
	ASSERT_EQ(0, fpa_set("task-filter", "Y"));
	ASSERT_EQ(0, fpa_set("ignore-gfp-wait", "N"));
	ASSERT_EQ(0, fpa_set("ignore-gfp-highmem", "N"));
	ASSERT_EQ(0, fpa_set("min-order", "0"));
	ASSERT_EQ(0, fpa_set("verbose", "0"));
	ASSERT_EQ(0, fpa_set("interval", "1"));
	ASSERT_EQ(0, fpa_set("times", "-1"));

	/* Every allocation fails: the syscall does not run at all. */
	ASSERT_EQ(0, fpa_set("probability", "100"));
	fpa_round(20, &ok, &enomem, &killed, &other);
	TH_LOG("probability 100: ok %d, ENOMEM %d, killed %d, other %d",
	       ok, enomem, killed, other);
	ASSERT_EQ(20, enomem);
	ASSERT_EQ(sys0, sci_stat("syscalls"));

	/* Some allocations fail: each syscall runs isolated or not at all. */
	ok = enomem = killed = other = 0;
	ASSERT_EQ(0, fpa_set("probability", "5"));
	fpa_round(100, &ok, &enomem, &killed, &other);
	ASSERT_EQ(0, fpa_set("probability", "0"));
	TH_LOG("probability 5: ok %d, ENOMEM %d, killed %d, other %d; isolated syscalls counted %ld",
	       ok, enomem, killed, other, sci_stat("syscalls") - sys0);
	ASSERT_EQ(0, other);
	ASSERT_LT(0, enomem);
	ASSERT_LT(0, ok);
	ASSERT_GE(sci_stat("syscalls") - sys0, ok);
	/* The failure paths free what they had allocated. */
	ASSERT_EQ(t0, sci_stat("tables"));
	ASSERT_EQ(tp0, sci_stat("table_pages"));
}

/* ------------------------------------------------------------------ */
/* The user half under a racing munmap of a whole top-level slot */

#define TAINT_WARN	(1 << 9)

/* Alone in its PGD slot (512 GiB): munmap frees the slot's PUD page. */
#define RACE_ADDR ((void *)0x500000000000UL)

static volatile int race_stop;

static void *race_mapper(void *arg)
{
	long *maps = arg;

	while (!race_stop) {
		char *p = mmap(RACE_ADDR, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (p != RACE_ADDR)
			continue;
		*(volatile char *)p = 1;
		munmap(p, 4096);
		(*maps)++;
	}
	return NULL;
}

TEST_F_TIMEOUT(slow, user_half_race, 300)
{
	const char *env = getenv("SCI_RACE_SECONDS");
	int seconds = env ? atoi(env) : 30, status, pfd[2];
	long kills = sci_stat("kills"), res[3];
	long tainted = sci_read_long("/proc/sys/kernel/tainted");
	char cmdline[1024];
	pid_t pid;

	/* The kernel warned before (TAINT_WARN): the check below sees nothing. */
	ASSERT_EQ(0, tainted & TAINT_WARN);
	ASSERT_LE(0, sci_read_file("/proc/cmdline", cmdline, sizeof(cmdline)));
	TH_LOG("%d s; init_on_free=1 %s", seconds,
	       strstr(cmdline, "init_on_free=1") ? "on" : "not on the command line");
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		long maps = 0, ok = 0, efault = 0, r[3];
		int zero = open("/dev/zero", O_RDONLY);
		int null = open("/dev/null", O_WRONLY);
		time_t end = time(NULL) + seconds;
		pthread_t th;

		/* Both threads isolated, mmap and munmap included. */
		if (zero < 0 || null < 0 || sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (pthread_create(&th, NULL, race_mapper, &maps))
			_exit(91);
		while (time(NULL) < end) {
			ssize_t a = read(zero, RACE_ADDR, 1);
			ssize_t b = write(null, RACE_ADDR, 1);

			ok += (a == 1) + (b == 1);
			efault += (a < 0 && errno == EFAULT) + (b < 0 && errno == EFAULT);
		}
		race_stop = 1;
		pthread_join(th, NULL);
		r[0] = maps;
		r[1] = ok;
		r[2] = efault;
		write(pfd[1], r, sizeof(r));
		_exit(0);
	}
	close(pfd[1]);
	ASSERT_EQ(sizeof(res), read(pfd[0], res, sizeof(res)));
	status = sci_reap(pid, NULL, 0);
	TH_LOG("map/unmap cycles %ld; isolated copies that hit the page %ld, that faulted %ld",
	       res[0], res[1], res[2]);
	ASSERT_EXIT0(status);
	ASSERT_LT(0, res[0]);
	ASSERT_LT(0, res[1]);
	ASSERT_LT(0, res[2]);
	ASSERT_EQ(kills, sci_stat("kills"));
	/*
	 * With CONFIG_DEBUG_VM, freeing a PUD page that SCI tables still
	 * point at warns (sci_check_table_free()).
	 */
	ASSERT_EQ(0, sci_read_long("/proc/sys/kernel/tainted") & TAINT_WARN);
}

/*
 * The other side of the lost update: a thread's first isolated syscall
 * copies the mm's user half into its new SCI tables (sci_alloc()) while
 * another thread maps and unmaps the only page of a top-level slot, which
 * allocates and frees its page tables.  The test hook SCI_TEST_ALLOC_DELAY
 * makes sci_alloc() wait 2 ms between the copy and joining the mm's list,
 * where a PGD update that the copy missed would never reach the new
 * tables.  Threads come and go for SCI_RACE_SECONDS (default 10): no kill,
 * no WARN (DEBUG_VM: a freed table still in SCI tables; every isolated
 * entry: a user half that differs from the mm's).
 */
static void *first_isolated_syscall(void *arg)
{
	int zero = *(int *)arg;

	/* The thread's first syscall is isolated: sci_alloc() runs here. */
	return (void *)(long)read(zero, RACE_ADDR, 1);
}

TEST_F_TIMEOUT(slow, user_half_alloc_race, 300)
{
	const char *env = getenv("SCI_RACE_SECONDS");
	int seconds = env ? atoi(env) : 10, status, pfd[2];
	int fd = test_fd();
	long kills = sci_stat("kills"), res[2];
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sci_read_long("/proc/sys/kernel/tainted") & TAINT_WARN);
	ASSERT_EQ(-1, ioctl(fd, SCI_TEST_ALLOC_DELAY, 10001UL));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_ALLOC_DELAY, 2000UL));
	ASSERT_EQ(0, pipe(pfd));
	race_stop = 0;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		long maps = 0, threads = 0, r[2];
		int zero = open("/dev/zero", O_RDONLY);
		time_t end = time(NULL) + seconds;
		pthread_t th, t;

		if (zero < 0 || sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (pthread_create(&th, NULL, race_mapper, &maps))
			_exit(91);
		while (time(NULL) < end) {
			if (pthread_create(&t, NULL, first_isolated_syscall, &zero))
				_exit(92);
			pthread_join(t, NULL);
			threads++;
		}
		race_stop = 1;
		pthread_join(th, NULL);
		r[0] = maps;
		r[1] = threads;
		write(pfd[1], r, sizeof(r));
		_exit(0);
	}
	close(pfd[1]);
	ASSERT_EQ(sizeof(res), read(pfd[0], res, sizeof(res)));
	status = sci_reap(pid, NULL, 0);
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_ALLOC_DELAY, 0UL));
	TH_LOG("map/unmap cycles %ld; threads whose first isolated syscall raced them %ld",
	       res[0], res[1]);
	ASSERT_EXIT0(status);
	ASSERT_LT(0, res[0]);
	ASSERT_LT(0, res[1]);
	ASSERT_EQ(kills, sci_stat("kills"));
	ASSERT_EQ(0, sci_read_long("/proc/sys/kernel/tainted") & TAINT_WARN);
}

TEST_HARNESS_MAIN
