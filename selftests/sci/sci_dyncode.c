// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel code that is not in the kernel image or a module's text, run by
 * an isolated syscall: BPF JIT images (a socket filter, a cgroup device
 * program, a cgroup sock_addr program), ftrace's trampolines (the function
 * and function_graph tracers on) and kprobes (an int3 whose probed
 * instruction runs from an instruction slot; a kretprobe's trampoline).
 * Each workload runs natively, then with every syscall isolated: both must
 * complete the same way, with no SCI kill.  A kernel without the feature
 * (KCONFIG=default has no BPF JIT, cgroup BPF, ftrace or kprobes) skips
 * the test and says why.
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "sci.h"

/* Run @fn in a child, isolated or not; its wait status. */
static int run(int (*fn)(void *), void *arg, bool isolate)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (isolate && sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

#define COMPARE(fn, arg) do {						\
	long kills = sci_stat("kills");					\
	long oops = sci_read_long("/sys/kernel/oops_count");		\
	int sn = run(fn, arg, false), si;				\
									\
	ASSERT_EQ(0, sn);						\
	si = run(fn, arg, true);					\
	TH_LOG("native status %#x, isolated status %#x", sn, si);	\
	EXPECT_EQ(kills, sci_stat("kills"));				\
	EXPECT_EQ(0, si);						\
	EXPECT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));	\
} while (0)

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -1;
	close(fd);
	return ret;
}

/* Up to @len - 1 bytes of @path, read to its end (trace files come in pieces). */
static ssize_t read_all(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	buf[got] = '\0';
	close(fd);
	return got;
}

static bool jit_on(void)
{
	return sci_read_long("/proc/sys/net/core/bpf_jit_enable") > 0;
}

/* ---- a JITed socket filter, run by the sender of a datagram */

static int dgram_sd[2];

static int send_filtered(void *arg)
{
	char buf[64];
	int i;

	for (i = 0; i < 100; i++) {
		snprintf(buf, sizeof(buf), "datagram %d", i);
		if (send(dgram_sd[0], buf, strlen(buf), 0) < 0)
			return 1;
		if (recv(dgram_sd[1], buf, sizeof(buf), 0) <= 0)
			return 2;
	}
	return 0;
}

TEST(jit_socket_filter)
{
	struct sock_filter accept_all[] = {
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
	};
	struct sock_fprog prog = { .len = 1, .filter = accept_all };

	if (!jit_on())
		SKIP(return, "no BPF JIT in this kernel (KCONFIG=distro has it)");
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM, 0, dgram_sd));
	/* unix_dgram_sendmsg() runs the receiver's filter, in the sender. */
	ASSERT_EQ(0, setsockopt(dgram_sd[1], SOL_SOCKET, SO_ATTACH_FILTER,
				&prog, sizeof(prog)));
	COMPARE(send_filtered, NULL);
	close(dgram_sd[0]);
	close(dgram_sd[1]);
}

/* ---- cgroup BPF programs: device access and connect() */

#define CGROOT	"/sys/fs/cgroup"

static int bpf_load(enum bpf_prog_type type, enum bpf_attach_type expected)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr = {
		.prog_type = type,
		.expected_attach_type = expected,
		.insns = (unsigned long)insns,
		.insn_cnt = 2,
		.license = (unsigned long)"GPL",
	};

	return syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

/* A cgroup with @type's program attached as @at; its directory fd. */
static int cgroup_with_prog(const char *name, enum bpf_prog_type type,
			    enum bpf_attach_type at, int *prog)
{
	union bpf_attr attr = {};
	char path[128];
	int dfd;

	mkdir(CGROOT, 0755);
	if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		return -2;
	snprintf(path, sizeof(path), CGROOT "/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -2;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*prog = bpf_load(type, at);
	if (dfd < 0 || *prog < 0)
		return -1;
	attr.target_fd = dfd;
	attr.attach_bpf_fd = *prog;
	attr.attach_type = at;
	if (syscall(__NR_bpf, BPF_PROG_ATTACH, &attr, sizeof(attr)))
		return -1;
	return dfd;
}

static const char *cg_name;

static int join_cgroup(void)
{
	char path[128], pid[32];

	snprintf(path, sizeof(path), CGROOT "/%s/cgroup.procs", cg_name);
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_str(path, pid);
}

static int open_devices(void *arg)
{
	char buf[16];
	int i, fd;

	if (join_cgroup())
		return 3;
	for (i = 0; i < 50; i++) {
		fd = open(i & 1 ? "/dev/zero" : "/dev/null", O_RDWR);
		if (fd < 0)
			return 1;
		if (read(fd, buf, sizeof(buf)) < 0)
			return 2;
		close(fd);
	}
	return 0;
}

static void cgroup_done(const char *name, int dfd, int prog)
{
	char path[128];

	if (dfd >= 0)
		close(dfd);
	if (prog >= 0)
		close(prog);
	snprintf(path, sizeof(path), CGROOT "/%s", name);
	rmdir(path);
}

TEST(jit_cgroup_device_program)
{
	int prog = -1, dfd;

	cg_name = "sci_dev";
	dfd = cgroup_with_prog(cg_name, BPF_PROG_TYPE_CGROUP_DEVICE,
			       BPF_CGROUP_DEVICE, &prog);
	if (dfd < 0 || !jit_on()) {
		cgroup_done(cg_name, dfd, prog);
		SKIP(return, "no cgroup BPF or no BPF JIT in this kernel (KCONFIG=distro has both)");
	}
	COMPARE(open_devices, NULL);
	cgroup_done(cg_name, dfd, prog);
}

static int connect_udp(void *arg)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(9),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int i, fd;

	if (join_cgroup())
		return 3;
	for (i = 0; i < 50; i++) {
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			return 1;
		if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return 2;
		close(fd);
	}
	return 0;
}

TEST(jit_cgroup_sock_addr_program)
{
	int prog = -1, dfd, fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		SKIP(return, "no INET in this kernel (KCONFIG=distro has it)");
	close(fd);
	cg_name = "sci_connect";
	dfd = cgroup_with_prog(cg_name, BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
			       BPF_CGROUP_INET4_CONNECT, &prog);
	if (dfd < 0 || !jit_on()) {
		cgroup_done(cg_name, dfd, prog);
		SKIP(return, "no cgroup BPF or no BPF JIT in this kernel (KCONFIG=distro has both)");
	}
	COMPARE(connect_udp, NULL);
	cgroup_done(cg_name, dfd, prog);
}

/* ---- ftrace and kprobes, on while isolated syscalls run */

#define TRACEFS	"/sys/kernel/tracing"

static bool tracefs(void)
{
	struct stat st;

	if (stat(TRACEFS "/current_tracer", &st) == 0)
		return true;
	mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	return stat(TRACEFS "/current_tracer", &st) == 0;
}

/* A bit of everything: files, pipes, a fork, memory. */
static int workload(void *arg)
{
	char buf[256];
	int i, fd, p[2];
	pid_t pid;

	for (i = 0; i < 20; i++) {
		fd = open("/proc/self/status", O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
			return 1;
		close(fd);
		if (pipe(p) || write(p[1], "x", 1) != 1 || read(p[0], buf, 1) != 1)
			return 2;
		close(p[0]);
		close(p[1]);
	}
	pid = fork();
	if (pid == 0)
		_exit(getpid() > 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &i, 0) != pid || i)
		return 3;
	return 0;
}

/* @s written to @path, which is emptied first (O_TRUNC resets ftrace filters). */
static int write_trunc(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -1;
	if (*s && write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -1;
	close(fd);
	return ret;
}

/*
 * set_ftrace_filter: the functions of the isolated syscalls' paths. One
 * glob per write(), each ended by a newline: ftrace takes one token per
 * call (a short count for the rest) and joins a token left unended with
 * the next write's.
 */
static int set_ftrace_filter(void)
{
	static const char * const globs[] = {
		"ksys_*\n", "vfs_*\n", "do_sys_*\n", "__x64_sys_*\n",
	};
	int fd = open(TRACEFS "/set_ftrace_filter",
		      O_WRONLY | O_TRUNC | O_CLOEXEC), ret = 0;
	size_t i;

	if (fd < 0)
		return -1;
	for (i = 0; i < sizeof(globs) / sizeof(globs[0]); i++)
		if (write(fd, globs[i], strlen(globs[i])) !=
		    (ssize_t)strlen(globs[i]))
			ret = -1;
	close(fd);
	return ret;
}

static void tracer(struct __test_metadata *_metadata, const char *name)
{
	static char buf[1 << 20];

	if (!tracefs())
		SKIP(return, "no tracefs in this kernel (KCONFIG=distro has ftrace)");
	if (!strstr(read_all(TRACEFS "/available_tracers", buf, sizeof(buf)) > 0 ?
		    buf : "", name))
		SKIP(return, "no %s tracer in this kernel (KCONFIG=distro has it)", name);
	/*
	 * The filter first, then the tracer: only the functions of the
	 * isolated syscalls' paths are ever patched and traced. The other
	 * order traces every kernel function for a while, which under TCG
	 * (a debug kernel above all) stalls RCU, and fills the trace's head
	 * with functions that are not the syscalls'.
	 */
	ASSERT_EQ(0, set_ftrace_filter());
	ASSERT_LT(0, read_all(TRACEFS "/set_ftrace_filter", buf, sizeof(buf)));
	ASSERT_NE(NULL, strstr(buf, "ksys_read"));
	ASSERT_EQ(NULL, strstr(buf, "\nschedule\n"));
	ASSERT_EQ(0, write_trunc(TRACEFS "/trace", ""));
	ASSERT_EQ(0, write_str(TRACEFS "/current_tracer", name));
	COMPARE(workload, NULL);
	/* Stopped, read, then the tracer off (a new tracer empties the trace). */
	ASSERT_EQ(0, write_str(TRACEFS "/tracing_on", "0"));
	EXPECT_LT(0, read_all(TRACEFS "/trace", buf, sizeof(buf)));
	ASSERT_EQ(0, write_str(TRACEFS "/current_tracer", "nop"));
	ASSERT_EQ(0, write_str(TRACEFS "/tracing_on", "1"));
	/* The tracer saw the syscalls' functions. */
	if (!strstr(buf, "sys_"))
		TH_LOG("the trace begins:\n%.600s", buf);
	EXPECT_NE(NULL, strstr(buf, "sys_"));
	write_trunc(TRACEFS "/set_ftrace_filter", "");
	write_trunc(TRACEFS "/trace", "");
}

TEST(ftrace_function_tracer)
{
	tracer(_metadata, "function");
}

TEST(ftrace_function_graph_tracer)
{
	tracer(_metadata, "function_graph");
}

/* The hit count of kprobe event @event (kprobe_profile), or -1. */
static long probe_hits(const char *event)
{
	static char buf[8192];
	char *p;

	if (read_all(TRACEFS "/kprobe_profile", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, event);
	return p ? strtol(p + strlen(event), NULL, 10) : -1;
}

/* Wait up to 3 s for the kprobe at @where to be optimized (kprobes/list). */
static bool wait_optimized(const char *where)
{
	static char buf[65536];
	int i;

	for (i = 0; i < 30; i++) {
		char *p;

		if (read_all("/sys/kernel/debug/kprobes/list", buf, sizeof(buf)) < 0)
			return false;
		for (p = strtok(buf, "\n"); p; p = strtok(NULL, "\n"))
			if (strstr(p, where) && strstr(p, "[OPTIMIZED]"))
				return true;
		usleep(100 * 1000);
	}
	return false;
}

static void kprobe(struct __test_metadata *_metadata, const char *def,
		   const char *event, const char *where)
{
	char path[128];

	if (!tracefs() || write_str(TRACEFS "/kprobe_events", def))
		SKIP(return, "no kprobe events in this kernel (KCONFIG=distro has them)");
	snprintf(path, sizeof(path), TRACEFS "/events/kprobes/%s/enable", event);
	ASSERT_EQ(0, write_str(path, "1"));
	/* At once: an int3 probe (or an ftrace-based one). */
	COMPARE(workload, NULL);
	/* Once the optimizer made it a jump to a detour buffer, if it can. */
	if (where && wait_optimized(where)) {
		TH_LOG("%s: optimized (a jump to a detour buffer)", event);
		COMPARE(workload, NULL);
	}
	ASSERT_EQ(0, write_str(path, "0"));
	/* The probe fired: the runs went through it. */
	EXPECT_LT(0, probe_hits(event));
	snprintf(path, sizeof(path), "-:%s", event);
	write_str(TRACEFS "/kprobe_events", path);
}

TEST(kprobe_on_do_sys_openat2)
{
	kprobe(_metadata, "p:sci_kp do_sys_openat2", "sci_kp", NULL);
}

/*
 * An int3 kprobe (not ftrace-based: past the function's endbr64 and
 * __fentry__ call): the first instruction boundary the kernel accepts.
 */
TEST(kprobe_on_ksys_read_body)
{
	char def[64], where[64];
	int off;

	if (!tracefs())
		SKIP(return, "no tracefs in this kernel (KCONFIG=distro has ftrace)");
	for (off = 9; off < 64; off++) {
		snprintf(def, sizeof(def), "p:sci_kpb ksys_read+%d", off);
		if (!write_str(TRACEFS "/kprobe_events", def))
			break;
	}
	if (off == 64)
		SKIP(return, "no kprobe events in this kernel (KCONFIG=distro has them)");
	write_str(TRACEFS "/kprobe_events", "-:sci_kpb");
	TH_LOG("probe at ksys_read+%d", off);
	snprintf(where, sizeof(where), "ksys_read+0x%x ", off);
	kprobe(_metadata, def, "sci_kpb", where);
}

TEST(kretprobe_on_do_sys_openat2)
{
	kprobe(_metadata, "r:sci_krp do_sys_openat2", "sci_krp", NULL);
}

TEST_HARNESS_MAIN
