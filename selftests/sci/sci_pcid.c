// SPDX-License-Identifier: GPL-2.0
/*
 * SCI with PCID (sci=on keeps PCID when the CPU has PCID and INVPCID): the
 * SCI tables of an isolated syscall are loaded with a PCID of their own,
 * and a TLB flush issued on them reaches the kernel PCID the syscall
 * returns to (INVPCID), so that the kernel tables can be resumed without a
 * flush.  On a CPU without PCID (QEMU's TCG) the kernel must say PCID is
 * off and load no PCID; the PCID tests run under Bochs (make
 * selftest-bochs).  What the CPU has is read with CPUID, which the kernel
 * cannot hide.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "sci.h"

static int cpu_has_pcid(void)
{
	unsigned int a, b, c, d, pcid, invpcid;

	__cpuid(1, a, b, c, d);
	pcid = (c >> 17) & 1;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	invpcid = (b >> 10) & 1;
	return pcid && invpcid;
}

/* Is @flag in the flags line of /proc/cpuinfo? */
static int cpuinfo_flag(const char *flag)
{
	static char buf[1 << 16];
	char word[64], *p;

	if (sci_read_file("/proc/cpuinfo", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nflags");
	if (!p)
		return -1;
	p = strchr(p, ':');
	snprintf(word, sizeof(word), " %s ", flag);
	for (; p && *p && *p != '\n'; p++)
		if (!strncmp(p, word, strlen(word)) ||
		    (!strncmp(p, word, strlen(word) - 1) && p[strlen(word) - 1] == '\n'))
			return 1;
	return 0;
}

/* Run @fn in a child under a filter: @nr isolated; its exit status. */
static int run_isolated(int nr, void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (sci_filter(nr, SECCOMP_RET_ISOLATE))
			_exit(100);
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static void getppid_loop(void)
{
	int i;

	for (i = 0; i < 200; i++)
		syscall(__NR_getppid);
}

static int klog_has(const char *what)
{
	static char buf[1 << 20];
	int n = klogctl(3, buf, sizeof(buf) - 1);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return strstr(buf, what) != NULL;
}

#define PCID_WARNING "did not reach the kernel PCID"

TEST(pcid_off_without_cpu_support)
{
	long loads;

	if (cpu_has_pcid())
		SKIP(return, "this CPU has PCID and INVPCID");
	ASSERT_EQ(0, sci_stat("pcid"));
	loads = sci_stat("pcid_loads");
	ASSERT_LE(0, loads);
	ASSERT_EQ(0, run_isolated(__NR_getppid, getppid_loop));
	/* Without PCID, no SCI CR3 carries one. */
	ASSERT_EQ(loads, sci_stat("pcid_loads"));
}

TEST(pcid_kept_on)
{
	if (!cpu_has_pcid())
		SKIP(return, "no PCID and INVPCID (QEMU's TCG): make selftest-bochs runs this");
	/* sci=on used to clear the feature for the whole machine. */
	ASSERT_EQ(1, cpuinfo_flag("pcid"));
	ASSERT_EQ(1, cpuinfo_flag("invpcid"));
	/* ... and the CPU runs with CR4.PCIDE set. */
	ASSERT_EQ(1, sci_stat("pcid"));
}

TEST(isolated_syscalls_load_an_sci_pcid)
{
	long loads, calls;

	if (!cpu_has_pcid())
		SKIP(return, "no PCID and INVPCID (QEMU's TCG): make selftest-bochs runs this");
	loads = sci_stat("pcid_loads");
	calls = sci_stat("syscalls");
	ASSERT_LE(0, loads);
	ASSERT_EQ(0, run_isolated(__NR_getppid, getppid_loop));
	EXPECT_LE(calls + 200, sci_stat("syscalls"));
	/* Each isolated syscall loaded its SCI tables with a non-zero PCID. */
	EXPECT_LE(loads + 200, sci_stat("pcid_loads"));
}

#define PAGES 4
static char *area;
static int pipefd[2];

/* Through the kernel: write() reads the buffer with the kernel's PCID. */
static int kernel_reads(const char *buf, char expect)
{
	char got[PAGES * 4096];
	int i;

	if (write(pipefd[1], buf, sizeof(got)) != sizeof(got) ||
	    read(pipefd[0], got, sizeof(got)) != sizeof(got))
		return -1;
	for (i = 0; i < (int)sizeof(got); i++)
		if (got[i] != expect)
			return 0;
	return 1;
}

/*
 * munmap() isolated: its TLB flush runs on the SCI tables, and must reach
 * the kernel PCID, which cached the old pages' translations through the
 * unisolated write() before.  The new pages at the same address must be
 * what the kernel reads next, never the freed ones.
 */
static void remap_loop(void)
{
	int i;

	for (i = 0; i < 50; i++) {
		memset(area, 'a' + i % 26, PAGES * 4096);
		if (kernel_reads(area, 'a' + i % 26) != 1)
			_exit(1);
		if (munmap(area, PAGES * 4096))
			_exit(2);
		if (mmap(area, PAGES * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != area)
			_exit(3);
		if (kernel_reads(area, 0) != 1)
			_exit(4);
	}
}

TEST(flush_on_sci_tables_reaches_kernel_pcid)
{
	long flushes;

	area = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, area);
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, fcntl(pipefd[1], F_SETPIPE_SZ, 1 << 20) < 0);
	flushes = sci_stat("kernel_pcid_flushes");
	/* The semantics hold with and without PCID. */
	ASSERT_EQ(0, run_isolated(__NR_munmap, remap_loop));
	if (!cpu_has_pcid()) {
		EXPECT_EQ(flushes, sci_stat("kernel_pcid_flushes"));
		return;
	}
	/* 50 isolated munmap()s, each with its flush on the SCI tables. */
	EXPECT_LE(flushes + 50, sci_stat("kernel_pcid_flushes"));
	/* DEBUG_VM kernels check each flush reached the kernel PCID. */
	EXPECT_EQ(0, klog_has(PCID_WARNING));
}

TEST_HARNESS_MAIN
