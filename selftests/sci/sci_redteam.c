// SPDX-License-Identifier: GPL-2.0
/*
 * The ways out of SCI that a reviewer can name, one test each, with the
 * outcome asserted (Documentation/x86/sci.rst, "Threat model" and
 * "Limits").  Each test first runs its case unisolated, where it must
 * complete, so that a kill under SCI is SCI's doing and a pass is not a
 * test that cannot fail.
 */
#define _GNU_SOURCE
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/reboot.h>
#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <asm/ldt.h>
#include <sys/io.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include "kselftest_harness.h"
#include "sci.h"

static int test_fd(void)
{
	return open(SCI_TEST_PATH, O_RDWR);
}

/* The attacker's hooks (sci_test.c, SCI_TEST_ATTACK): only with sci=on. */
#define SCI_ATTACK_PATH		"/sys/kernel/debug/sci/attack"
enum { SCI_ATTACK_RET, SCI_ATTACK_JMP, SCI_ATTACK_WRITE,
       SCI_ATTACK_RET_ENTRY_STACK, SCI_ATTACK_IRQ_FRAME,
       SCI_ATTACK_IRQ_STACK_USED, SCI_ATTACK_RET_LANDED,
       SCI_ATTACK_JMP_IRQ, SCI_ATTACK_WRITE_SLEEP, SCI_ATTACK_TOUCH,
       SCI_ATTACK_RET_ALT_STACK, SCI_ATTACK_RET_FORGED_GS,
       SCI_ATTACK_JMP_PREEMPTED, SCI_ATTACK_RET_FORGED_CPU,
       SCI_ATTACK_STRAY_DOOR, SCI_ATTACK_JMP_STRAY };
#define SCI_ATTACK_MAX_WORDS	256
#define SCI_ATTACK_KERNEL_CR3	0x5c1a77ac00000001ULL
#define SCI_ATTACK_STACK	0x5c1a77ac10000000ULL
#define SCI_ATTACK_GS_BASE	0x5c1a77ac00000002ULL
#define SCI_ATTACK_USER_CR3	0x5c1a77ac00000003ULL
#define SCI_ATTACK_POISON_STACK	0x5c1a77ac00000004ULL

struct sci_test_attack {
	__u32 how;
	__u32 len;
	__u64 target;
	__u64 data;
	__u64 regs[16];	/* rax rbx rcx rdx rsi rdi rbp rsp r8 .. r15 */
	__u64 landed;
	__u64 landed_cr3;
	__u64 sci_cr3;
	__u64 kernel_cr3;
	__u64 landed_rdi;
};

#define SCI_MAX_SITES		64
struct sci_test_cr3_sites {
	__u64 nr;
	__u64 addr[SCI_MAX_SITES];
	__u8 reg[SCI_MAX_SITES];
	__u64 error_entry_ret;
	__u64 paranoid_entry_ret;
	__u64 nr_reads;
	__u64 read_addr[SCI_MAX_SITES];
};

#define SCI_TEST_ATTACK		_IOWR('S', 15, struct sci_test_attack)
#define SCI_TEST_CR3_SITES	_IOR('S', 16, struct sci_test_cr3_sites)
#define SCI_TEST_ROOT_CRED	_IOR('S', 17, __u64)
#define SCI_TEST_TEXT_POKE	_IOW('S', 18, unsigned long)
#define SCI_TEST_FORGE		_IOW('S', 19, unsigned long)
#define SCI_TEST_FLOW		_IOW('S', 20, unsigned long)
#define SCI_TEST_KILL_HOLDING	_IOW('S', 21, unsigned long)
#define SCI_TEST_MAPPED		_IOW('S', 23, unsigned long)
#define SCI_TEST_CR3_SITES_IN	_IOWR('S', 25, struct sci_test_cr3_sites)
#define SCI_HOLD_OOM		0x100

#define KERNEL_CS	0x10
#define KERNEL_DS	0x18
#define USER_DS		0x2b
#define USER_CS		0x33

/*
 * A line for the kernel log before each attempt, to name the one that
 * killed a guest.  Best effort: in `make check`'s guests these lines have
 * not been seen on the console yet (not understood).
 */
static void __attribute__((format(printf, 1, 2))) sci_kmsg(const char *fmt, ...)
{
	int fd = open("/dev/kmsg", O_WRONLY);
	va_list ap;

	if (fd < 0)
		return;
	va_start(ap, fmt);
	vdprintf(fd, fmt, ap);
	va_end(ap);
	close(fd);
}

/* Nearest kernel text symbol at or below @addr, as "name+0xoff". */
static void ksym_name(unsigned long addr, char *out, size_t len)
{
	static char buf[1 << 23];
	static unsigned long *addrs;
	static char **names;
	static int n, nr;
	unsigned long best = 0;
	const char *bestname = "?";
	char *line, *end, type;
	int i;

	if (!n) {
		n = sci_read_file("/proc/kallsyms", buf, sizeof(buf));
		addrs = calloc(1 << 18, sizeof(*addrs));
		names = calloc(1 << 18, sizeof(*names));
		for (line = buf; n > 0 && addrs && names && nr < (1 << 18) &&
		     (end = strchr(line, '\n')); line = end + 1) {
			*end = '\0';
			if (sscanf(line, "%lx %c", &addrs[nr], &type) == 2 &&
			    (type == 't' || type == 'T') && strlen(line) > 19) {
				names[nr] = line + 19;
				nr++;
			}
		}
	}
	for (i = 0; i < nr; i++) {
		if (addrs[i] <= addr && addrs[i] > best) {
			best = addrs[i];
			bestname = names[i];
		}
	}
	snprintf(out, len, "%s+0x%lx", bestname, addr - best);
}

/* The CR3 writes of the premapped code and the entry return addresses. */
static int cr3_sites(struct sci_test_cr3_sites *sites)
{
	int fd = open(SCI_ATTACK_PATH, O_RDWR), ret;

	if (fd < 0)
		return -errno;
	memset(sites, 0, sizeof(*sites));
	ret = ioctl(fd, SCI_TEST_CR3_SITES, sites) ? -errno : 0;
	close(fd);
	return ret;
}

/* sci_test_attack.regs[] index of x86 register number 0-15 (ModRM order) */
static const unsigned int reg_index[16] = {
	0, 2, 3, 1, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15
};

/*
 * How an attack in a child ended: the child writes its sci_test_attack
 * result (if the ioctl came back) to a pipe.
 */
struct outcome {
	int status;		/* wait status */
	int have;		/* the ioctl returned: @a is valid */
	struct sci_test_attack a;
	char rec[1024];		/* /proc/PID/sci */
};

static int killed_by_sci(const struct outcome *o)
{
	return WIFSIGNALED(o->status) && WTERMSIG(o->status) == SIGKILL &&
	       strstr(o->rec, "enforced: 1");
}

/* A CR3 value's tables, without the PCID (or PWT and PCD) */
#define CR3_ADDR	(~0xfffULL)

/* Did the attacker run its landing on tables other than the SCI tables? */
static int escaped(const struct outcome *o)
{
	return o->have && o->a.landed && o->a.sci_cr3 &&
	       (o->a.landed_cr3 & CR3_ADDR) != (o->a.sci_cr3 & CR3_ADDR);
}

/*
 * Killed by the check after a kernel CR3 write (sci_leave_violation)?  The
 * kill path starts in the entry text with interrupts still on for a few
 * instructions (the chain ran with them on): an interrupt there is killed
 * first, as "interrupt in premapped entry code", or, when the attacker's
 * stack cannot take its frame, by the double fault (series 0047).  Only
 * that kill path runs in the entry text here (the jumps target kernel
 * text), so either reason means the check fired (a debug make check run
 * saw the second).
 */
static int leave_killed(const char *rec)
{
	return strstr(rec, "kernel CR3 write leaving the SCI tables") ||
	       strstr(rec, "reason: interrupt in premapped entry code");
}

/* Run @a from a child, isolated (every ioctl) or not; fill @o. */
static void attack(struct sci_test_attack *a, int isolate, struct outcome *o)
{
	int fd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2];
	pid_t pid;

	memset(o, 0, sizeof(*o));
	o->status = -1;
	if (fd < 0 || pipe(pfd))
		return;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioctl(fd, SCI_TEST_ATTACK, a))
			_exit(91);
		if (write(pfd[1], a, sizeof(*a)) != sizeof(*a))
			_exit(92);
		_exit(0);
	}
	close(pfd[1]);
	o->have = read(pfd[0], &o->a, sizeof(o->a)) == sizeof(o->a);
	close(pfd[0]);
	close(fd);
	o->status = sci_reap(pid, o->rec, sizeof(o->rec));
}

/* In SCI_TEST_SOFTIRQ's result, above the depth: where the tasklet ran */
#define SOFTIRQ_ON_SCI		(1L << 24)	/* an isolated syscall's SCI tables */
#define SOFTIRQ_KSOFTIRQD	(1L << 25)
#define SOFTIRQ_IRQ_STACK	(1L << 26)
#define SOFTIRQ_DEPTH(v)	((v) & ((1L << 24) - 1))

/*
 * SCI_TEST_SOFTIRQ: the tasklet's depth and where it ran, or a negative
 * errno.  With @from_bh_enable, again (up to 100 times) while it ran in
 * ksoftirqd, until local_bh_enable() ran it.
 */
static long softirq_run(int fd, int from_bh_enable)
{
	long ret = -EAGAIN;
	int i;

	for (i = 0; i < 100; i++) {
		ret = ioctl(fd, SCI_TEST_SOFTIRQ);
		if (ret < 0)
			return -errno;
		if (!from_bh_enable || !(ret & SOFTIRQ_KSOFTIRQD))
			break;
	}
	return ret;
}

static void log_softirq(struct __test_metadata *_metadata, const char *what,
			long v)
{
	if (v < 0) {
		TH_LOG("%s: %s", what, strerror(-v));
		return;
	}
	TH_LOG("%s: the tasklet used %ld bytes%s%s%s", what, SOFTIRQ_DEPTH(v),
	       v & SOFTIRQ_ON_SCI ? ", on the SCI tables" : "",
	       v & SOFTIRQ_KSOFTIRQD ? ", in ksoftirqd" : "",
	       v & SOFTIRQ_IRQ_STACK ? ", on the IRQ stack" : "");
}

/*
 * Class 10, paths that leave the SCI tables without SCI knowing: a softirq
 * that an isolated syscall raises and runs itself from local_bh_enable()
 * (any spin_unlock_bh() after an interrupt raised one).  x86-64 runs it on
 * the CPU's IRQ stack, which no SCI table maps any more (another CPU's
 * would be writable from any isolated syscall: irq_stack_write_is_killed):
 * it runs there off the SCI tables, in a section of SCI's own, and the
 * syscall goes on on its SCI tables.  The tasklet goes 7 KiB deep.
 * Unisolated, the same.  Either may run it in ksoftirqd instead: retried.
 */
TEST(softirq_of_isolated_syscall_not_on_sci_tables)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long lost = sci_stat("lost");
	int fd = test_fd(), status, pfd[2];
	long v, isolated = -1;
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	v = softirq_run(fd, 1);
	log_softirq(_metadata, "unisolated", v);
	ASSERT_LE(0, v);
	ASSERT_NE(0, v & SOFTIRQ_IRQ_STACK);
	ASSERT_EQ(0, v & (SOFTIRQ_ON_SCI | SOFTIRQ_KSOFTIRQD));
	ASSERT_LT(4096, SOFTIRQ_DEPTH(v));
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pfd[0]);
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		v = softirq_run(fd, 1);
		if (write(pfd[1], &v, sizeof(v)) != sizeof(v))
			_exit(91);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &isolated, sizeof(isolated)) != sizeof(isolated))
		isolated = -EPIPE;
	close(pfd[0]);
	status = sci_reap(pid, rec, sizeof(rec));
	log_softirq(_metadata, "isolated", isolated);
	TH_LOG("isolated: status %#x, /proc/%d/sci: %s", status, pid, rec);
	ASSERT_EXIT0(status);
	ASSERT_LE(0, isolated);
	ASSERT_EQ(0, isolated & (SOFTIRQ_ON_SCI | SOFTIRQ_KSOFTIRQD));
	ASSERT_NE(0, isolated & SOFTIRQ_IRQ_STACK);
	ASSERT_LT(4096, SOFTIRQ_DEPTH(isolated));
	/* Back on its SCI tables after the softirq: nothing came back lost. */
	ASSERT_EQ(lost, sci_stat("lost"));
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/* The end of the chain in user space: report the uid it runs with. */
static int chain_pipe = -1;
static char chain_stack[65536] __attribute__((aligned(16)));

static void __attribute__((noreturn)) chain_user_landing(void)
{
	long uid = syscall(__NR_getuid);

	if (write(chain_pipe, &uid, sizeof(uid)) != sizeof(uid))
		syscall(__NR_exit_group, 93);
	syscall(__NR_exit_group, 0);
	__builtin_unreachable();
}

/*
 * The claim, end to end: a stack overflow inside a syscall becomes root.
 * The chain is the classic commit_creds(prepare_kernel_cred(0)) and a
 * return to user mode: RET into restore_regs_and_return_to_kernel (premapped
 * entry text: POP_REGS, then IRET from the stack) with %rdi = a root cred,
 * IRET to commit_creds(), whose RET goes to
 * swapgs_restore_regs_and_return_to_usermode and from there to user mode
 * with a forged frame.  The cred is made by a hook beforehand (what
 * prepare_kernel_cred(0) returns), so that the chain needs no gadget to
 * move %rax.  The caller drops root first.  Unisolated, the chain must
 * succeed (uid 0 in user mode): the test can fail.  Isolated, it must end
 * in a kill by SCI, with no uid reported.
 */
static void run_chain(struct __test_metadata *_metadata, int isolate,
		      long *uid, int *status, char *rec, size_t reclen)
{
	unsigned long rrk = sci_ksym("restore_regs_and_return_to_kernel");
	unsigned long cc = sci_ksym("commit_creds");
	unsigned long ret_user = sci_ksym("swapgs_restore_regs_and_return_to_usermode");
	int fd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2];
	struct sci_test_attack a;
	__u64 stack[64], cred = 0;
	unsigned int n = 0;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_NE(0, rrk);
	ASSERT_NE(0, cc);
	ASSERT_NE(0, ret_user);
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_ROOT_CRED, &cred));
	memset(stack, 0, sizeof(stack));
	stack[n++] = rrk;
	/* pt_regs: r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi */
	n += 14;
	stack[n++] = cred;			/* rdi */
	stack[n++] = -1;			/* orig_ax */
	stack[n++] = cc;			/* rip */
	stack[n++] = KERNEL_CS;
	stack[n++] = 0x2;			/* rflags: interrupts off */
	stack[n] = SCI_ATTACK_STACK + 8 * (n + 2);	/* rsp: two words on */
	n++;
	stack[n++] = KERNEL_DS;
	stack[n++] = ret_user;			/* commit_creds returns here */
	n += 15;				/* user pt_regs: all zero */
	stack[n++] = -1;
	stack[n++] = (unsigned long)chain_user_landing;
	stack[n++] = USER_CS;
	stack[n++] = 0x202;
	stack[n++] = (unsigned long)(chain_stack + sizeof(chain_stack) - 8);
	stack[n++] = USER_DS;
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_RET;
	a.len = n;
	a.data = (unsigned long)stack;

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pfd[0]);
		chain_pipe = pfd[1];
		if (setresuid(65534, 65534, 65534))
			_exit(94);
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_ATTACK, &a);
		_exit(95);	/* the chain did not run */
	}
	close(pfd[1]);
	close(fd);
	*uid = -1;
	if (read(pfd[0], uid, sizeof(*uid)) != sizeof(*uid))
		*uid = -1;
	close(pfd[0]);
	*status = sci_reap(pid, rec, reclen);
}

TEST(commit_creds_chain)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), uid;
	char rec[1024];
	int status;

	run_chain(_metadata, 0, &uid, &status, rec, sizeof(rec));
	TH_LOG("unisolated: uid %ld in user mode, status %#x", uid, status);
	ASSERT_EQ(0, uid);
	ASSERT_EXIT0(status);

	run_chain(_metadata, 1, &uid, &status, rec, sizeof(rec));
	TH_LOG("isolated: uid %ld, status %#x, /proc/PID/sci: %s", uid, status,
	       rec);
	EXPECT_EQ(-1, uid);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_NE(NULL, strstr(rec, "enforced: 1"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Class 1, premapped code that loads CR3.  The SCI tables premap the entry
 * text, .noinstr.text and the retpoline thunks without any check: an
 * attacker can jump to any instruction there.  A CR3 write with a register
 * the attacker sets, followed by anything the attacker steers (a RET, an
 * IRET from its stack), leaves the SCI tables for the full ones, where no
 * fetch is checked.  Every such write (found by its bytes, so a write
 * inside another instruction counts too) is tried with every register
 * holding the CR3 of the task's full tables and a stack whose words lead
 * to sci_test_landing(); the task must be killed, every time, and the
 * landing must never run on the full tables.  The control: a RET straight
 * to the landing, unisolated, lands.
 */
FIXTURE(slow) {};
FIXTURE_SETUP(slow) {}
FIXTURE_TEARDOWN(slow) {}

TEST_F_TIMEOUT(slow, cr3_writes_in_premapped_code, 300)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	struct sci_test_cr3_sites sites;
	int bad = 0;
	__u64 stack[64];
	struct sci_test_attack a;
	struct outcome o;
	unsigned int i, j;
	char name[160];

	ASSERT_NE(0, landing);
	ASSERT_EQ(0, cr3_sites(&sites));
	TH_LOG("%llu CR3 writes in premapped code", sites.nr);
	ASSERT_LT(0, sites.nr);

	/* Control: the landing is reached and reports the tables it ran on. */
	memset(&a, 0, sizeof(a));
	stack[0] = landing;
	a.how = SCI_ATTACK_RET;
	a.len = 1;
	a.data = (unsigned long)stack;
	attack(&a, 0, &o);
	ASSERT_EXIT0(o.status);
	ASSERT_TRUE(o.have && o.a.landed &&
		    (o.a.landed_cr3 & CR3_ADDR) == o.a.kernel_cr3);

	for (i = 0; i < sites.nr; i++) {
		memset(&a, 0, sizeof(a));
		for (j = 0; j < 16; j++)
			a.regs[j] = SCI_ATTACK_KERNEL_CR3;
		if (sites.reg[i] == 4) {
			/* mov %rsp,%cr3: jump there with %rsp set too. */
			a.how = SCI_ATTACK_JMP;
			a.target = sites.addr[i];
		} else {
			a.how = SCI_ATTACK_RET;
			stack[0] = sites.addr[i];
			/* A RET lands; POP_REGS + IRET too (iret frames of the landing). */
			for (j = 1; j < 64; j++)
				stack[j] = landing;
			for (j = 17; j + 5 <= 64; j += 5) {
				stack[j + 1] = KERNEL_CS;
				stack[j + 2] = 0x2;
				stack[j + 3] = SCI_ATTACK_STACK + 8 * 60;
				stack[j + 4] = KERNEL_DS;
			}
			a.len = 64;
			a.data = (unsigned long)stack;
		}
		ksym_name(sites.addr[i], name, sizeof(name));
		TH_LOG("%#llx %s (reg %u) ...", sites.addr[i], name,
		       sites.reg[i]);
		attack(&a, 1, &o);
		TH_LOG("  status %#x%s%s, %s", o.status,
		       killed_by_sci(&o) ? " killed by SCI" : "",
		       escaped(&o) ? " ESCAPED to the full tables" : "",
		       strstr(o.rec, "reason: ") ?: "no violation");
		bad += !killed_by_sci(&o) || escaped(&o);
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Class 1 in C (found by review): a kernel function that loads the kernel
 * tables is a whole function, and calling a function at its start is
 * allowed.  sci_switch_out() is the scheduler's way off the SCI tables
 * (prepare_arch_switch()); called from a ROP chain inside an isolated
 * syscall, it would leave the SCI tables and return into the rest of the
 * chain on the full ones.  The chain: sci_switch_out(), then the landing.
 * The task must be killed and the landing must not run on the full tables.
 */
/* @a: a return into @fn at its start, then into the landing (8 words). */
static void call_then_land(struct sci_test_attack *a, __u64 *stack,
			   unsigned long fn, unsigned long landing)
{
	unsigned int j;

	memset(a, 0, sizeof(*a));
	stack[0] = fn;
	for (j = 1; j < 8; j++)
		stack[j] = landing;
	a->how = SCI_ATTACK_RET;
	a->len = 8;
	a->data = (unsigned long)stack;
}

/*
 * A chain that calls @fn at its first byte with %rdi, %rsi and %rdx, then
 * lands, run from a child (isolated or not); logged as @what.
 */
static void call_chain(struct __test_metadata *_metadata, const char *what,
		       unsigned long fn, __u64 rdi, __u64 rsi, __u64 rdx,
		       int isolate, struct outcome *o)
{
	unsigned long landing = sci_ksym("sci_test_landing");
	struct sci_test_attack a;
	__u64 stack[8];

	memset(o, 0, sizeof(*o));
	ASSERT_NE(0, landing);
	ASSERT_NE(0, fn);
	call_then_land(&a, stack, fn, landing);
	a.regs[5] = rdi;
	a.regs[4] = rsi;
	a.regs[3] = rdx;
	attack(&a, isolate, o);
	TH_LOG("%s: status %#x%s%s, landed %llu, %s", what, o->status,
	       killed_by_sci(o) ? " killed by SCI" : "",
	       escaped(o) ? " ESCAPED to the full tables" : "",
	       (unsigned long long)o->a.landed,
	       strstr(o->rec, "reason: ") ?: "no violation");
}

/*
 * A chain that calls sci_switch_out() at its first byte, then lands, run
 * by attack mode @how from an isolated child; logged as @what.  A chain
 * that got the full tables may still be killed later (the syscall's end
 * finds SCI's state gone): then the hook says where it landed.
 */
static void switch_out_chain(struct __test_metadata *_metadata, int how,
			     const char *what, struct outcome *o)
{
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned long fn = sci_ksym("sci_switch_out");
	struct sci_test_attack a;
	__u64 stack[8];

	ASSERT_NE(0, landing);
	ASSERT_NE(0, fn);
	call_then_land(&a, stack, fn, landing);
	a.how = how;
	attack(&a, 1, o);
	if (!o->have) {
		struct sci_test_attack q = { .how = SCI_ATTACK_RET_LANDED,
					     .target = 1 };
		int fd = open(SCI_ATTACK_PATH, O_RDWR);

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ioctl(fd, SCI_TEST_ATTACK, &q));
		close(fd);
		o->a = q;
		o->have = 1;
	}
	TH_LOG("%s: status %#x%s%s, landed %llu, %s", what, o->status,
	       killed_by_sci(o) ? " killed by SCI" : "",
	       escaped(o) ? " ESCAPED to the full tables" : "",
	       (unsigned long long)o->a.landed,
	       strstr(o->rec, "reason: ") ?: "no violation");
}

TEST_F_TIMEOUT(slow, c_function_leaving_sci_tables_is_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct outcome o;

	switch_out_chain(_metadata, SCI_ATTACK_RET, "sci_switch_out", &o);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The same call after one write of task data (review 5): sci_switch_out()
 * let its caller leave the SCI tables when task_curr(current) said the
 * task was no longer the one running, which reads the task's CPU number
 * and that CPU's runqueue, ordinary data.  With the CPU number another
 * CPU's (SCI_ATTACK_RET_FORGED_CPU, for the chain only), the call left the
 * SCI tables and returned into the chain on the full ones.  The scheduler
 * must not leave the SCI tables on anything a write can forge.  Since
 * series 0100, sci_switch_out() kills on the SCI tables whatever the CPU
 * number says: the test keeps the forged number as the attack's write.
 */
TEST_F_TIMEOUT(slow, call_of_switch_out_with_forged_task_cpu_is_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct outcome o;

	switch_out_chain(_metadata, SCI_ATTACK_RET_FORGED_CPU,
			 "sci_switch_out, forged CPU", &o);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Class 1 in C, the kernel's own functions (found by review): besides
 * SCI's, the kernel has functions that load an mm's tables, and a chain
 * may call them at their start with arguments of its choice.
 * load_new_mm_cr3(pgd, asid, need_flush), switch_mm_irqs_off()'s write,
 * given the task's own PGD, leaves the SCI tables for the task's full
 * ones without upsetting the TLB state the kernel keeps: the rest of the
 * chain would run there, unchecked.  The others below would leave them
 * for tables that break the machine, unless killed first.  Each call must
 * be killed, and the landing must never run on other tables than the SCI
 * tables.
 */
#define MM_PGD	0x5c1a77ac00000005ULL	/* SCI_ATTACK_MM_PGD: current->mm->pgd */
#define SCI_PGD_PWT 0x5c1a77ac00000006ULL /* the SCI tables' PGD + 8 (PWT) */

/* An argument: a number, or the address of a kernel symbol */
struct arg {
	__u64 val;
	const char *sym;
};

static const struct leaver {
	const char *fn;
	struct arg rdi, rsi, rdx, rcx;	/* a.regs[5], [4], [3], [2] */
} leavers[] = {
	/* the task's full tables, ASID 0, flushed */
	{ "load_new_mm_cr3", { MM_PGD }, { 0 }, { 1 } },
	/*
	 * The SCI tables themselves with PWT set (found by review): they
	 * were no longer "on the SCI tables" for an exact CR3 compare, so
	 * the next call of this list went through unchecked.
	 */
	{ "load_new_mm_cr3", { SCI_PGD_PWT }, { 0 }, { 1 } },
	/* init_mm's: changes cpu_tlbstate before its write */
	{ "switch_mm_irqs_off", { 0 }, { 0, "init_mm" }, { 0 } },
	/* the loaded mm's, ASID 0 */
	{ "initialize_tlbstate_and_flush" },
	/* reboot's trampoline tables (and CR4.PCIDE cleared first) */
	{ "load_trampoline_pgtable" },
	/*
	 * poking_mm's, the full kernel half: the one load text_poke() may
	 * make on the SCI tables, but only under text_mutex.  Writes the
	 * landing's first byte over itself.
	 */
	{ "__text_poke", { 0, "text_poke_memcpy" }, { 0, "sci_test_landing" },
	  { 0, "sci_test_landing" }, { 1 } },
	/*
	 * Resume's restore of the saved CPU state (SUSPEND or HIBERNATION,
	 * found by qemu/cr3-scan.py in the distro configuration): EFER, CR4,
	 * then CR3 from saved_context, zero until a suspend saves it (the
	 * guest reset).  No isolated syscall may suspend, so it is never
	 * granted: killed at the call.
	 */
	{ "restore_processor_state" },
	/*
	 * The way to the crash kernel (sci_kdump): machine_crash_shutdown()
	 * checks first (sci_crash_check()) and at its end leaves the SCI
	 * tables for good and starts the crash kernel itself
	 * (sci_crash_kexec()), on the CPU that panics with a crash kernel
	 * loaded only.  Called by a chain outside a panic, each is killed
	 * before anything else (machine_crash_shutdown() unchecked would
	 * stop the other CPUs and the interrupt controllers).
	 */
	{ "sci_crash_kexec" },
	{ "sci_crash_check" },
	{ "machine_crash_shutdown" },
};

static int resolve(const struct arg *arg, __u64 *reg)
{
	*reg = arg->sym ? sci_ksym(arg->sym) : arg->val;
	return !arg->sym || *reg;
}

TEST_F_TIMEOUT(slow, kernel_functions_loading_other_tables_are_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned int i, tried = 0, bad = 0;
	struct sci_test_attack a;
	struct outcome o;
	__u64 stack[8];

	ASSERT_NE(0, landing);
	for (i = 0; i < sizeof(leavers) / sizeof(leavers[0]); i++) {
		unsigned long fn = sci_ksym(leavers[i].fn);

		if (!fn) {
			/* Inlined in this build: its callers are tried. */
			TH_LOG("%s: not a function in this kernel", leavers[i].fn);
			continue;
		}
		call_then_land(&a, stack, fn, landing);
		if (!resolve(&leavers[i].rdi, &a.regs[5]) ||
		    !resolve(&leavers[i].rsi, &a.regs[4]) ||
		    !resolve(&leavers[i].rdx, &a.regs[3]) ||
		    !resolve(&leavers[i].rcx, &a.regs[2])) {
			TH_LOG("%s: an argument's symbol is missing", leavers[i].fn);
			bad++;
			continue;
		}
		attack(&a, 1, &o);
		TH_LOG("%s: status %#x%s%s, %s", leavers[i].fn, o.status,
		       killed_by_sci(&o) ? " killed by SCI" : "",
		       escaped(&o) ? " ESCAPED to the full tables" : "",
		       strstr(o.rec, "reason: ") ?: "no violation");
		bad += escaped(&o) || !killed_by_sci(&o);
		tried++;
	}
	ASSERT_LT(0, tried);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The cpu_entry_area's page tables are shared by every SCI table, not
 * granted (second review of the descriptor-table patches): a chain calls
 * cea_set_pte() at its first byte with another CPU's GDT alias there and
 * the GDT's physical address, writable, and the read-only frame was
 * writable in the SCI view with no fault to check it.  Killed since
 * series 0093 (those page tables read-only on the SCI tables,
 * cea_set_pte() checked there).
 */
#define OTHER_CEA_GDT	0x5c1a77ac0000001eULL
#define OTHER_GDT_PA	0x5c1a77ac0000001fULL
#define PAGE_KERNEL_RW	0x8000000000000063ULL	/* NX, D, A, RW, P */

TEST_F_TIMEOUT(slow, cea_remap_by_call_is_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long fn = sci_ksym("cea_set_pte");
	struct outcome o;

	if (!fn)
		SKIP(return, "cea_set_pte() is not a function in this kernel");
	call_chain(_metadata, "cea_set_pte", fn, OTHER_CEA_GDT, OTHER_GDT_PA,
		   PAGE_KERNEL_RW, 1, &o);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * SCI's release of a dead task's state, called by a chain at its start
 * with the current task as its argument (second review): it freed the
 * live SCI state, tables included, from a worker while the syscall still
 * ran on them, and the record.  A live state is never released: the call
 * must change nothing.  While the child waits after the chain, the stats
 * still count its tables and its record; with the old release the worker
 * had freed both.
 */
#define SCI_ATTACK_CURRENT	0x5c1a77ac00000009ULL

/*
 * A task reaped by an earlier test is released after an RCU grace period:
 * wait until the "tables" and "records" counts hold still (200 ms).
 */
static void counts_settle(long *tables, long *records)
{
	long t = -2, r = -2;
	int i, same = 0;

	for (i = 0; i < 500 && same < 10; i++) {
		*tables = sci_stat("tables");
		*records = sci_stat("records");
		same = *tables == t && *records == r ? same + 1 : 0;
		t = *tables;
		r = *records;
		usleep(20000);
	}
}

TEST_F_TIMEOUT(slow, release_of_a_live_sci_state_changes_nothing, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned long fn = sci_ksym("sci_release_task");
	long tables, records, t_during, r_during;
	int afd = open(SCI_ATTACK_PATH, O_RDWR), res[2], go[2], status;
	struct sci_test_attack a;
	char rec[1024], c = 0;
	__u64 stack[8];
	pid_t pid;

	ASSERT_NE(0, landing);
	ASSERT_NE(0, fn);
	ASSERT_LE(0, afd);
	ASSERT_EQ(0, pipe(res));
	ASSERT_EQ(0, pipe(go));
	counts_settle(&tables, &records);
	ASSERT_LE(0, tables);
	call_then_land(&a, stack, fn, landing);
	a.regs[5] = SCI_ATTACK_CURRENT;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioctl(afd, SCI_TEST_ATTACK, &a))
			_exit(91);
		if (write(res[1], &a, sizeof(a)) != sizeof(a))
			_exit(92);
		/* Alive, its state (if any) still its own, until told. */
		if (read(go[0], &c, 1) != 1)
			_exit(93);
		_exit(ioctl(afd, SCI_TEST_ATTACK, &(struct sci_test_attack){
				.how = SCI_ATTACK_RET_LANDED }) ? 94 : 0);
	}
	ASSERT_EQ(sizeof(a), read(res[0], &a, sizeof(a)));
	usleep(300000);	/* the free worker, had it been queued */
	t_during = sci_stat("tables");
	r_during = sci_stat("records");
	ASSERT_EQ(1, write(go[1], &c, 1));
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("landed %llu (CR3 %#llx, SCI %#llx); tables %ld -> %ld, records %ld -> %ld while the task lived; status %#x, %s",
	       (unsigned long long)a.landed, (unsigned long long)a.landed_cr3,
	       (unsigned long long)a.sci_cr3, tables, t_during, records,
	       r_during, status, strstr(rec, "reason: ") ?: "no violation");
	EXPECT_EQ(1, a.landed);
	EXPECT_EQ(a.sci_cr3 & CR3_ADDR, a.landed_cr3 & CR3_ADDR);
	EXPECT_EQ(tables + 1, t_during);
	EXPECT_EQ(records + 1, r_during);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(afd);
}

/*
 * Class 1 in C, entry points (found by review): code that loads CR3 with
 * no function around it to check, because the kernel never calls it on a
 * running system: boot and CPU bring-up (startup_64, secondary_startup_64
 * and its no_verify entry, start_cpu0), initialize_tlbstate_and_flush()
 * (CPU bring-up), native_write_cr3() where it is out of line, SME's
 * __enc_copy (its first instruction loads CR3) and boot code
 * (sev_verify_cbit loads %rdi, sme_encrypt_kernel encrypts the kernel in
 * place), the kernel-text originals of code that runs from copies
 * (hibernation's core_restore_code, kexec's relocate_kernel,
 * identity_mapped and virtual_mapped), where hibernation's copy
 * returns to (restore_registers loads %r9), and suspend's own, which no
 * isolated syscall may start (power_transitions_refused_when_isolated).  SCI never grants their start: a chain that calls one
 * must be killed at the call, as an unverified jump, and its landing
 * must not run.  A name this kernel lacks is logged and not tried; the
 * distro configuration has KEXEC, HIBERNATION and AMD_MEM_ENCRYPT for
 * these.  A call that does not fault is not seen, so each must also lie
 * on pages no other code shares, from _text to __sci_never_text_end
 * (found by review: a call of sme_pgtable_calc() granted the page of
 * sev_verify_cbit(), and one of memparse() that of core_restore_code(),
 * and a jump into either loaded CR3 from a register).
 */
static const char * const never_reached[] = {
	"startup_64", "secondary_startup_64", "secondary_startup_64_no_verify",
	"start_cpu0", "initialize_tlbstate_and_flush", "native_write_cr3",
	"__enc_copy", "core_restore_code", "relocate_kernel",
	"identity_mapped", "virtual_mapped",
	/* found by qemu/cr3-scan.py in the distro configuration */
	"sev_verify_cbit", "sme_encrypt_kernel", "restore_registers",
	"do_suspend_lowlevel", "wakeup_long64", "restore_processor_state",
};

TEST_F_TIMEOUT(slow, never_reached_entry_points_are_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned long text = sci_ksym("_text");
	unsigned long never_end = sci_ksym("__sci_never_text_end");
	unsigned int i, tried = 0, bad = 0;
	struct sci_test_attack a;
	struct outcome o;
	__u64 stack[8];

	ASSERT_NE(0, landing);
	ASSERT_NE(0, text);
	TH_LOG("never-granted pages: %#lx-%#lx", text, never_end);
	for (i = 0; i < sizeof(never_reached) / sizeof(never_reached[0]); i++) {
		unsigned long fn = sci_ksym(never_reached[i]);

		if (!fn) {
			TH_LOG("%s: not in this kernel", never_reached[i]);
			continue;
		}
		if (fn < text || fn >= never_end) {
			TH_LOG("%s: on a page that other code shares", never_reached[i]);
			bad++;
		}
		call_then_land(&a, stack, fn, landing);
		attack(&a, 1, &o);
		TH_LOG("%s: status %#x%s%s, %s", never_reached[i], o.status,
		       killed_by_sci(&o) ? " killed by SCI" : "",
		       o.have && o.a.landed ? " LANDED" : "",
		       strstr(o.rec, "reason: ") ?: "no violation");
		bad += (o.have && o.a.landed) || !killed_by_sci(&o) ||
		       !strstr(o.rec, "unverified jump");
		tried++;
	}
	/* startup_64 and secondary_startup_64 are in every kernel. */
	ASSERT_LE(2, tried);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Suspend, hibernation and kexec load tables, control registers and
 * descriptor tables of their own, unchecked (do_suspend_lowlevel()'s
 * resume point, restore_processor_state(), relocate_kernel's copy), and
 * are never granted on the SCI tables.  An isolated syscall may not start
 * one: it gets EPERM, and is not killed (found by review: an isolated
 * suspend would have reset the machine on resume).
 *  - reboot(LINUX_REBOOT_CMD_KEXEC), no image loaded: EINVAL unisolated
 *    (the control), EPERM isolated;
 *  - then, only if that refusal is there (without it these would put the
 *    guest to sleep for good), writes of "freeze" and "disk" to
 *    /sys/power/state from an isolated write(2): EPERM.
 */
static int isolated_errno(int nr, int (*op)(void))
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (sci_filter(nr, SECCOMP_RET_ISOLATE))
			_exit(250);
		_exit(op() ? (errno & 0x7f) : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;	/* killed */
	return WEXITSTATUS(status);
}

static int kexec_reboot(void)
{
	return syscall(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		       LINUX_REBOOT_CMD_KEXEC, NULL) == -1 ? -1 : 0;
}

static const char *power_state;

static int write_power_state(void)
{
	int fd = open("/sys/power/state", O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, power_state, strlen(power_state));
	close(fd);
	return ret < 0 ? -1 : 0;
}

TEST(power_transitions_refused_when_isolated)
{
	static const char * const states[] = { "freeze", "disk" };
	char avail[256] = "";
	unsigned int i, tried = 0;

	if (access("/sys/kernel/kexec_loaded", F_OK))
		SKIP(return, "no KEXEC in this kernel (the distro configuration has it)");
	ASSERT_EQ(-1, kexec_reboot());
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(EPERM, isolated_errno(__NR_reboot, kexec_reboot));
	TH_LOG("kexec: EINVAL unisolated, EPERM isolated");
	if (sci_read_file("/sys/power/state", avail, sizeof(avail)) < 0)
		SKIP(return, "no /sys/power/state");
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		if (!strstr(avail, states[i]))
			continue;
		power_state = states[i];
		EXPECT_EQ(EPERM, isolated_errno(__NR_write, write_power_state))
			TH_LOG("isolated write of \"%s\" to /sys/power/state", states[i]);
		tried++;
	}
	TH_LOG("/sys/power/state: %.*s; %u states tried isolated",
	       (int)strcspn(avail, "\n"), avail, tried);
	ASSERT_LT(0, tried);
}

/*
 * The same, past the checks before the write: a jump to a CR3 write
 * inside a function the syscall reached.  A keeping task
 * (SECCOMP_ISOLATE_KEEP, every syscall isolated) first makes an isolated
 * syscall reach that function, which leaves its code granted; then an
 * isolated ioctl jumps to the write with the task's full tables in its
 * register and the landing on the stack.  No fetch fault checks that
 * jump (the page is granted): the check after the write must kill.
 *  - load_new_mm_cr3(): an isolated text poke loads its temporary mm
 *    through it.
 * (sci_switch_in() had a write that returned to the SCI tables, tested
 * here until series 0100 made the door's return go back to them.)
 */
/*
 * The hook's "another CPU" is another than the one its ioctl runs on: on
 * CPU 0 only, every step of a test names the same CPU's GDT (CPU 1's).
 */
static int pin_cpu0(cpu_set_t *old)
{
	cpu_set_t cpus;

	if (sched_getaffinity(0, sizeof(*old), old) || !CPU_ISSET(0, old))
		return -1;
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	return sched_setaffinity(0, sizeof(cpus), &cpus);
}

enum reach { REACH_TEXT_POKE, REACH_SLEEP };

/* A WRITE's target: this CPU's sci_cr3_writes (the hook's words) */
#define SCI_ATTACK_CR3_WRITES	0x5c1a77ac00000026ULL

/* A thread that keeps CPU 0 busy, so that a task pinned there is preempted */
static void *spin_on_cpu0(void *arg)
{
	cpu_set_t old;

	if (pin_cpu0(&old))
		return NULL;
	for (;;)
		;
	return NULL;
}

/* __jump_to_cr3_write_in()'s @flags */
#define FORGE_COUNT	0x1	/* write the CR3 write count first */
#define PREEMPTED	0x2	/* jump once preempted in the same syscall */

static void __jump_to_cr3_write_in(struct __test_metadata *_metadata,
				   const char *name, enum reach how,
				   unsigned int flags)
{
	bool forge_count = flags & FORGE_COUNT;
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned long fn = sci_ksym(name);
	int afd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2];
	struct sci_test_cr3_sites sites;
	struct sci_test_attack a;
	struct outcome o;
	__u64 stack[8];
	unsigned int j;
	pid_t pid;

	ASSERT_LE(0, afd);
	ASSERT_NE(0, landing);
	if (!fn)
		SKIP(return, "%s is inlined in this kernel", name);
	memset(&sites, 0, sizeof(sites));
	sites.addr[0] = fn;
	ASSERT_EQ(0, ioctl(afd, SCI_TEST_CR3_SITES_IN, &sites));
	ASSERT_LT(0, sites.nr);
	TH_LOG("%s's write at %#llx, source register %u", name,
	       sites.addr[0], sites.reg[0]);
	memset(&a, 0, sizeof(a));
	for (j = 0; j < 8; j++)
		stack[j] = landing;
	a.how = SCI_ATTACK_JMP;
	a.target = sites.addr[0];
	a.len = 8;
	a.data = (unsigned long)stack;
	a.regs[7] = SCI_ATTACK_STACK;
	a.regs[reg_index[sites.reg[0]]] = SCI_ATTACK_KERNEL_CR3;
	ASSERT_EQ(0, pipe(pfd));
	memset(&o, 0, sizeof(o));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int tfd = open(SCI_TEST_PATH, O_RDWR);

		cpu_set_t old;
		pthread_t hog;

		close(pfd[0]);
		/*
		 * The count is per CPU: write it where the jump runs.  A
		 * preemption needs another task running on that CPU.
		 */
		if ((flags & (FORGE_COUNT | PREEMPTED)) && pin_cpu0(&old))
			_exit(95);
		/* A busy thread of its own on that CPU, unfiltered, dies with it */
		if ((flags & PREEMPTED) && pthread_create(&hog, NULL, spin_on_cpu0, NULL))
			_exit(95);
		if (tfd < 0 || sci_filter(-1, SECCOMP_RET_ISOLATE |
					  SECCOMP_ISOLATE_KEEP))
			_exit(90);
		if (how == REACH_TEXT_POKE && ioctl(tfd, SCI_TEST_TEXT_POKE, 0) < 0)
			_exit(91);
		if (how == REACH_SLEEP)
			usleep(20000);
		/* The write's page is granted: no fault will check the jump. */
		if (ioctl(tfd, SCI_TEST_MAPPED, (unsigned long)a.target) != 1)
			_exit(92);
		if (forge_count) {
			/*
			 * One write of ordinary data (a count of 1: "a check
			 * before a write passed"), as a write primitive would;
			 * ENOENT: the kernel has no such count to forge.
			 */
			struct sci_test_attack w;
			__u32 one = 1;

			memset(&w, 0, sizeof(w));
			w.how = SCI_ATTACK_WRITE;
			w.target = SCI_ATTACK_CR3_WRITES;
			w.len = sizeof(one);
			w.data = (unsigned long)&one;
			if (ioctl(afd, SCI_TEST_ATTACK, &w) && errno != ENOENT)
				_exit(96);
		}
		if (flags & PREEMPTED)
			a.how = SCI_ATTACK_JMP_PREEMPTED;
		if (ioctl(afd, SCI_TEST_ATTACK, &a))
			_exit(93);
		if (write(pfd[1], &a, sizeof(a)) != sizeof(a))
			_exit(94);
		_exit(0);
	}
	close(pfd[1]);
	o.have = read(pfd[0], &o.a, sizeof(o.a)) == sizeof(o.a);
	close(pfd[0]);
	o.status = sci_reap(pid, o.rec, sizeof(o.rec));
	TH_LOG("status %#x%s%s, %s", o.status,
	       killed_by_sci(&o) ? " killed by SCI" : "",
	       escaped(&o) ? " ESCAPED to the full tables" : "",
	       strstr(o.rec, "reason: ") ?: "no violation");
	/* Not 90-96: the setup worked, and the write's page was granted. */
	ASSERT_FALSE(WIFEXITED(o.status) && WEXITSTATUS(o.status) >= 90 &&
		     WEXITSTATUS(o.status) <= 96);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_TRUE(leave_killed(o.rec));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(afd);
}

static void jump_to_cr3_write_in(struct __test_metadata *_metadata,
				 const char *name, enum reach how)
{
	__jump_to_cr3_write_in(_metadata, name, how, 0);
}

TEST_F_TIMEOUT(slow, jump_to_kernel_cr3_write_in_reached_function_is_killed, 120)
{
	jump_to_cr3_write_in(_metadata, "load_new_mm_cr3", REACH_TEXT_POKE);
}

/*
 * The door's vector delivered by the APIC, as a misprogrammed device or a
 * chain's self-IPI could (ninth review): a handler that took it for the
 * door's INT never sent its EOI, and the vector, in service for good,
 * blocked every interrupt of lower or equal priority on that CPU.  An
 * irq_work queued on the CPU afterwards (a self-IPI of its own) must run.
 */
TEST(stray_door_vector_is_acknowledged)
{
	struct sci_test_attack a = { .how = SCI_ATTACK_STRAY_DOOR };
	int fd = open(SCI_ATTACK_PATH, O_RDWR);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_ATTACK, &a));
	close(fd);
	TH_LOG("irq_work after the stray vector %s; local timer interrupts meanwhile: %llu",
	       a.landed ? "ran" : "never ran",
	       (unsigned long long)a.landed_rdi);
	ASSERT_EQ(1, a.landed);
}

/*
 * The scheduler's door (series 0100) from a chain: schedule() called at
 * its start sleeps through the door's exception, whose return goes back to
 * the SCI tables, and returns into the chain there.  The landing must run
 * on the SCI tables; sci_switch_in() and sci_switch_out() have no CR3
 * write left (qemu/cr3-scan.py checks that at build time).
 */
TEST_F_TIMEOUT(slow, chain_call_of_schedule_comes_back_on_sci_tables, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long doors = sci_stat("sched_doors");
	struct outcome o;

	ASSERT_LE(0, doors);
	call_chain(_metadata, "schedule", sci_ksym("schedule"), 0, 0, 0, 1, &o);
	EXPECT_TRUE(o.have);
	EXPECT_EQ(1, o.a.landed);
	EXPECT_FALSE(escaped(&o));
	EXPECT_FALSE(killed_by_sci(&o));
	EXPECT_LT(doors, sci_stat("sched_doors"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The same jump to load_new_mm_cr3()'s write after one write of ordinary
 * data (review): the check after the kernel's own CR3 writes went by a
 * per-CPU count that sci_cr3_write_begin() raised, writable there.  With
 * it set to 1, the jump loaded the full tables and the chain went on
 * there.  That check must go by SCI state alone.
 */
TEST_F_TIMEOUT(slow, jump_to_kernel_cr3_write_with_forged_count_is_killed, 120)
{
	__jump_to_cr3_write_in(_metadata, "load_new_mm_cr3", REACH_TEXT_POKE,
			       FORGE_COUNT);
}

/*
 * The same jump, made in a syscall that was preempted first (a seventh
 * review): the task is switched out from an interrupt, on the full
 * tables, and back, and the interrupt returns to the SCI tables.  The
 * switch in must not leave this CPU marked as gone from the SCI tables
 * for good, which would let the jump through.
 */
TEST_F_TIMEOUT(slow, jump_to_kernel_cr3_write_after_preemption_is_killed, 120)
{
	__jump_to_cr3_write_in(_metadata, "load_new_mm_cr3", REACH_TEXT_POKE,
			       PREEMPTED);
}

/*
 * __text_poke() runs the function it is given on the temporary mm's full
 * tables.  Holding text_mutex is no proof of text_poke(): a chain can
 * take it (mutex_lock() at its start) and then call __text_poke() with a
 * function of its choice (found by review).  SCI_TEST_TEXT_POKE 2 plays
 * that chain.  Isolated it must be killed, and the kill must release
 * text_mutex: a text poke afterwards (from a child, under an alarm)
 * comes back.  Unisolated, the call comes back (4): the control.
 */
TEST_F_TIMEOUT(slow, text_poke_with_another_function_is_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int tfd = open(SCI_TEST_PATH, O_RDWR), status;
	char rec[1024];
	pid_t pid;

	ASSERT_LE(0, tfd);
	EXPECT_EQ(4, ioctl(tfd, SCI_TEST_TEXT_POKE, 2));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(tfd, SCI_TEST_TEXT_POKE, 2);
		_exit(91);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status %#x, %s", status, strstr(rec, "reason: ") ?: "no violation");
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_TRUE(leave_killed(rec));
	/* text_mutex was released: text pokes still work. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		alarm(20);
		_exit(ioctl(tfd, SCI_TEST_TEXT_POKE, 0) < 0 ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(tfd);
}

/*
 * poking_mm->pgd forged (found by review): poking_mm is slab memory, and
 * its pgd told both text_poke() and SCI's check of CR3 loads on the SCI
 * tables which tables a poke may load: forged, a poke from an isolated
 * syscall runs its copy on tables of the attacker's choosing (a write to
 * any physical page).  SCI_TEST_POKING_PGD 1 points it at a copy of
 * itself; SCI_TEST_TEXT_POKE 3 then calls __text_poke() as text_poke()
 * does, with text_mutex held and text_poke_memcpy().  Unisolated, the
 * poke comes back (4) without loading the forged PGD (reviews: a poke
 * outside isolated syscalls loaded it, and its checks then ran on the
 * forged tables): poking_mm->pgd is put back first, which the
 * forged_repairs count says; isolated, it must be killed before it
 * takes a lock (a text poke afterwards comes back), and the original put
 * back lets isolated pokes work again.
 */
#define SCI_TEST_POKING_PGD	_IOW('S', 32, unsigned long)

/*
 * A child that makes one ioctl of the test hooks, isolated or not, and
 * exits with its result: 90 when the filter failed, @err_exit when the
 * ioctl failed (100 + errno when @err_exit is negative).  Its status and
 * /proc/PID/sci record (sci_reap()).
 */
static int ioctl_child(int tfd, int isolate, unsigned long req,
		       unsigned long arg, int err_exit, char *rec, size_t len)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		long r;

		alarm(20);
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		r = ioctl(tfd, req, arg);
		if (r < 0)
			_exit(err_exit >= 0 ? err_exit : 100 + errno % 100);
		_exit(r);
	}
	return sci_reap(pid, rec, len);
}

static int poke_child(int tfd, int isolate, unsigned long how, char *rec,
		      size_t len)
{
	return ioctl_child(tfd, isolate, SCI_TEST_TEXT_POKE, how, 91, rec, len);
}

/* An isolated poke of text, as text_poke() does it, comes back (4). */
static void isolated_poke_works(struct __test_metadata *_metadata, int tfd)
{
	char rec[1024];
	int status = poke_child(tfd, 1, 3, rec, sizeof(rec));

	TH_LOG("isolated poke of text: status %#x, %s", status,
	       strstr(rec, "reason: ") ?: "no violation");
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 4);
}

TEST_F_TIMEOUT(slow, forged_poking_pgd_is_not_loaded, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), refused, repaired;
	int tfd = open(SCI_TEST_PATH, O_RDWR), status, put_back, tries;
	char rec[1024];
	pid_t pid;

	ASSERT_LE(0, tfd);
	refused = sci_stat("poke_refusals");
	repaired = sci_stat("forged_repairs");
	ASSERT_EQ(0, ioctl(tfd, SCI_TEST_POKING_PGD, 1));
	status = poke_child(tfd, 0, 3, NULL, 0);
	refused = sci_stat("poke_refusals") - refused;
	repaired = sci_stat("forged_repairs") - repaired;
	TH_LOG("unisolated, forged: status %#x (exit 4: the poke came back), refused %ld, put back %ld",
	       status, refused, repaired);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 4);
	/*
	 * The forged PGD is never loaded (reviews): put back before the
	 * load, so that the poke goes on, through poking_mm's own tables.
	 */
	EXPECT_EQ(1, repaired);
	EXPECT_EQ(0, refused);
	/*
	 * Forged again from the isolated syscall itself, as the attack
	 * would: its filter's JIT copy is a poke that would put it back.
	 * Any other poke between its forge and its poke (a kworker's
	 * static key) puts it back too, and the poke then rightly comes
	 * back: seen as forged_repairs moving, that attempt is made again.
	 */
	for (tries = 0; tries < 5; tries++) {
		ASSERT_EQ(0, ioctl(tfd, SCI_TEST_POKING_PGD, 0));
		repaired = sci_stat("forged_repairs");
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			long r;

			alarm(20);
			if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
				_exit(90);
			if (ioctl(tfd, SCI_TEST_POKING_PGD, 1))
				_exit(92);
			r = ioctl(tfd, SCI_TEST_TEXT_POKE, 3);
			_exit(r < 0 ? 91 : r);
		}
		status = sci_reap(pid, rec, sizeof(rec));
		repaired = sci_stat("forged_repairs") - repaired;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 4 || !repaired)
			break;
		TH_LOG("another poke put the PGD back first: again");
	}
	put_back = ioctl(tfd, SCI_TEST_POKING_PGD, 0);
	TH_LOG("isolated, forged: status %#x (exit 4: the poke came back), %s",
	       status, strstr(rec, "reason: ") ?: "no violation");
	ASSERT_EQ(0, put_back);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_TRUE(leave_killed(rec));
	/* No lock left held; with the original back, isolated pokes work. */
	isolated_poke_works(_metadata, tfd);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(tfd);
}

/*
 * A poke whose target page is SCI state (found by review): the page that
 * __text_poke() writes is what vmalloc_to_page() reads from init_mm's
 * vmalloc PTE, ordinary memory.  Pointed at a page of SCI state, the
 * next legitimate poke (a BPF JIT's text copy, from an isolated bpf(2) or
 * not) writes its bytes there.  SCI_TEST_TEXT_POKE 4 plays the redirected
 * poke from an isolated ioctl: text_poke_copy() into SCI's globals (a
 * limit) of the value itself; it comes back 4 when not stopped.  It must
 * be killed, by that check (poke_refusals), and text pokes still work
 * after it.  Outside an isolated syscall such a poke is a BUG(), which no
 * test here provokes (it would leave text_mutex held).
 */
TEST_F_TIMEOUT(slow, text_poke_into_sci_state_refused, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), refused;
	int tfd = open(SCI_TEST_PATH, O_RDWR), status;
	char rec[1024];

	ASSERT_LE(0, tfd);
	/* Unisolated, the hook refuses to run (-EAGAIN: exit 91). */
	status = poke_child(tfd, 0, 4, NULL, 0);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 91);
	refused = sci_stat("poke_refusals");
	status = poke_child(tfd, 1, 4, rec, sizeof(rec));
	refused = sci_stat("poke_refusals") - refused;
	TH_LOG("isolated: status %#x (exit 4: SCI state written), %s, refused %ld",
	       status, strstr(rec, "reason: ") ?: "no violation", refused);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_TRUE(leave_killed(rec));
	/* Killed by the target's check, not another one. */
	EXPECT_EQ(1, refused);
	/* No lock left held: isolated pokes of text work. */
	isolated_poke_works(_metadata, tfd);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(tfd);
}

/*
 * Class 1 with user tables (found by review): the writes that switch to
 * PTI's user tables on the way back to user mode checked only that what
 * they loaded had the user bit (12) set.  A jump to one of them with the
 * CR3 of any user tables (this mm's, another mm's, with any PCID) passed,
 * and the rest of the return path went to user mode: the isolated syscall
 * left the SCI tables for user code of the attacker's choice, on tables
 * of the attacker's choice, before any check ran again.  Each premapped
 * CR3 write is tried with its register holding the user CR3 of this mm,
 * %rcx and %r11 set for SYSRET and a stack that the user tables map (the
 * CPU's entry stack) filled with IRET frames (at every alignment, since
 * each path pops a different number of words), all leading to
 * user_cr3_marker, which writes a word of shared memory and spins.  The marker must never be written; the task must be killed by
 * SCI.  The control: the same jump to the SYSRET path's write, unisolated,
 * reaches the marker.
 */
#define MARKER_PAGE	0x5c100000UL
#define MARKER_VALUE	0x5c1

void user_cr3_marker(void);
asm(".pushsection .text\n"
    ".globl user_cr3_marker\n"
    ".type user_cr3_marker, @function\n"
    "user_cr3_marker:\n\t"
    "movl $0x5c1, 0x5c100000\n"
    "1:\tpause\n\t"
    "jmp 1b\n"
    ".size user_cr3_marker, .-user_cr3_marker\n"
    ".popsection\n");

/*
 * Jump to premapped CR3 write @site (register @reg) with a user CR3, from a
 * child, isolated or not.  The marker's value when the child ended (or
 * was killed after 3 s in user mode).
 */

static int user_cr3_jump(unsigned long site, unsigned int reg,
			 unsigned int shift, int isolate, int *status,
			 char *rec, size_t reclen)
{
	volatile int *marker = (volatile int *)MARKER_PAGE;
	__u64 user_sp = MARKER_PAGE + 0x800, stack[64];
	int fd = open(SCI_ATTACK_PATH, O_RDWR), i;
	struct sci_test_attack a;
	pid_t pid;

	*status = -1;
	rec[0] = '\0';
	if (fd < 0)
		return -1;
	*marker = 0;
	memset(&a, 0, sizeof(a));
	a.regs[2] = (unsigned long)user_cr3_marker;	/* %rcx: SYSRET's %rip */
	a.regs[11] = 0x202;				/* %r11: its flags */
	a.regs[reg_index[reg]] = SCI_ATTACK_USER_CR3;
	if (reg == 4) {
		a.how = SCI_ATTACK_JMP;
		a.target = site;
	} else {
		a.how = SCI_ATTACK_RET_ENTRY_STACK;
		stack[0] = site;
		/* Pops before the frame get the user stack (SYSRET's %rsp). */
		for (i = 1; i < 64; i++) {
			switch (i < 1 + (int)shift ? 3 : (i - 1 - shift) % 5) {
			case 0: stack[i] = (unsigned long)user_cr3_marker; break;
			case 1: stack[i] = USER_CS; break;
			case 2: stack[i] = 0x202; break;
			case 3: stack[i] = user_sp; break;
			case 4: stack[i] = USER_DS; break;
			}
		}
		a.len = 64;
		a.data = (unsigned long)stack;
	}
	pid = fork();
	if (pid == 0) {
		cpu_set_t cpus;

		/* No page fault on the way: it would enter the kernel first. */
		*marker = 0;
		/* The words on the entry stack are this CPU's. */
		CPU_ZERO(&cpus);
		CPU_SET(sched_getcpu(), &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			_exit(89);
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_ATTACK, &a);
		_exit(95);	/* came back: the jump did not go anywhere */
	}
	close(fd);
	if (pid < 0)
		return -1;
	for (i = 0; i < 300 && *marker != MARKER_VALUE; i++) {
		siginfo_t si = { 0 };

		if (!waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
		    si.si_pid == pid)
			break;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	*status = sci_reap(pid, rec, reclen);
	return *marker;
}

/*
 * Killed by SCI for a jump to a premapped CR3 write (not by a #DF, say), or
 * by an interrupt that arrived while the chain ran the entry text with
 * interrupts on (SCI_ENTRY_IRQ_WINDOW, before that check could run).
 */
static int killed_at_cr3_check(int status, const char *rec)
{
	struct outcome o = { .status = status };

	snprintf(o.rec, sizeof(o.rec), "%s", rec);
	return killed_by_sci(&o) &&
	       (strstr(rec, "reason: jump to a premapped CR3 write") ||
		strstr(rec, "reason: interrupt in premapped entry code"));
}

/*
 * Every CPU still runs a task that sleeps (its timer fires, its wakeup
 * arrives): a kill that left an interrupt in service would have blocked
 * that CPU's timer for good.  How many CPUs did not, within 5 s.
 */
static int cpus_unresponsive(void)
{
	int cpu, ncpus = sysconf(_SC_NPROCESSORS_ONLN), bad = 0;

	for (cpu = 0; cpu < ncpus; cpu++) {
		siginfo_t si;
		int i;
		pid_t pid = fork();

		if (pid == 0) {
			cpu_set_t cpus;

			CPU_ZERO(&cpus);
			CPU_SET(cpu, &cpus);
			if (sched_setaffinity(0, sizeof(cpus), &cpus))
				_exit(1);
			usleep(10000);
			_exit(sched_getcpu() == cpu ? 0 : 2);
		}
		for (i = 0; i < 500; i++) {
			memset(&si, 0, sizeof(si));
			if (!waitid(P_PID, pid, &si, WEXITED | WNOHANG) &&
			    si.si_pid == pid)
				break;
			usleep(10000);
		}
		if (i == 500 || si.si_code != CLD_EXITED || si.si_status) {
			kill(pid, SIGKILL);
			bad++;
		}
	}
	return bad;
}

/*
 * The same from where a switch of tables starts, its read of CR3: a jump
 * into a return to user mode on the SCI tables makes PTI's switch load the
 * SCI tables' CR3 with the user bit (12) set, the page after the SCI PGD.
 * Each CR3 read that a CR3 write follows within 128 bytes is tried, with
 * the registers and frames as above: the task must be killed by SCI, and
 * the machine must live.
 */
TEST_F_TIMEOUT(slow, sci_tables_switched_to_user_tables_are_killed, 300)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct sci_test_cr3_sites sites;
	unsigned int i, j, shift, tried = 0, bad = 0;
	char name[160], rec[1024];
	int status, reached_user = 0;
	void *page;

	page = mmap((void *)MARKER_PAGE, 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((void *)MARKER_PAGE, page);
	ASSERT_EQ(0, cr3_sites(&sites));
	ASSERT_LT(0, sites.nr_reads);
	for (i = 0; i < sites.nr_reads && !reached_user; i++) {
		for (j = 0; j < sites.nr; j++)
			if (sites.addr[j] > sites.read_addr[i] &&
			    sites.addr[j] - sites.read_addr[i] < 128)
				break;
		if (j == sites.nr)
			continue;
		ksym_name(sites.read_addr[i], name, sizeof(name));
		tried++;
		for (shift = 0; shift < 5 && !reached_user; shift++) {
			struct outcome o;
			int m;

			sci_kmsg("sci_redteam: CR3 read at %s, shift %u", name, shift);
			/* %rsp is not the register: always a RET */
			m = user_cr3_jump(sites.read_addr[i], 0, shift, 1,
					  &status, rec, sizeof(rec));
			memset(&o, 0, sizeof(o));
			o.status = status;
			snprintf(o.rec, sizeof(o.rec), "%s", rec);
			if (m == MARKER_VALUE || !killed_by_sci(&o)) {
				TH_LOG("%#llx %s (shift %u): %s, status %#x, %s",
				       sites.read_addr[i], name, shift,
				       m == MARKER_VALUE ? "REACHED USER MODE" : "not killed by SCI",
				       status, strstr(rec, "reason: ") ?: "no violation");
				bad++;
				reached_user = m == MARKER_VALUE;
			}
		}
	}
	TH_LOG("%u CR3 reads followed by a CR3 write tried", tried);
	EXPECT_LT(0, tried);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, cpus_unresponsive());
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	munmap(page, 4096);
}

TEST_F_TIMEOUT(slow, user_cr3_writes_never_reach_user_mode, 300)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long sysret = sci_ksym("syscall_return_via_sysret");
	struct sci_test_cr3_sites sites;
	unsigned int i, shift, bad = 0;
	int status, reached = 0, reached_user = 0;
	char name[160], rec[1024];
	void *page;

	ASSERT_NE(0, sysret);
	page = mmap((void *)MARKER_PAGE, 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((void *)MARKER_PAGE, page);
	ASSERT_EQ(0, cr3_sites(&sites));
	ASSERT_LT(0, sites.nr);

	/* Control: unisolated, the SYSRET path's write reaches user mode. */
	for (i = 0; i < sites.nr; i++) {
		ksym_name(sites.addr[i], name, sizeof(name));
		if (strncmp(name, "syscall_return_via_sysret+", 26))
			continue;
		reached = user_cr3_jump(sites.addr[i], sites.reg[i], 3, 0,
					&status, rec, sizeof(rec));
		TH_LOG("unisolated, %s: marker %#x, status %#x", name,
		       reached, status);
		break;
	}
	ASSERT_EQ(MARKER_VALUE, reached);

	/*
	 * Stop at the first that reaches user mode: the next may get there
	 * with interrupts off (a misaligned frame's flags) and spin for good.
	 */
	for (i = 0; i < sites.nr && !reached_user; i++) {
		ksym_name(sites.addr[i], name, sizeof(name));
		for (shift = 0; shift < 5 && !reached_user; shift++) {
			int m;

			/* Named in the kernel log first: if the guest dies, which. */
			sci_kmsg("sci_redteam: user CR3 at %s, shift %u", name, shift);
			m = user_cr3_jump(sites.addr[i], sites.reg[i], shift, 1,
					  &status, rec, sizeof(rec));
			if (m == MARKER_VALUE || !killed_at_cr3_check(status, rec)) {
				TH_LOG("%#llx %s (reg %u, shift %u): %s, status %#x, %s",
				       sites.addr[i], name, sites.reg[i], shift,
				       m == MARKER_VALUE ? "REACHED USER MODE" : "not killed by SCI",
				       status, strstr(rec, "reason: ") ?: "no violation");
				bad++;
				reached_user = m == MARKER_VALUE;
			}
			if (sites.reg[i] == 4)
				break;	/* a JMP: no stack to align */
		}
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, cpus_unresponsive());
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	munmap(page, 4096);
}

/*
 * The interrupt window (found by running): a jump with interrupts on to a
 * premapped CR3 write that loads the full tables, with %rsp anywhere.  An
 * interrupt that arrives before the write's check runs its entry and
 * handler on the full tables and on the attacker's stack: an entry stack
 * it overflows (a panic, seen once in seven runs), or memory that a
 * sibling thread rewrites under the handler.  Timing cannot be tested, so
 * SCI_ATTACK_IRQ_FRAME does what the CPU does then: from the isolated
 * syscall, on the full tables, an interrupt frame whose instruction
 * pointer is just past each premapped CR3 write, on a poisoned stack,
 * into the reschedule IPI's entry.  The task must be killed before the
 * entry saves a register: only the frame and the two words the entry
 * stub pushes (7 words) may have been written.  The control, a frame
 * outside the entry code on the same stack, comes back: the handler ran,
 * on the full tables, and used more of the stack.
 */
#define IRQ_FRAME_WORDS	7

static long irq_stack_used(void)
{
	struct sci_test_attack a = { .how = SCI_ATTACK_IRQ_STACK_USED };
	int fd = open(SCI_ATTACK_PATH, O_RDWR);
	long ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, SCI_TEST_ATTACK, &a) ? -errno : (long)a.landed_rdi;
	close(fd);
	return ret;
}

TEST_F_TIMEOUT(slow, interrupt_in_entry_code_killed_before_its_handler, 300)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), used;
	struct sci_test_cr3_sites sites;
	struct sci_test_attack a;
	struct outcome o;
	unsigned int i, bad = 0;
	char name[160];

	ASSERT_EQ(0, cr3_sites(&sites));
	ASSERT_LT(0, sites.nr);

	/* Control: outside the entry code, the handler runs and returns. */
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_IRQ_FRAME;
	attack(&a, 1, &o);
	TH_LOG("control: status %#x, came back %d, stack used %llu bytes, CR3 %#llx (full %#llx, SCI %#llx)",
	       o.status, o.have && o.a.landed, o.have ? o.a.landed_rdi : 0,
	       o.a.landed_cr3, o.a.kernel_cr3, o.a.sci_cr3);
	ASSERT_TRUE(o.have && o.a.landed);
	ASSERT_NE(0, o.a.sci_cr3);
	EXPECT_EQ(o.a.kernel_cr3 & CR3_ADDR, o.a.landed_cr3 & CR3_ADDR);
	EXPECT_LT(IRQ_FRAME_WORDS * 8 + 64, o.a.landed_rdi);

	for (i = 0; i < sites.nr; i++) {
		ksym_name(sites.addr[i], name, sizeof(name));
		sci_kmsg("sci_redteam: interrupt after the CR3 write at %s", name);
		memset(&a, 0, sizeof(a));
		a.how = SCI_ATTACK_IRQ_FRAME;
		a.target = sites.addr[i];
		a.len = 1;
		attack(&a, 1, &o);
		used = irq_stack_used();
		if (!killed_by_sci(&o) || !strstr(o.rec, "reason: interrupt in premapped entry code") ||
		    used < 0 || used > IRQ_FRAME_WORDS * 8) {
			TH_LOG("%#llx %s: status %#x, %s, stack used %ld bytes",
			       sites.addr[i], name, o.status,
			       strstr(o.rec, "reason: ") ?: "no violation", used);
			bad++;
		}
	}
	TH_LOG("%llu CR3 writes' windows tried", sites.nr);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, cpus_unresponsive());
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The same window after the kernel's CR3 writes outside the entry text
 * (review 22): the bracketed ones (load_new_mm_cr3(), native_flush_tlb_local())
 * and SCI's own in C (sci_leave_tables(), sci_return_tables() and the
 * others), which a chain reaches by a jump inside a function the syscall
 * entered, with interrupts on.  An interrupt after such a write, before
 * its check, ran error_entry, the handler and its IRET on the attacker's
 * stack (and GS), on the full tables.  While this CPU runs an isolated
 * syscall, an interrupt or exception from kernel mode on the full tables
 * outside SCI's own states off them (those that sci_cr3_write_end()
 * accepts) must be killed before its handler runs: reason "interrupt on
 * the full tables", and no more of the test stack
 * written than the frame, the stub's two words and the three registers
 * that the entry's switch saves to find its CPU.
 */
#define IRQ_SWITCH_WORDS	3

TEST_F_TIMEOUT(slow, interrupt_after_kernel_cr3_write_killed_before_its_handler, 300)
{
	static const char * const names[] = {
		"load_new_mm_cr3", "switch_mm_irqs_off", "native_flush_tlb_local",
		"sci_mark_ro_frame", "sci_kernel_gen_bump", "sci_set_user_pgd",
		"sci_do_softirq_own_stack", "__text_poke",
	};
	long oops = sci_read_long("/sys/kernel/oops_count"), used;
	unsigned int n, i, bad = 0, tried = 0;
	struct sci_test_cr3_sites sites;
	struct sci_test_attack a;
	struct outcome o;
	char name[160];
	int afd = open(SCI_ATTACK_PATH, O_RDWR);

	ASSERT_LE(0, afd);
	for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		unsigned long fn = sci_ksym(names[n]);

		if (!fn) {
			TH_LOG("%s: not in this kernel (inlined)", names[n]);
			continue;
		}
		memset(&sites, 0, sizeof(sites));
		sites.addr[0] = fn;
		ASSERT_EQ(0, ioctl(afd, SCI_TEST_CR3_SITES_IN, &sites));
		for (i = 0; i < sites.nr; i++) {
			ksym_name(sites.addr[i], name, sizeof(name));
			sci_kmsg("sci_redteam: interrupt after the kernel CR3 write at %s", name);
			memset(&a, 0, sizeof(a));
			a.how = SCI_ATTACK_IRQ_FRAME;
			a.target = sites.addr[i];
			a.len = 1;
			attack(&a, 1, &o);
			used = irq_stack_used();
			tried++;
			if (!killed_by_sci(&o) ||
			    !strstr(o.rec, "reason: interrupt on the full tables") ||
			    used < 0 || used > (IRQ_FRAME_WORDS + IRQ_SWITCH_WORDS) * 8) {
				TH_LOG("%#llx %s: status %#x, %s, stack used %ld bytes",
				       sites.addr[i], name, o.status,
				       strstr(o.rec, "reason: ") ?: "no violation", used);
				bad++;
			}
		}
	}
	close(afd);
	TH_LOG("%u CR3 writes' windows outside the entry text tried", tried);
	EXPECT_LE(4, tried);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, cpus_unresponsive());
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The same window when the write loaded PTI's user bit with a
 * kernel-complete PGD (review 23: trampoline_pgd is only page-aligned, and
 * at a frame with bit 12 set it passes for user tables, which the entry's
 * switch left alone).  IRQ_FRAME with @len 2 takes a copy of current's PGD
 * at an odd frame: killed before the handler all the same.
 */
TEST_F_TIMEOUT(slow, interrupt_after_write_of_odd_kernel_pgd_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), used;
	unsigned long fn = sci_ksym("native_flush_tlb_local");
	struct sci_test_cr3_sites sites;
	struct sci_test_attack a;
	struct outcome o;
	int afd = open(SCI_ATTACK_PATH, O_RDWR);

	ASSERT_LE(0, afd);
	ASSERT_NE(0, fn);
	memset(&sites, 0, sizeof(sites));
	sites.addr[0] = fn;
	ASSERT_EQ(0, ioctl(afd, SCI_TEST_CR3_SITES_IN, &sites));
	close(afd);
	ASSERT_LT(0, sites.nr);
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_IRQ_FRAME;
	a.target = sites.addr[0];
	a.len = 2;
	attack(&a, 1, &o);
	used = irq_stack_used();
	TH_LOG("%#llx with an odd PGD: status %#x%s, %s, stack used %ld bytes",
	       sites.addr[0], o.status, killed_by_sci(&o) ? " killed by SCI" : "",
	       strstr(o.rec, "reason: ") ?: "no violation", used);
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_NE(NULL, strstr(o.rec, "reason: interrupt on the full tables"));
	EXPECT_LE(0, used);
	EXPECT_GE((IRQ_FRAME_WORDS + IRQ_SWITCH_WORDS) * 8, used);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The kernel's own complete PGDs, which a chain can load by a jump to a
 * CR3 write, at even frames (review 24): at a frame with bit 12 set, PTI's
 * user bit by convention only, one passes for user tables in the entry's
 * checks, and the kill's way off user tables (bit 12 cleared) loads the
 * frame below, no PGD: the machine resets instead of a kill.
 * trampoline_pgd was only page-aligned.  SCI counts those it finds at
 * boot (odd_kernel_pgds): none.
 */
TEST(kernel_pgds_at_even_frames)
{
	long odd = sci_stat("odd_kernel_pgds");

	TH_LOG("kernel PGDs at odd frames: %ld", odd);
	ASSERT_LE(0, odd);
	EXPECT_EQ(0, odd);
}

/*
 * What error_entry's kill must let through (review 23): SCI's own windows
 * between a CR3 write that leaves the SCI tables and the cpu_sci field
 * that says so (sci_leave_tables() before @left, error_return's way back)
 * run with interrupts off, but an NMI's handler can take a page fault
 * there (a user stack walk for perf) and a kprobe an int3.  The hook
 * plays that state (full tables, no field, interrupts off) and reads its
 * stack guard page with a fixup: the fault must be handled, the syscall
 * go on, nothing killed.
 */
#define SCI_ATTACK_FAULT_IN_WINDOW	0x5c1a77ac00000042ULL

TEST(fault_in_window_before_its_field_is_not_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int fd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2];
	char rec[1024];
	long r = 0;
	int status;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct sci_test_attack a = { .how = SCI_ATTACK_TOUCH,
					     .target = SCI_ATTACK_FAULT_IN_WINDOW };

		close(pfd[0]);
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		r = ioctl(fd, SCI_TEST_ATTACK, &a) ? -errno : 0;
		if (write(pfd[1], &r, sizeof(r)) != sizeof(r))
			_exit(91);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &r, sizeof(r)) != sizeof(r))
		r = 1;
	close(pfd[0]);
	close(fd);
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status %#x, ioctl %ld, %s", status, r,
	       strstr(rec, "reason: ") ?: "no violation");
	if (r == 0)
		SKIP(return, "the stack guard page is mapped (no VMAP_STACK)");
	EXPECT_EQ(-EFAULT, r);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(NULL, strstr(rec, "reason: "));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Found by review: after a jumped-to CR3 write the stack pointer is the
 * attacker's, on the full tables, where SCI's own state and tables are
 * writable.  A check that called its kill (C code's "call
 * sci_cr3_violation") pushed a return address there: a known value at a
 * chosen address.  The checks in assembler only branch (the disassembly
 * shows it); the CR3 writes whose checks are C, those of the function
 * that enters and leaves the SCI tables (sci_run_isolated(), before
 * series 0038 sci_syscall()), are jumped to with the full tables' CR3 in
 * every register, so that the checks on the value loaded and on GS pass
 * and the stack check fails, and with %rsp on a poisoned stack: the task
 * must be killed and nothing written below the stack pointer.  A kill
 * for an interrupt that arrived meanwhile (its frame is written by the
 * CPU) is tried again.
 */
TEST_F_TIMEOUT(slow, cr3_checks_write_nothing_on_the_stack, 300)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), used;
	struct sci_test_cr3_sites sites;
	struct sci_test_attack a;
	struct outcome o;
	unsigned int i, r, bad = 0, tried = 0;
	char name[160];

	ASSERT_EQ(0, cr3_sites(&sites));
	ASSERT_LT(0, sites.nr);
	for (i = 0; i < sites.nr; i++) {
		ksym_name(sites.addr[i], name, sizeof(name));
		if (strncmp(name, "sci_run_isolated+", 17) &&
		    strncmp(name, "sci_syscall+", 12))
			continue;
		tried++;
		for (r = 0; r < 5; r++) {
			int k;

			sci_kmsg("sci_redteam: CR3 write at %s, %%rsp poisoned", name);
			memset(&a, 0, sizeof(a));
			a.how = SCI_ATTACK_JMP;
			a.target = sites.addr[i];
			for (k = 0; k < 16; k++)
				a.regs[k] = SCI_ATTACK_KERNEL_CR3;
			a.regs[7] = SCI_ATTACK_POISON_STACK;
			attack(&a, 1, &o);
			used = irq_stack_used();
			if (!strstr(o.rec, "reason: interrupt in premapped entry code"))
				break;
		}
		if (!killed_by_sci(&o) || used != 0) {
			TH_LOG("%#llx %s: status %#x, %s, %ld bytes written below %%rsp",
			       sites.addr[i], name, o.status,
			       strstr(o.rec, "reason: ") ?: "no violation", used);
			bad++;
		}
	}
	TH_LOG("%u CR3 writes with checks in C tried", tried);
	EXPECT_EQ(2, tried);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, cpus_unresponsive());
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Class 2 by an emulated exception (found by review): a return into
 * error_entry or paranoid_entry at their switch to the full tables, with a
 * genuine return address of the entry function (a stub whose handler does
 * nothing) above forged pt_regs, passes for an exception that interrupted
 * the isolated syscall.  If the return to the SCI tables then restores the
 * forged registers, the attacker has every register and any instruction
 * pointer: the forged %rdi reaches sci_test_landing().  Each CR3 write of
 * the two functions is tried, with the return address and the forged
 * frame 0 to 3 words up the stack (the switch may have pushed scratch
 * registers first); the landing must never see the forged %rdi, and never
 * run on the full tables.
 */
#define FORGED_RDI	0x0bad0bad0bad0badULL

TEST_F_TIMEOUT(slow, emulated_exception_gets_no_registers, 300)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	struct sci_test_cr3_sites sites;
	int bad = 0, tried = 0;
	struct sci_test_attack a;
	unsigned int i, j, n, skip;
	__u64 stack[64], ret;
	struct outcome o;
	char name[160];

	ASSERT_NE(0, landing);
	ASSERT_EQ(0, cr3_sites(&sites));
	ASSERT_NE(0, sites.error_entry_ret);
	ASSERT_NE(0, sites.paranoid_entry_ret);
	for (i = 0; i < sites.nr; i++) {
		ksym_name(sites.addr[i], name, sizeof(name));
		if (!strncmp(name, "error_entry+", 12))
			ret = sites.error_entry_ret;
		else if (!strncmp(name, "paranoid_entry+", 15))
			ret = sites.paranoid_entry_ret;
		else
			continue;
		for (skip = 0; skip < 4; skip++) {
			memset(&a, 0, sizeof(a));
			for (j = 0; j < 16; j++)
				a.regs[j] = SCI_ATTACK_KERNEL_CR3;
			/* paranoid_exit restores GS from %rbx */
			a.regs[1] = SCI_ATTACK_GS_BASE;
			n = 0;
			stack[n++] = sites.addr[i];
			for (j = 0; j < skip; j++)
				stack[n++] = FORGED_RDI;
			stack[n++] = ret;
			for (j = 0; j < 15; j++)	/* r15 .. rdi */
				stack[n++] = FORGED_RDI;
			stack[n++] = -1;		/* orig_ax */
			stack[n++] = landing;
			stack[n++] = KERNEL_CS;
			stack[n++] = 0x2;
			stack[n] = SCI_ATTACK_STACK + 8 * (n + 2);
			n++;
			stack[n++] = KERNEL_DS;
			while (n < 64)
				stack[n++] = landing;
			a.how = SCI_ATTACK_RET;
			a.len = 64;
			a.data = (unsigned long)stack;
			TH_LOG("%s, frame %u word(s) up ...", name, skip + 1);
			attack(&a, 1, &o);
			TH_LOG("  status %#x%s, landed %llu, %%rdi %s, %s", o.status,
			       killed_by_sci(&o) ? " killed by SCI" : "",
			       o.have ? o.a.landed : 0,
			       o.have && o.a.landed_rdi == FORGED_RDI ? "FORGED" : "not forged",
			       escaped(&o) ? "ESCAPED to the full tables" : "stayed isolated");
			tried++;
			bad += (o.have && o.a.landed && o.a.landed_rdi == FORGED_RDI) ||
			       escaped(&o);
		}
	}
	ASSERT_LE(4, tried);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Class 10, text_poke(): patching kernel text (a static key or static call
 * that the syscall flips, an unprivileged setsockopt(TCP_MD5SIG) for one)
 * switches to text_poke()'s temporary mm and back to the task's mm, whose
 * tables are the full kernel tables.  The rest of an isolated syscall must
 * still run on its SCI tables: the hook reports the tables it ran on
 * before and after the patching (3: on the SCI tables both times), and
 * then jumps into the middle of a function, which must be killed; no
 * isolated syscall may come back on other tables than its own (the "lost"
 * counter).  Unisolated, the same hook reports 0 and the jump completes.
 */
static void run_poke(int fd, int isolate, long *ret, int *status, char *rec,
		     size_t reclen)
{
	int pfd[2];
	pid_t pid;

	*ret = -1;
	*status = -1;
	if (pipe(pfd))
		return;
	pid = fork();
	if (pid == 0) {
		long r;

		close(pfd[0]);
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		r = ioctl(fd, SCI_TEST_TEXT_POKE, 0);
		if (write(pfd[1], &r, sizeof(r)) != sizeof(r))
			_exit(91);
		ioctl(fd, SCI_TEST_TEXT_POKE, 1);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], ret, sizeof(*ret)) != sizeof(*ret))
		*ret = -1;
	close(pfd[0]);
	*status = sci_reap(pid, rec, reclen);
}

TEST(text_poke_keeps_isolation)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), ret, lost;
	int fd = test_fd(), status;
	char rec[1024];

	ASSERT_LE(0, fd);
	run_poke(fd, 0, &ret, &status, rec, sizeof(rec));
	TH_LOG("unisolated: hook %ld, status %#x", ret, status);
	ASSERT_EQ(0, ret);
	ASSERT_EXIT0(status);

	lost = sci_stat("lost");
	ASSERT_LE(0, lost);
	run_poke(fd, 1, &ret, &status, rec, sizeof(rec));
	TH_LOG("isolated: hook %ld (3: on the SCI tables before and after), status %#x, /proc/PID/sci: %s",
	       ret, status, rec);
	EXPECT_EQ(3, ret);
	/* No isolated syscall came back on other tables than its own. */
	EXPECT_EQ(lost, sci_stat("lost"));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_NE(NULL, strstr(rec, "enforced: 1"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

/*
 * Class 7, the tables SCI copies from: an arbitrary write to the kernel's
 * own page tables (Dirty Pagetable) that points the PTE of a kernel text
 * page at a page of the attacker's code.  Without SCI that works (out of
 * SCI's scope: the full tables are forged for every context); a code grant
 * copied from the forged PTE would run it inside an isolated syscall too.
 * The hook forges the PTE of sci_test_target()'s first page to a page
 * whose code returns SCI_TEST_FORGED; unisolated, a call returns it; an
 * isolated call of the same function (at its first byte, which the fetch
 * rule allows) must be killed: the kernel image is a linear map, and the
 * forged frame is not the one its address gives.
 */
#define SCI_TEST_FORGED	0x5c1f0c3d

TEST(forged_kernel_pte_not_granted)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), forged, r = -1;
	int fd = test_fd(), status, pfd[2];
	char rec[1024];
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(pfd));
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_FORGE, 1));
	forged = ioctl(fd, SCI_TEST_FORGE, 2);
	pid = fork();
	if (pid == 0) {
		long v;

		close(pfd[0]);
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		v = ioctl(fd, SCI_TEST_FORGE, 2);
		write(pfd[1], &v, sizeof(v));
		_exit(0);
	}
	close(pfd[1]);
	if (pid > 0 && read(pfd[0], &r, sizeof(r)) != sizeof(r))
		r = -1;
	close(pfd[0]);
	status = pid > 0 ? sci_reap(pid, rec, sizeof(rec)) : -1;
	/* Undo the forgery before any assertion can end the test. */
	EXPECT_EQ(0, ioctl(fd, SCI_TEST_FORGE, 0));
	TH_LOG("unisolated call: %#lx; isolated: %#lx, status %#x, /proc/PID/sci: %s",
	       forged, r, status, rec);
	EXPECT_NE(SCI_TEST_FORGED, ioctl(fd, SCI_TEST_FORGE, 2));
	ASSERT_LT(0, pid);
	ASSERT_EQ(SCI_TEST_FORGED, forged);
	EXPECT_NE(SCI_TEST_FORGED, r);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_NE(NULL, strstr(rec, "enforced: 1"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

/*
 * Classes 4 and 5, the rules that accept a fetch inside a function the
 * syscall did not enter at its first byte (the hook's comment has the
 * layout).  Case 0, the function's own straddling instruction, must run
 * isolated; case 1, a misaligned jump that decodes a different
 * instruction across the page boundary, must be killed.  Case 2, a
 * landing on the next page where nothing in the function jumps, runs:
 * rule 3 is a page rule (sci.rst: landings from .cold parts, fixups and
 * computed gotos come from other symbols), asserted so that a change of
 * that documented limit shows.  Unisolated, all three complete.
 */
TEST(fetch_inside_function_decoded)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long undecoded = sci_stat("undecoded");
	static const char *const what[] = {
		"own straddling instruction", "misaligned straddle",
		"landing that is no jump target (page rule, documented)",
	};
	int fd = test_fd(), status, i;
	char rec[1024];
	pid_t pid;

	ASSERT_LE(0, fd);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, ioctl(fd, SCI_TEST_FLOW, i));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
				_exit(90);
			_exit(ioctl(fd, SCI_TEST_FLOW, i) ? 91 : 0);
		}
		status = sci_reap(pid, rec, sizeof(rec));
		TH_LOG("%s: isolated status %#x, /proc/PID/sci: %s", what[i],
		       status, strstr(rec, "reason: ") ?: "no violation");
		if (i != 1) {
			EXPECT_EQ(0, status);
		} else {
			EXPECT_TRUE(WIFSIGNALED(status) &&
				    WTERMSIG(status) == SIGKILL);
			EXPECT_NE(NULL, strstr(rec, "enforced: 1"));
		}
	}
	/* Every function decoded: no fall back to the page rule. */
	EXPECT_LE(0, undecoded);
	EXPECT_EQ(undecoded, sci_stat("undecoded"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

/*
 * Class 7 again, with the frame left alone: a forged write bit on the
 * direct-map alias of a kernel text page.  Unisolated, a write through it
 * lands (a NOP over a NOP); an isolated syscall must not get a writable
 * grant of a text frame, whatever the address: killed.
 */
TEST(writable_alias_of_text_not_granted)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), plain;
	int fd = test_fd(), status;
	char rec[1024];
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, SCI_TEST_FORGE, 3));
	plain = ioctl(fd, SCI_TEST_FORGE, 4);
	pid = fork();
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(ioctl(fd, SCI_TEST_FORGE, 4) ? 91 : 0);
	}
	status = pid > 0 ? sci_reap(pid, rec, sizeof(rec)) : -1;
	EXPECT_EQ(0, ioctl(fd, SCI_TEST_FORGE, 0));
	TH_LOG("unisolated write: %ld; isolated: status %#x, /proc/PID/sci: %s",
	       plain, status, strstr(rec, "reason: ") ?: "no violation");
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, plain);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_NE(NULL, strstr(rec, "forged kernel mapping"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

/*
 * Wait up to @ms for @pid to exit and reap it, reading its /proc/PID/sci
 * into @rec first.  Returns its status, or -1 when it did not exit in time
 * (it is left running: a task stuck in the kernel cannot be killed).
 */
static int reap_within(pid_t pid, int ms, char *rec, size_t len)
{
	char path[64];
	int status, t;

	rec[0] = '\0';
	for (t = 0; t < ms; t += 20) {
		siginfo_t si = { 0 };

		if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT | WNOHANG))
			return -1;
		if (si.si_pid == pid) {
			snprintf(path, sizeof(path), "/proc/%d/sci", pid);
			if (sci_read_file(path, rec, len) < 0)
				rec[0] = '\0';
			return waitpid(pid, &status, 0) == pid ? status : -1;
		}
		usleep(20 * 1000);
	}
	return -1;
}

/* An RTM_GETLINK dump, which takes the RTNL: 0 when it completes. */
static int rtnl_dump(void)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} req = {
		.nh.nlmsg_len = sizeof(req),
		.nh.nlmsg_type = RTM_GETLINK,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.ifi.ifi_family = AF_UNSPEC,
	};
	char buf[16384];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0 || send(fd, &req, sizeof(req), 0) != sizeof(req))
		return -1;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh = (struct nlmsghdr *)buf;

		if (n <= 0)
			return -1;
		for (; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n))
			if (nh->nlmsg_type == NLMSG_DONE) {
				close(fd);
				return 0;
			}
	}
}

/*
 * Class 9, the kill path: a violation (or a grant that finds the page
 * pools empty) while the isolated syscall holds a lock.  The hook takes
 * the task's mmap_lock for reading or writing, or the RTNL, then makes a
 * jump into the middle of a function, or reads a page whose grant is made
 * to fail as if SCI had no page-table page left.  The task must be killed
 * and reaped (exit_mmap() takes the mmap_lock for writing), and the RTNL
 * must be free again: an RTM_GETLINK dump from another process completes.
 * Unisolated the hook has nothing to test and says so (-EAGAIN).
 */
FIXTURE(kill_holding) {};
FIXTURE_VARIANT(kill_holding) {
	unsigned long arg;
};
FIXTURE_VARIANT_ADD(kill_holding, mmap_read_lock) { .arg = 1 };
FIXTURE_VARIANT_ADD(kill_holding, mmap_write_lock) { .arg = 2 };
FIXTURE_VARIANT_ADD(kill_holding, rtnl) { .arg = 3 };
FIXTURE_VARIANT_ADD(kill_holding, rcu_read_lock_migrate_disable) { .arg = 4 };
FIXTURE_VARIANT_ADD(kill_holding, no_table_page_mmap_read_lock) {
	.arg = SCI_HOLD_OOM | 1
};
FIXTURE_VARIANT_ADD(kill_holding, no_table_page_mmap_write_lock) {
	.arg = SCI_HOLD_OOM | 2
};
FIXTURE_VARIANT_ADD(kill_holding, no_table_page_rtnl) {
	.arg = SCI_HOLD_OOM | 3
};
FIXTURE_VARIANT_ADD(kill_holding, no_table_page_rcu_read_lock) {
	.arg = SCI_HOLD_OOM | 4
};
FIXTURE_SETUP(kill_holding) {}
FIXTURE_TEARDOWN(kill_holding) {}

TEST_F_TIMEOUT(kill_holding, killed_and_released, 60)
{
	long taint = sci_read_long("/proc/sys/kernel/tainted");
	long oops = sci_read_long("/sys/kernel/oops_count");
	long kills = sci_stat("kills");
	int fd = test_fd(), status;
	char rec[1024];
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, ioctl(fd, SCI_TEST_KILL_HOLDING, variant->arg));
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, rtnl_dump());
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_KILL_HOLDING, variant->arg);
		_exit(80 + errno);
	}
	status = reap_within(pid, 20000, rec, sizeof(rec));
	TH_LOG("hook %#lx: status %#x (-1: not reaped in 20 s), /proc/PID/sci: %s",
	       variant->arg, status, rec);
	ASSERT_NE(-1, status);
	ASSERT_KILLED(status);
	EXPECT_EQ(kills + 1, sci_stat("kills"));
	if (!(variant->arg & SCI_HOLD_OOM))
		EXPECT_NE(NULL, strstr(rec, "enforced: 1"));
	/* The RTNL is free: a dump in another process completes. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(rtnl_dump() ? 1 : 0);
	status = reap_within(pid, 10000, rec, sizeof(rec));
	TH_LOG("RTM_GETLINK dump after the kill: status %#x (-1: hung)", status);
	ASSERT_NE(-1, status);
	ASSERT_EXIT0(status);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	/* No WARN (an RCU reader that slept, for one) on the way out. */
	EXPECT_EQ(taint, sci_read_long("/proc/sys/kernel/tainted"));
	close(fd);
}

/*
 * Class 2 from above (found by review): the return to user mode trusts
 * what lies above the isolated syscall on the task's stack, which the SCI
 * tables map writable because the syscall's own frames are there too.  A
 * write primitive (an out-of-bounds index on a stack buffer is enough)
 * may change, before the syscall returns:
 *  - the return addresses and saved registers of sci_syscall() and
 *    do_syscall_64(), which then RET on the full tables wherever the
 *    attacker chose, unchecked;
 *  - pt_regs' CS, SS and flags: a kernel CS makes the return to user mode
 *    an IRET to kernel mode, IOPL 3 gives the process port I/O and CLI.
 * A test hook writes each from inside the isolated ioctl; the syscall
 * must be killed before it returns.  Without isolation the same writes
 * take effect (the control: the forged return runs sci_test_ret_landing()
 * on the kernel's tables; user mode sees IOPL 3), so the tests can fail.
 */
#define SCI_ATTACK_PT_REGS	0x5c1a77ac20008000ULL
#define SCI_ATTACK_RET_LANDING	0x5c1a77ac00000007ULL
/* struct pt_regs: r15 .. orig_ax, ip, cs, flags, sp, ss */
#define PT_REGS_CS		(17 * 8)
#define PT_REGS_FLAGS		(18 * 8)
#define X86_EFLAGS_IOPL		0x3000ULL
#define X86_EFLAGS_AC		0x40000ULL
#define X86_EFLAGS_IF		0x200ULL
/* Values meaning "the caller's flags with IOPL 3", "... with IF clear" */
#define FLAGS_IOPL3		(~0ULL)
#define FLAGS_NO_IF		(~1ULL)

struct frame_outcome {
	int status;
	int back;		/* the ioctl returned to user mode */
	__u64 landed, landed_cr3, flags;
	char rec[1024];
};

static __u64 user_flags(void)
{
	__u64 f;

	asm volatile("pushfq; popq %0" : "=r" (f));
	return f;
}

/* From a child, isolated or not: write @val at @target (@how), return. */
static void attack_write(int isolate, unsigned int how, __u64 target,
			 __u64 val, struct frame_outcome *o)
{
	int fd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2];
	__u64 r[3];
	pid_t pid;

	memset(o, 0, sizeof(*o));
	o->status = -1;
	if (fd < 0 || pipe(pfd))
		return;
	pid = fork();
	if (pid == 0) {
		struct sci_test_attack a = { .how = how, .len = 8 };

		close(pfd[0]);
		if (val == FLAGS_IOPL3)
			val = user_flags() | X86_EFLAGS_IOPL;
		else if (val == FLAGS_NO_IF)
			val = user_flags() & ~X86_EFLAGS_IF;
		a.target = target;
		a.data = (unsigned long)&val;
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioctl(fd, SCI_TEST_ATTACK, &a))
			_exit(91);
		r[2] = user_flags();
		memset(&a, 0, sizeof(a));
		a.how = SCI_ATTACK_RET_LANDED;
		if (ioctl(fd, SCI_TEST_ATTACK, &a))
			_exit(92);
		r[0] = a.landed;
		r[1] = a.landed_cr3;
		if (write(pfd[1], r, sizeof(r)) != sizeof(r))
			_exit(93);
		_exit(0);
	}
	close(pfd[1]);
	o->back = read(pfd[0], r, sizeof(r)) == sizeof(r);
	if (o->back) {
		o->landed = r[0];
		o->landed_cr3 = r[1];
		o->flags = r[2];
	}
	close(pfd[0]);
	close(fd);
	o->status = sci_reap(pid, o->rec, sizeof(o->rec));
}

/* From a child, isolated or not: write @val at pt_regs + @off, return. */
static void frame_write(int isolate, long off, __u64 val,
			struct frame_outcome *o)
{
	attack_write(isolate, SCI_ATTACK_WRITE, SCI_ATTACK_PT_REGS + off, val, o);
}

static void log_frame(struct __test_metadata *_metadata, const char *what,
		      const struct frame_outcome *o)
{
	TH_LOG("%s: status %#x, %s, landing %s (CR3 %#llx), user flags %#llx, %s",
	       what, o->status, o->back ? "returned" : "did not return",
	       o->landed ? "ran" : "did not run",
	       (unsigned long long)o->landed_cr3, (unsigned long long)o->flags,
	       strstr(o->rec, "reason: ") ?: "no violation");
}

static int frame_killed(const struct frame_outcome *o)
{
	return WIFSIGNALED(o->status) && WTERMSIG(o->status) == SIGKILL &&
	       strstr(o->rec, "enforced: 1") && !o->back;
}

TEST(forged_return_above_isolated_syscall_is_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct frame_outcome o;

	/* do_syscall_64()'s return address, just below pt_regs */
	frame_write(0, -8, SCI_ATTACK_RET_LANDING, &o);
	log_frame(_metadata, "unisolated", &o);
	ASSERT_TRUE(o.back);
	ASSERT_EQ(1, o.landed);
	ASSERT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	frame_write(1, -8, SCI_ATTACK_RET_LANDING, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_EQ(0, o.landed);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST(iopl_in_return_frame_is_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct frame_outcome o;

	frame_write(0, PT_REGS_FLAGS, FLAGS_IOPL3, &o);
	log_frame(_metadata, "unisolated", &o);
	ASSERT_TRUE(o.back);
	ASSERT_EQ(X86_EFLAGS_IOPL, o.flags & X86_EFLAGS_IOPL);
	frame_write(1, PT_REGS_FLAGS, FLAGS_IOPL3, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * IF cleared in the return frame (found by review): user mode with
 * interrupts off on its CPU, as the CLI that IOPL 3 would allow; TLB
 * shootdowns and RCU would wait on it.  No syscall clears IF for user
 * mode (sigreturn and ptrace keep it).
 */
TEST(if_cleared_in_return_frame_is_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct frame_outcome o;

	frame_write(0, PT_REGS_FLAGS, FLAGS_NO_IF, &o);
	log_frame(_metadata, "unisolated", &o);
	ASSERT_TRUE(o.back);
	ASSERT_EQ(0, o.flags & X86_EFLAGS_IF);
	frame_write(1, PT_REGS_FLAGS, FLAGS_NO_IF, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The way to the crash kernel, with panic_cpu forged (found by review):
 * panic_cpu is ordinary data, which the isolated syscall can write (or
 * have memset() write).  A chain that makes it this CPU's number and then
 * calls the crash path's way off the SCI tables must not go on on the
 * full tables.  sci_crash_leave() (series 0043, first version) returned
 * to the chain there; sci_crash_kexec() never returns, and with no crash
 * kernel loaded it kills before it leaves.
 */
TEST(crash_leave_with_forged_panic_cpu_is_killed)
{
	static const char * const names[] = { "sci_crash_leave", "sci_crash_kexec" };
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned long panic_cpu = sci_ksym("panic_cpu");
	unsigned int i, tried = 0;
	int fd = open(SCI_ATTACK_PATH, O_RDWR);
	struct sci_test_attack w;
	struct outcome o;
	__s32 invalid = -1;
	__u64 stack[8];

	ASSERT_LE(0, fd);
	ASSERT_NE(0, landing);
	ASSERT_NE(0, panic_cpu);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		unsigned long fn = sci_ksym(names[i]);
		struct sci_test_attack a;
		int pfd[2];
		pid_t pid;

		if (!fn) {
			TH_LOG("%s: not in this kernel", names[i]);
			continue;
		}
		call_then_land(&a, stack, fn, landing);
		ASSERT_EQ(0, pipe(pfd));
		memset(&o, 0, sizeof(o));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			__s32 cpu = 0;
			cpu_set_t cpus;

			close(pfd[0]);
			CPU_ZERO(&cpus);
			CPU_SET(0, &cpus);
			if (sched_setaffinity(0, sizeof(cpus), &cpus))
				_exit(89);
			if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
				_exit(90);
			/* The attacker's write, from the isolated ioctl */
			memset(&w, 0, sizeof(w));
			w.how = SCI_ATTACK_WRITE;
			w.target = panic_cpu;
			w.len = sizeof(cpu);
			w.data = (unsigned long)&cpu;
			if (ioctl(fd, SCI_TEST_ATTACK, &w))
				_exit(91);
			if (ioctl(fd, SCI_TEST_ATTACK, &a))
				_exit(92);
			if (write(pfd[1], &a, sizeof(a)) != sizeof(a))
				_exit(93);
			_exit(0);
		}
		close(pfd[1]);
		o.have = read(pfd[0], &o.a, sizeof(o.a)) == sizeof(o.a);
		close(pfd[0]);
		o.status = sci_reap(pid, o.rec, sizeof(o.rec));
		/* panic_cpu back to PANIC_CPU_INVALID, from here (not isolated) */
		memset(&w, 0, sizeof(w));
		w.how = SCI_ATTACK_WRITE;
		w.target = panic_cpu;
		w.len = sizeof(invalid);
		w.data = (unsigned long)&invalid;
		ASSERT_EQ(0, ioctl(fd, SCI_TEST_ATTACK, &w));
		TH_LOG("%s: status %#x%s%s, %s", names[i], o.status,
		       killed_by_sci(&o) ? " killed by SCI" : "",
		       escaped(&o) ? " ESCAPED to the full tables" : "",
		       strstr(o.rec, "reason: ") ?: "no violation");
		EXPECT_FALSE(escaped(&o));
		EXPECT_TRUE(killed_by_sci(&o));
		tried++;
	}
	close(fd);
	if (!tried)
		SKIP(return, "no crash kernel path in this kernel (KEXEC_CORE)");
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * An interrupt on the attacker's stack in premapped entry code (found by
 * a make check run, once: a jump to entry_SYSCALL_compat's CR3 write with
 * %rsp holding a CR3 value took a timer interrupt right after the write,
 * whose frame could not be pushed: a double fault, and the kernel
 * panicked).  The test hook makes it deterministic: an interrupt pending,
 * STI, then the jump to the first premapped CR3 write with every register,
 * %rsp included, at an unmapped user address.  The interrupt arrives at
 * the target, its frame faults, and so does the page fault's: the double
 * fault must kill the task, not the kernel.
 */
TEST(interrupt_on_unmapped_stack_in_entry_code_is_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct sci_test_cr3_sites sites;
	struct sci_test_attack a;
	struct outcome o;
	unsigned int j;

	ASSERT_EQ(0, cr3_sites(&sites));
	ASSERT_LT(0, sites.nr);
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_JMP_IRQ;
	a.target = sites.addr[0];
	for (j = 0; j < 16; j++)
		a.regs[j] = 0x10000;
	attack(&a, 1, &o);
	TH_LOG("jump to %#llx with an interrupt pending: status %#x%s, %s",
	       sites.addr[0], o.status, killed_by_sci(&o) ? " killed by SCI" : "",
	       strstr(o.rec, "reason: ") ?: "no violation");
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * current->thread.sci, the task's pointer to its SCI state, is task data,
 * which the syscall's write reaches like any other (SCI_ATTACK_TASK_SCI).
 * Set to NULL inside the isolated syscall, it must not be followed by
 * what runs before the syscall returns: the check after the CR3 write
 * that leaves the SCI tables, and, when the syscall sleeps after the
 * write, the context switch.  The syscall is killed, with no oops.
 * Unisolated (the control) the same write returns: the task had no SCI
 * state, and the hook wrote where the isolated run writes.
 */
#define SCI_ATTACK_TASK_SCI	0x5c1a77ac00000008ULL

static void null_sci_state(struct __test_metadata *_metadata, unsigned int how)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long repairs = sci_stat("forged_repairs");
	struct frame_outcome o;

	attack_write(0, how, SCI_ATTACK_TASK_SCI, 0, &o);
	log_frame(_metadata, "unisolated", &o);
	ASSERT_TRUE(o.back);
	ASSERT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	attack_write(1, how, SCI_ATTACK_TASK_SCI, 0, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_NE(NULL, strstr(o.rec, "reason: SCI state pointer forged"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	/*
	 * A sleep's context switch, or a fault before it, puts the pointer
	 * back (once: then it is right) and the kill comes at the return;
	 * without a sleep, the leave may be the first to read it.
	 */
	repairs = sci_stat("forged_repairs") - repairs;
	TH_LOG("faults or switches that put the pointer back: %ld", repairs);
	if (how == SCI_ATTACK_WRITE_SLEEP)
		EXPECT_EQ(1, repairs);
}

TEST(null_sci_state_pointer_is_killed)
{
	null_sci_state(_metadata, SCI_ATTACK_WRITE);
}

TEST(null_sci_state_pointer_then_sleep_is_killed)
{
	null_sci_state(_metadata, SCI_ATTACK_WRITE_SLEEP);
}

/*
 * The same pointer written while the task sleeps in its isolated syscall,
 * by another thread of the process in an isolated syscall of its own
 * (SCI_TEST_FORGE_SLEEPER is that thread's write, NULL into the
 * sleeper's thread.sci, once /proc says it sleeps).  The sleeper must
 * resume on its SCI tables, where the jump into the middle of a function
 * that follows its sleep (SCI_TEST_SLEEP_BAD) is caught: "unverified
 * jump".  Resumed on the full tables, the jump runs unchecked and the
 * syscall is killed only when it returns, for the pointer.
 */
#define SCI_TEST_SLEEP_BAD	_IOW('S', 4, unsigned long)
#define SCI_TEST_FORGE_SLEEPER	_IOW('S', 27, unsigned long)

static int sleeper_fd;
static pid_t sleeper_tid;

static void *forge_sleeper(void *arg)
{
	char path[64], stat[512], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", sleeper_tid);
	for (i = 0; i < 1000; i++) {
		if (sci_read_file(path, stat, sizeof(stat)) > 0 &&
		    (p = strrchr(stat, ')')) && p[1] == ' ' && p[2] == 'D')
			break;
		usleep(10 * 1000);
	}
	if (i == 1000)
		_exit(93);
	if (ioctl(sleeper_fd, SCI_TEST_FORGE_SLEEPER, (unsigned long)sleeper_tid))
		_exit(94);
	return NULL;
}

TEST(sci_state_pointer_forged_while_asleep_resumes_isolated)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long repairs = sci_stat("forged_repairs");
	int fd = test_fd(), status;
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t;

		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		sleeper_fd = fd;
		sleeper_tid = syscall(__NR_gettid);
		if (pthread_create(&t, NULL, forge_sleeper, NULL))
			_exit(91);
		ioctl(fd, SCI_TEST_SLEEP_BAD, 3000UL);
		_exit(92);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status %#x (exit 92: not killed, 93: never asleep, 94: no write); /proc/%d/sci: %s",
	       status, pid, rec);
	repairs = sci_stat("forged_repairs") - repairs;
	TH_LOG("switches that put the pointer back: %ld", repairs);
	ASSERT_KILLED(status);
	EXPECT_NE(NULL, strstr(rec, "reason: unverified jump"));
	EXPECT_EQ(1, repairs);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

/*
 * current->thread.sci_record, where a kill writes what the violation was,
 * is task data as well: pointed by the syscall's write at memory of the
 * attacker's choosing (SCI_TEST_FORGE_RECORD: a zeroed bait), the kill
 * that follows must not write there (a write of the kill's choosing on
 * the full tables, where it could reach SCI's own state), and the
 * record must still say why the task died.
 */
#define SCI_TEST_FORGE_RECORD	_IO('S', 28)
#define SCI_TEST_RECORD_BAIT	_IO('S', 29)

TEST(forged_violation_record_not_written)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int fd = test_fd(), status;
	long written;
	char rec[4096];
	siginfo_t si = { 0 };
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(fd, SCI_TEST_FORGE_RECORD);
		_exit(92);
	}
	/* Dead, not reaped: the bait is still the hook's to look at. */
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	written = ioctl(fd, SCI_TEST_RECORD_BAIT);
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status %#x (exit 92: not killed); bait written: %ld; /proc/%d/sci: %s",
	       status, written, pid, rec);
	ASSERT_KILLED(status);
	EXPECT_EQ(0, written);
	EXPECT_NE(NULL, strstr(rec, "reason: unverified jump"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

/*
 * The record pointer forged between two syscalls (found by review):
 * SCI_TEST_FORGE_RECORD_RET points it at a bait, or at NULL, and returns.
 * The task's next isolated syscall must be killed before it runs (a NULL
 * made a new record, the old one left behind; a bait dropped the task's
 * SCI state, left behind), and an exit must still free the real record.
 * Nothing may leak: the stats' "tables" and "records" come back to what
 * they were once the task is reaped (freeing is asynchronous: polled).
 */
#define SCI_TEST_FORGE_RECORD_RET _IOW('S', 30, unsigned long)
#define FORGE_TO_NULL	0UL
#define FORGE_TO_BAIT	1UL

static int sci_counts_back(long tables, long records, long *now_t, long *now_r)
{
	int i;

	for (i = 0; i < 500; i++) {
		*now_t = sci_stat("tables");
		*now_r = sci_stat("records");
		if (*now_t == tables && *now_r == records)
			return 1;
		usleep(10000);
	}
	return 0;
}

static void forge_record_between(struct __test_metadata *_metadata,
				 unsigned long to, int then_exit)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	long tables, records, now_t, now_r, written = 0;
	int fd = test_fd(), status, back;
	siginfo_t si = { 0 };
	char rec[4096];
	pid_t pid;

	ASSERT_LE(0, fd);
	counts_settle(&tables, &records);
	ASSERT_LE(0, tables);
	ASSERT_LE(0, records);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioctl(fd, SCI_TEST_FORGE_RECORD_RET, to))
			_exit(91);
		if (then_exit)
			_exit(0);
		ioctl(fd, SCI_TEST_GET_ANSWER);
		_exit(92);
	}
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	if (to == FORGE_TO_BAIT)
		written = ioctl(fd, SCI_TEST_RECORD_BAIT);
	status = sci_reap(pid, rec, sizeof(rec));
	back = sci_counts_back(tables, records, &now_t, &now_r);
	TH_LOG("status %#x (exit 92: the next syscall ran); bait written: %ld; tables %ld -> %ld, records %ld -> %ld; /proc/%d/sci: %s",
	       status, written, tables, now_t, records, now_r, pid, rec);
	if (then_exit) {
		ASSERT_EXIT0(status);
	} else {
		ASSERT_KILLED(status);
		EXPECT_NE(NULL, strstr(rec, "enforced: 1"));
		/* Counted towards kernel.sci_violation_limit. */
		EXPECT_EQ(count + 1, sci_stat("violation_count"));
	}
	EXPECT_EQ(0, written);
	EXPECT_TRUE(back);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(fd);
}

TEST(record_forged_null_between_syscalls_killed_no_leak)
{
	forge_record_between(_metadata, FORGE_TO_NULL, 0);
}

TEST(record_forged_between_syscalls_killed_no_leak)
{
	forge_record_between(_metadata, FORGE_TO_BAIT, 0);
}

TEST(record_forged_before_exit_freed)
{
	forge_record_between(_metadata, FORGE_TO_BAIT, 1);
}

/*
 * PF_EXITING forged in an isolated exec (found by review): the flag is
 * task data, and sci_deactivate_mm() did not compare the frames above the
 * syscall for a task on its way out.  An exec whose writes also forged
 * do_syscall_64()'s return address then returned through it on the full
 * tables: after the exec there is no SCI state for sci_frames_check() to
 * compare with.  SCI_TEST_EXEC_FORGE emulates the two writes in the exec
 * (and clears the flag after, as the attacker would).  Unisolated, the
 * landing runs (the control); isolated, it must not: the task is killed
 * where the exec comes back, before it returns through the frames.
 */
#define SCI_TEST_EXEC_FORGE	_IOW('S', 31, unsigned long)
#define EXEC_KEEP_EXITING	0x1	/* PF_EXITING stays set after the exec */
#define EXEC_CLEAR_RECORD	0x2	/* thread.sci_record cleared after */

static void exec_forge(int isolate, unsigned long flags, struct frame_outcome *o)
{
	int fd = open(SCI_ATTACK_PATH, O_RDWR), tfd = test_fd();
	struct sci_test_attack a;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	o->status = -1;
	if (fd < 0 || tfd < 0)
		return;
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_RET_LANDED;
	if (ioctl(fd, SCI_TEST_ATTACK, &a))
		return;
	pid = fork();
	if (pid == 0) {
		if (isolate && sci_filter(__NR_execve, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioctl(tfd, SCI_TEST_EXEC_FORGE, flags))
			_exit(91);
		execl("/bin/true", "true", (char *)NULL);
		_exit(92);
	}
	o->status = sci_reap(pid, o->rec, sizeof(o->rec));
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_RET_LANDED;
	if (!ioctl(fd, SCI_TEST_ATTACK, &a)) {
		o->landed = a.landed;
		o->landed_cr3 = a.landed_cr3;
	}
	close(fd);
	close(tfd);
}

TEST(exiting_flag_forged_in_exec_frames_still_checked)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct frame_outcome o;

	exec_forge(0, 0, &o);
	log_frame(_metadata, "unisolated", &o);
	ASSERT_EQ(1, o.landed);
	exec_forge(1, 0, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_EQ(0, o.landed);
	/* Killed where the exec came back, from pt_regs, with a reason. */
	EXPECT_TRUE(WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGKILL);
	EXPECT_NE(NULL, strstr(o.rec, "reason: write to the frames above"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The same, more as an attacker has it (second review): PF_EXITING still
 * set when the exec comes back (the attacker's write came before it, and
 * nothing clears it), or the record pointer, task data, cleared after the
 * exec left its SCI state (by another process's write).  The task must
 * still be killed, and reaped: a kill that took it for an exiting task
 * left it neither exited nor a zombie, and the parent's wait hung.
 */
static void exec_forge_killed(struct __test_metadata *_metadata,
			      unsigned long flags)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	struct frame_outcome o;

	ASSERT_LE(0, count);
	alarm(60);
	exec_forge(1, flags, &o);
	alarm(0);
	log_frame(_metadata, "isolated", &o);
	EXPECT_EQ(0, o.landed);
	EXPECT_TRUE(WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGKILL);
	EXPECT_NE(NULL, strstr(o.rec, "reason: write to the frames above"));
	/* Counted towards kernel.sci_violation_limit (fourth review). */
	EXPECT_EQ(count + 1, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST(exiting_flag_kept_after_exec_still_killed)
{
	exec_forge_killed(_metadata, EXEC_KEEP_EXITING);
}

TEST(record_cleared_after_exiting_exec_still_killed)
{
	exec_forge_killed(_metadata, EXEC_CLEAR_RECORD);
}

/*
 * A task's kernel stack is ordinary memory: another thread of the process,
 * in an isolated syscall on another CPU, can write it (a data grant of the
 * page).  What a path that leaves the SCI tables keeps there to know that
 * it must go back to them (text_poke()'s temp_mm_state_t.sci, the CR3 a
 * section of SCI's own returns to) is then the attacker's to clear, and
 * the rest of the isolated syscall would run on the full tables, unchecked
 * ("lost").  The hooks clear it, as that write would, at the last moment
 * (the race made deterministic): the syscall must go back to its SCI
 * tables anyway, and the process is killed for the forged stack.
 */
#define SCI_TEST_LEAVE	_IO('S', 34)

static void stack_forged_killed(struct __test_metadata *_metadata,
				unsigned long req, unsigned long arg,
				int unisolated_exit)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count"), lost = sci_stat("lost");
	int tfd = test_fd(), status;
	char rec[1024];

	ASSERT_LE(0, tfd);
	ASSERT_LE(0, count);
	ASSERT_LE(0, lost);
	status = ioctl_child(tfd, 0, req, arg, -1, rec, sizeof(rec));
	TH_LOG("unisolated: status %#x", status);
	ASSERT_TRUE(WIFEXITED(status) &&
		    WEXITSTATUS(status) == unisolated_exit);
	status = ioctl_child(tfd, 1, req, arg, -1, rec, sizeof(rec));
	TH_LOG("isolated: status %#x (exit 2 or 0: left on the full tables), %s",
	       status, strstr(rec, "reason: ") ?: "no violation");
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_NE(NULL, strstr(rec, "reason: return to the SCI tables forged"));
	/* It went back to its SCI tables: no syscall came back on others. */
	EXPECT_EQ(lost, sci_stat("lost"));
	EXPECT_EQ(count + 1, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(tfd);
}

/* text_poke() (SCI_TEST_TEXT_POKE 5): unisolated, 0 (never on SCI tables). */
TEST(forged_poke_return_goes_back_and_is_killed)
{
	stack_forged_killed(_metadata, SCI_TEST_TEXT_POKE, 5, 0);
}

/* A section of SCI's own: unisolated, -EAGAIN (exit 100 + EAGAIN). */
TEST(forged_leave_return_goes_back_and_is_killed)
{
	stack_forged_killed(_metadata, SCI_TEST_LEAVE, 0, 100 + EAGAIN);
}

/*
 * An exception taken on the SCI tables (SCI_TEST_ENTRY_FORGE: a page
 * fault), whose error_entry leaves error_return a register (%r14) saying
 * "go back to the SCI tables", which the handler's callees push on this
 * stack: unisolated, -EAGAIN.
 */
#define SCI_TEST_ENTRY_FORGE	_IO('S', 35)

TEST(forged_exception_return_goes_back_and_is_killed)
{
	stack_forged_killed(_metadata, SCI_TEST_ENTRY_FORGE, 0, 100 + EAGAIN);
}

/*
 * Another CPU's IRQ stack, where that CPU's interrupt handlers and softirqs
 * push return addresses and run on the full tables: a write from an
 * isolated syscall (of any process) would run a chain there.  The word
 * written is the stack's lowest, which only a 16 KiB deep stack uses
 * (0 there).  The write faults on the SCI tables before it lands.
 * Through both of its addresses: hardirq_stack_ptr's (vmap()ed with
 * VMAP_STACK) and its backing store's in the direct map.  Unisolated (the
 * control) the same write returns.
 */
#define SCI_ATTACK_IRQ_STACK		0x5c1a77ac0000000aULL
#define SCI_ATTACK_IRQ_STACK_STORE	0x5c1a77ac0000000bULL

static void stack_write_killed(struct __test_metadata *_metadata,
			       __u64 target, const char *why)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	struct frame_outcome o;

	ASSERT_LE(0, count);
	/* A value of the attacker's, then the word's own (0) back. */
	attack_write(0, SCI_ATTACK_WRITE, target, 0x5c1a5c1a5c1a5c1aULL, &o);
	log_frame(_metadata, "unisolated", &o);
	ASSERT_TRUE(o.back);
	ASSERT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	attack_write(0, SCI_ATTACK_WRITE, target, 0, &o);
	ASSERT_TRUE(o.back);
	attack_write(1, SCI_ATTACK_WRITE, target, 0x5c1a5c1a5c1a5c1aULL, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_NE(NULL, strstr(o.rec, why));
	EXPECT_EQ(count + 1, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST(irq_stack_write_is_killed)
{
	stack_write_killed(_metadata, SCI_ATTACK_IRQ_STACK,
			   "reason: write to an IRQ stack");
}

TEST(irq_stack_store_write_is_killed)
{
	stack_write_killed(_metadata, SCI_ATTACK_IRQ_STACK_STORE,
			   "reason: write to an IRQ stack");
}

/*
 * Another CPU's exception and entry stacks, in its cpu_entry_area, which
 * every SCI table maps (the CPU pushes its frames there, on any tables).
 * On the NMI stack that CPU's NMI (and the handler, on the full tables)
 * pushes paranoid_entry's return address and the frame IRET returns by;
 * on the entry stack, the frame of an interrupt or exception from user
 * mode, which the entry code copies to the task's stack as the frame to
 * return by (a kernel CS there is an IRET to kernel mode).  A write from
 * an isolated syscall, of any process, on another CPU would forge either
 * in the window.  The word written is each stack's lowest, which neither
 * uses.  Through the cpu_entry_area's address and through the direct
 * map's address of the frame.  Unisolated (the control) the same write
 * returns.
 */
#define SCI_ATTACK_NMI_STACK		0x5c1a77ac0000002fULL
#define SCI_ATTACK_NMI_STACK_STORE	0x5c1a77ac00000030ULL
#define SCI_ATTACK_ENTRY_STACK		0x5c1a77ac00000031ULL
#define SCI_ATTACK_ENTRY_STACK_STORE	0x5c1a77ac00000032ULL
#define CEA_STACK_WHY	"reason: write to a CPU's entry/exception stack"

static int pin_to(int cpu);

/*
 * Pinned, so that "another CPU" (the hook's choice, at the write) stays
 * another CPU: a syscall's own CPU's stacks are the CPU's to push on.
 */
static void cea_stack_write_killed(struct __test_metadata *_metadata,
				   __u64 target)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online: no other CPU's stacks to write");
	ASSERT_EQ(0, pin_to(sched_getcpu()));
	stack_write_killed(_metadata, target, CEA_STACK_WHY);
}

TEST(other_cpu_nmi_stack_write_is_killed)
{
	cea_stack_write_killed(_metadata, SCI_ATTACK_NMI_STACK);
}

TEST(other_cpu_nmi_stack_store_write_is_killed)
{
	cea_stack_write_killed(_metadata, SCI_ATTACK_NMI_STACK_STORE);
}

TEST(other_cpu_entry_stack_write_is_killed)
{
	cea_stack_write_killed(_metadata, SCI_ATTACK_ENTRY_STACK);
}

TEST(other_cpu_entry_stack_store_write_is_killed)
{
	cea_stack_write_killed(_metadata, SCI_ATTACK_ENTRY_STACK_STORE);
}

/* The top page of another CPU's #DB stack: the pages a handler uses */
#define SCI_ATTACK_DB_STACK_TOP		0x5c1a77ac00000034ULL

TEST(other_cpu_db_stack_top_write_is_killed)
{
	cea_stack_write_killed(_metadata, SCI_ATTACK_DB_STACK_TOP);
}

/*
 * Another CPU's espfix frame (espfix_waddr's, in the direct map): its
 * return to user mode with a 16-bit stack segment (an LDT data segment in
 * SS, any process's) copies the IRET frame there on the full tables and
 * IRETs from it, through the espfix alias, some instructions and a CR3
 * write later.  A write in between from an isolated syscall on another
 * CPU would have that CPU IRET to kernel mode where the writer chose (a
 * fourteenth review).  The first word (user RAX), which the next such
 * return writes again.  No isolated syscall needs any CPU's espfix
 * stack.  Skipped without ESPFIX64 (the hook's target is then 0).
 */
#define SCI_ATTACK_ESPFIX_FRAME		0x5c1a77ac00000033ULL

TEST(other_cpu_espfix_frame_write_is_killed)
{
	if (!sci_ksym("espfix_waddr"))
		SKIP(return, "no espfix64 in this kernel");
	ASSERT_EQ(0, pin_to(sched_getcpu()));
	stack_write_killed(_metadata, SCI_ATTACK_ESPFIX_FRAME,
			   "reason: write to an espfix stack");
}

/*
 * A page becomes SCI state (a page table, a door stack, a task's state:
 * SCI's allocators take ordinary free pages) while an isolated syscall on
 * another CPU holds a writable grant of it from before, and never faults
 * again (a chain's loop): the syscall's grants are checked again at its
 * next fault, start or switch in, so until then it could write SCI state
 * (a PTE of its own tables, a door's saved stack pointer) through that
 * grant.  SCI_TEST_CLAIM_LIVE writes a page, has another CPU mark it SCI
 * state as the allocators do, spins without a fault, and writes it again:
 * unisolated that returns 0; isolated the second write must be killed.
 * Pinned where it runs: the hook marks from another CPU.
 */
#define SCI_TEST_CLAIM_LIVE	_IO('S', 38)
#define SCI_CLAIM_FORGE_NMI	1UL
#define SCI_CLAIM_HIDE_CPU	2UL

static void claim_live_killed(struct __test_metadata *_metadata,
			      unsigned long how, const char *reason)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	int tfd = test_fd(), status;
	char rec[1024];

	ASSERT_LE(0, tfd);
	ASSERT_LE(0, count);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online: no other CPU to mark the page");
	ASSERT_EQ(0, pin_to(sched_getcpu()));
	/*
	 * Unisolated, the store that hides the CPU lands: its bit cleared
	 * in cpu_online_mask, other CPUs' wakeups of its tasks warn
	 * ("Unexpected reschedule of offline CPU").  The baseline runs
	 * without it.
	 */
	status = ioctl_child(tfd, 0, SCI_TEST_CLAIM_LIVE,
			     how & ~SCI_CLAIM_HIDE_CPU, -1, rec, sizeof(rec));
	TH_LOG("unisolated: status %#x", status);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	status = ioctl_child(tfd, 1, SCI_TEST_CLAIM_LIVE, how, -1, rec,
			     sizeof(rec));
	TH_LOG("isolated: status %#x (exit 0: ESCAPED, the write landed), %s",
	       status, strstr(rec, "reason: ") ?: "no violation");
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_NE(NULL, strstr(rec, reason));
	EXPECT_EQ(count + 1, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(tfd);
}

TEST(live_grant_of_page_made_sci_state_is_dropped)
{
	claim_live_killed(_metadata, 0, "reason: write to SCI state");
}

/*
 * The IPI that drops that grant goes through the kernel's cross-CPU call,
 * whose inputs are data the chain can write through its data grants (a
 * fifteenth review).  NMI_OFFSET added to its CPU's __preempt_count made
 * the handler take the IPI for an NMI and drop nothing: SCI counts NMIs
 * in state of its own, and the claim waits for each CPU's acknowledgement
 * in SCI state.
 */
TEST(live_grant_kept_by_forged_nmi_count_is_dropped)
{
	claim_live_killed(_metadata, SCI_CLAIM_FORGE_NMI,
			  "reason: write to SCI state");
}

/*
 * Its CPU's bit cleared in cpu_online_mask left it out of the IPI (and
 * out of any wait for an acknowledgement): the CPU masks are read-only
 * in the SCI tables, so that store is the violation.
 */
TEST(live_grant_kept_by_cpu_hidden_from_ipis_is_dropped)
{
	claim_live_killed(_metadata, SCI_CLAIM_HIDE_CPU,
			  "reason: write to __sci_ro_data");
}

/*
 * A drop round waits for every online CPU's acknowledgment, resending
 * SCI's own IPI: a forgery that keeps a CPU's drop from ever running
 * stalls the round's caller (a stall, not an escape).  A seventeenth
 * review: such a stall showed only as soft lockups, with no hint of the
 * cause.  SCI_TEST_DROP_STALL starts a round while the other CPU
 * withholds its acknowledgments for 1.5 s: the round must wait that long
 * and say so once, naming the CPU (drop_stalls in the statistics).
 */
#define SCI_TEST_DROP_STALL	_IOW('S', 39, unsigned long)

TEST(drop_round_stall_is_reported)
{
	long stalls = sci_stat("drop_stalls");
	int tfd = test_fd(), ms;

	ASSERT_LE(0, tfd);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online: no other CPU to withhold");
	ms = ioctl(tfd, SCI_TEST_DROP_STALL, 1500UL);
	close(tfd);
	TH_LOG("round took %d ms; drop_stalls %ld before, %ld after", ms,
	       stalls, sci_stat("drop_stalls"));
	ASSERT_LE(1400, ms);
	ASSERT_LE(0, stalls);
	EXPECT_LE(stalls + 1, sci_stat("drop_stalls"));
}

/*
 * The CPU's own stacks stay writable in its view: a hardware watchpoint on
 * a user buffer that an isolated read() fills is a #DB from kernel mode,
 * which the CPU delivers on its #DB stack in the cpu_entry_area, on the
 * SCI tables.  Read-only there, it would be a double fault (and the #DF
 * stack too: a triple fault).  With @migrate the read() blocks on a pipe
 * on CPU 0 and the parent moves the child to CPU 1 before it writes: the
 * read() fills the buffer there, on the tables its switch in pointed at
 * CPU 1's view.  The child exits 0 when perf counted the hit (and, with
 * @migrate, it ended on CPU 1), 3 when perf counted none.
 */
static int watched_read(int isolate, int migrate)
{
	static volatile __u64 buf __attribute__((aligned(8)));
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.bp_type = HW_BREAKPOINT_W,
		.bp_addr = (unsigned long)&buf,
		.bp_len = HW_BREAKPOINT_LEN_8,
		.sample_period = 1,
	};
	int status, zfd, pfd, p[2];
	__u64 count = 0;
	cpu_set_t cpus;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		alarm(20);
		zfd = migrate ? p[0] : open("/dev/zero", O_RDONLY);
		pfd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
		if (zfd < 0 || pfd < 0 || (migrate && pin_to(0)))
			_exit(90);
		if (isolate && sci_filter(__NR_read, SECCOMP_RET_ISOLATE))
			_exit(91);
		if (read(zfd, (void *)&buf, sizeof(buf)) != sizeof(buf))
			_exit(92);
		if (read(pfd, &count, sizeof(count)) != sizeof(count))
			_exit(93);
		if (migrate && sched_getcpu() != 1)
			_exit(94);
		_exit(count ? 0 : 3);
	}
	if (pid < 0)
		return -1;
	if (migrate) {
		__u64 word = 0x5c1a;

		usleep(200 * 1000);
		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		if (sched_setaffinity(pid, sizeof(cpus), &cpus) ||
		    write(p[1], &word, sizeof(word)) != sizeof(word))
			kill(pid, SIGKILL);
	}
	close(p[0]);
	close(p[1]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static void watchpoint_hit(struct __test_metadata *_metadata, int migrate)
{
	long count = sci_stat("violation_count");
	int status;

	ASSERT_LE(0, count);
	if (migrate && sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online: nowhere to migrate");
	status = watched_read(0, migrate);
	TH_LOG("unisolated: status 0x%x", status);
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3)
		SKIP(return, "no watchpoint hit from kernel mode on this CPU");
	ASSERT_EQ(0, WEXITSTATUS(status));
	status = watched_read(1, migrate);
	TH_LOG("isolated: status 0x%x", status);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(count, sci_stat("violation_count"));
}

TEST(own_cpu_debug_stack_takes_a_watchpoint)
{
	watchpoint_hit(_metadata, 0);
}

TEST(own_cpu_debug_stack_takes_a_watchpoint_after_migration)
{
	watchpoint_hit(_metadata, 1);
}

/*
 * The per-CPU words that code on the full tables follows to a stack, on
 * another CPU: cpu_current_top_of_stack (the stack of its next syscall
 * entry, whose bounds error_entry's frame check and SCI's kill paths
 * trust), hardirq_stack_ptr and hardirq_stack_inuse (the stack its
 * interrupts and softirqs run on), cea_exception_stacks (the bounds that
 * SCI's paranoid entry checks a frame against), this_cpu_off (the base of
 * every this_cpu_ptr() there: its TSS's, its IRQ stack's, its runqueue's),
 * espfix_stack and espfix_waddr (the stack of an IRET to a 16-bit stack
 * segment, and where the entry code copies that IRET's frame: 48 bytes of
 * user-chosen words written on the full tables, at any address), and the
 * NMI's IST entry in its TSS,
 * at the TSS's per-CPU address (the CPU reads the TSS through the
 * cpu_entry_area's read-only alias of the same page).  One write points
 * that CPU at a stack that the attacker rewrites from user space through
 * the direct-map alias of a page of its own, and the code that runs there
 * returns into a chain on the full tables.  The write is a locked OR of 0
 * (SCI_ATTACK_TOUCH): a write access that leaves the word as that CPU has
 * it, so that the control cannot take the guest down.  Unisolated (the
 * control) it returns; isolated, the write faults on the SCI tables, which
 * map those pages read-only, and kills.
 */
#define SCI_ATTACK_TOP_OF_STACK		0x5c1a77ac0000000cULL
#define SCI_ATTACK_HARDIRQ_STACK_PTR	0x5c1a77ac0000000dULL
#define SCI_ATTACK_HARDIRQ_STACK_INUSE	0x5c1a77ac0000000eULL
#define SCI_ATTACK_TSS_IST		0x5c1a77ac0000000fULL
#define SCI_ATTACK_IDT			0x5c1a77ac00000010ULL
#define SCI_ATTACK_THIS_CPU_OFF		0x5c1a77ac00000011ULL
#define SCI_ATTACK_CEA_EXCEPTION_STACKS	0x5c1a77ac00000012ULL
#define SCI_ATTACK_GDT			0x5c1a77ac00000013ULL
#define SCI_ATTACK_LDT			0x5c1a77ac00000014ULL
#define SCI_ATTACK_TLS_ARRAY		0x5c1a77ac00000015ULL
#define SCI_ATTACK_ESPFIX_STACK		0x5c1a77ac00000016ULL
#define SCI_ATTACK_ESPFIX_WADDR		0x5c1a77ac00000017ULL
#define SCI_ATTACK_GDT_ALIAS		0x5c1a77ac00000018ULL
#define SCI_ATTACK_LDT_DIRECT		0x5c1a77ac00000019ULL
#define SCI_ATTACK_LDT_ENTRIES		0x5c1a77ac0000001aULL
#define SCI_ATTACK_GATE_PAGE		0x5c1a77ac0000001bULL
#define SCI_ATTACK_LDT_ORIG		0x5c1a77ac0000001cULL
#define SCI_ATTACK_OTHER_GDT		0x5c1a77ac0000001dULL

static void stack_ptr_write_killed(struct __test_metadata *_metadata,
				   __u64 target, const char *reason)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	struct frame_outcome o;

	ASSERT_LE(0, count);
	attack_write(0, SCI_ATTACK_TOUCH, target, 0, &o);
	log_frame(_metadata, "unisolated", &o);
	ASSERT_TRUE(o.back);
	ASSERT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	attack_write(1, SCI_ATTACK_TOUCH, target, 0, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_NE(NULL, strstr(o.rec, reason));
	EXPECT_EQ(count + 1, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST(top_of_stack_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_TOP_OF_STACK,
			       "reason: write to a CPU's stack pointers");
}

TEST(hardirq_stack_ptr_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_HARDIRQ_STACK_PTR,
			       "reason: write to a CPU's stack pointers");
}

TEST(hardirq_stack_inuse_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_HARDIRQ_STACK_INUSE,
			       "reason: write to a CPU's stack pointers");
}

TEST(cea_exception_stacks_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_CEA_EXCEPTION_STACKS,
			       "reason: write to a CPU's stack pointers");
}

TEST(this_cpu_off_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_THIS_CPU_OFF,
			       "reason: write to a CPU's stack pointers");
}

/*
 * Another CPU's cpu_number, what smp_processor_id() reads there: SCI
 * picks the cpu_entry_area's view, the page pool and the CPUs an IPI
 * skips by it (a fourteenth review: with another CPU's number, that CPU
 * loaded the other's view, whose stacks are then writable to it, shared
 * its pool unlocked, and left out the CPU that sent a claim's IPI).
 */
#define SCI_ATTACK_CPU_NUMBER		0x5c1a77ac00000035ULL

TEST(cpu_number_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_CPU_NUMBER,
			       "reason: write to a CPU's stack pointers");
}

/*
 * The words a CPU being brought up follows on the full tables: the
 * real-mode trampoline's start address (trampoline_header->start, low
 * memory, through the direct map), then head_64.S's initial_code,
 * initial_stack, initial_gs and early_gdt_descr (a fourteenth review: an
 * isolated loop that rewrote them while a CPU came up chose where it
 * ran).  Read-only in the SCI tables.
 */
#define SCI_ATTACK_INITIAL_CODE		0x5c1a77ac00000036ULL
#define SCI_ATTACK_TRAMPOLINE		0x5c1a77ac00000037ULL

/*
 * The local APIC's page (xAPIC: a fixmap page that the kernel maps
 * writable) is granted writable to isolated syscalls, which send IPIs
 * through it: an isolated write of its ICR can send INIT and a start-up
 * IPI to another CPU, aimed at real-mode code written below 1 MiB (a
 * seventeenth review).  The hook writes the task priority register's own
 * value back.  Since series 0128 the page is never granted writable, and
 * the fault handler makes only the writes the kernel makes from a
 * syscall.
 */
#define SCI_ATTACK_APIC_TPR		0x5c1a77ac0000003aULL

/*
 * The hooks' APIC targets need the xAPIC's page: with x2APIC (or no local
 * APIC) they return ENODEV, and the child exits 91 before any write.
 */
static int have_xapic_page(void)
{
	struct frame_outcome o;

	attack_write(0, SCI_ATTACK_TOUCH, SCI_ATTACK_APIC_TPR, 0, &o);
	return !(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 91);
}

TEST(apic_page_write_is_killed)
{
	if (!have_xapic_page())
		SKIP(return, "x2APIC or no local APIC: no APIC page");
	stack_ptr_write_killed(_metadata, SCI_ATTACK_APIC_TPR,
			       "reason: write to the local APIC");
}

/*
 * The ICR itself: an INIT IPI (the first half of a bring-up into code of
 * the attacker's) sent from an isolated syscall, addressed to logical
 * destination 0, which no CPU accepts.  Killed before it is sent.
 */
#define SCI_ATTACK_APIC_INIT		0x5c1a77ac0000003cULL

TEST(apic_init_ipi_is_killed)
{
	if (!have_xapic_page())
		SKIP(return, "x2APIC or no local APIC: no APIC page");
	stack_ptr_write_killed(_metadata, SCI_ATTACK_APIC_INIT,
			       "reason: write to the local APIC");
}

/*
 * An isolated syscall still sends the IPIs the kernel sends (a wakeup on
 * another CPU, a TLB shootdown), never through a writable grant of the
 * APIC's page: a reschedule IPI sent from one arrives, the task lives,
 * and its SCI tables map the page read-only at most.
 */
#define SCI_ATTACK_APIC_IPI		0x5c1a77ac0000003dULL

TEST(isolated_ipi_arrives_without_a_writable_apic_page)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	long writes = sci_stat("apic_writes");
	int fd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2], status;
	__u64 r[2] = { 0, 0 };
	char rec[512];
	pid_t pid;

	ASSERT_LE(0, count);
	ASSERT_LE(0, writes);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct sci_test_attack a = { .how = SCI_ATTACK_TOUCH,
					     .target = SCI_ATTACK_APIC_IPI };

		close(pfd[0]);
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioctl(fd, SCI_TEST_ATTACK, &a))
			_exit(errno == ENODEV ? 94 : 91);
		r[0] = a.landed;
		r[1] = a.landed_rdi;
		if (write(pfd[1], r, sizeof(r)) != sizeof(r))
			_exit(93);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], r, sizeof(r)) != sizeof(r))
		r[0] = r[1] = 0;
	close(pfd[0]);
	close(fd);
	status = sci_reap(pid, rec, sizeof(rec));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 94)
		SKIP(return, "x2APIC or no local APIC: no APIC page");
	TH_LOG("status %#x, reschedule IPIs taken %llu, APIC page's SCI entry %#llx, %s",
	       status, (unsigned long long)r[0], (unsigned long long)r[1],
	       strstr(rec, "reason: ") ?: "no violation");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_LE(1, r[0]);
	EXPECT_EQ(0, r[1] & 2);		/* _PAGE_RW */
	/* At least its ICR2 and ICR, checked and made by the fault handler */
	EXPECT_LE(writes + 2, sci_stat("apic_writes"));
	EXPECT_EQ(count, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * A user mapping of the APIC's page (a nineteenth review): a chain's call
 * of remap_pfn_range() at its first byte maps it writable in user space,
 * where nothing checks a store.  The attack file's mmap() makes that
 * call: refused (EACCES) with SCI on, isolated or not.  A mapping that
 * was made is never touched, only unmapped.
 */
static int map_apic_page(int isolate)
{
	pid_t pid = fork();
	void *p;
	int fd;

	if (pid == 0) {
		fd = open(SCI_ATTACK_PATH, O_RDWR);
		if (fd < 0)
			_exit(13);
		if (isolate && sci_filter(__NR_mmap, SECCOMP_RET_ISOLATE))
			_exit(14);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			_exit(errno == EACCES || errno == EINVAL ? 10 :
			      errno == ENODEV ? 11 : 12);
		munmap(p, 4096);
		_exit(0);
	}
	return sci_reap(pid, NULL, 0);
}

TEST(apic_page_user_mapping_refused)
{
	int unisolated = map_apic_page(0), isolated;

	if (WIFEXITED(unisolated) && WEXITSTATUS(unisolated) == 11)
		SKIP(return, "x2APIC or no local APIC: no APIC page");
	isolated = map_apic_page(1);
	TH_LOG("mmap of the APIC's page: unisolated status %#x, isolated %#x (exit 10: EACCES or EINVAL, 0: mapped)",
	       unisolated, isolated);
	EXPECT_TRUE(WIFEXITED(unisolated) && WEXITSTATUS(unisolated) == 10);
	EXPECT_TRUE(WIFEXITED(isolated) && WEXITSTATUS(isolated) == 10);
}

/*
 * An exception vector that pushes an error code, delivered as an
 * interrupt, which pushes none (a twentieth review: the I/O APIC, a
 * device's MSI or the 8259 can deliver one to any CPU).  Taken in kernel
 * mode, error_entry found RFLAGS in the CS slot, took it for an entry from
 * user mode and switched to the user's GS base and the stack it chose,
 * on the full tables.  The hook sends #AC's vector to its own CPU from an
 * unisolated ioctl: the kernel must take it as an interrupt, acknowledge
 * it and count it (stray_vectors), and the caller go on.
 */
#define SCI_ATTACK_STRAY_VECTOR		0x5c1a77ac0000003fULL

TEST(stray_exception_vector_is_ignored)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long strays = sci_stat("stray_vectors");
	struct frame_outcome o;

	attack_write(0, SCI_ATTACK_TOUCH, SCI_ATTACK_STRAY_VECTOR, 0, &o);
	log_frame(_metadata, "unisolated", &o);
	TH_LOG("stray_vectors %ld before, %ld after", strays,
	       sci_stat("stray_vectors"));
	ASSERT_LE(0, strays);
	EXPECT_TRUE(o.back);
	EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	EXPECT_LE(strays + 1, sci_stat("stray_vectors"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The two kills of series 0136 (review 22, F2).  A stray exception vector
 * arriving in the entry text, where only a jump with interrupts on runs
 * with them on, has a frame one word short: SCI_ENTRY_IRQ_WINDOW must
 * recognise it (__KERNEL_CS above a RIP in the entry text) and kill
 * before a register is saved.  SCI_ATTACK_JMP_STRAY jumps to the first
 * premapped CR3 write with #AC's vector pending, the task priority
 * lowered by CR8 (which SCI does not see) and %rsp on the poisoned test
 * stack: killed, "interrupt in premapped entry code", and no more of the
 * stack written than the CPU's five words, the stub's return address and
 * a word of slack (seven words, 56 bytes in a debug guest: none of the
 * entry's own pushes, which would be three more, or fifteen registers).
 */
#define SCI_ATTACK_STRAY_HERE		0x5c1a77ac00000040ULL
#define SCI_ATTACK_STRAY_SECTION	0x5c1a77ac00000041ULL

TEST(stray_vector_in_entry_code_is_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count"), used;
	struct sci_test_cr3_sites sites;
	struct sci_test_attack a;
	struct outcome o;

	ASSERT_EQ(0, cr3_sites(&sites));
	ASSERT_LT(0, sites.nr);
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_JMP_STRAY;
	a.target = sites.addr[0];
	a.regs[7] = SCI_ATTACK_POISON_STACK;
	attack(&a, 1, &o);
	used = irq_stack_used();
	TH_LOG("stray vector at %#llx: status %#x%s, %s, stack used %ld bytes",
	       sites.addr[0], o.status, killed_by_sci(&o) ? " killed by SCI" : "",
	       strstr(o.rec, "reason: ") ?: "no violation", used);
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_NE(NULL, strstr(o.rec, "reason: interrupt in premapped entry code"));
	EXPECT_LT(0, used);
	EXPECT_GE(IRQ_FRAME_WORDS * 8, used);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The same vector on a CPU in an isolated syscall, elsewhere than in the
 * entry text: on its SCI tables (the entry's switch finds no kernel CS in
 * the frame's CS slot), and in a section of SCI's own off them, with
 * interrupts enabled there as the softirqs of sci_do_softirq_own_stack()
 * run (error_entry takes the frame for one from user mode, without PTI's
 * user tables, on a CPU in an isolated syscall).  Both kill the syscall's
 * task, not the kernel.  Unisolated, the section's stray is ignored.
 */
static void stray_isolated_killed(struct __test_metadata *_metadata,
				  __u64 where, const char *what)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long strays = sci_stat("stray_vectors");
	struct frame_outcome o;

	ASSERT_LE(0, strays);
	attack_write(0, SCI_ATTACK_TOUCH, where, 0, &o);
	log_frame(_metadata, "unisolated", &o);
	EXPECT_TRUE(o.back);
	EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	EXPECT_LE(strays + 1, sci_stat("stray_vectors"));
	attack_write(1, SCI_ATTACK_TOUCH, where, 0, &o);
	log_frame(_metadata, what, &o);
	EXPECT_FALSE(o.back);
	EXPECT_TRUE(frame_killed(&o));
	/* The entry's frame check, or its check after the switch from user */
	EXPECT_NE(NULL, strstr(o.rec, "reason: jump to a premapped CR3 write"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST(stray_vector_on_sci_tables_is_killed)
{
	stray_isolated_killed(_metadata, SCI_ATTACK_STRAY_HERE,
			      "isolated, on the SCI tables");
}

TEST(stray_vector_in_section_off_sci_tables_is_killed)
{
	stray_isolated_killed(_metadata, SCI_ATTACK_STRAY_SECTION,
			      "isolated, in a section off the SCI tables");
}

/*
 * A stray exception vector delivered as an interrupt while a CPU runs
 * user mode (review 21, F3; review 23 named what it gives): its frame is
 * one word short, so that error_entry read the user's RFLAGS as CS and
 * its stack pointer as RFLAGS.  A handler that took it for the exception
 * signalled the task and returned through that frame: RFLAGS from the
 * stack pointer the process chose (IOPL 3: port I/O from user mode), CS
 * from its RFLAGS (a selector into its own LDT).  The SS slot tells them
 * apart: a genuine entry from user mode has the user's SS there, never
 * null, a stray the first word of the TSS above the entry stack (0).
 * Since series 0144 the entry re-frames it and returns to user mode,
 * counted (stray_user_vectors).  A child on CPU 1 lowers that CPU's task
 * priority (CR8, a hook) and spins in user mode while the parent sends
 * #AC's vector there three times: it must go on and exit normally, its
 * registers and flags as it left them.
 */
#define SCI_ATTACK_TPR_LOW	0x5c1a77ac00000043ULL
#define SCI_ATTACK_TPR_RESTORE	0x5c1a77ac00000044ULL
#define SCI_ATTACK_STRAY_TO	0x5c1a77ac00000045ULL

/*
 * Spin up to @n rounds or until *@done, r12-r15 and rbx holding known
 * values throughout; nonzero when one of them, or IOPL or AC in RFLAGS,
 * is not what user mode left there.
 */
static int spin_checked(volatile int *done, unsigned long n)
{
	unsigned long bad, flags;

	asm volatile("movabs $0x5c1a5c1a00000012, %%r12\n\t"
		     "movabs $0x5c1a5c1a00000013, %%r13\n\t"
		     "movabs $0x5c1a5c1a00000014, %%r14\n\t"
		     "movabs $0x5c1a5c1a00000015, %%r15\n\t"
		     "movabs $0x5c1a5c1a0000000b, %%rbx\n"
		     "1:\n\t"
		     "cmpl $0, (%[done])\n\t"
		     "jne 2f\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b\n"
		     "2:\n\t"
		     "xor %[bad], %[bad]\n\t"
		     "movabs $0x5c1a5c1a00000012, %[flags]\n\t"
		     "cmp %[flags], %%r12\n\t"
		     "setne %b[bad]\n\t"
		     "movabs $0x5c1a5c1a00000013, %[flags]\n\t"
		     "cmp %[flags], %%r13\n\t"
		     "jne 3f\n\t"
		     "movabs $0x5c1a5c1a00000014, %[flags]\n\t"
		     "cmp %[flags], %%r14\n\t"
		     "jne 3f\n\t"
		     "movabs $0x5c1a5c1a00000015, %[flags]\n\t"
		     "cmp %[flags], %%r15\n\t"
		     "jne 3f\n\t"
		     "movabs $0x5c1a5c1a0000000b, %[flags]\n\t"
		     "cmp %[flags], %%rbx\n\t"
		     "je 4f\n"
		     "3:\n\t"
		     "or $1, %[bad]\n"
		     "4:"
		     : [bad] "=&q" (bad), [flags] "=&r" (flags), [n] "+r" (n)
		     : [done] "r" (done)
		     : "rbx", "r12", "r13", "r14", "r15", "cc", "memory");
	flags = user_flags();
	return bad || (flags & (X86_EFLAGS_IOPL | X86_EFLAGS_AC));
}

static int touch(int fd, __u64 target, __u32 len)
{
	struct sci_test_attack a = { .how = SCI_ATTACK_TOUCH, .target = target,
				     .len = len };

	return ioctl(fd, SCI_TEST_ATTACK, &a) ? -errno : 0;
}

TEST(stray_vector_in_user_mode_is_ignored)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long user = sci_stat("stray_user_vectors"), kernel = sci_stat("stray_vectors");
	int fd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2], status, i;
	volatile int *done;
	cpu_set_t cpus, old;
	char c;
	pid_t pid;

	ASSERT_LE(0, fd);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU: the stray needs another one in user mode");
	done = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, done);
	*done = 0;
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct timespec t0, t;

		close(pfd[0]);
		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			_exit(90);
		if (touch(fd, SCI_ATTACK_TPR_LOW, 0))
			_exit(91);
		if (write(pfd[1], "r", 1) != 1)
			_exit(92);
		/*
		 * In user mode until the parent is done, five seconds at
		 * most, with known values in the callee-saved registers and
		 * the flags checked after each round: a stray's return must
		 * give back the process's own state (no IOPL, no AC).
		 */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (!*done) {
			if (spin_checked(done, 0x100000))
				_exit(94);
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec > 5)
				break;
		}
		if (touch(fd, SCI_ATTACK_TPR_RESTORE, 0))
			_exit(93);
		_exit(0);
	}
	close(pfd[1]);
	ASSERT_EQ(1, read(pfd[0], &c, 1));
	close(pfd[0]);
	usleep(20000);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, touch(fd, SCI_ATTACK_STRAY_TO, 1));
		usleep(10000);
	}
	*done = 1;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/* Its CPU's priority back, if the child died before it could */
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(old), &old));
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	EXPECT_EQ(0, touch(fd, SCI_ATTACK_TPR_RESTORE, 0));
	sched_setaffinity(0, sizeof(old), &old);
	close(fd);
	TH_LOG("child status %#x; strays taken in user mode %ld, in kernel mode %ld",
	       status, sci_stat("stray_user_vectors") - user,
	       sci_stat("stray_vectors") - kernel);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_LE(0, user);
	/*
	 * Three sends, but two may merge in the APIC's request register
	 * when CPU 1 takes the first late, and one may land in kernel
	 * mode (counted there): at least one in user mode, three at most.
	 */
	EXPECT_LE(1, sci_stat("stray_user_vectors") - user);
	EXPECT_GE(3, sci_stat("stray_user_vectors") - user +
		     sci_stat("stray_vectors") - kernel);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The way around the APIC's checks (a nineteenth review): the I/O APIC
 * or a device's MSI sends INIT to the boot processor, whose firmware,
 * with the CMOS shutdown code 0x0a (port I/O), jumps through the far
 * pointer at physical 0x467: page 0, written here through the direct
 * map.  Read-only in the SCI tables.
 */
#define SCI_ATTACK_WARM_RESET		0x5c1a77ac0000003eULL

TEST(warm_reset_vector_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_WARM_RESET,
			       "reason: write to the warm-reset vector");
}

TEST(cpu_bringup_initial_code_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_INITIAL_CODE,
			       "reason: write to __sci_ro_data");
}

TEST(cpu_bringup_trampoline_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_TRAMPOLINE,
			       "reason: write to the real-mode trampoline");
}

/*
 * Words in ordinary data that chose where the kernel runs on the full
 * tables (a seventeenth review): phys_base, part of the CR3 that any CPU
 * not in an isolated syscall builds for init_mm, and the real_mode_header
 * pointer, by which bring-up, S3 and a BIOS reboot find the trampoline.
 */
#define SCI_ATTACK_PHYS_BASE		0x5c1a77ac00000038ULL
#define SCI_ATTACK_REAL_MODE_HEADER	0x5c1a77ac00000039ULL

TEST(phys_base_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_PHYS_BASE,
			       "reason: write to __sci_ro_data");
}

TEST(real_mode_header_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_REAL_MODE_HEADER,
			       "reason: write to __sci_ro_data");
}

/*
 * __supported_pte_mask: NX cleared there is cleared in every kernel
 * mapping made afterwards, and in the user half of new SCI tables (an
 * eighteenth review).  Written at boot only.
 */
#define SCI_ATTACK_PTE_MASK		0x5c1a77ac0000003bULL

TEST(supported_pte_mask_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_PTE_MASK,
			       "reason: write to __sci_ro_data");
}

static const char *cpu1_online_value;

static int write_cpu1_online(void)
{
	int fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, cpu1_online_value, 1);
	close(fd);
	return ret < 0 ? -1 : 0;
}

/*
 * The kernel writes those words in the context of the task that brings a
 * CPU up (do_boot_cpu()), where an isolated syscall would be killed
 * half-way with the hotplug lock held: bringing a CPU up is refused to
 * isolated syscalls (EPERM), before anything is written.  Taking one down
 * is not: the CPU that goes down clears its own bits.
 */
TEST(cpu_online_refused_when_isolated)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	char state[8] = "", down_state[8] = "";
	int down, up, again;

	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "no second CPU that can go offline");
	ASSERT_EQ(0, pin_to(0));
	cpu1_online_value = "0";
	down = isolated_errno(__NR_write, write_cpu1_online);
	/* Down for real: the EPERM below is then the bring-up's refusal */
	sci_read_file("/sys/devices/system/cpu/cpu1/online", down_state,
		      sizeof(down_state));
	cpu1_online_value = "1";
	up = isolated_errno(__NR_write, write_cpu1_online);
	/* Back online, whatever the isolated writes did */
	again = write_cpu1_online();
	TH_LOG("isolated: offline %d, online %d (errno; 0: done); unisolated online %d",
	       down, up, again);
	ASSERT_EQ(0, again);
	ASSERT_LT(0, sci_read_file("/sys/devices/system/cpu/cpu1/online",
				   state, sizeof(state)));
	EXPECT_EQ('1', state[0]);
	EXPECT_EQ(0, down);
	EXPECT_EQ('0', down_state[0]);
	EXPECT_EQ(EPERM, up);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST(espfix_stack_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_ESPFIX_STACK,
			       "reason: write to a CPU's stack pointers");
}

TEST(espfix_waddr_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_ESPFIX_WADDR,
			       "reason: write to a CPU's stack pointers");
}

TEST(tss_ist_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_TSS_IST,
			       "reason: write to a TSS");
}

/*
 * The IDT (another CPU's #DB gate would send its next #DB anywhere, on the
 * full tables) is read-only in the kernel's own tables since boot
 * (set_memory_ro()): the write is refused with -EFAULT (the ioctl fails:
 * exit 91), isolated or not, and kills nobody.
 */
TEST(idt_write_is_refused)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	struct frame_outcome o;
	int isolate;

	ASSERT_LE(0, count);
	for (isolate = 0; isolate < 2; isolate++) {
		attack_write(isolate, SCI_ATTACK_TOUCH, SCI_ATTACK_IDT, 0, &o);
		log_frame(_metadata, isolate ? "isolated" : "unisolated", &o);
		EXPECT_FALSE(o.back);
		EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 91);
	}
	EXPECT_EQ(count, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The TSS's first page (the IST entries above, and the I/O bitmap's base)
 * is read-only on the SCI tables, where ioperm() and iopl() that drop a
 * task's last I/O permission, and an exit with some, would invalidate the
 * bitmap in this CPU's TSS: an isolated syscall leaves that to its return
 * to user mode, or to the switch out when it exits.  They must still take
 * effect and kill nobody.  Port 0x80 (the POST port: writes go nowhere).
 */
static sigjmp_buf port_jmp;

static void port_segv(int sig)
{
	siglongjmp(port_jmp, 1);
}

/* Does a write to port 0x80 fault? */
static int port_faults(void)
{
	struct sigaction sa = { .sa_handler = port_segv }, old;
	volatile int faulted = 1;

	sigaction(SIGSEGV, &sa, &old);
	if (!sigsetjmp(port_jmp, 1)) {
		outb(0, 0x80);
		faulted = 0;
	}
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

TEST(io_permissions_dropped_by_isolated_syscalls)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	char rec[4096];
	int status;
	pid_t pid;

	ASSERT_LE(0, count);
	ASSERT_EQ(1, port_faults());
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioperm, SECCOMP_RET_ISOLATE) ||
		    sci_filter(__NR_iopl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioperm(0x80, 1, 1))
			_exit(errno == ENOSYS ? 4 : 80);
		if (port_faults())
			_exit(81);
		/* The last port dropped: io_bitmap_exit() */
		if (ioperm(0x80, 1, 0))
			_exit(82);
		if (!port_faults())
			_exit(83);
		if (iopl(3))
			_exit(84);
		if (port_faults())
			_exit(85);
		if (iopl(0))
			_exit(86);
		if (!port_faults())
			_exit(87);
		_exit(0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status %#x, %s", status, strstr(rec, "reason: ") ?: "no violation");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
		SKIP(return, "no ioperm() in this kernel");
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(count, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * An isolated exit_group() with a port, then this process on that CPU:
 * the exit leaves the SCI tables with its mm before exit_thread() drops
 * the port, and the switch out invalidates the bitmap (a regression
 * check: it passed before series 0088 too).
 */
TEST(io_permissions_of_isolated_exit)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	cpu_set_t cpus, old;
	char rec[4096];
	int status;
	pid_t pid;

	ASSERT_LE(0, count);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(old), &old));
	if (!CPU_ISSET(0, &old))
		SKIP(return, "CPU 0 is not in this process's affinity");
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_exit_group, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (ioperm(0x80, 1, 1))
			syscall(__NR_exit_group, errno == ENOSYS ? 4 : 80);
		if (port_faults())
			syscall(__NR_exit_group, 81);
		syscall(__NR_exit_group, 0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status %#x, %s", status, strstr(rec, "reason: ") ?: "no violation");
	/* Its bitmap is not this process's, on the CPU it ran on */
	EXPECT_EQ(1, port_faults());
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(old), &old));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
		SKIP(return, "no ioperm() in this kernel");
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(count, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The descriptor tables (found by the review of series 0088, closed by
 * series 0089-0093).  A call gate of DPL 3 in
 * the GDT or in an LDT lets user mode far-call into kernel code at an
 * address of the attacker's choice (entry text, which PTI's user tables
 * map), with its own GS base, AC flag and stack pointer: a way to the full
 * tables with no race.  Three ways to plant one from an isolated syscall:
 * another CPU's GDT (per-CPU data, granted writable), the task's own
 * thread.tls_array (task data, which the switch in copies into the GDT
 * unchecked), and its mm's LDT (installed by modify_ldt(), whose entries
 * it checks only then).  The tests only look at the planted gate (LAR);
 * nothing calls it.
 */
TEST(gdt_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_GDT,
			       "reason: write to a GDT");
}

/*
 * An LDT with a data segment at @entry (the children, which fork gives a
 * copy, have one), then a write to @target in it.
 */
static void ldt_write_killed(struct __test_metadata *_metadata,
			     unsigned int entry, __u64 target)
{
	struct user_desc d = {
		.entry_number = entry, .base_addr = 0, .limit = 0xfffff,
		.seg_32bit = 1, .contents = 0, .read_exec_only = 0,
		.limit_in_pages = 1, .seg_not_present = 0, .useable = 1,
	};

	if (syscall(SYS_modify_ldt, 1, &d, sizeof(d)))
		SKIP(return, "no modify_ldt(): %s", strerror(errno));
	stack_ptr_write_killed(_metadata, target, "reason: write to an LDT");
}

TEST(ldt_write_is_killed)
{
	ldt_write_killed(_metadata, 0, SCI_ATTACK_LDT);
}

/*
 * The read-only pages are read-only by frame, not by address: a vmalloc
 * alias of another CPU's GDT page (which the hook makes with vmap(), as a
 * chain could) is refused too.
 */
TEST(gdt_alias_write_is_killed)
{
	stack_ptr_write_killed(_metadata, SCI_ATTACK_GDT_ALIAS,
			       "reason: write to a GDT");
}

/*
 * cpu_sci and sci_cea_flag, the per-CPU state every check of SCI's reads
 * (the SCI tables' CR3, the pt_regs an exception returns by, "gone"), were
 * read-only on the SCI tables at their per-CPU address only (ninth
 * review): through a vmalloc alias of the page, a write was granted, and
 * a cpu_sci.sci_cr3 of 0 turns the kernel's own CR3 writes into a way off
 * the SCI tables.  Read-only by frame, like the GDT.
 */
#define CPU_SCI_ALIAS	0x5c1a77ac00000029ULL	/* SCI_ATTACK_CPU_SCI_ALIAS */
#define CEA_FLAG_ALIAS	0x5c1a77ac0000002aULL	/* SCI_ATTACK_CEA_FLAG_ALIAS */

TEST(cpu_sci_alias_write_is_killed)
{
	stack_ptr_write_killed(_metadata, CPU_SCI_ALIAS,
			       "reason: write to SCI state");
}

TEST(sci_cea_flag_alias_write_is_killed)
{
	stack_ptr_write_killed(_metadata, CEA_FLAG_ALIAS,
			       "reason: write to SCI state");
}

/*
 * SCI's own unmarking of a read-only frame, sci_mark_ro_frame(pfn, false),
 * called by a chain at its first byte with another CPU's GDT frame (third
 * review of the cpu_entry_area patch): it cleared the frame's bit, and a
 * write to that GDT afterwards was a write like any other.  The frames
 * marked at boot (every CPU's stack pointers, TSS and GDT pages, the
 * cpu_entry_area's page tables) are never unmarked: the call is a
 * violation, and a write to that GDT through a vmalloc alias after it is
 * still killed.
 */
#define OTHER_GDT_PFN	0x5c1a77ac00000020ULL
#define OTHER_GDT_PTE	0x5c1a77ac00000021ULL
#define OTHER_CEA_PT	0x5c1a77ac00000022ULL

TEST_F_TIMEOUT(slow, gdt_unmark_by_call_is_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct frame_outcome w;
	struct outcome o;
	cpu_set_t old;

	ASSERT_EQ(0, pin_cpu0(&old));
	/* %rdi: the frame, %rsi: unmark */
	call_chain(_metadata, "sci_mark_ro_frame(GDT, false)",
		   sci_ksym("sci_mark_ro_frame"), OTHER_GDT_PFN, 0, 0, 1, &o);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	/*
	 * Whatever the call did, that GDT is still read-only, at an alias
	 * too (its premapped address is read-only in every SCI table).
	 */
	attack_write(1, SCI_ATTACK_TOUCH, SCI_ATTACK_GDT_ALIAS, 0, &w);
	log_frame(_metadata, "the GDT's alias after the call", &w);
	EXPECT_TRUE(frame_killed(&w));
	EXPECT_NE(NULL, strstr(w.rec, "reason: write to a GDT"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	EXPECT_EQ(0, sched_setaffinity(0, sizeof(old), &old));
}

/*
 * The LDT's release, sci_protect_ldt(entries, size, false), called by a
 * chain with the page table that maps another CPU's cpu_entry_area GDT as
 * its "entries" (third review): it unmarked that page table, and
 * set_pte_vaddr() then mapped the GDT writable at that alias, shared by
 * every SCI table.  A frame marked at boot is never unmarked: the release
 * refuses it (-EPERM, and its caller leaks the "LDT"), and the PTE write
 * after it is killed.
 */
TEST_F_TIMEOUT(slow, cea_table_release_by_call_is_refused, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct outcome o;
	cpu_set_t old;

	ASSERT_EQ(0, pin_cpu0(&old));
	/* entries, size, release */
	call_chain(_metadata, "sci_protect_ldt(CEA page table, false)",
		   sci_ksym("sci_protect_ldt"), OTHER_CEA_PT, 4096, 0, 1, &o);
	EXPECT_FALSE(escaped(&o));
	/* A function that returns: the chain goes on to its landing. */
	EXPECT_TRUE(o.have && o.a.landed);
	/* vaddr, a writable PTE of the GDT */
	call_chain(_metadata, "set_pte_vaddr(CEA GDT, writable)",
		   sci_ksym("set_pte_vaddr"), OTHER_CEA_GDT, OTHER_GDT_PTE, 0,
		   1, &o);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_NE(NULL, strstr(o.rec, "cpu_entry_area page table"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	EXPECT_EQ(0, sched_setaffinity(0, sizeof(old), &old));
}

/*
 * sci_set_user_pgd(), SCI's mirror of a user PGD entry, called by a chain
 * at its first byte (fourth review): it checked that its "PGD entry" was
 * in the user half of a page whose bit 12 is clear, then stored it on the
 * full tables, whatever that page was: 8 bytes anywhere, here an empty
 * descriptor in another CPU's GDT.  The store is made on the caller's
 * tables, where that write is killed.
 */
#define OTHER_GDT_EVEN	0x5c1a77ac00000023ULL
#define CANARY_TASK	0x5c1a77ac00000024ULL
#define IDT_PAGE	0x5c1a77ac00000025ULL
#define SCI_TEST_CANARY	_IO('S', 36)

TEST_F_TIMEOUT(slow, user_pgd_store_by_call_is_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct outcome o;
	cpu_set_t old;

	ASSERT_EQ(0, pin_cpu0(&old));
	/* the "PGD entry", an empty descriptor */
	call_chain(_metadata, "sci_set_user_pgd(GDT, 0)",
		   sci_ksym("sci_set_user_pgd"), OTHER_GDT_EVEN, 0, 0, 1, &o);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_NE(NULL, strstr(o.rec, "reason: write to a GDT"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	EXPECT_EQ(0, sched_setaffinity(0, sizeof(old), &old));
}

/*
 * sci_release_task(), called by a chain at its first byte with a "task"
 * of its choice (fourth review): whatever SCI state said of that task, it
 * cleared its thread.sci and thread.sci_record on the full tables: 16
 * bytes zeroed anywhere.  A task that no SCI state vouches for is not
 * written.  The "task" here is the hook's canary, which says whether it
 * was written.
 */
TEST_F_TIMEOUT(slow, task_release_by_call_writes_nothing, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int tfd = open(SCI_TEST_PATH, O_RDWR);
	struct outcome o;

	ASSERT_LE(0, tfd);
	/* Armed, and as it was */
	ASSERT_LE(0, ioctl(tfd, SCI_TEST_CANARY, 0));
	ASSERT_EQ(1, ioctl(tfd, SCI_TEST_CANARY, 0));
	call_chain(_metadata, "sci_release_task(canary)",
		   sci_ksym("sci_release_task"), CANARY_TASK, 0, 0, 1, &o);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(o.have && o.a.landed);
	EXPECT_EQ(1, ioctl(tfd, SCI_TEST_CANARY, 0));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(tfd);
}

/*
 * A sibling thread's SCI state (fifth review).  __sci_free() took any
 * page of SCI state that no live syscall used for a task's descriptor,
 * and sci_release_task() any task whose state was idle: a chain may call
 * either at its first byte with the state, or the task, of another
 * thread of its process that is in user mode (a read primitive finds
 * them), which then used it again, freed.  The sibling here makes an
 * isolated syscall (its state is made), spins in user mode while the
 * other thread's chain calls the function, then makes another.  The
 * state must not be freed: called isolated, __sci_free() kills the
 * chain at the call; sci_release_task() does nothing; called unisolated
 * (the control), both do nothing, and the sibling's second syscall
 * comes back.
 */
#define SIBLING_SCI	0x5c1a77ac00000027ULL	/* SCI_ATTACK_SIBLING_SCI */
#define SIBLING_TASK	0x5c1a77ac00000028ULL	/* SCI_ATTACK_SIBLING */

struct sibling {
	volatile int stage;	/* 1: state made, 2: go on, 3: done */
	volatile long pid;
};

static void *sibling_thread(void *arg)
{
	struct sibling *s = arg;

	/* Every syscall of this thread isolated, not the other's */
	if (sci_filter(-1, SECCOMP_RET_ISOLATE))
		_exit(97);
	s->pid = syscall(__NR_getpid);
	s->stage = 1;
	while (s->stage != 2)
		;
	s->pid = syscall(__NR_getpid);
	s->stage = 3;
	for (;;)
		;
	return NULL;
}

static void sibling_state_call(struct __test_metadata *_metadata,
			       const char *fn, __u64 arg, int isolate,
			       struct outcome *o)
{
	unsigned long landing = sci_ksym("sci_test_landing");
	int afd = open(SCI_ATTACK_PATH, O_RDWR);
	struct sci_test_attack a;
	__u64 stack[8];
	pid_t pid;

	memset(o, 0, sizeof(*o));
	ASSERT_LE(0, afd);
	ASSERT_NE(0, landing);
	ASSERT_NE(0, sci_ksym(fn));
	call_then_land(&a, stack, sci_ksym(fn), landing);
	a.regs[5] = arg;	/* %rdi */
	a.regs[4] = 0;		/* %rsi: __sci_free()'s husk, false */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct sibling s = { 0 };
		pthread_t t;

		if (pthread_create(&t, NULL, sibling_thread, &s))
			_exit(90);
		while (s.stage != 1)
			;
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(91);
		if (ioctl(afd, SCI_TEST_ATTACK, &a))
			_exit(92);
		s.stage = 2;
		while (s.stage != 3)
			;
		/* Both threads end here, not through exit_group's wait. */
		_exit(s.pid == getpid() ? 0 : 93);
	}
	o->status = sci_reap(pid, o->rec, sizeof(o->rec));
	TH_LOG("%s(sibling) %s: status %#x%s, %s", fn,
	       isolate ? "isolated" : "unisolated", o->status,
	       killed_by_sci(o) ? " killed by SCI" : "",
	       strstr(o->rec, "reason: ") ?: "no violation");
	close(afd);
}

TEST_F_TIMEOUT(slow, sibling_state_free_by_call_is_refused, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct outcome o;

	sibling_state_call(_metadata, "__sci_free", SIBLING_SCI, 0, &o);
	EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	sibling_state_call(_metadata, "__sci_free", SIBLING_SCI, 1, &o);
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_TRUE(leave_killed(o.rec));
	sibling_state_call(_metadata, "sci_release_task", SIBLING_TASK, 0, &o);
	EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	sibling_state_call(_metadata, "sci_release_task", SIBLING_TASK, 1, &o);
	EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The stack class (Documentation/x86/sci.rst, "Limits"): a task asleep in
 * an isolated syscall left its switch frame (struct inactive_task_frame,
 * at its thread.sp) and the frames of the scheduler's door on its kernel
 * stack, which another thread's isolated syscall is granted writable like
 * any kernel data.  Here that other thread writes the switch frame's
 * return address (SCI_ATTACK_SIBLING_SWITCH_RET) while the sleeper is
 * asleep in an isolated ioctl (SCI_TEST_SLEEP_BAD, an msleep(), then a
 * bad call): when switched in, the sleeper would return to
 * sci_test_switch_landing() on the full tables.  Unisolated (the
 * control) the landing runs; isolated, the frames are on a stack of SCI
 * state, read-only on every SCI table: the write is killed, and nothing
 * lands.
 *
 * The same with the sleeper's saved stack pointer, thread.sp, task data
 * that the switch in loads: the writer builds a switch frame of its own
 * low on the sleeper's task stack (SCI_ATTACK_SIBLING_FAKE_FRAME, 8 KiB
 * above its bottom, where nothing of the syscall's reaches) and points
 * thread.sp at it (SCI_ATTACK_SIBLING_THREAD_SP).  Unisolated the
 * landing runs; isolated, the switch in loads the stack pointer that SCI
 * saved at the switch out, and the sleeper (the main thread here, whose
 * record is read) goes on to its bad call.
 */
#define SIBLING_SWITCH_RET	0x5c1a77ac0000002bULL
#define SWITCH_LANDING		0x5c1a77ac0000002cULL
#define SIBLING_THREAD_SP	0x5c1a77ac0000002dULL
#define SIBLING_FAKE_FRAME	0x5c1a77ac0000002eULL

struct switch_write {
	int fd, afd, pfd;
	int forge_sp;
	volatile pid_t sleeper;
};

/* The sleeper: asleep a second, then a bad call (a kill) if isolated */
static void *switch_sleeper(void *arg)
{
	struct switch_write *w = arg;

	w->sleeper = syscall(__NR_gettid);
	ioctl(w->fd, SCI_TEST_SLEEP_BAD, 1000UL);
	for (;;)
		pause();
	return NULL;
}

static int attack_words(int afd, __u64 target, __u64 *words, int n)
{
	struct sci_test_attack a = { .how = SCI_ATTACK_WRITE, .len = 8 * n };

	a.target = target;
	a.data = (unsigned long)words;
	return ioctl(afd, SCI_TEST_ATTACK, &a);
}

/*
 * attack_words() on the sleeper, retried for up to a second while the
 * hook finds no sibling off its CPU (EFAULT): /proc shows a task asleep
 * a little before its switch out is over.
 */
static int attack_sleeper(int afd, __u64 target, __u64 *words, int n)
{
	int i, ret = -1;

	for (i = 0; i < 1000; i++) {
		ret = attack_words(afd, target, words, n);
		if (!ret || errno != EFAULT)
			break;
		usleep(1000);
	}
	return ret;
}

/*
 * Wait up to three seconds for sci_test_switch_landing() to run, then
 * write whether it did and the CR3 it found to @pfd: 0, or an exit code.
 */
static int switch_landing_report(int afd, int pfd)
{
	struct sci_test_attack a;
	__u64 r[2];
	int i;

	for (i = 0; i < 300; i++) {
		memset(&a, 0, sizeof(a));
		a.how = SCI_ATTACK_RET_LANDED;
		a.target = 2;
		if (ioctl(afd, SCI_TEST_ATTACK, &a))
			return 95;
		if (a.landed)
			break;
		usleep(10 * 1000);
	}
	r[0] = a.landed;
	r[1] = a.landed_cr3;
	if (write(pfd, r, sizeof(r)) != sizeof(r))
		return 96;
	return 0;
}

/*
 * The writer is the main thread, so that /proc/PID/sci is its record:
 * write the sleeper's switch frame, or forge its saved stack pointer,
 * then wait for a landing.
 */
static int switch_writer(struct switch_write *w, int afd, int pfd)
{
	__u64 frame[7] = { 0, 0, 0, 0, 0, 0, SWITCH_LANDING };
	__u64 ret = SWITCH_LANDING, sp = SIBLING_FAKE_FRAME;
	char path[64], stat[512], *p;
	int i;

	while (!w->sleeper)
		;
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", w->sleeper);
	for (i = 0; i < 1000; i++) {
		if (sci_read_file(path, stat, sizeof(stat)) > 0 &&
		    (p = strrchr(stat, ')')) && p[1] == ' ' && p[2] == 'D')
			break;
		usleep(1000);
	}
	if (i == 1000)
		return 93;
	if (w->forge_sp) {
		if (attack_sleeper(afd, SIBLING_FAKE_FRAME, frame, 7) ||
		    attack_sleeper(afd, SIBLING_THREAD_SP, &sp, 1))
			return 94;
	} else if (attack_sleeper(afd, SIBLING_SWITCH_RET, &ret, 1)) {
		return 94;
	}
	/* The sleeper wakes within a second: did it land? */
	return switch_landing_report(afd, pfd);
}

static void *switch_writer_thread(void *arg)
{
	struct switch_write *w = arg;

	_exit(switch_writer(w, w->afd, w->pfd));
	return NULL;
}

static void switch_frame_write(struct __test_metadata *_metadata,
			       int isolate, int forge_sp,
			       struct frame_outcome *o)
{
	int afd = open(SCI_ATTACK_PATH, O_RDWR), pfd[2];
	struct switch_write w = { .fd = test_fd(), .forge_sp = forge_sp };
	struct sci_test_attack a;
	__u64 r[2];
	pid_t pid;

	memset(o, 0, sizeof(*o));
	ASSERT_LE(0, w.fd);
	ASSERT_LE(0, afd);
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t;

		close(pfd[0]);
		w.afd = afd;
		w.pfd = pfd[1];
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (forge_sp) {
			/* The sleeper is the main thread: its record is read */
			w.sleeper = syscall(__NR_gettid);
			if (pthread_create(&t, NULL, switch_writer_thread, &w))
				_exit(91);
			ioctl(w.fd, SCI_TEST_SLEEP_BAD, 1000UL);
			for (;;)
				pause();
		}
		if (pthread_create(&t, NULL, switch_sleeper, &w))
			_exit(91);
		/* Both threads end here, not in the sleeper's ioctl. */
		_exit(switch_writer(&w, afd, pfd[1]));
	}
	close(pfd[1]);
	o->back = read(pfd[0], r, sizeof(r)) == sizeof(r);
	close(pfd[0]);
	o->status = sci_reap(pid, o->rec, sizeof(o->rec));
	/* Asked here too: the writer may have died with its sleeper. */
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_RET_LANDED;
	a.target = 2;
	ASSERT_EQ(0, ioctl(afd, SCI_TEST_ATTACK, &a));
	o->landed = o->back ? r[0] : a.landed;
	o->landed_cr3 = o->back ? r[1] : a.landed_cr3;
	log_frame(_metadata, isolate ? "isolated" : "unisolated", o);
	close(afd);
	close(w.fd);
}

/*
 * The control (the write lands the sleeper, which dies alone, through
 * make_task_dead(), which counts an oops), then the isolated run; @oops
 * is the count after the control.
 */
static void switch_frame_both(struct __test_metadata *_metadata, int forge_sp,
			      struct frame_outcome *o, long *oops)
{
	switch_frame_write(_metadata, 0, forge_sp, o);
	ASSERT_TRUE(o->back);
	ASSERT_EQ(1, o->landed);
	ASSERT_EXIT0(o->status);
	*oops = sci_read_long("/sys/kernel/oops_count");
	switch_frame_write(_metadata, 1, forge_sp, o);
	if (o->landed)
		TH_LOG("ESCAPED: the sleeper landed on CR3 %#llx",
		       (unsigned long long)o->landed_cr3);
}

TEST_F_TIMEOUT(slow, sleeping_sibling_switch_frame_write_is_killed, 120)
{
	struct frame_outcome o;
	long oops;

	switch_frame_both(_metadata, 0, &o, &oops);
	EXPECT_EQ(0, o.landed);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_NE(NULL, strstr(o.rec, "reason: write to SCI state"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST_F_TIMEOUT(slow, sleeping_sibling_thread_sp_forged_is_not_loaded, 120)
{
	struct frame_outcome o;
	long oops;

	switch_frame_both(_metadata, 1, &o, &oops);
	EXPECT_EQ(0, o.landed);
	/* The sleeper went on through its own frames to its bad call. */
	EXPECT_TRUE(WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGKILL);
	EXPECT_NE(NULL, strstr(o.rec, "reason: unverified jump"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The same class through preemption: an interrupt taken on the SCI tables
 * that preempts the isolated syscall (CONFIG_PREEMPT) switches it out
 * from the interrupt's return, and its switch frame is where that
 * interrupt's handler ran.  The victim (a thread pinned to CPU 0 with a
 * busy process) spins in an isolated ioctl (SCI_TEST_SPIN); the writer
 * (the main thread, pinned to CPU 1) writes the victim's switch-frame
 * return address once it is off its CPU.  Unisolated the victim lands;
 * isolated, the interrupt ran on the door stack: the write is killed.
 */
#define SCI_TEST_SPIN		_IOW('S', 37, unsigned long)

struct preempt_write {
	int fd, afd, pfd;
	volatile int spinning;
};

static int pin_to(int cpu)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	return sched_setaffinity(0, sizeof(cpus), &cpus);
}

/* The victim: a thread pinned to CPU 0, spinning in an ioctl */
static void *preempt_victim(void *arg)
{
	struct preempt_write *w = arg;

	if (pin_to(0))
		_exit(92);
	w->spinning = 1;
	ioctl(w->fd, SCI_TEST_SPIN, 3000UL);
	for (;;)
		pause();
	return NULL;
}

/* The writer is the main thread, so that /proc/PID/sci is its record. */
static int preempt_writer(struct preempt_write *w)
{
	__u64 ret = SWITCH_LANDING;
	struct timespec t0, t1;
	int i, wrote = 0;

	if (pin_to(1))
		return 92;
	while (!w->spinning)
		;
	/* Well inside the victim's ioctl, and for two seconds at most */
	usleep(100 * 1000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		wrote = !attack_words(w->afd, SIBLING_SWITCH_RET, &ret, 1);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while (!wrote && t1.tv_sec - t0.tv_sec < 2);
	i = switch_landing_report(w->afd, w->pfd);
	return i ? i : wrote ? 0 : 94;
}

static void preempt_frame_write(struct __test_metadata *_metadata,
				int isolate, struct frame_outcome *o)
{
	struct preempt_write w = { .afd = open(SCI_ATTACK_PATH, O_RDWR) };
	struct sci_test_attack a;
	int fd = test_fd(), pfd[2];

	w.fd = fd;
	pid_t pid, hog;
	__u64 r[2];

	memset(o, 0, sizeof(*o));
	ASSERT_LE(0, fd);
	ASSERT_LE(0, w.afd);
	/* Before the pipe: the busy process must not hold its write end. */
	hog = fork();
	ASSERT_LE(0, hog);
	if (hog == 0) {
		/* Gone with the test, whatever assertion ends it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pin_to(0))
			_exit(1);
		for (;;)
			;
	}
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t;

		close(pfd[0]);
		w.pfd = pfd[1];
		if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		if (pthread_create(&t, NULL, preempt_victim, &w))
			_exit(91);
		/* Both threads end here, not in the victim's ioctl. */
		_exit(preempt_writer(&w));
	}
	close(pfd[1]);
	o->back = read(pfd[0], r, sizeof(r)) == sizeof(r);
	close(pfd[0]);
	o->status = sci_reap(pid, o->rec, sizeof(o->rec));
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	memset(&a, 0, sizeof(a));
	a.how = SCI_ATTACK_RET_LANDED;
	a.target = 2;
	ASSERT_EQ(0, ioctl(w.afd, SCI_TEST_ATTACK, &a));
	o->landed = o->back ? r[0] : a.landed;
	o->landed_cr3 = o->back ? r[1] : a.landed_cr3;
	log_frame(_metadata, isolate ? "isolated" : "unisolated", o);
	/* 94: the victim was never seen off its CPU in two seconds */
	ASSERT_FALSE(WIFEXITED(o->status) && WEXITSTATUS(o->status) >= 90);
	close(w.afd);
	close(fd);
}

TEST_F_TIMEOUT(slow, preempted_sibling_switch_frame_write_is_killed, 120)
{
	struct frame_outcome o;
	long oops;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	/* The control: the write lands the preempted victim. */
	preempt_frame_write(_metadata, 0, &o);
	ASSERT_TRUE(o.back);
	ASSERT_EQ(1, o.landed);
	oops = sci_read_long("/sys/kernel/oops_count");
	preempt_frame_write(_metadata, 1, &o);
	if (o.landed)
		TH_LOG("ESCAPED: the preempted victim landed on CR3 %#llx",
		       (unsigned long long)o.landed_cr3);
	EXPECT_EQ(0, o.landed);
	EXPECT_TRUE(WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGKILL);
	EXPECT_NE(NULL, strstr(o.rec, "reason: write to SCI state"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * The IDT's frame (fourth review): the CPU reads it through the
 * cpu_entry_area's read-only alias, and the kernel's own mappings of it are
 * read-only since boot (idt_write_is_refused), but a chain's call of
 * set_memory_rw() on it at its first byte makes those writable, and a
 * gate of DPL 3 written there would let user mode's int $n enter kernel
 * text at CPL 0.  The frame is read-only on the SCI tables for good: the
 * write after the call is killed.  The kernel's mappings are made
 * read-only again afterwards (set_memory_ro(), by another chain).
 */
TEST_F_TIMEOUT(slow, idt_made_writable_by_call_is_killed, 120)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct frame_outcome w;
	struct outcome o;

	/* addr, numpages */
	call_chain(_metadata, "set_memory_rw(IDT)", sci_ksym("set_memory_rw"),
		   IDT_PAGE, 1, 0, 1, &o);
	EXPECT_FALSE(escaped(&o));
	attack_write(1, SCI_ATTACK_TOUCH, SCI_ATTACK_IDT, 0, &w);
	log_frame(_metadata, "the IDT after the call", &w);
	EXPECT_TRUE(frame_killed(&w));
	EXPECT_NE(NULL, strstr(w.rec, "reason: write to the IDT"));
	call_chain(_metadata, "set_memory_ro(IDT), unisolated",
		   sci_ksym("set_memory_ro"), IDT_PAGE, 1, 0, 0, &o);
	EXPECT_TRUE(o.have && o.a.landed);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Two chains in one child, every syscall isolated with kept grants: @a
 * first, which must land (its code pages granted, so that no fault's
 * entry checks what @b does), then @b.  @o gets @b's result if its ioctl
 * came back.  Exit codes 90-91: the setup or @a failed.
 */
static void two_chains(struct __test_metadata *_metadata, int afd,
		       struct sci_test_attack *a, struct sci_test_attack *b,
		       struct outcome *o)
{
	int pfd[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(pfd));
	memset(o, 0, sizeof(*o));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pfd[0]);
		if (sci_filter(-1, SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP))
			_exit(90);
		if (ioctl(afd, SCI_TEST_ATTACK, a) || !a->landed)
			_exit(91);
		if (ioctl(afd, SCI_TEST_ATTACK, b))
			_exit(92);
		if (write(pfd[1], b, sizeof(*b)) != sizeof(*b))
			_exit(93);
		_exit(0);
	}
	close(pfd[1]);
	o->have = read(pfd[0], &o->a, sizeof(o->a)) == sizeof(o->a);
	close(pfd[0]);
	o->status = sci_reap(pid, o->rec, sizeof(o->rec));
}

/*
 * A chain on another stack than the task's (fifth review): SCI's
 * sections off the SCI tables reload values their callees saved on the
 * stack, so that a chain whose stack is elsewhere (the direct-map alias
 * of a user page, which a thread of its own rewrites while the section
 * runs on the full tables) chose them there.  A section that leaves the
 * tables on another stack than the task's is killed.  The chain calls
 * sci_mark_ro_frame() (marking a frame that is read-only already, which
 * changes nothing) from a buffer of kernel data that the hook wrote first
 * (so that the pushes do not fault), in a syscall after one that made the
 * same call from the task's stack and landed (its code grants kept, so
 * that no fault's entry sees the stack first).
 */
static void second_chain_leave_killed(struct __test_metadata *_metadata,
				      int how, const char *what)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned long fn = sci_ksym("sci_mark_ro_frame");
	int afd = open(SCI_ATTACK_PATH, O_RDWR);
	struct sci_test_attack a, b;
	__u64 stack[8], stack2[8];
	struct outcome o;
	unsigned int j;

	ASSERT_NE(0, landing);
	ASSERT_NE(0, fn);
	ASSERT_LE(0, afd);
	/* The control: from the task's stack */
	call_then_land(&a, stack, fn, landing);
	a.regs[5] = OTHER_GDT_PFN;	/* %rdi */
	a.regs[4] = 1;			/* %rsi: mark */
	/* The same chain from kernel data */
	memset(&b, 0, sizeof(b));
	stack2[0] = fn;
	for (j = 1; j < 8; j++)
		stack2[j] = landing;
	b.how = how;
	b.len = 8;
	b.data = (unsigned long)stack2;
	b.regs[5] = OTHER_GDT_PFN;
	b.regs[4] = 1;
	/*
	 * Kept code grants: the second chain's pages were granted by the
	 * first, and no fault (whose entry checks the stack) comes before
	 * the section.
	 */
	two_chains(_metadata, afd, &a, &b, &o);
	TH_LOG("%s: status %#x%s%s, landed %llu, %s", what, o.status,
	       killed_by_sci(&o) ? " killed by SCI" : "",
	       escaped(&o) ? " ESCAPED to the full tables" : "",
	       (unsigned long long)o.a.landed,
	       strstr(o.rec, "reason: ") ?: "no violation");
	/* Not 90-91: the setup and the control worked. */
	ASSERT_FALSE(WIFEXITED(o.status) && WEXITSTATUS(o.status) >= 90 &&
		     WEXITSTATUS(o.status) <= 91);
	EXPECT_FALSE(escaped(&o));
	EXPECT_TRUE(killed_by_sci(&o));
	EXPECT_TRUE(leave_killed(o.rec));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(afd);
}

TEST_F_TIMEOUT(slow, leave_on_another_stack_is_killed, 120)
{
	second_chain_leave_killed(_metadata, SCI_ATTACK_RET_ALT_STACK,
				  "from kernel data");
}

/*
 * The same section called with a GS base of the attacker's (sixth
 * review): user mode sets one with WRGSBASE, and a return to the SWAPGS
 * in asm_load_gs_index makes it the kernel's; every per-CPU value the
 * section reads on the full tables would then be the attacker's, its
 * CR3 and stack bounds included.  The hook plays that chain: its GS base
 * is a copy of this CPU's per-CPU area in kernel data.  The check right
 * after sci_leave_tables()'s CR3 write (GS base against
 * __per_cpu_offset[] of the GDT's CPU number) must kill, with the leave
 * reason: nothing before it faults (kept grants), so that no entry's own
 * check of GS kills first.
 */
TEST_F_TIMEOUT(slow, leave_with_forged_gs_is_killed, 120)
{
	static char cpuinfo[1 << 16];
	cpu_set_t old;

	/* The hook loads the copy with WRGSBASE */
	ASSERT_LT(0, sci_read_file("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo)));
	if (!strstr(cpuinfo, " fsgsbase"))
		SKIP(return, "no FSGSBASE on this CPU");
	ASSERT_EQ(0, pin_cpu0(&old));
	second_chain_leave_killed(_metadata, SCI_ATTACK_RET_FORGED_GS,
				  "with a forged GS");
	sched_setaffinity(0, sizeof(old), &old);
}

/*
 * The write that goes back to the SCI tables at the end of SCI's own
 * sections (sci_return_tables(), sci_return_to_tables()) checked what it
 * loaded against cpu_sci.sci_cr3 read through GS.  A chain with a GS base
 * of its own, a copy of the per-CPU area whose cpu_sci says that this
 * CPU's SCI tables are the full tables (SCI_ATTACK_RET_FORGED_GS with
 * @target 1), that jumps to that write with the full tables' CR3 in its
 * register passes such a check, and the rest of the function returns into
 * the chain on the full tables.  Each CR3 write of sci_mark_ro_frame() (its
 * page granted and kept by a first call that landed) is jumped to that
 * way, interrupts off: each must be killed, none may land off the SCI
 * tables.
 */
TEST_F_TIMEOUT(slow, return_write_with_forged_gs_is_killed, 120)
{
	static char cpuinfo[1 << 16];
	long oops = sci_read_long("/sys/kernel/oops_count");
	unsigned long landing = sci_ksym("sci_test_landing");
	unsigned long fn = sci_ksym("sci_mark_ro_frame");
	struct sci_test_cr3_sites sites;
	unsigned int i, j;
	cpu_set_t old;
	int afd;

	ASSERT_LT(0, sci_read_file("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo)));
	if (!strstr(cpuinfo, " fsgsbase"))
		SKIP(return, "no FSGSBASE on this CPU");
	ASSERT_NE(0, landing);
	ASSERT_NE(0, fn);
	afd = open(SCI_ATTACK_PATH, O_RDWR);
	ASSERT_LE(0, afd);
	memset(&sites, 0, sizeof(sites));
	sites.addr[0] = fn;
	ASSERT_EQ(0, ioctl(afd, SCI_TEST_CR3_SITES_IN, &sites));
	/* The leave and the return */
	ASSERT_EQ(2, sites.nr);
	ASSERT_EQ(0, pin_cpu0(&old));
	for (i = 0; i < sites.nr; i++) {
		struct sci_test_attack a, b;
		__u64 stack[8], stack2[8];
		struct outcome o;

		call_then_land(&a, stack, fn, landing);
		a.regs[5] = OTHER_GDT_PFN;	/* %rdi */
		a.regs[4] = 1;			/* %rsi: mark */
		memset(&b, 0, sizeof(b));
		stack2[0] = sites.addr[i];
		for (j = 1; j < 8; j++)
			stack2[j] = landing;
		b.how = SCI_ATTACK_RET_FORGED_GS;
		b.target = 1;
		b.len = 8;
		b.data = (unsigned long)stack2;
		b.regs[reg_index[sites.reg[i]]] = SCI_ATTACK_KERNEL_CR3;
		two_chains(_metadata, afd, &a, &b, &o);
		if (!o.have) {
			/* Killed: where did the chain land, if it did? */
			struct sci_test_attack q = { .how = SCI_ATTACK_RET_LANDED,
						     .target = 1 };

			ASSERT_EQ(0, ioctl(afd, SCI_TEST_ATTACK, &q));
			o.a = q;
			o.have = 1;
		}
		TH_LOG("write at %#llx (register %u): status %#x%s%s, landed %llu, %s",
		       sites.addr[i], sites.reg[i], o.status,
		       killed_by_sci(&o) ? " killed by SCI" : "",
		       escaped(&o) ? " ESCAPED to the full tables" : "",
		       (unsigned long long)o.a.landed,
		       strstr(o.rec, "reason: ") ?: "no violation");
		ASSERT_FALSE(WIFEXITED(o.status) && WEXITSTATUS(o.status) >= 90 &&
			     WEXITSTATUS(o.status) <= 91);
		EXPECT_FALSE(escaped(&o));
		EXPECT_TRUE(killed_by_sci(&o));
		EXPECT_TRUE(leave_killed(o.rec));
	}
	sched_setaffinity(0, sizeof(old), &old);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	close(afd);
}

/* A vmalloc()ed LDT's page at its direct-map address */
TEST(large_ldt_direct_map_write_is_killed)
{
	ldt_write_killed(_metadata, 1000, SCI_ATTACK_LDT_DIRECT);
}

/* An LDT of more than a page is vmalloc()ed: its pages are marked too */
TEST(large_ldt_write_is_killed)
{
	ldt_write_killed(_metadata, 1000, SCI_ATTACK_LDT);
}

/* A 64-bit call gate of DPL 3 to @off in the kernel's code segment */
static void call_gate(__u64 gate[2], __u64 off)
{
	gate[0] = (off & 0xffff) | (0x10ULL << 16) | (0xcULL << 40) |
		  (3ULL << 45) | (1ULL << 47) | ((off >> 16 & 0xffff) << 48);
	gate[1] = off >> 32;
}

/* The access rights of GDT/LDT selector @sel, or -1 when LAR refuses it */
static long lar(__u32 sel)
{
	__u32 ar;
	int ok = 1;

	asm volatile("lar %[sel], %[ar]\n\t"
		     "jz 1f\n\t"
		     "movl $0, %[ok]\n"
		     "1:"
		     : [ar] "=r" (ar), [ok] "+rm" (ok)
		     : [sel] "r" (sel));
	return ok ? (long)ar : -1;
}

#define TLS_SELECTOR	((12 << 3) | 3)	/* GDT_ENTRY_TLS_MIN, RPL 3 */

/* A flat 32-bit data segment of DPL 3, read/write, accessed */
static void data_segment(__u64 desc[2])
{
	desc[0] = 0xffffULL | (0x3ULL << 40) | (1ULL << 44) | (3ULL << 45) |
		  (1ULL << 47) | (0xfULL << 48) | (1ULL << 54) | (1ULL << 55);
	desc[1] = 0;
}

/*
 * Child: write @desc into thread.tls_array[0..1] through the test hook
 * (isolated or not), sleep (the switch in copies the array into this
 * CPU's GDT), then exit 1 when LAR sees a descriptor of type @type at the
 * first TLS selector, 0 when not, 9x on errors.
 */
static int tls_write_child(int isolate, __u64 desc[2], unsigned int type)
{
	struct sci_test_attack a = { .how = SCI_ATTACK_WRITE, .len = 16,
				     .target = SCI_ATTACK_TLS_ARRAY,
				     .data = (unsigned long)desc };
	int fd = open(SCI_ATTACK_PATH, O_RDWR);
	long ar;

	if (fd < 0)
		return 90;
	if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
		return 91;
	if (ioctl(fd, SCI_TEST_ATTACK, &a))
		return 92;
	usleep(2000);
	ar = lar(TLS_SELECTOR);
	return ar >= 0 && ((ar >> 8) & 0x1f) == type;
}

/*
 * A call gate in thread.tls_array never reaches the GDT (series 0089):
 * native_load_tls() loads only what set_thread_area() makes, present
 * 32-bit data segments of DPL 3, isolated or not; not a 16-bit one
 * either (run 3).  The control writes a 32-bit data segment of DPL 3 the
 * same way and sees it live, so the write reaches the GDT and LAR would
 * see the gate.
 */
TEST(call_gate_in_tls_array_is_refused)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int run, status[4];
	char rec[4096];
	static const char *what[] = {
		"unisolated data segment", "unisolated call gate",
		"isolated call gate", "unisolated 16-bit data segment",
	};

	for (run = 0; run < 4; run++) {
		pid_t pid = fork();
		__u64 desc[2];

		ASSERT_LE(0, pid);
		if (pid == 0) {
			if (run == 0 || run == 3) {
				data_segment(desc);
				if (run == 3)
					desc[0] &= ~(1ULL << 54);	/* D/B */
				_exit(tls_write_child(0, desc, 0x13));
			}
			call_gate(desc, 0xffffffff81000000ULL);
			_exit(tls_write_child(run == 2, desc, 0xc));
		}
		status[run] = sci_reap(pid, rec, sizeof(rec));
		TH_LOG("%s: status %#x (exit 1: live in the GDT), %s",
		       what[run], status[run],
		       strstr(rec, "reason: ") ?: "no violation");
	}
	/* The control */
	ASSERT_TRUE(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 1);
	EXPECT_TRUE(WIFEXITED(status[1]) && WEXITSTATUS(status[1]) == 0);
	/* Isolated: killed, or the gate never reaches the GDT */
	EXPECT_TRUE((WIFSIGNALED(status[2]) && WTERMSIG(status[2]) == SIGKILL) ||
		    (WIFEXITED(status[2]) && WEXITSTATUS(status[2]) == 0));
	EXPECT_TRUE(WIFEXITED(status[3]) && WEXITSTATUS(status[3]) == 0);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/* The 32-bit word at %gs:0 after loading %gs with @sel */
static unsigned int gs_word(unsigned short sel)
{
	unsigned int v;

	asm volatile("movw %w1, %%gs\n\t"
		     "movl %%gs:0, %0"
		     : "=r" (v) : "r" (sel) : "memory");
	return v;
}

/* Child: isolated modify_ldt(), then the LDT entry in use (0: ok) */
static int ldt_child(void)
{
	unsigned int *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	struct user_desc d = {
		.entry_number = 0, .limit = 0xfffff, .seg_32bit = 1,
		.limit_in_pages = 1, .useable = 1,
	};
	int i;

	if (w == MAP_FAILED)
		return 90;
	w[0] = 0x5c1a0003;
	w[1] = 0x5c1a0004;
	if (sci_filter(__NR_modify_ldt, SECCOMP_RET_ISOLATE))
		return 91;
	for (i = 0; i < 20; i++) {
		/*
		 * Each call installs a new LDT and frees the old one: this
		 * CPU must hold the new one when the syscall returns.
		 */
		d.base_addr = (unsigned long)&w[i & 1];
		if (syscall(__NR_modify_ldt, 1, &d, sizeof(d)))
			return errno == ENOSYS ? 4 : 92;
		if (gs_word(0x7) != w[i & 1])	/* LDT entry 0, RPL 3 */
			return 10;
		if (i % 5 == 4)
			usleep(1000);
	}
	asm volatile("movw %w0, %%gs" : : "r" (0));
	return 0;
}

/*
 * The GDT is read-only on the SCI tables (series 0091): an isolated
 * modify_ldt(), which writes the LDT descriptor of its own CPU's GDT
 * (install_ldt(), flush_ldt()), leaves the write to an interrupt on the
 * full tables and waits for it.  Its caller finds the new LDT live, as
 * without isolation, and the old one is freed only then; without that it
 * is killed ("write to a GDT").  (set_thread_area(), the other writer, is
 * not a 64-bit syscall, and an ia32 syscall is never isolated.)
 */
TEST(modify_ldt_isolated)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	long count = sci_stat("violation_count");
	char rec[4096];
	int status;
	pid_t pid;

	ASSERT_LE(0, count);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(ldt_child());
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("status %#x, %s", status,
	       strstr(rec, "reason: ") ?: "no violation");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
		SKIP(return, "no modify_ldt() in this kernel");
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(count, sci_stat("violation_count"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * Child: an LDT with a data segment at entry 0; the test hook points the
 * mm's ldt_struct at a kernel page holding a call gate in entries 0-1
 * (@forge) or at its own entries again (the control), then fork(): the
 * new mm's LDT is copied from there (ldt_dup_context()).  Exits 1 when
 * the grandchild sees a call gate at LDT selector 7, 2 when it sees the
 * data segment, 3 when fork() failed (dup_mm() reports any error of the
 * copy as ENOMEM), 4 when it sees nothing, 9x on errors.  The pointer is
 * put back before the exit frees it.
 */
static int ldt_source_child(int forge, int isolate)
{
	struct user_desc d = {
		.entry_number = 0, .limit = 0xfffff, .seg_32bit = 1,
		.limit_in_pages = 1, .useable = 1,
	};
	struct sci_test_attack a = { .how = SCI_ATTACK_WRITE, .len = 8,
				     .target = SCI_ATTACK_LDT_ENTRIES };
	__u64 w = forge ? SCI_ATTACK_GATE_PAGE : SCI_ATTACK_LDT_ORIG;
	int fd = open(SCI_ATTACK_PATH, O_RDWR), status, ret;
	pid_t pid;

	if (fd < 0)
		return 90;
	if (syscall(SYS_modify_ldt, 1, &d, sizeof(d)))
		return 91;
	a.data = (unsigned long)&w;
	if (isolate && sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
		return 92;
	if (ioctl(fd, SCI_TEST_ATTACK, &a))
		return 93;
	pid = fork();
	if (pid == 0) {
		long ar = lar(0x7);

		_exit(ar < 0 ? 4 : ((ar >> 8) & 0x1f) == 0xc ? 1 :
		      ((ar >> 8) & 0x1f) == 0x13 ? 2 : 5);
	}
	if (pid < 0)
		ret = 3;
	else if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		ret = WEXITSTATUS(status);
	else
		ret = 95;
	w = SCI_ATTACK_LDT_ORIG;
	if (ioctl(fd, SCI_TEST_ATTACK, &a))
		return 96;
	return ret;
}

/*
 * write_ldt() and fork's ldt_dup_context() copy the old LDT through
 * mm->context.ldt->entries, task data that an isolated syscall may point
 * at a buffer of its own: the copy is checked when it is finalized
 * (series 0092), isolated or not (-EINVAL, which fork() reports as
 * ENOMEM), and the fork fails.  The control forges nothing and sees the
 * data segment copied.
 */
TEST(forged_ldt_source_is_refused)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	int run, status[3];
	char rec[4096];
	static const char *what[] = {
		"unisolated, unforged", "unisolated, forged", "isolated, forged",
	};

	for (run = 0; run < 3; run++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(ldt_source_child(run > 0, run == 2));
		status[run] = sci_reap(pid, rec, sizeof(rec));
		TH_LOG("%s: status %#x (exit 1: a call gate copied, 2: the data segment, 3: fork() failed), %s",
		       what[run], status[run],
		       strstr(rec, "reason: ") ?: "no violation");
	}
	/* The control */
	ASSERT_TRUE(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 2);
	for (run = 1; run < 3; run++)
		EXPECT_TRUE(WIFEXITED(status[run]) &&
			    WEXITSTATUS(status[run]) == 3);
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/*
 * free_ldt_struct() unmarks and frees what ldt->entries points at, task
 * data: an isolated syscall points it at another CPU's GDT page, and the
 * exit frees the LDT.  That GDT must stay read-only on the SCI tables
 * (and allocated: the kernel leaks the forged LDT instead, with a
 * warning).  Both processes run on CPU 0, so that "another CPU" is the
 * same one for the forge and for the check.  Not run on a kernel without
 * the fix: it would free a GDT page.
 */
TEST(forged_ldt_free_keeps_gdt)
{
	struct user_desc d = {
		.entry_number = 0, .limit = 0xfffff, .seg_32bit = 1,
		.limit_in_pages = 1, .useable = 1,
	};
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct sci_test_attack a = { .how = SCI_ATTACK_WRITE, .len = 8,
				     .target = SCI_ATTACK_LDT_ENTRIES };
	__u64 w = SCI_ATTACK_OTHER_GDT;
	cpu_set_t cpus, old;
	struct frame_outcome o;
	char rec[4096];
	int status;
	pid_t pid;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(old), &old));
	if (!CPU_ISSET(0, &old))
		SKIP(return, "CPU 0 is not in this process's affinity");
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = open(SCI_ATTACK_PATH, O_RDWR);

		if (fd < 0)
			_exit(90);
		if (syscall(SYS_modify_ldt, 1, &d, sizeof(d)))
			_exit(91);
		a.data = (unsigned long)&w;
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(92);
		if (ioctl(fd, SCI_TEST_ATTACK, &a))
			_exit(93);
		_exit(0);
	}
	status = sci_reap(pid, rec, sizeof(rec));
	TH_LOG("forge: status %#x, %s", status,
	       strstr(rec, "reason: ") ?: "no violation");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The other CPU's GDT, through a vmap() alias, from CPU 0 */
	attack_write(1, SCI_ATTACK_TOUCH, SCI_ATTACK_GDT_ALIAS, 0, &o);
	log_frame(_metadata, "isolated write to the GDT", &o);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(old), &old));
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_NE(NULL, strstr(o.rec, "reason: write to a GDT"));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

/* Last: without the check, the IRET to kernel mode takes the guest down. */
TEST(kernel_cs_in_return_frame_is_killed)
{
	long oops = sci_read_long("/sys/kernel/oops_count");
	struct frame_outcome o;

	frame_write(1, PT_REGS_CS, KERNEL_CS, &o);
	log_frame(_metadata, "isolated", &o);
	EXPECT_TRUE(frame_killed(&o));
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
}

TEST_HARNESS_MAIN
