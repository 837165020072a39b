// SPDX-License-Identifier: GPL-2.0
/*
 * What an isolated syscall's tables hold at rest, and jumps into the middle
 * of many kernel functions: each one kills only the process that made it.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "sci.h"

struct range {
	unsigned long start, end;
	char prot[16];
};

/* Parse /sys/kernel/debug/sci/dump for @pid: "START-END PAGES PROT" lines. */
static int read_dump(pid_t pid, struct range *r, int max, char *head, size_t hlen)
{
	static char buf[1 << 21];
	char *line, *save;
	char pidbuf[32];
	int n = 0;

	snprintf(pidbuf, sizeof(pidbuf), "%d", pid);
	if (sci_write_file("/sys/kernel/debug/sci/dump_pid", pidbuf))
		return -1;
	if (sci_read_file("/sys/kernel/debug/sci/dump", buf, sizeof(buf)) <= 0)
		return -1;
	snprintf(head, hlen, "%.*s", (int)hlen - 1, buf);
	for (line = strtok_r(buf, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long pages;

		if (sscanf(line, "0x%lx-0x%lx %lu %15s", &r[n].start, &r[n].end,
			   &pages, r[n].prot) == 4)
			n++;
	}
	return n;
}

static int within(unsigned long s, unsigned long e, unsigned long lo, unsigned long hi)
{
	return s >= lo && e <= hi;
}

/*
 * At rest, an isolated task's tables map exactly: the entry text block,
 * .noinstr.text and the thunks (executable, read-only), the task's stack
 * (read-write, NX) and read-only NX pages for cpu_sci and __per_cpu_offset.
 */
/* CPUs in /sys/devices/system/cpu/possible ("0-N" or "0"); -1 if unknown. */
static long possible_cpus(void)
{
	char buf[64];
	long first, last;

	if (sci_read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)) < 0)
		return -1;
	if (sscanf(buf, "%ld-%ld", &first, &last) == 2)
		return last - first + 1;
	return sscanf(buf, "%ld", &first) == 1 ? 1 : -1;
}

TEST(premapped_set)
{
	/* Five read-only ranges per CPU at most: room for 1600 CPUs */
	static struct range r[8192];
	char head[4096];
	unsigned long entry = sci_ksym("__entry_text_start"),
		      entry_end = sci_ksym("__entry_text_end"),
		      noinstr = sci_ksym("__noinstr_text_start"),
		      noinstr_end = sci_ksym("__noinstr_text_end"),
		      thunk = sci_ksym("__indirect_thunk_start"),
		      thunk_end = sci_ksym("__indirect_thunk_end");
	long ncpus = possible_cpus();
	unsigned long rw = 0, ro = 0, x = 0;
	long tables, levels;
	char *p;
	int i, n, status;
	pid_t pid;

	ASSERT_NE(0, entry);
	ASSERT_NE(0, noinstr);
	ASSERT_LT(0, ncpus);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		getppid();
		raise(SIGSTOP);	/* at rest: between two isolated syscalls */
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, WUNTRACED));
	ASSERT_TRUE(WIFSTOPPED(status));
	n = read_dump(pid, r, 8192, head, sizeof(head));
	ASSERT_GT(8192, n);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	TH_LOG("dump:\n%s", head);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++) {
		unsigned long pages = (r[i].end - r[i].start) / 4096;

		if (!strcmp(r[i].prot, "x-ro")) {
			unsigned long a;

			/* Executable: only the premapped entry code, page by page. */
			for (a = r[i].start; a < r[i].end; a += 4096) {
				if (!within(a, a + 4096, entry & ~0x1fffffUL,
					    (entry_end + 0x1fffff) & ~0x1fffffUL) &&
				    !within(a, a + 4096, noinstr & ~4095UL,
					    (noinstr_end + 4095) & ~4095UL) &&
				    !within(a, a + 4096, thunk & ~4095UL,
					    (thunk_end + 4095) & ~4095UL))
					TH_LOG("executable page 0x%lx outside the entry code", a);
				ASSERT_TRUE(within(a, a + 4096, entry & ~0x1fffffUL,
						   (entry_end + 0x1fffff) & ~0x1fffffUL) ||
					    within(a, a + 4096, noinstr & ~4095UL,
						   (noinstr_end + 4095) & ~4095UL) ||
					    within(a, a + 4096, thunk & ~4095UL,
						   (thunk_end + 4095) & ~4095UL));
			}
			x += pages;
		} else if (!strcmp(r[i].prot, "nx-rw")) {
			rw += pages;
		} else if (!strcmp(r[i].prot, "nx-ro")) {
			ro += pages;
		} else {
			TH_LOG("unexpected protection %s", r[i].prot);
			ASSERT_TRUE(0);
		}
	}
	/*
	 * Writable: the task's stack only (16 KiB; 32 KiB with KASAN, which
	 * doubles THREAD_SIZE), no CPU's IRQ stack (series 0086).
	 * Read-only: per CPU one page each of cpu_sci, sci_cea_flag, the
	 * stack pointers (DEFINE_PER_CPU_SCI_RO()) and the TSS's first page
	 * (series 0088), the GDT (series 0091); __per_cpu_offset (one page,
	 * or two); the top page of the task's door stack (series 0105).
	 */
	ASSERT_EQ(sci_ksym("kasan_report") ? 8 : 4, rw);
	ASSERT_LE(5 * ncpus + 2, ro);
	ASSERT_GE(5 * ncpus + 3, ro);
	ASSERT_NE(NULL, strstr(head, "active: 0\n"));
	ASSERT_NE(NULL, strstr(head, "grants: 0\n"));
	/* The view of the CPU it ran on last (series 0112), not the kernel's */
	ASSERT_NE(NULL, strstr(head, "cpu_entry_area: view of CPU "));
	ASSERT_EQ(NULL, strstr(head, "cpu_entry_area: shared\n"));
	/*
	 * At rest a task owns its order-1 PGD (whose second page is what
	 * PTI's switch to user tables would load on the SCI tables) and the
	 * PUD, PMD and PTE tables of the stack: 20 KiB; with 5-level paging
	 * the P4D table above them too, and the one that holds the
	 * cpu_entry_area's entry (series 0112); and those of its door stack's top
	 * page that the stack's do not cover (none when vmalloc() put the
	 * two under one PMD).  The rest is the shared template.
	 */
	p = strstr(head, "\ntable_pages: ");
	ASSERT_NE(NULL, p);
	tables = atol(p + 14);
	p = strstr(head, "premap_table_pages: ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(tables, atol(p + 20));
	levels = strstr(head, "paging_levels: 5\n") ? 4 : 3;
	ASSERT_LE(levels + (levels == 4), tables);
	ASSERT_GE(2 * levels + (levels == 4), tables);
}

struct ksym {
	unsigned long addr;
	char type;
	char name[64];
};

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Every core kernel symbol in [stext, etext), sorted: all of them bound the
 * functions, so that a target is never another symbol's first byte.
 */
static int load_text(struct ksym **out, unsigned long stext, unsigned long etext)
{
	static char buf[1 << 23];
	int n = 0, max = 1 << 18;
	struct ksym *k = calloc(max, sizeof(*k));
	char *line, *save;

	if (!k || sci_read_file("/proc/kallsyms", buf, sizeof(buf)) <= 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strchr(line, '['))
			continue;	/* module symbols */
		if (sscanf(line, "%lx %c %63s", &k[n].addr, &k[n].type, k[n].name) == 3 &&
		    k[n].addr >= stext && k[n].addr < etext)
			n++;
	}
	qsort(k, n, sizeof(*k), cmp_ksym);
	*out = k;
	return n;
}

/*
 * 100 jumps into the middle of distinct kernel functions, each from an
 * isolated syscall: every one is killed, the kernel neither oopses nor
 * taints, and a process on the other CPU keeps running meanwhile.
 */
TEST(mid_function_targets)
{
	unsigned long stext = sci_ksym("_stext"), etext = sci_ksym("_etext");
	unsigned long entry = sci_ksym("__entry_text_start") & ~0x1fffffUL;
	unsigned long entry_end = (sci_ksym("__entry_text_end") + 0x1fffff) & ~0x1fffffUL;
	unsigned long noinstr = sci_ksym("__noinstr_text_start") & ~4095UL;
	unsigned long noinstr_end = sci_ksym("__noinstr_text_end");
	long oops = sci_read_long("/sys/kernel/oops_count");
	long taint = sci_read_long("/proc/sys/kernel/tainted");
	volatile unsigned long *progress;
	int fd = open(SCI_TEST_PATH, O_RDWR), n, i, killed = 0, tried = 0, skipped = 0;
	unsigned long before;
	struct ksym *k;
	pid_t spinner;
	cpu_set_t set;

	ASSERT_LE(0, fd);
	ASSERT_NE(0, stext);
	ASSERT_NE(0, etext);
	n = load_text(&k, stext, etext);
	ASSERT_LT(1000, n);
	progress = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, progress);
	spinner = fork();
	ASSERT_LE(0, spinner);
	if (spinner == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (;;)
			(*progress)++;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	usleep(100 * 1000);
	before = *progress;

	/* Spread the targets over the whole text: every (n / 400)th symbol. */
	for (i = 0; i + 1 < n && killed < 100; i += n / 400 + 1) {
		unsigned long start = k[i].addr, size = k[i + 1].addr - start;
		unsigned long target = start + size / 2;
		int status, ret;
		pid_t pid;

		if (size < 32 || (k[i].type != 't' && k[i].type != 'T') ||
		    (start >= entry && start < entry_end) ||
		    (start >= noinstr && start < noinstr_end) ||
		    !strncmp(k[i].name, "sci_", 4))
			continue;
		tried++;
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
				_exit(90);
			ret = ioctl(fd, SCI_TEST_CALL_UNMAPPED, target);
			_exit(ret == -1 && errno == EEXIST ? 3 : 0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
			skipped++;	/* already mapped in this syscall */
			continue;
		}
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
			TH_LOG("%s+0x%lx: status 0x%x", k[i].name, target - start, status);
		ASSERT_TRUE(WIFSIGNALED(status));
		ASSERT_EQ(SIGKILL, WTERMSIG(status));
		killed++;
	}
	TH_LOG("%d targets tried, %d killed, %d skipped (page already mapped); spinner progressed %lu",
	       tried, killed, skipped, *progress - before);
	ASSERT_EQ(100, killed);
	ASSERT_LT(before, *progress);
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	ASSERT_EQ(taint, sci_read_long("/proc/sys/kernel/tainted"));
}

/*
 * Global TLB entries survive the switch into the SCI tables, so no
 * executable kernel mapping may be global while SCI is on, except the
 * premapped entry text block (PTI makes it global) and the cpu_entry_area.
 */
TEST(no_global_executable_kernel_mappings)
{
	static char buf[1 << 20];
	unsigned long entry = sci_ksym("__entry_text_start") & ~0x1fffffUL;
	unsigned long entry_end = (sci_ksym("__entry_text_end") + 0x1fffff) & ~0x1fffffUL;
	char *line, *save;
	int global_x = 0, lines = 0;

	ASSERT_NE(0, entry);
	ASSERT_LT(0, sci_read_file("/sys/kernel/debug/page_tables/kernel",
				   buf, sizeof(buf)));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long start, end;

		if (sscanf(line, "0x%lx-0x%lx", &start, &end) != 2)
			continue;
		lines++;
		if (!strstr(line, " GLB ") || !strstr(line, " x "))
			continue;
		if (start >= entry && end <= entry_end)
			continue;
		if (start >= 0xfffffe0000000000UL && end <= 0xfffffe8000000000UL)
			continue;	/* cpu_entry_area */
		TH_LOG("global and executable: %s", line);
		global_x++;
	}
	ASSERT_LT(10, lines);
	ASSERT_EQ(0, global_x);
}

TEST_HARNESS_MAIN
