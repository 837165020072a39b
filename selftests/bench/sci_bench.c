// SPDX-License-Identifier: GPL-2.0
/*
 * sci_bench: what System Call Isolation costs, against the mechanisms
 * sandboxes use today to interpose on system calls.
 *
 * Seven modes, each in a process of its own that installed its filter and
 * stays alive for the whole run, so that every round measures the seven
 * side by side:
 *   none     no filter
 *   allow    a seccomp filter returning ALLOW
 *   isolate  a filter returning SECCOMP_RET_ISOLATE for every syscall
 *   keepd    the same with SECCOMP_ISOLATE_KEEP_DATA: data grants kept
 *            across syscalls, every fetch still checked
 *   keep     with SECCOMP_ISOLATE_KEEP: all grants kept across syscalls
 *   notif    a filter returning USER_NOTIF, a supervisor thread answering
 *            SECCOMP_USER_NOTIF_FLAG_CONTINUE
 *   trace    a filter returning TRACE, a ptrace tracer that continues
 *            (and follows forks)
 * For each operation: RUNS runs of N iterations per mode, rounds
 * interleaved; the time per operation (median, min, max), the SCI counters
 * per operation in the isolating modes, the grant trace of one operation (do
 * faults repeat on a page?), and the SCI page-table memory of 1, 10, 100
 * and 1000 isolated tasks alive at once.
 *
 * Output (stdout): progress lines starting with "#", then one table between
 * "==== SCI-BENCH TABLE BEGIN/END ====" and the same data as CSV between
 * "==== SCI-BENCH CSV BEGIN/END ====".  Exit status 0, or 1 when anything
 * failed (an operation, a worker, a kill, a leak of SCI tables).
 *
 * Environment (the guest's init inherits KEY=VALUE kernel parameters):
 *   SCI_BENCH_RUNS   runs per operation and mode (15)
 *   SCI_BENCH_MS     milliseconds one round (each mode once) takes (1200)
 *   SCI_BENCH_CPU    the CPU the timed processes are pinned to (0; -1: none)
 *   SCI_BENCH_TRACE  1: print the grant trace of each operation
 *   SCI_BENCH_DEBUG  1: print the steps of the memory test; 2: print
 *                    kallsyms too (with nokaslr: to read a hung guest's
 *                    RIP and stack from the QEMU monitor)
 *   SCI_BENCH_TASKS  task counts of the memory test (1,10,100,1000)
 *   SCI_BENCH_OPS    comma-separated operation names to time (all)
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#include "../sci/sci.h"
#include "bench_common.h"

#define DATA_PATH	"/tmp/sci_bench.dat"
#define DATA_SIZE	(16 << 20)
#define STATS_PATH	"/sys/kernel/debug/sci/stats"
#define CMD_FD		100	/* worker: commands from the coordinator */
#define RES_FD		101	/* worker: results to it */
#define MEM_GO1		100	/* memory test: "do the busy syscall" */
#define MEM_READY	101	/* memory test: "done" */
#define MEM_GO2		102	/* memory test: "exit" */
#define MEM_DATA	103
#define RESULT_TIMEOUT_MS (600 * 1000)

/* ------------------------------------------------------------------ */
/* Modes, operations, counters */

enum { M_NONE, M_ALLOW, M_ISOLATE, M_KEEPD, M_KEEP, M_NOTIF, M_TRACE, NMODES };
static const char *const mode_name[NMODES] = {
	"none", "allow", "isolate", "keepd", "keep", "notif", "trace",
};
/* The modes that isolate, whose SCI counters are measured: index 0 to 2 */
#define NISO	3
#define ISO(m)	((m) == M_ISOLATE ? 0 : (m) == M_KEEPD ? 1 : (m) == M_KEEP ? 2 : -1)
static const int iso_mode[NISO] = { M_ISOLATE, M_KEEPD, M_KEEP };

enum {
	OP_EMPTY, OP_GETPID, OP_READ1, OP_READ64K, OP_WRITE, OP_OPEN,
	OP_MMAP, OP_FORK, OP_EXEC, OP_IOCTL, OP_YIELD, NOPS
};
static const struct {
	const char *name;	/* CSV */
	const char *label;	/* table */
	int nmax;
} ops[NOPS] = {
	[OP_EMPTY]	= { "empty", "(timing window)", 1 },
	[OP_GETPID]	= { "getpid", "getpid", 20000 },
	[OP_READ1]	= { "read_1b", "read 1 B (tmpfs)", 20000 },
	[OP_READ64K]	= { "read_64k", "read 64 KiB (tmpfs)", DATA_SIZE / 65536 },
	[OP_WRITE]	= { "write_null", "write 1 B /dev/null", 20000 },
	[OP_OPEN]	= { "openat_close", "openat+close", 5000 },
	[OP_MMAP]	= { "mmap_1m", "mmap+touch+munmap 1M", 2000 },
	[OP_FORK]	= { "fork_wait", "fork+exit+wait", 500 },
	[OP_EXEC]	= { "fork_execve_wait", "fork+execve+wait", 500 },
	[OP_IOCTL]	= { "ioctl_get_answer", "ioctl GET_ANSWER", 20000 },
	/*
	 * Nothing else runnable on the CPU: __schedule() without a switch,
	 * through the scheduler's door (series 0100) when isolated
	 */
	[OP_YIELD]	= { "sched_yield", "sched_yield (no switch)", 20000 },
};

/*
 * The counters of STATS_PATH that the benchmark reads ("pcid" is a state,
 * 1 when the kernel runs with PCID, not a counter).
 */
enum { ST_SYSCALLS, ST_CODE, ST_DATA, ST_GRANTS, ST_VIOL, ST_KILLS,
       ST_TABLES, ST_TPAGES, ST_SWITCHES, ST_FAULT_NS, ST_RESUMES,
       ST_REVAL_RANGES, ST_REVAL_ALL, ST_REGRANTS, ST_TABLE_COPIES,
       ST_STALE, ST_KEEP_REVOKES, ST_PCID, ST_DOORS, NST };
static const char *const st_name[NST] = {
	"syscalls", "code_faults", "data_faults", "grants", "violations",
	"kills", "tables", "table_pages", "switches_out", "fault_ns",
	"resumes_on_sci", "revalidate_ranges", "revalidate_all",
	"regrants", "table_copies", "stale_grants", "keep_revokes", "pcid",
	"sched_doors",
};

/*
 * Hardware estimate (the "Events per isolated syscall" table): what SCI
 * adds to one isolated syscall on hardware, its events times a cost per
 * event from published measurements (cycles converted at HW_GHZ).  The
 * Benchmark section of README.md cites the same sources.
 *
 * HW_PF_NS      one #PF round trip without handler work: about 715 cycles
 *               for the fault and 330 for the iret, 1050 on Haswell
 *               (L. Torvalds, "The cost of Linux's page fault handling",
 *               Google+, 2014-04-30,
 *               https://plus.google.com/+LinusTorvalds/posts/YDKRFDwHwr6;
 *               quoted at http://d.hatena.ne.jp/yohei-a/20160509/1462802641).
 * HW_CR3_NS     one MOV to CR3, the write alone: "on the order of a hundred
 *               cycles" (Documentation/x86/pti.rst, "Runtime Cost",
 *               https://www.kernel.org/doc/html/v6.1/x86/pti.html).  With
 *               PCID and NOFLUSH that is all it costs: FreeBSD measured PTI
 *               with PCID on Haswell at +139 ns per getppid, two such
 *               writes and the entry trampoline (https://reviews.freebsd.org/D13985).
 * HW_WALK_NS    one TLB refill, a page walk with warm caches: about 10 ns,
 *               the TLB miss penalty of a 4 KiB-stride loop
 *               (https://notes.elimelt.com/operating-systems/benchmarks/tlb.html).
 * HW_REFILLS    ASSUMPTION, no published figure found: the TLB entries that
 *               the code running after a full flush walks again before the
 *               next switch (its code, stack, per-CPU and task data, the
 *               page it faulted on).  A full flush costs HW_REFILLS *
 *               HW_WALK_NS on top of the write.
 * HW_INVLPG_NS  one single-page flush (SCI issues none since series 0040;
 *               kept for the CSV): about 350 cycles a page (D. Hansen,
 *               "x86 TLB flushing: INVPCID vs. deferred CR3 write", LKML,
 *               2017-12-05, Skylake,
 *               http://lkml.iu.edu/hypermail/linux/kernel/1712.0/03977.html).
 * HW_COPY_NS    one page-table page copied: clear_page() writes 4 KiB at
 *               13.7 GB/s on AMD Milan, 0.3 us (Linux commit cb431accb36e,
 *               "x86/clear_page: introduce clear_pages()", explained at
 *               https://lexplain.net/commit-analyses/cb431accb36e51b64ce34b5cc4d5ed292895fd84);
 *               a copy writes as much and reads too: 0.3 us, a floor.
 * Not in the estimate: the SCI handler's own instructions (fault_ns is
 * measured under TCG only), interrupts and faults on user addresses taken
 * on the SCI tables.
 */
#define HW_GHZ		3.0
#define HW_PF_NS	(1050 / HW_GHZ)
#define HW_CR3_NS	(100 / HW_GHZ)
#define HW_WALK_NS	10.0
#define HW_REFILLS	8.0
#define HW_INVLPG_NS	(350 / HW_GHZ)
#define HW_COPY_NS	300.0

struct cmd {
	int op, n;
};

struct res {
	int ok;
	long long ns;
	long d[NST];
};

static char helper_path[512];
static int failures;

#define fail(...) do {							\
	printf("# FAIL: " __VA_ARGS__);					\
	printf("\n");							\
	failures++;							\
} while (0)

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void parse_stats(const char *buf, long *v)
{
	const char *p = buf;
	int i;

	for (i = 0; i < NST; i++)
		v[i] = 0;
	while (p && *p) {
		for (i = 0; i < NST; i++) {
			size_t len = strlen(st_name[i]);

			if (!strncmp(p, st_name[i], len) && p[len] == ' ')
				v[i] = atol(p + len + 1);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

/* All counters with one system call: pread of the seq_file from 0. */
static int snap_fd(int fd, long *v)
{
	char buf[4096];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	parse_stats(buf, v);
	return 0;
}

static int snap(long *v)
{
	int fd = open(STATS_PATH, O_RDONLY), r;

	if (fd < 0)
		return -1;
	r = snap_fd(fd, v);
	close(fd);
	return r;
}

/* ------------------------------------------------------------------ */
/* The operations */

struct wctx {
	int data_fd, null_fd, test_fd, stats_fd;
};

static int do_op(struct wctx *w, int op, int n)
{
	static char buf[65536];
	char *const argv[] = { helper_path, NULL };
	char *const envp[] = { NULL };
	int i, j, fd, status;
	pid_t pid;
	char *p;

	for (i = 0; i < n; i++) {
		switch (op) {
		case OP_EMPTY:
			break;
		case OP_GETPID:
			if (syscall(SYS_getpid) <= 0)
				return -1;
			break;
		case OP_READ1:
			if (read(w->data_fd, buf, 1) != 1)
				return -1;
			break;
		case OP_READ64K:
			if (read(w->data_fd, buf, 65536) != 65536)
				return -1;
			break;
		case OP_WRITE:
			if (write(w->null_fd, buf, 1) != 1)
				return -1;
			break;
		case OP_OPEN:
			fd = openat(AT_FDCWD, DATA_PATH, O_RDONLY);
			if (fd < 0 || close(fd))
				return -1;
			break;
		case OP_MMAP:
			p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return -1;
			for (j = 0; j < 1 << 20; j += 4096)
				p[j] = 1;
			if (munmap(p, 1 << 20))
				return -1;
			break;
		case OP_FORK:
		case OP_EXEC:
			pid = fork();
			if (pid < 0)
				return -1;
			if (pid == 0) {
				if (op == OP_EXEC)
					execve(helper_path, argv, envp);
				_exit(op == OP_EXEC ? 127 : 0);
			}
			if (waitpid(pid, &status, 0) != pid ||
			    !WIFEXITED(status) || WEXITSTATUS(status))
				return -1;
			break;
		case OP_IOCTL:
			if (ioctl(w->test_fd, SCI_TEST_GET_ANSWER) != 42)
				return -1;
			break;
		case OP_YIELD:
			if (sched_yield())
				return -1;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

static int open_files(struct wctx *w)
{
	w->data_fd = open(DATA_PATH, O_RDONLY);
	w->null_fd = open("/dev/null", O_WRONLY);
	w->test_fd = open(SCI_TEST_PATH, O_RDWR);
	w->stats_fd = open(STATS_PATH, O_RDONLY);
	return w->data_fd < 0 || w->null_fd < 0 || w->test_fd < 0 ||
	       w->stats_fd < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Workers: one process per mode, driven through two pipes */

static void __attribute__((noreturn)) worker_loop(struct wctx *w, int stats)
{
	long s0[NST] = { 0 }, s1[NST] = { 0 };
	long long t0, t1;
	struct cmd c;
	struct res r;
	int i;

	for (;;) {
		if (read(CMD_FD, &c, sizeof(c)) != sizeof(c) || c.op < 0)
			_exit(0);
		memset(&r, 0, sizeof(r));
		lseek(w->data_fd, 0, SEEK_SET);
		if (stats)
			snap_fd(w->stats_fd, s0);
		t0 = now_ns();
		r.ok = do_op(w, c.op, c.n) == 0;
		t1 = now_ns();
		if (stats)
			snap_fd(w->stats_fd, s1);
		r.ns = t1 - t0;
		for (i = 0; i < NST; i++)
			r.d[i] = s1[i] - s0[i];
		if (write(RES_FD, &r, sizeof(r)) != sizeof(r))
			_exit(1);
	}
}

/* The USER_NOTIF supervisor: a thread started before the filter exists. */
static int notif_fd = -1;

static void *supervisor(void *arg)
{
	int fd;

	(void)arg;
	while ((fd = __atomic_load_n(&notif_fd, __ATOMIC_ACQUIRE)) < 0)
		sched_yield();
	bench_supervise(fd);
	return NULL;
}

static int install(unsigned int action, unsigned int flags)
{
	struct sock_filter f[] = { BPF_STMT(BPF_RET | BPF_K, action) };
	struct sock_fprog prog = { .len = 1, .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static void __attribute__((noreturn)) worker_main(int mode)
{
	struct wctx w;
	pthread_t th;
	pid_t pid;
	int fd;

	if (open_files(&w)) {
		fprintf(stderr, "sci_bench: %s worker: open: %m\n", mode_name[mode]);
		_exit(1);
	}
	switch (mode) {
	case M_NONE:
		break;
	case M_ALLOW:
		if (install(SECCOMP_RET_ALLOW, 0))
			goto err;
		break;
	case M_ISOLATE:
		if (install(SECCOMP_RET_ISOLATE, 0))
			goto err;
		break;
	case M_KEEPD:
		if (install(SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP_DATA, 0))
			goto err;
		break;
	case M_KEEP:
		if (install(SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP, 0))
			goto err;
		break;
	case M_NOTIF:
		if (pthread_create(&th, NULL, supervisor, NULL))
			goto err;
		fd = install(SECCOMP_RET_USER_NOTIF, SECCOMP_FILTER_FLAG_NEW_LISTENER);
		if (fd < 0)
			goto err;
		__atomic_store_n(&notif_fd, fd, __ATOMIC_RELEASE);
		break;
	case M_TRACE:
		pid = fork();
		if (pid < 0)
			goto err;
		if (pid) {
			close(CMD_FD);
			close(RES_FD);
			_exit(bench_tracer(pid));
		}
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) || raise(SIGSTOP))
			goto err;
		if (install(SECCOMP_RET_TRACE, 0))
			goto err;
		break;
	}
	worker_loop(&w, ISO(mode) >= 0);
err:
	fprintf(stderr, "sci_bench: %s worker: setup: %m\n", mode_name[mode]);
	_exit(1);
}

static struct worker {
	pid_t pid;
	int cmd, res;
} workers[NMODES];

static int spawn_worker(int mode)
{
	int cmd[2], res[2];
	pid_t pid;

	if (pipe2(cmd, O_CLOEXEC) || pipe2(res, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (dup2(cmd[0], CMD_FD) < 0 || dup2(res[1], RES_FD) < 0)
			_exit(1);
		close_range(3, CMD_FD - 1, 0);
		close_range(RES_FD + 1, ~0U, 0);
		worker_main(mode);
	}
	close(cmd[0]);
	close(res[1]);
	workers[mode].pid = pid;
	workers[mode].cmd = cmd[1];
	workers[mode].res = res[0];
	return 0;
}

static int run_one(int mode, int op, int n, struct res *r)
{
	struct worker *wk = &workers[mode];
	struct cmd c = { op, n };
	struct pollfd pfd = { .fd = wk->res, .events = POLLIN };

	if (wk->pid <= 0)
		return -1;
	if (write(wk->cmd, &c, sizeof(c)) != sizeof(c))
		goto dead;
	if (poll(&pfd, 1, RESULT_TIMEOUT_MS) != 1 ||
	    read(wk->res, r, sizeof(*r)) != sizeof(*r))
		goto dead;
	if (!r->ok) {
		fail("%s in mode %s failed", ops[op].name, mode_name[mode]);
		return -1;
	}
	return 0;
dead:
	fail("the %s worker died or hung (%s, n=%d)", mode_name[mode], ops[op].name, n);
	kill(wk->pid, SIGKILL);
	waitpid(wk->pid, NULL, 0);
	wk->pid = 0;
	return -1;
}

static void stop_workers(void)
{
	struct cmd quit = { -1, 0 };
	int m, st;

	for (m = 0; m < NMODES; m++) {
		if (workers[m].pid <= 0)
			continue;
		if (write(workers[m].cmd, &quit, sizeof(quit)) != sizeof(quit))
			kill(workers[m].pid, SIGKILL);
		if (waitpid(workers[m].pid, &st, 0) != workers[m].pid ||
		    !WIFEXITED(st) || WEXITSTATUS(st))
			fail("the %s worker exited with status 0x%x", mode_name[m], st);
		close(workers[m].cmd);
		close(workers[m].res);
		workers[m].pid = 0;
	}
}

/* ------------------------------------------------------------------ */
/* Statistics */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct summary {
	double med, min, max;
};

static struct summary summarize(const double *v, int n)
{
	double s[256];
	struct summary r = { 0, 0, 0 };
	int i;

	if (n <= 0)
		return r;
	for (i = 0; i < n; i++)
		s[i] = v[i];
	qsort(s, n, sizeof(double), cmp_double);
	r.min = s[0];
	r.max = s[n - 1];
	r.med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return r;
}

/* ------------------------------------------------------------------ */
/* Timing */

#define MAXRUNS 200

static int nruns = 15, run_ms = 1200, pin_cpu = 0, dump_traces, debug;
static int op_enabled[NOPS];
static int op_n[NOPS];
static double us[NOPS][NMODES][MAXRUNS];	/* per operation, per run */
static int nus[NOPS][NMODES];
static double per_op[NOPS][NISO][NST][MAXRUNS];	/* isolating: counters per op */
static int nper[NOPS][NISO];
static double calib_ns[NMODES];
static double calib_st[NISO][NST];
static struct summary t_sum[NOPS][NMODES];
static double st_med[NOPS][NISO][NST];

static void calibrate(void)
{
	double ns[NMODES][9] = { { 0 } }, st[NISO][NST][9] = { { { 0 } } };
	struct res r;
	int i, m, k, j;

	for (i = 0; i < 9; i++)
		for (m = 0; m < NMODES; m++) {
			if (run_one(m, OP_EMPTY, 0, &r))
				continue;
			ns[m][i] = r.ns;
			if (ISO(m) >= 0)
				for (k = 0; k < NST; k++)
					st[ISO(m)][k][i] = r.d[k];
		}
	for (m = 0; m < NMODES; m++)
		calib_ns[m] = summarize(ns[m], 9).med;
	for (j = 0; j < NISO; j++)
		for (k = 0; k < NST; k++)
			calib_st[j][k] = summarize(st[j][k], 9).med;
	printf("# timing window (subtracted): ");
	for (m = 0; m < NMODES; m++)
		printf("%s %.1f us%s", mode_name[m], calib_ns[m] / 1000,
		       m + 1 < NMODES ? ", " : "\n");
	for (j = 0; j < NISO; j++)
		printf("# %s counter window (subtracted): syscalls %.0f, code %.0f, data %.0f, grants %.0f\n",
		       mode_name[iso_mode[j]], calib_st[j][ST_SYSCALLS],
		       calib_st[j][ST_CODE], calib_st[j][ST_DATA],
		       calib_st[j][ST_GRANTS]);
}

static void time_op(int op)
{
	double sum = 0, est;
	long long t0 = now_ns();
	struct res r;
	int m, i, k, n, j;

	/* Warm up every mode, then estimate the cost per operation. */
	for (m = 0; m < NMODES; m++) {
		if (run_one(m, op, 1, &r) || run_one(m, op, 3, &r))
			return;
		est = (r.ns - calib_ns[m]) / 3;
		sum += est > 0 ? est : 0;
	}
	/* N such that one round (every mode once) takes about run_ms. */
	n = sum > 0 ? (int)(run_ms * 1e6 / sum) : ops[op].nmax;
	if (n < 3)
		n = 3;
	if (n > ops[op].nmax)
		n = ops[op].nmax;
	op_n[op] = n;
	for (i = 0; i < nruns; i++)
		for (k = 0; k < NMODES; k++) {
			m = (i + k) % NMODES;	/* rotate the order of the modes */
			if (run_one(m, op, n, &r))
				return;
			est = (r.ns - calib_ns[m]) / n;
			us[op][m][nus[op][m]++] = (est > 0 ? est : 0) / 1000;
			j = ISO(m);
			if (j >= 0) {
				int s;

				for (s = 0; s < NST; s++)
					per_op[op][j][s][nper[op][j]] =
						(r.d[s] - calib_st[j][s]) / n;
				nper[op][j]++;
			}
		}
	for (m = 0; m < NMODES; m++)
		t_sum[op][m] = summarize(us[op][m], nus[op][m]);
	for (j = 0; j < NISO; j++)
		for (k = 0; k < NST; k++)
			st_med[op][j][k] = summarize(per_op[op][j][k], nper[op][j]).med;
	printf("# %-22s N=%-5d %5.1f s: none %.1f, allow %.1f, isolate %.1f, keepd %.1f, keep %.1f, notif %.1f, trace %.1f us; isolate: %.1f syscalls, %.1f code + %.1f data faults; keepd: %.1f + %.1f; keep: %.1f + %.1f\n",
	       ops[op].label, n, (now_ns() - t0) / 1e9,
	       t_sum[op][M_NONE].med, t_sum[op][M_ALLOW].med,
	       t_sum[op][M_ISOLATE].med, t_sum[op][M_KEEPD].med,
	       t_sum[op][M_KEEP].med, t_sum[op][M_NOTIF].med,
	       t_sum[op][M_TRACE].med,
	       st_med[op][0][ST_SYSCALLS], st_med[op][0][ST_CODE],
	       st_med[op][0][ST_DATA], st_med[op][1][ST_CODE],
	       st_med[op][1][ST_DATA], st_med[op][2][ST_CODE],
	       st_med[op][2][ST_DATA]);
}

/* ------------------------------------------------------------------ */
/* Kept grants under background load (issue #17) */

/*
 * The keeping workers check their kept grants against what the kernel
 * changed since their last isolated syscall (sci_kernel_gen and its ring of
 * changed ranges): only a grant whose range changed is dropped and faults
 * in again.  Measured here with another process, unisolated, on another
 * CPU, changing kernel mappings as fast as it can: forks and exits (task
 * stacks, page tables), a seccomp filter installed by each child (a BPF
 * program's memory and JIT image), the test module loaded and unloaded
 * (module text and its set_memory changes).
 */
enum { BG_NONE, BG_FORK, BG_FILTER, BG_MODULE, NBG };
static const char *const bg_name[NBG] = {
	"none", "fork_exit", "fork_filter_exit", "module_load_unload",
};
static const char *const bg_label[NBG] = {
	"none", "fork+exit", "fork+filter+exit", "insmod+rmmod",
};
#define TESTMOD_KO	"/sci/bin/modules/sci_testmod.ko"
#define KEPT_N		500	/* syscalls per round */
#define KEPT_ROUNDS	7

static const int kept_ops[] = { OP_GETPID, OP_READ1 };
#define NKEPT_OPS	((int)(sizeof(kept_ops) / sizeof(kept_ops[0])))

struct kept_row {
	int done;
	double bg_rate;			/* background operations per second */
	double us, code, data, stale, ranges, all;	/* per syscall, medians */
};
static struct kept_row kept[NBG][NKEPT_OPS][2];	/* [.][.][0: keepd, 1: keep] */
static const char *kept_skip[NBG];

static double mean(const double *v, int n)
{
	double sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

static int bg_once(int kind)
{
	int status, fd;
	pid_t pid;

	switch (kind) {
	case BG_FORK:
	case BG_FILTER:
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(kind == BG_FILTER && install(SECCOMP_RET_ALLOW, 0) ? 1 : 0);
		return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		       !WEXITSTATUS(status) ? 0 : -1;
	case BG_MODULE:
		fd = open(TESTMOD_KO, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		status = syscall(__NR_finit_module, fd, "", 0);
		close(fd);
		if (status && errno != EEXIST)
			return -1;
		/* Going away still (EBUSY, EAGAIN): the next round unloads it. */
		if (syscall(__NR_delete_module, "sci_testmod", O_NONBLOCK) &&
		    errno != EBUSY && errno != EAGAIN)
			return -1;
		return 0;
	}
	return 0;
}

/* The background process: @kind until killed, counting in @count. */
static pid_t bg_start(int kind, volatile long *count)
{
	pid_t pid;

	*count = 0;
	if (kind == BG_NONE)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid != 0)
		return pid;
	if (pin_cpu >= 0 && sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		cpu_set_t other;

		CPU_ZERO(&other);
		CPU_SET(pin_cpu == 0 ? 1 : 0, &other);
		sched_setaffinity(0, sizeof(other), &other);
	}
	for (;;) {
		if (bg_once(kind))
			_exit(1);
		(*count)++;
	}
}

static int bg_stop(pid_t pid)
{
	int status;

	if (pid <= 0)
		return 0;
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	/* Killed by us: it ran; an exit of its own is a failed operation. */
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? 0 : -1;
}

static void kept_under_load(void)
{
	volatile long *count = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int kind, o, k, i;

	if (count == MAP_FAILED) {
		fail("kept grants under load: mmap: %m");
		return;
	}
	if (access(TESTMOD_KO, R_OK))
		kept_skip[BG_MODULE] = "no " TESTMOD_KO " in this guest";
	for (kind = 0; kind < NBG; kind++) {
		long long t0;
		double secs;
		pid_t bg;

		if (kept_skip[kind])
			continue;
		/* The module's first load must work before its churn counts. */
		if (kind == BG_MODULE && bg_once(BG_MODULE)) {
			kept_skip[kind] = "the test module does not load";
			continue;
		}
		bg = bg_start(kind, count);
		if (bg < 0) {
			fail("kept grants under load: cannot start %s", bg_name[kind]);
			continue;
		}
		t0 = now_ns();
		usleep(100000);
		for (o = 0; o < NKEPT_OPS; o++)
			for (k = 0; k < 2; k++) {
				int m = k ? M_KEEP : M_KEEPD, j = ISO(m), op = kept_ops[o];
				double v[6][KEPT_ROUNDS];
				struct kept_row *row = &kept[kind][o][k];
				struct res r;

				if (run_one(m, op, 50, &r))
					continue;
				for (i = 0; i < KEPT_ROUNDS; i++) {
					double n = KEPT_N;

					if (run_one(m, op, KEPT_N, &r))
						break;
					v[0][i] = (r.ns - calib_ns[m]) / n / 1000;
					v[1][i] = (r.d[ST_CODE] - calib_st[j][ST_CODE]) / n;
					v[2][i] = (r.d[ST_DATA] - calib_st[j][ST_DATA]) / n;
					v[3][i] = (r.d[ST_STALE] - calib_st[j][ST_STALE]) / n;
					v[4][i] = (r.d[ST_REVAL_RANGES] - calib_st[j][ST_REVAL_RANGES]) / n;
					v[5][i] = (r.d[ST_REVAL_ALL] - calib_st[j][ST_REVAL_ALL]) / n;
				}
				if (i < KEPT_ROUNDS)
					continue;
				/* Time: the median; events: the mean (rare ones count). */
				row->us = summarize(v[0], KEPT_ROUNDS).med;
				row->code = mean(v[1], KEPT_ROUNDS);
				row->data = mean(v[2], KEPT_ROUNDS);
				row->stale = mean(v[3], KEPT_ROUNDS);
				row->ranges = mean(v[4], KEPT_ROUNDS);
				row->all = mean(v[5], KEPT_ROUNDS);
				row->done = 1;
			}
		secs = (now_ns() - t0) / 1e9;
		for (o = 0; o < NKEPT_OPS; o++)
			for (k = 0; k < 2; k++)
				kept[kind][o][k].bg_rate = *count / secs;
		if (bg_stop(bg))
			fail("kept grants under load: the %s background failed after %ld operations",
			     bg_name[kind], *count);
		printf("# kept grants, background %s: %.0f operations/s over %.1f s\n",
		       bg_label[kind], *count / secs, secs);
	}
	if (!kept_skip[BG_MODULE])
		syscall(__NR_delete_module, "sci_testmod", O_NONBLOCK);
	munmap((void *)count, 4096);
}

/* ------------------------------------------------------------------ */
/* Grant trace of one isolated operation: do faults repeat on a page? */

struct ksym {
	unsigned long addr, size;
	char *name;
};
static struct ksym *ksyms;
static size_t nksyms;

static int cmp_ksym_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : cmp_ksym_addr(a, b);
}

static void load_kallsyms(void)
{
	size_t cap = 1 << 22, len = 0, max = 0, i, j;
	char *buf = malloc(cap), *line, *save;
	int fd = open("/proc/kallsyms", O_RDONLY);
	ssize_t n;

	if (fd < 0 || !buf)
		return;
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 65536) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				return;
		}
	}
	close(fd);
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp1 = strchr(line, ' '), *name, *end;

		if (!sp1 || !sp1[1] || sp1[2] != ' ')
			continue;
		name = sp1 + 3;
		end = strpbrk(name, " \t");
		if (end)
			*end = '\0';
		if (nksyms == max) {
			max = max ? 2 * max : 65536;
			ksyms = realloc(ksyms, max * sizeof(*ksyms));
			if (!ksyms)
				return;
		}
		ksyms[nksyms].addr = strtoul(line, NULL, 16);
		ksyms[nksyms].size = 0;
		ksyms[nksyms].name = name;
		nksyms++;
	}
	/* Sizes as %pS computes them: up to the next higher address. */
	qsort(ksyms, nksyms, sizeof(*ksyms), cmp_ksym_addr);
	for (i = 0; i < nksyms; i = j) {
		for (j = i + 1; j < nksyms && ksyms[j].addr == ksyms[i].addr; j++)
			;
		if (j < nksyms) {
			size_t k;

			for (k = i; k < j; k++)
				ksyms[k].size = ksyms[j].addr - ksyms[i].addr;
		}
	}
	qsort(ksyms, nksyms, sizeof(*ksyms), cmp_ksym);
}

/*
 * The address of @name+@off/@size as %pS printed it; 0 when unknown or
 * ambiguous (static functions of the same name and size in several files).
 */
static unsigned long ksym_addr(const char *name, unsigned long off,
			       unsigned long size, int *ambiguous)
{
	size_t lo = 0, hi = nksyms, i;
	unsigned long found = 0;
	int n = 0;

	*ambiguous = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(ksyms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < nksyms && !strcmp(ksyms[i].name, name); i++)
		if (!size || ksyms[i].size == size) {
			found = ksyms[i].addr + off;
			n++;
		}
	if (n > 1) {
		*ambiguous = 1;
		return 0;
	}
	return found;
}

struct trace_sum {
	int code, data, violations, distinct, repeats, upgrades, ambiguous;
	char first_repeat[160];
};

struct tkey {
	unsigned int nr;
	int type;		/* 0 code, 1 data */
	unsigned long page;
};

static void analyse_trace(char *buf, struct trace_sum *t)
{
	static struct tkey k[8192];
	char *line, *save;
	int n = 0, i;

	memset(t, 0, sizeof(*t));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char type[16], sym[256], *plus;
		unsigned long addr = 0, off = 0;
		unsigned int nr;
		int pid, dup = 0, ambiguous = 0;

		if (sscanf(line, "%d %u %15s %255s", &pid, &nr, type, sym) != 4)
			continue;
		if (!strcmp(type, "violation")) {
			t->violations++;
			continue;
		}
		if (!strncmp(sym, "0x", 2)) {
			addr = strtoul(sym, NULL, 16);
		} else if ((plus = strchr(sym, '+'))) {
			unsigned long size = 0;
			char *slash = strchr(plus, '/');

			*plus = '\0';
			off = strtoul(plus + 1, NULL, 16);
			if (slash)
				size = strtoul(slash + 1, NULL, 16);
			addr = ksym_addr(sym, off, size, &ambiguous);
		}
		if (!addr) {
			/* Counted as a distinct page, never as a repeat. */
			t->ambiguous++;
			addr = (0xfUL << 60) | ((unsigned long)n << 12);
		}
		if (n == 8192)
			break;
		k[n].nr = nr;
		k[n].type = strcmp(type, "code") ? 1 : 0;
		k[n].page = addr >> 12;
		if (k[n].type)
			t->data++;
		else
			t->code++;
		for (i = 0; i < n; i++) {
			if (k[i].nr != k[n].nr || k[i].page != k[n].page)
				continue;
			if (k[i].type == k[n].type) {
				dup = 2;
				break;
			}
			dup = 1;
		}
		if (dup == 2) {
			t->repeats++;
			if (!t->first_repeat[0])
				snprintf(t->first_repeat, sizeof(t->first_repeat),
					 "%s", line);
		} else if (dup == 1) {
			t->upgrades++;
		} else {
			t->distinct++;
		}
		n++;
	}
}

static struct trace_sum tr[NOPS];
static int tr_done[NOPS];

struct trace_shared {
	int ready, go, done, quit, err;
};

static void spin_until(volatile int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void trace_op(int op)
{
	static char buf[1 << 20];
	struct trace_shared *sh;
	char pidbuf[32];
	long long t0;
	int st;
	pid_t pid;

	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct wctx w;

		if (open_files(&w) || install(SECCOMP_RET_ISOLATE, 0))
			_exit(1);
		do_op(&w, op, 1);	/* warm up: tables, caches */
		lseek(w.data_fd, 0, SEEK_SET);
		__atomic_store_n(&sh->ready, 1, __ATOMIC_RELEASE);
		/* No syscall until the trace is read: spin on shared memory. */
		spin_until(&sh->go);
		sh->err = do_op(&w, op, 1);
		__atomic_store_n(&sh->done, 1, __ATOMIC_RELEASE);
		spin_until(&sh->quit);
		_exit(0);
	}
	if (pid < 0)
		goto out;
	t0 = now_ns();
	while (!__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) && now_ns() - t0 < 60e9 &&
	       waitpid(pid, &st, WNOHANG) == 0)
		usleep(1000);
	if (!sh->ready) {
		fail("trace of %s: the isolated child did not start", ops[op].name);
		goto reap;
	}
	snprintf(pidbuf, sizeof(pidbuf), "%d", pid);
	if (sci_write_file("/sys/kernel/debug/sci/trace_pid", pidbuf))
		goto reap;
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE) && now_ns() - t0 < 120e9)
		usleep(1000);
	if (sh->done && !sh->err &&
	    sci_read_file("/sys/kernel/debug/sci/trace", buf, sizeof(buf)) >= 0) {
		if (dump_traces) {
			char *line, *save, *copy = strdup(buf);

			for (line = strtok_r(copy, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				printf("# trace %s: %s\n", ops[op].name, line);
			free(copy);
		}
		analyse_trace(buf, &tr[op]);
		tr_done[op] = 1;
	} else {
		fail("trace of %s: the operation failed", ops[op].name);
	}
	sci_write_file("/sys/kernel/debug/sci/trace_pid", "0");
reap:
	__atomic_store_n(&sh->quit, 1, __ATOMIC_RELEASE);
	if (waitpid(pid, &st, 0) == pid && (!WIFEXITED(st) || WEXITSTATUS(st)))
		fail("trace of %s: the isolated child ended with status 0x%x", ops[op].name, st);
out:
	munmap(sh, 4096);
}

/* ------------------------------------------------------------------ */
/* SCI page-table memory of N isolated tasks */

static long meminfo_kib(const char *key)
{
	char buf[4096], *p;
	size_t len = strlen(key);

	if (sci_read_file("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ':')
			return atol(p + len + 1);
	return -1;
}

/*
 * Mapped pages, executable pages (if @xpages) and table_pages of @pid's
 * SCI tables, from the dump.
 */
static int dump_task_x(pid_t pid, long *mapped, long *tpages, long *xpages)
{
	static char buf[1 << 16];
	char pidbuf[32], *line, *save;

	*mapped = *tpages = -1;
	if (xpages)
		*xpages = -1;
	snprintf(pidbuf, sizeof(pidbuf), "%d", pid);
	if (sci_write_file("/sys/kernel/debug/sci/dump_pid", pidbuf) ||
	    sci_read_file("/sys/kernel/debug/sci/dump", buf, sizeof(buf)) <= 0)
		return -1;
	*mapped = 0;
	if (xpages)
		*xpages = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long s, e, pages;
		char prot[8];

		if (sscanf(line, "0x%lx-0x%lx %lu %7s", &s, &e, &pages, prot) == 4) {
			*mapped += pages;
			if (xpages && prot[0] == 'x')
				*xpages += pages;
		} else {
			sscanf(line, "table_pages: %ld", tpages);
		}
	}
	return 0;
}

static int dump_task(pid_t pid, long *mapped, long *tpages)
{
	return dump_task_x(pid, mapped, tpages, NULL);
}

/*
 * Executable pages of an isolated task's SCI tables at rest, with no
 * syscall in flight (it spins in user space): the premapped set.  The
 * timing workers always wait in an isolated read, whose grants a dump
 * would count.
 */
static long premapped_xpages(void)
{
	volatile int *flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long mapped, tpages, x = -1;
	long long t0 = now_ns();
	pid_t pid;

	if (flag == MAP_FAILED)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (install(SECCOMP_RET_ISOLATE, 0))
			_exit(1);
		syscall(__NR_getpid);
		__atomic_store_n(&flag[0], 1, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&flag[1], __ATOMIC_ACQUIRE))
			__builtin_ia32_pause();
		_exit(0);
	}
	if (pid > 0) {
		while (!__atomic_load_n(&flag[0], __ATOMIC_ACQUIRE) &&
		       now_ns() - t0 < 60e9 && waitpid(pid, NULL, WNOHANG) == 0)
			usleep(1000);
		if (flag[0] && dump_task_x(pid, &mapped, &tpages, &x))
			x = -1;
		__atomic_store_n(&flag[1], 1, __ATOMIC_RELEASE);
		waitpid(pid, NULL, 0);
	}
	munmap((void *)flag, 4096);
	return x;
}

/*
 * Isolate every syscall but the three the test synchronises with (read on
 * MEM_GO1 and MEM_GO2, write on MEM_READY), which are allowed: a task
 * waiting for the next step is at rest, between two isolated syscalls.
 */
static int mem_filter(unsigned int action)
{
	struct sock_filter f[] = {
		/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_read, 0, 3),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MEM_GO1, 5, 0),
		/* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MEM_GO2, 4, 3),
		/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 0, 2),
		/* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MEM_READY, 1, 0),
		/* 8 */ BPF_STMT(BPF_RET | BPF_K, action),
		/* 9 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * The busy syscall is a 64 KiB read into a buffer faulted in beforehand, so
 * that it allocates no page: with many fresh isolated tasks, a fork here
 * deadlocked the guest (an SCI fault inside the page allocator, under
 * zone->lock, with the task's page pool empty, allocates a page-table page
 * and spins on zone->lock).  The timing phase measures fork and execve.
 */
static void __attribute__((noreturn)) mem_child(unsigned int action)
{
	static char buf[65536];
	char c;

	memset(buf, 1, sizeof(buf));
	if (mem_filter(action))
		_exit(1);
	syscall(SYS_getpid);			/* the first isolated syscall */
	if (write(MEM_READY, "r", 1) != 1 || read(MEM_GO1, &c, 1) != 1)
		_exit(2);
	if (pread(MEM_DATA, buf, sizeof(buf), 0) != sizeof(buf))
		_exit(3);
	if (write(MEM_READY, "b", 1) != 1 || read(MEM_GO2, &c, 1) != 1)
		_exit(5);
	_exit(0);
}

static int read_n(int fd, int n, int timeout_ms)
{
	char buf[256];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (n > 0) {
		ssize_t r;

		if (poll(&pfd, 1, timeout_ms) != 1)
			return -1;
		r = read(fd, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf));
		if (r <= 0)
			return -1;
		n -= r;
	}
	return 0;
}

static int write_n(int fd, int n)
{
	char buf[256];

	memset(buf, 'g', sizeof(buf));
	while (n > 0) {
		ssize_t w = write(fd, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf));

		if (w <= 0)
			return -1;
		n -= w;
	}
	return 0;
}

struct mem_result {
	int tasks;
	long s[4][NST];		/* before, at rest, after busy, after exit */
	long free[4];		/* MemFree, KiB */
	long dump_mapped[2], dump_tpages[2];	/* at rest, after busy */
	int ok;
};

static void settle(void)
{
	usleep(200 * 1000);
}

static void mem_run(int n, unsigned int action, struct mem_result *mr)
{
	int go1[2], go2[2], ready[2], data, i, st, bad = 0;
	pid_t *pids = calloc(n, sizeof(pid_t));
	int iso = action == SECCOMP_RET_ISOLATE;

	memset(mr, 0, sizeof(*mr));
	mr->tasks = n;
	data = open(DATA_PATH, O_RDONLY | O_CLOEXEC);
	if (!pids || data < 0 || pipe2(go1, O_CLOEXEC) || pipe2(go2, O_CLOEXEC) ||
	    pipe2(ready, O_CLOEXEC)) {
		fail("memory test: setup: %m");
		return;
	}
	settle();
	snap(mr->s[0]);
	mr->free[0] = meminfo_kib("MemFree");
	fflush(NULL);
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			fail("memory test: fork %d of %d: %m", i, n);
			n = i;
			bad = 1;
			break;
		}
		if (pids[i] == 0) {
			if (dup2(go1[0], MEM_GO1) < 0 || dup2(ready[1], MEM_READY) < 0 ||
			    dup2(go2[0], MEM_GO2) < 0 || dup2(data, MEM_DATA) < 0)
				_exit(1);
			close_range(3, MEM_GO1 - 1, 0);
			close_range(MEM_DATA + 1, ~0U, 0);
			mem_child(action);
		}
	}
	if (debug)
		printf("# mem %d %s: forked\n", n, iso ? "isolate" : "allow");
	if (!bad && read_n(ready[0], n, 300 * 1000)) {
		fail("memory test: %d tasks did not all get ready", n);
		bad = 1;
	}
	settle();
	snap(mr->s[1]);
	mr->free[1] = meminfo_kib("MemFree");
	if (iso && n == 1)
		dump_task(pids[0], &mr->dump_mapped[0], &mr->dump_tpages[0]);
	if (debug)
		printf("# mem %d %s: ready\n", n, iso ? "isolate" : "allow");
	if (!bad && (write_n(go1[1], n) || read_n(ready[0], n, 300 * 1000))) {
		fail("memory test: %d tasks did not all finish the busy syscalls", n);
		bad = 1;
	}
	settle();
	snap(mr->s[2]);
	mr->free[2] = meminfo_kib("MemFree");
	if (iso && n == 1)
		dump_task(pids[0], &mr->dump_mapped[1], &mr->dump_tpages[1]);
	if (debug)
		printf("# mem %d %s: busy done\n", n, iso ? "isolate" : "allow");
	if (!bad)
		write_n(go2[1], n);
	for (i = 0; i < n; i++) {
		if (bad)
			kill(pids[i], SIGKILL);
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) || WEXITSTATUS(st)) {
			if (!bad)
				fail("memory test: task %d ended with status 0x%x", i, st);
			bad = 1;
		}
	}
	settle();
	snap(mr->s[3]);
	mr->free[3] = meminfo_kib("MemFree");
	close(go1[0]); close(go1[1]); close(go2[0]); close(go2[1]);
	close(ready[0]); close(ready[1]); close(data);
	free(pids);
	mr->ok = !bad;
}

static long worker_mapped = -1, worker_tpages = -1;
/* Executable pages of each isolating worker's SCI tables at rest, after @op */
static long xrest[NOPS][NISO];
static long xpremapped = -1;
static int ntasks;
static int tasks[16] = { 1, 10, 100, 1000 };
static struct mem_result mem_iso[16], mem_ctl[16];

/* ------------------------------------------------------------------ */
/* Output */

static char table[1 << 16];
static size_t tlen;
static char csv[1 << 18], csv_mem[1 << 14];
static size_t clen, mlen;

#define T(...) (tlen += snprintf(table + tlen, sizeof(table) - tlen, __VA_ARGS__))
#define C(...) (clen += snprintf(csv + clen, sizeof(csv) - clen, __VA_ARGS__))
#define CM(...) (mlen += snprintf(csv_mem + mlen, sizeof(csv_mem) - mlen, __VA_ARGS__))

static void fmt_time(char *out, size_t len, struct summary s)
{
	const char *f = s.max < 100 ? "%.1f [%.1f-%.1f]" : "%.0f [%.0f-%.0f]";

	snprintf(out, len, f, s.med, s.min, s.max);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

static void csv_row(const char *section, const char *op, const char *mode,
		    const char *metric, double v)
{
	C("%s,%s,%s,%s,%.4g\n", section, op, mode, metric, v);
}

/*
 * Kernel code an isolated syscall can execute without a check on its
 * next fetch fault: the executable pages of its SCI tables.  At rest
 * (from the task's table dump) that is the premapped set, plus the kept
 * code pages in keep mode; during a syscall, the code pages it faulted in
 * too (each code fault grants one page that no earlier fault of the
 * syscall granted: the grant trace shows no repeats).
 */
static void exposure_report(void)
{
	unsigned long stext = ksym_addr("_stext", 0, 0, &(int){0});
	unsigned long etext = ksym_addr("_etext", 0, 0, &(int){0});
	unsigned long es = ksym_addr("__entry_text_start", 0, 0, &(int){0});
	unsigned long ee = ksym_addr("__entry_text_end", 0, 0, &(int){0});
	double text = stext && etext > stext ? (etext - stext) / 4096.0 : 0;
	long premapped = xpremapped, pad = 0;
	int op, i;

	/*
	 * PTI maps the entry text as whole 2 MiB blocks (it is PMD-aligned
	 * in vmlinux, padded with int3): the padding is mapped, not code.
	 */
	if (premapped < 0)
		fail("exposure: no table dump of an isolated task at rest");
	if (es && ee > es)
		pad = (((ee + (1UL << 21) - 1) & ~((1UL << 21) - 1)) -
		       (es & ~((1UL << 21) - 1))) / 4096 -
		      (((ee + 4095) & ~4095UL) - (es & ~4095UL)) / 4096;
	T("\nKernel code exposed (executable 4 KiB pages of the SCI tables),\n"
	  "against the kernel's text (_stext to _etext, %.0f pages, %.1f MiB).\n"
	  "Premapped at rest: %ld pages, of which about %ld are the int3 padding of\n"
	  "the 2 MiB entry text block that PTI maps whole (with the SRSO alias\n"
	  "thunks, a few bytes) and %ld are code: entry text, .noinstr.text, thunks.\n"
	  "During one isolated syscall of the operation: the premapped code + the\n"
	  "code pages it faulted in (code faults / syscalls, median); keep: the\n"
	  "executable code pages of the keeping worker's tables after that\n"
	  "operation's runs, while it waits in an isolated read for its next\n"
	  "command (kept code, growing with each operation the task ran: in this\n"
	  "order, capped by kernel.sci_keep_max_code, plus that read's own\n"
	  "grants); x: kernel text pages over the exposed code pages.\n\n",
	  text, text * 4096 / 1048576, premapped, pad, premapped - pad);
	if (premapped >= 0)
		premapped -= pad;
	T("%-21s %10s %10s %8s | %10s %8s | %10s %8s\n", "operation", "code/sysc",
	  "isolate", "x", "keepd", "x", "keep rest", "x");
	for (op = 1; op < NOPS; op++) {
		double sysc, during[2];

		if (!op_enabled[op] || !op_n[op] || premapped < 0)
			continue;
		for (i = 0; i < 2; i++) {
			sysc = st_med[op][i][ST_SYSCALLS];
			during[i] = premapped +
				    (sysc >= 1 ? st_med[op][i][ST_CODE] / sysc : 0);
		}
		sysc = st_med[op][0][ST_SYSCALLS];
		T("%-21s %10.1f %10.1f %8.1f | %10.1f %8.1f | %10ld %8.1f\n",
		  ops[op].label,
		  sysc >= 1 ? st_med[op][0][ST_CODE] / sysc : 0,
		  during[0], ratio(text, during[0]), during[1],
		  ratio(text, during[1]), xrest[op][2] - pad,
		  xrest[op][2] > pad ? ratio(text, xrest[op][2] - pad) : 0);
		if (xrest[op][0] < 0 || xrest[op][2] < 0)
			fail("exposure of %s: no table dump of a worker", ops[op].name);
		C("sci,%s,isolate,exec_pages,%.4g\n", ops[op].name, during[0]);
		C("sci,%s,keepd,exec_pages,%.4g\n", ops[op].name, during[1]);
		C("sci,%s,keep,exec_pages_at_rest,%ld\n", ops[op].name, xrest[op][2] - pad);
	}
	C("sci,all,kernel,text_pages,%.0f\n", text);
	C("sci,all,isolate,premapped_code_pages,%ld\n", premapped);
	C("sci,all,isolate,entry_block_padding_pages,%ld\n", pad);
}

/*
 * Events per isolated syscall in the isolating modes, and the estimate of
 * what they cost on hardware (see HW_* at the head of this file).  The
 * kernel does not count its CR3 writes: they are derived, a floor.
 */
static int pcid_on = -1;

struct events {
	double sysc, code, data, doors, cr3, sci_loads, full, single, copies;
	double handler_us;	/* per fault, TCG; < 0: no fault */
	double est_nopcid, est_pcid;
};

static struct events events_of(int op, int i)
{
	const double *m = st_med[op][i];
	struct events e = { 0 };
	double faults, flush_ns = HW_REFILLS * HW_WALK_NS;

	e.sysc = m[ST_SYSCALLS];
	if (e.sysc < 0.5)
		return e;
	faults = m[ST_CODE] + m[ST_DATA];
	e.code = m[ST_CODE] / e.sysc;
	e.data = m[ST_DATA] / e.sysc;
	/*
	 * Each syscall loads the SCI tables and the kernel tables once; each
	 * SCI fault leaves the SCI tables for the kernel's and comes back;
	 * so does each entry of the scheduler's door (series 0100), an
	 * exception round trip like a fault's, switch or not.
	 */
	e.doors = m[ST_DOORS] / e.sysc;
	e.cr3 = 2 + 2 * (faults + m[ST_DOORS]) / e.sysc;
	e.sci_loads = 1 + (faults + m[ST_DOORS]) / e.sysc;
	/* Without PCID every CR3 write flushes; with it, the SCI loads. */
	e.full = pcid_on == 1 ? e.sci_loads : e.cr3;
	/* Regrants: SCI flushes nothing for them (the CR3 reload does). */
	e.single = m[ST_REGRANTS] / e.sysc;
	e.copies = m[ST_TABLE_COPIES] / e.sysc;
	e.handler_us = faults >= 0.5 ? m[ST_FAULT_NS] / faults / 1000 : -1;
	e.est_nopcid = ((e.code + e.data + e.doors) * HW_PF_NS + e.cr3 * HW_CR3_NS +
			e.cr3 * flush_ns +
			e.copies * HW_COPY_NS) / 1000;
	e.est_pcid = ((e.code + e.data + e.doors) * HW_PF_NS + e.cr3 * HW_CR3_NS +
		      e.sci_loads * flush_ns +
		      e.copies * HW_COPY_NS) / 1000;
	return e;
}

static void events_report(void)
{
	int op, i;

	T("\nEvents per isolated syscall (counter deltas / N over the isolated\n"
	  "syscalls, medians over the runs) and an ESTIMATE of the time they add\n"
	  "on hardware.  sysc: isolated syscalls per operation; code, data: SCI\n"
	  "faults; cr3: CR3 writes, not counted by the kernel, a floor derived\n"
	  "from the counters: the SCI and the kernel tables loaded once a syscall\n"
	  "(2), each SCI fault on the SCI tables goes to the kernel tables and\n"
	  "back (2), and so does each entry of the scheduler's door (sched_doors,\n"
	  "an exception round trip, counted as a #PF's in the estimate);\n"
	  "interrupts and faults on user addresses are not in it.  full: full\n"
	  "TLB flushes, ");
	if (pcid_on == 1)
		T("with PCID (stats: pcid 1): only the loads of\n"
		  "the SCI tables flush (the SCI PCID), 1 + faults + doors.  ");
	else
		T("without PCID (stats: pcid %d;\n"
		  "QEMU TCG has none): every CR3 write flushes the non-global TLB,\n"
		  "full = cr3.  ", pcid_on);
	T("single-page flushes: none (the return to the\n"
	  "SCI tables flushes them); regrnt: grants that changed a present PTE\n"
	  "(data to code, regrants), which a flush would otherwise need;\n"
	  "copied: page-table pages copied for a grant (table_copies); handler:\n"
	  "the SCI handler's\n"
	  "time per fault (fault_ns over the faults; TCG, not hardware time).\n"
	  "estimate: microseconds SCI adds to the syscall on hardware, events\n"
	  "times published per-event costs (sources at the head of sci_bench.c\n"
	  "and in README.md): #PF round trip %.3f us, CR3 write %.3f us, full\n"
	  "flush %.0f TLB refills (an assumption) x %.3f us, page-table copy\n"
	  "%.3f us; without PCID every CR3 write is a\n"
	  "full flush, with PCID only the SCI loads are.  The handler's own\n"
	  "instructions are not in the estimate.\n\n",
	  HW_PF_NS / 1000, HW_CR3_NS / 1000, HW_REFILLS, HW_WALK_NS / 1000,
	  HW_COPY_NS / 1000);
	T("%-30s %5s %6s %6s %6s %6s %6s %6s %8s | %19s\n", "", "", "", "",
	  "", "", "", "", "handler", "ESTIMATE us/sysc");
	T("%-30s %5s %6s %6s %6s %6s %6s %6s %8s | %9s %9s\n", "operation",
	  "sysc", "code", "data", "cr3", "full", "regrnt", "copied", "us/fault",
	  "no PCID", "PCID");
	for (op = 1; op < NOPS; op++) {
		if (!op_enabled[op] || !op_n[op])
			continue;
		for (i = 0; i < NISO; i++) {
			const char *mn = mode_name[iso_mode[i]];
			struct events e = events_of(op, i);
			char label[40], h[16] = "-";

			if (e.sysc < 0.5)
				continue;
			if (e.handler_us >= 0)
				snprintf(h, sizeof(h), "%.1f", e.handler_us);
			snprintf(label, sizeof(label), "%s, %s", ops[op].label, mn);
			T("%-30s %5.1f %6.1f %6.1f %6.1f %6.1f %6.2f %6.2f %8s | %9.2f %9.2f\n",
			  label, e.sysc, e.code, e.data, e.cr3, e.full, e.single,
			  e.copies, h, e.est_nopcid, e.est_pcid);
			csv_row("events", ops[op].name, mn, "syscalls_per_op", e.sysc);
			csv_row("events", ops[op].name, mn, "code_faults_per_syscall", e.code);
			csv_row("events", ops[op].name, mn, "data_faults_per_syscall", e.data);
			csv_row("events", ops[op].name, mn, "cr3_writes_per_syscall", e.cr3);
			csv_row("events", ops[op].name, mn, "sci_loads_per_syscall", e.sci_loads);
			csv_row("events", ops[op].name, mn, "full_flushes_per_syscall", e.full);
			csv_row("events", ops[op].name, mn, "regrants_per_syscall", e.single);
			csv_row("events", ops[op].name, mn, "table_copies_per_syscall", e.copies);
			if (e.handler_us >= 0)
				csv_row("events", ops[op].name, mn, "handler_us_per_fault", e.handler_us);
			csv_row("events", ops[op].name, mn, "estimate_hw_us_per_syscall_nopcid", e.est_nopcid);
			csv_row("events", ops[op].name, mn, "estimate_hw_us_per_syscall_pcid", e.est_pcid);
		}
	}
	csv_row("events", "all", "kernel", "pcid", pcid_on);
	csv_row("events", "all", "hw", "pf_round_trip_ns", HW_PF_NS);
	csv_row("events", "all", "hw", "cr3_write_ns", HW_CR3_NS);
	csv_row("events", "all", "hw", "tlb_refill_ns", HW_WALK_NS);
	csv_row("events", "all", "hw", "refills_per_full_flush_assumed", HW_REFILLS);
	csv_row("events", "all", "hw", "single_page_flush_ns", HW_INVLPG_NS);
	csv_row("events", "all", "hw", "table_copy_ns", HW_COPY_NS);
}

static void kept_report(void)
{
	int kind, o, k;

	T("\nKept grants under background load: another process, unisolated, on\n"
	  "another CPU, changes kernel mappings in a loop (bg ops/s) while a\n"
	  "keeping worker makes %d isolated syscalls a round, %d rounds\n"
	  "(us/op: the median; the events: the mean over the rounds).  Per\n"
	  "isolated syscall: code, data: SCI faults (a kept\n"
	  "grant dropped faults in again); stale: kept grants dropped because\n"
	  "their page changed; ranges: checks of the kept grants against the\n"
	  "ranges changed since the last syscall; all: checks of every kept\n"
	  "grant (more than the ring's %d changes since).  survive: isolated\n"
	  "syscalls per dropped grant (- when none was dropped).\n\n",
	  KEPT_N, KEPT_ROUNDS, 64);
	T("%-18s %9s %-7s %-18s %8s %6s %6s %7s %6s %6s %8s\n", "load", "bg ops/s",
	  "mode", "operation", "us/op", "code", "data", "stale", "ranges",
	  "all", "survive");
	for (kind = 0; kind < NBG; kind++) {
		if (kept_skip[kind]) {
			T("%-18s skipped: %s\n", bg_label[kind], kept_skip[kind]);
			continue;
		}
		for (o = 0; o < NKEPT_OPS; o++)
			for (k = 0; k < 2; k++) {
				const struct kept_row *r = &kept[kind][o][k];
				const char *mn = mode_name[k ? M_KEEP : M_KEEPD];
				const char *on = ops[kept_ops[o]].name;
				char surv[16] = "-";

				if (!r->done)
					continue;
				if (r->stale > 0)
					snprintf(surv, sizeof(surv), "%.0f", 1 / r->stale);
				T("%-18s %9.0f %-7s %-18s %8.1f %6.2f %6.2f %7.3f %6.2f %6.3f %8s\n",
				  bg_label[kind], r->bg_rate, mn, ops[kept_ops[o]].label,
				  r->us, r->code, r->data, r->stale, r->ranges, r->all, surv);
				C("kept_load,%s,%s,%s_bg_ops_per_s,%.4g\n", on, mn, bg_name[kind], r->bg_rate);
				C("kept_load,%s,%s,%s_us_per_op,%.4g\n", on, mn, bg_name[kind], r->us);
				C("kept_load,%s,%s,%s_code_faults_per_syscall,%.4g\n", on, mn, bg_name[kind], r->code);
				C("kept_load,%s,%s,%s_data_faults_per_syscall,%.4g\n", on, mn, bg_name[kind], r->data);
				C("kept_load,%s,%s,%s_stale_grants_per_syscall,%.4g\n", on, mn, bg_name[kind], r->stale);
				C("kept_load,%s,%s,%s_revalidate_ranges_per_syscall,%.4g\n", on, mn, bg_name[kind], r->ranges);
				C("kept_load,%s,%s,%s_revalidate_all_per_syscall,%.4g\n", on, mn, bg_name[kind], r->all);
			}
	}
}

static void report(const char *env, double total_s)
{
	char cell[64];
	int op, m, i;

	T("SCI benchmark: %s\n", env);
	T("Times under QEMU TCG are emulated, not hardware times: only ratios within\n"
	  "this run are meaningful.  Every mode runs in a process of its own, the\n"
	  "modes side by side in each round (order rotated); %d runs of N iterations\n"
	  "per operation and mode; microseconds per operation, median [min-max]\n"
	  "over the runs, the cost of the timing window subtracted.\n", nruns);
	if (pin_cpu >= 0)
		T("Every timed process, the USER_NOTIF supervisor and the tracer included,\n"
		  "runs on CPU %d: a round trip to them is two context switches, not a\n"
		  "cross-CPU wakeup (which under TCG waits for the host to run a vCPU thread).\n",
		  pin_cpu);
	T("\n");
	T("%-21s %5s", "operation", "N");
	for (m = 0; m < NMODES; m++)
		T(" %19s", mode_name[m]);
	T("\n");
	for (op = 1; op < NOPS; op++) {
		if (!op_enabled[op] || !op_n[op])
			continue;
		T("%-21s %5d", ops[op].label, op_n[op]);
		for (m = 0; m < NMODES; m++) {
			fmt_time(cell, sizeof(cell), t_sum[op][m]);
			T(" %19s", cell);
		}
		T("\n");
	}

	T("\nIsolate mode, per operation: isolated syscalls, SCI code faults (checked),\n"
	  "data faults and grants (counter deltas / N, median over the runs); the\n"
	  "grant trace of one operation in the process that makes it (the children\n"
	  "of fork and execve are not in it): faults, distinct pages, faults that\n"
	  "repeat a page already granted in the same syscall; ratios of the median\n"
	  "isolate time to the other modes.\n\n");
	T("%-21s %6s %6s %6s %6s | %6s %6s %6s | %7s %7s %7s %7s\n", "operation",
	  "sysc", "code", "data", "grants", "trace", "pages", "repeat",
	  "/none", "/allow", "/notif", "/trace");
	for (op = 1; op < NOPS; op++) {
		double iso;

		if (!op_enabled[op] || !op_n[op])
			continue;
		iso = t_sum[op][M_ISOLATE].med;
		T("%-21s %6.1f %6.1f %6.1f %6.1f |", ops[op].label,
		  st_med[op][0][ST_SYSCALLS], st_med[op][0][ST_CODE],
		  st_med[op][0][ST_DATA], st_med[op][0][ST_GRANTS]);
		if (tr_done[op])
			T(" %6d %6d %6d |", tr[op].code + tr[op].data,
			  tr[op].distinct, tr[op].repeats);
		else
			T(" %6s %6s %6s |", "-", "-", "-");
		T(" %7.2f %7.2f %7.2f %7.2f\n", ratio(iso, t_sum[op][M_NONE].med),
		  ratio(iso, t_sum[op][M_ALLOW].med), ratio(iso, t_sum[op][M_NOTIF].med),
		  ratio(iso, t_sum[op][M_TRACE].med));
	}
	for (op = 1; op < NOPS; op++)
		if (tr_done[op] && (tr[op].repeats || tr[op].upgrades ||
				    tr[op].violations))
			T("  %s: %d repeated, %d data-then-code, %d violations, %d ambiguous symbols%s%s\n",
			  ops[op].label, tr[op].repeats, tr[op].upgrades,
			  tr[op].violations, tr[op].ambiguous,
			  tr[op].first_repeat[0] ? "; first repeat: " : "",
			  tr[op].first_repeat);

	T("\nKeeping modes, opt-in: keepd (SECCOMP_ISOLATE_KEEP_DATA: data grants\n"
	  "stay mapped across the task's isolated syscalls, every fetch is still\n"
	  "checked) and keep (SECCOMP_ISOLATE_KEEP: all grants stay, a jump within a\n"
	  "kept code page is not verified).  Per operation: SCI counter deltas / N\n"
	  "as above, ratios of the mode's median time to the other modes, and what\n"
	  "one SCI fault costs (us/fault, keep rows: the time isolate takes more\n"
	  "than keep over the faults it takes more: the fault path, its two\n"
	  "page-table switches and TLB refills, the copy and release of the tables\n"
	  "a grant needs) and, of that, the SCI fault handler itself (handler: the\n"
	  "kernel's fault_ns counter over the faults, isolate mode).\n\n");
	T("%-27s %6s %6s %6s %6s | %7s %7s %7s %7s %7s | %8s %8s\n", "operation",
	  "sysc", "code", "data", "grants", "/none", "/allow", "/isol",
	  "/notif", "/trace", "us/fault", "handler");
	for (op = 1; op < NOPS; op++) {
		if (!op_enabled[op] || !op_n[op])
			continue;
		for (i = 1; i < NISO; i++) {
			int km = iso_mode[i];
			double t = t_sum[op][km].med, dfaults, per_fault = 0;
			char label[40];

			dfaults = st_med[op][0][ST_CODE] + st_med[op][0][ST_DATA] -
				  st_med[op][i][ST_CODE] - st_med[op][i][ST_DATA];
			if (dfaults >= 1)
				per_fault = (t_sum[op][M_ISOLATE].med - t) / dfaults;
			snprintf(label, sizeof(label), "%s, %s", ops[op].label, mode_name[km]);
			T("%-27s %6.1f %6.1f %6.1f %6.1f | %7.2f %7.2f %7.2f %7.2f %7.2f |",
			  label, st_med[op][i][ST_SYSCALLS], st_med[op][i][ST_CODE],
			  st_med[op][i][ST_DATA], st_med[op][i][ST_GRANTS],
			  ratio(t, t_sum[op][M_NONE].med), ratio(t, t_sum[op][M_ALLOW].med),
			  ratio(t, t_sum[op][M_ISOLATE].med), ratio(t, t_sum[op][M_NOTIF].med),
			  ratio(t, t_sum[op][M_TRACE].med));
			if (km == M_KEEP) {
				double f = st_med[op][0][ST_CODE] + st_med[op][0][ST_DATA];
				double h = f >= 1 ? st_med[op][0][ST_FAULT_NS] / f / 1000 : 0;

				T(" %8.1f %8.1f\n", per_fault, h);
				C("sci,%s,isolate,us_per_fault,%.4g\n", ops[op].name, per_fault);
				C("sci,%s,isolate,handler_us_per_fault,%.4g\n", ops[op].name, h);
			} else {
				T(" %8s %8s\n", "", "");
			}
		}
	}

	events_report();
	kept_report();
	exposure_report();

	T("\nSCI page-table memory per isolated task: the table_pages counter (PUD,\n"
	  "PMD and PTE pages below each task's PGD) over the tasks alive, at rest\n"
	  "(after one isolated getpid) and after a busy syscall (an isolated 64 KiB\n"
	  "read).  \"all\" is the drop of MemFree against the same tasks under an\n"
	  "ALLOW filter, over the tasks: everything SCI allocates per task, its PGD,\n"
	  "fault-path page pool and grant arrays included (an estimate; the noise of\n"
	  "MemFree hides it below 1000 tasks, not shown).\n\n");
	T("%6s %7s %11s %11s %9s %9s %13s\n", "tasks", "tables", "rest KiB/t",
	  "busy KiB/t", "all rest", "all busy", "left at exit");
	for (i = 0; i < ntasks; i++) {
		struct mem_result *a = &mem_iso[i], *c = &mem_ctl[i];
		int n = a->tasks;
		double rest = (a->s[1][ST_TPAGES] - a->s[0][ST_TPAGES]) * 4.0 / n;
		double busy = (a->s[2][ST_TPAGES] - a->s[0][ST_TPAGES]) * 4.0 / n;
		double all_rest = ((a->free[0] - a->free[1]) - (c->free[0] - c->free[1])) / (double)n;
		double all_busy = ((a->free[0] - a->free[2]) - (c->free[0] - c->free[2])) / (double)n;
		char r1[16] = "-", r2[16] = "-";

		if (n >= 1000) {
			snprintf(r1, sizeof(r1), "%.1f", all_rest);
			snprintf(r2, sizeof(r2), "%.1f", all_busy);
		}
		T("%6d %7ld %11.1f %11.1f %9s %9s %6ld tables\n", n,
		  a->s[1][ST_TABLES] - a->s[0][ST_TABLES], rest, busy, r1, r2,
		  a->s[3][ST_TABLES] - a->s[0][ST_TABLES]);
		CM("memory,tasks_%d,isolate,tables,%ld\n", n, a->s[1][ST_TABLES] - a->s[0][ST_TABLES]);
		CM("memory,tasks_%d,isolate,table_kib_per_task_rest,%.2f\n", n, rest);
		CM("memory,tasks_%d,isolate,table_kib_per_task_busy,%.2f\n", n, busy);
		CM("memory,tasks_%d,isolate,memfree_kib_per_task_rest,%.2f\n", n, all_rest);
		CM("memory,tasks_%d,isolate,memfree_kib_per_task_busy,%.2f\n", n, all_busy);
		CM("memory,tasks_%d,isolate,tables_left_after_exit,%ld\n", n,
		  a->s[3][ST_TABLES] - a->s[0][ST_TABLES]);
		CM("memory,tasks_%d,isolate,table_pages_left_after_exit,%ld\n", n,
		  a->s[3][ST_TPAGES] - a->s[0][ST_TPAGES]);
		if (n == 1 && a->dump_mapped[0] >= 0) {
			CM("memory,tasks_1,isolate,dump_mapped_pages_rest,%ld\n", a->dump_mapped[0]);
			CM("memory,tasks_1,isolate,dump_table_pages_rest,%ld\n", a->dump_tpages[0]);
			CM("memory,tasks_1,isolate,dump_mapped_pages_busy,%ld\n", a->dump_mapped[1]);
			CM("memory,tasks_1,isolate,dump_table_pages_busy,%ld\n", a->dump_tpages[1]);
		}
	}
	for (i = 0; i < ntasks; i++)
		if (mem_iso[i].tasks == 1 && mem_iso[i].dump_mapped[0] >= 0)
			T("One task's dump: %ld pages mapped and %ld table pages at rest, %ld and %ld after the busy syscall.\n",
			  mem_iso[i].dump_mapped[0], mem_iso[i].dump_tpages[0],
			  mem_iso[i].dump_mapped[1], mem_iso[i].dump_tpages[1]);
	if (worker_tpages >= 0) {
		T("The isolate worker after every operation above: %ld table pages (%ld KiB);\n"
		  "%ld pages mapped while it waits for its next command in an isolated read.\n",
		  worker_tpages, worker_tpages * 4, worker_mapped);
		CM("memory,worker_after_all_ops,isolate,dump_table_pages,%ld\n", worker_tpages);
		CM("memory,worker_after_all_ops,isolate,dump_mapped_pages,%ld\n", worker_mapped);
	}
	T("\nbenchmark time %.0f s; %s\n", total_s,
	  failures ? "FAILED (see the # FAIL lines)" : "no failures");

	for (op = 1; op < NOPS; op++) {
		if (!op_enabled[op] || !op_n[op])
			continue;
		for (m = 0; m < NMODES; m++) {
			csv_row("time", ops[op].name, mode_name[m], "n", op_n[op]);
			csv_row("time", ops[op].name, mode_name[m], "median_us", t_sum[op][m].med);
			csv_row("time", ops[op].name, mode_name[m], "min_us", t_sum[op][m].min);
			csv_row("time", ops[op].name, mode_name[m], "max_us", t_sum[op][m].max);
			if (m != M_ISOLATE)
				csv_row("time", ops[op].name, mode_name[m], "isolate_ratio",
					ratio(t_sum[op][M_ISOLATE].med, t_sum[op][m].med));
			if (m != M_KEEP)
				csv_row("time", ops[op].name, mode_name[m], "keep_ratio",
					ratio(t_sum[op][M_KEEP].med, t_sum[op][m].med));
			if (m != M_KEEPD)
				csv_row("time", ops[op].name, mode_name[m], "keepd_ratio",
					ratio(t_sum[op][M_KEEPD].med, t_sum[op][m].med));
		}
		for (i = 0; i < NISO; i++) {
			const char *mn = mode_name[iso_mode[i]];

			csv_row("sci", ops[op].name, mn, "syscalls_per_op", st_med[op][i][ST_SYSCALLS]);
			csv_row("sci", ops[op].name, mn, "code_faults_per_op", st_med[op][i][ST_CODE]);
			csv_row("sci", ops[op].name, mn, "data_faults_per_op", st_med[op][i][ST_DATA]);
			csv_row("sci", ops[op].name, mn, "grants_per_op", st_med[op][i][ST_GRANTS]);
			csv_row("sci", ops[op].name, mn, "switches_out_per_op", st_med[op][i][ST_SWITCHES]);
			csv_row("sci", ops[op].name, mn, "resumes_on_sci_per_op", st_med[op][i][ST_RESUMES]);
			csv_row("sci", ops[op].name, mn, "regrants_per_op", st_med[op][i][ST_REGRANTS]);
			csv_row("sci", ops[op].name, mn, "table_copies_per_op", st_med[op][i][ST_TABLE_COPIES]);
			csv_row("sci", ops[op].name, mn, "revalidate_ranges_per_op", st_med[op][i][ST_REVAL_RANGES]);
			csv_row("sci", ops[op].name, mn, "revalidate_all_per_op", st_med[op][i][ST_REVAL_ALL]);
			csv_row("sci", ops[op].name, mn, "fault_ns_per_op", st_med[op][i][ST_FAULT_NS]);
		}
		if (tr_done[op]) {
			csv_row("trace", ops[op].name, "isolate", "code_faults", tr[op].code);
			csv_row("trace", ops[op].name, "isolate", "data_faults", tr[op].data);
			csv_row("trace", ops[op].name, "isolate", "distinct_pages", tr[op].distinct);
			csv_row("trace", ops[op].name, "isolate", "repeats", tr[op].repeats);
			csv_row("trace", ops[op].name, "isolate", "data_then_code", tr[op].upgrades);
			csv_row("trace", ops[op].name, "isolate", "violations", tr[op].violations);
			csv_row("trace", ops[op].name, "isolate", "ambiguous_symbols", tr[op].ambiguous);
		}
	}

	printf("==== SCI-BENCH TABLE BEGIN ====\n%s==== SCI-BENCH TABLE END ====\n", table);
	printf("==== SCI-BENCH CSV BEGIN ====\nsection,op,mode,metric,value\n%s%s==== SCI-BENCH CSV END ====\n",
	       csv, csv_mem);
}

/* ------------------------------------------------------------------ */

static int make_data_file(void)
{
	static char buf[65536];
	int fd = open(DATA_PATH, O_WRONLY | O_CREAT | O_TRUNC, 0644), i;

	if (fd < 0)
		return -1;
	memset(buf, 's', sizeof(buf));
	for (i = 0; i < DATA_SIZE / (int)sizeof(buf); i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			return -1;
	return close(fd);
}

static void parse_env(void)
{
	const char *e;
	int op;

	if ((e = getenv("SCI_BENCH_RUNS")) && atoi(e) > 0)
		nruns = atoi(e) < MAXRUNS ? atoi(e) : MAXRUNS;
	if ((e = getenv("SCI_BENCH_MS")) && atoi(e) > 0)
		run_ms = atoi(e);
	if ((e = getenv("SCI_BENCH_CPU")))
		pin_cpu = atoi(e);
	if ((e = getenv("SCI_BENCH_DEBUG")))
		debug = atoi(e);
	if ((e = getenv("SCI_BENCH_TRACE")))
		dump_traces = atoi(e);
	if ((e = getenv("SCI_BENCH_TASKS"))) {
		char *copy = strdup(e), *tok, *save;

		ntasks = 0;
		for (tok = strtok_r(copy, ",", &save); tok && ntasks < 16;
		     tok = strtok_r(NULL, ",", &save))
			if (atoi(tok) > 0)
				tasks[ntasks++] = atoi(tok);
	} else {
		ntasks = 4;
	}
	for (op = 1; op < NOPS; op++)
		op_enabled[op] = 1;
	if ((e = getenv("SCI_BENCH_OPS"))) {
		for (op = 1; op < NOPS; op++) {
			const char *p = strstr(e, ops[op].name);
			size_t len = strlen(ops[op].name);

			op_enabled[op] = p && (p == e || p[-1] == ',') &&
					 (p[len] == ',' || p[len] == '\0');
		}
	}
}

int main(int argc, char **argv)
{
	unsigned int action = SECCOMP_RET_ISOLATE;
	long g0[NST], g1[NST];
	char env[512], cpuinfo[1 << 14], *slash;
	struct utsname u;
	cpu_set_t all_cpus;
	long long t0 = now_ns();
	int op, m, i;

	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_env();
	/* The execve helper lives next to this program. */
	if (readlink("/proc/self/exe", helper_path, sizeof(helper_path) - 32) < 0)
		snprintf(helper_path, sizeof(helper_path), "%s", argv[0]);
	slash = strrchr(helper_path, '/');
	strcpy(slash ? slash + 1 : helper_path, "sci_bench_exit");

	/* Never load an isolating filter where the action is unknown. */
	if (syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) ||
	    snap(g0) || access(SCI_TEST_PATH, R_OK) || access(helper_path, X_OK)) {
		printf("# FAIL: SCI is not available here (sci=on, CONFIG_SYSCALL_ISOLATION_TEST, %s)\n",
		       helper_path);
		return 1;
	}
	pcid_on = g0[ST_PCID];
	if (make_data_file()) {
		printf("# FAIL: cannot write %s: %m\n", DATA_PATH);
		return 1;
	}
	uname(&u);
	sci_read_file("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo));
	snprintf(env, sizeof(env), "Linux %s, %ld CPUs%s, sci=on",
		 u.release, sysconf(_SC_NPROCESSORS_ONLN),
		 strstr(cpuinfo, "QEMU TCG CPU") ? ", QEMU TCG" : "");
	printf("# sci_bench: %s; %d runs, %d ms per round, timed processes %s\n",
	       env, nruns, run_ms, pin_cpu >= 0 ? "on one CPU" : "not pinned");

	if (pin_cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(pin_cpu, &one);
		if (sched_getaffinity(0, sizeof(all_cpus), &all_cpus) ||
		    sched_setaffinity(0, sizeof(one), &one)) {
			printf("# FAIL: cannot pin to CPU %d: %m\n", pin_cpu);
			return 1;
		}
	}
	for (m = 0; m < NMODES; m++)
		if (spawn_worker(m)) {
			printf("# FAIL: cannot start the %s worker: %m\n", mode_name[m]);
			return 1;
		}
	calibrate();
	for (op = 1; op < NOPS; op++) {
		if (!op_enabled[op])
			continue;
		time_op(op);
		for (i = 0; i < NISO; i++) {
			long mapped, tpages;

			if (workers[iso_mode[i]].pid <= 0 ||
			    dump_task_x(workers[iso_mode[i]].pid, &mapped, &tpages,
					&xrest[op][i]))
				xrest[op][i] = -1;
		}
	}
	if (op_enabled[OP_GETPID] && op_enabled[OP_READ1])
		kept_under_load();
	if (workers[M_ISOLATE].pid > 0)
		dump_task(workers[M_ISOLATE].pid, &worker_mapped, &worker_tpages);
	xpremapped = premapped_xpages();
	stop_workers();
	if (pin_cpu >= 0)
		sched_setaffinity(0, sizeof(all_cpus), &all_cpus);
	printf("# timing done at %.0f s\n", (now_ns() - t0) / 1e9);

	load_kallsyms();
	if (debug > 1)
		for (i = 0; i < (int)nksyms; i++)
			printf("#K %lx %s\n", ksyms[i].addr, ksyms[i].name);
	for (op = 1; op < NOPS; op++)
		if (op_enabled[op])
			trace_op(op);
	printf("# grant traces done at %.0f s\n", (now_ns() - t0) / 1e9);

	for (i = 0; i < ntasks; i++) {
		long long t1 = now_ns();

		/*
		 * A first ALLOW run grows the slab caches for N tasks, so
		 * that neither measured run finds them warmer than the other.
		 */
		if (tasks[i] >= 1000)
			mem_run(tasks[i], SECCOMP_RET_ALLOW, &mem_ctl[i]);
		mem_run(tasks[i], SECCOMP_RET_ALLOW, &mem_ctl[i]);
		mem_run(tasks[i], SECCOMP_RET_ISOLATE, &mem_iso[i]);
		printf("# memory, %d tasks: %.1f s, %ld tables, %ld table pages at rest, %ld after busy\n",
		       tasks[i], (now_ns() - t1) / 1e9,
		       mem_iso[i].s[1][ST_TABLES] - mem_iso[i].s[0][ST_TABLES],
		       mem_iso[i].s[1][ST_TPAGES] - mem_iso[i].s[0][ST_TPAGES],
		       mem_iso[i].s[2][ST_TPAGES] - mem_iso[i].s[0][ST_TPAGES]);
		if (mem_iso[i].s[1][ST_TABLES] - mem_iso[i].s[0][ST_TABLES] != tasks[i] ||
		    mem_ctl[i].s[1][ST_TABLES] != mem_ctl[i].s[0][ST_TABLES])
			fail("memory test, %d tasks: %ld SCI tables with ISOLATE, %ld with ALLOW",
			     tasks[i], mem_iso[i].s[1][ST_TABLES] - mem_iso[i].s[0][ST_TABLES],
			     mem_ctl[i].s[1][ST_TABLES] - mem_ctl[i].s[0][ST_TABLES]);
		if (mem_iso[i].s[3][ST_TABLES] != mem_iso[i].s[0][ST_TABLES] ||
		    mem_iso[i].s[3][ST_TPAGES] != mem_iso[i].s[0][ST_TPAGES])
			fail("memory test, %d tasks: %ld tables and %ld table pages left after every task exited",
			     tasks[i], mem_iso[i].s[3][ST_TABLES] - mem_iso[i].s[0][ST_TABLES],
			     mem_iso[i].s[3][ST_TPAGES] - mem_iso[i].s[0][ST_TPAGES]);
	}

	snap(g1);
	if (g1[ST_KILLS] != g0[ST_KILLS] || g1[ST_VIOL] != g0[ST_VIOL])
		fail("SCI killed %ld tasks, %ld violations during the benchmark",
		     g1[ST_KILLS] - g0[ST_KILLS], g1[ST_VIOL] - g0[ST_VIOL]);
	unlink(DATA_PATH);
	report(env, (now_ns() - t0) / 1e9);
	return failures ? 1 : 0;
}
