// SPDX-License-Identifier: GPL-2.0
/*
 * The application benchmark of `make bench-qemu`: busybox httpd on the
 * loopback, one request at a time from a client that runs unfiltered,
 * with the server (and every process it forks, one per connection) under
 *
 *   none          no filter
 *   allow         a filter that allows everything
 *   isolate-all   every syscall isolated (SECCOMP_RET_ISOLATE)
 *   isolate-risky the syscalls of examples/policies/isolate-risky.policy
 *                 isolated, the rest allowed
 *   notif-risky   the same syscalls sent to a USER_NOTIF supervisor that
 *                 lets them continue
 *   trace-risky   the same syscalls sent to a ptrace tracer
 *                 (SECCOMP_RET_TRACE) that lets them continue
 *
 * For each mode: requests per second and the client's latency (mean,
 * median, 99th percentile) over REQUESTS requests of a 4 KiB page, after
 * WARMUP requests; each reply is checked (status 200, the whole page).
 * Prints TAP, then a table and CSV between "==== SCI-BENCH HTTP[-CSV]
 * BEGIN/END ====" lines (qemu/benchextract.py).
 * usage: sci_bench_http [-n REQUESTS] [-p POLICY] [-b BUSYBOX]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"

#ifndef SECCOMP_RET_ISOLATE
#define SECCOMP_RET_ISOLATE	0x7f800000U
#endif

enum { M_NONE, M_ALLOW, M_ISO_ALL, M_ISO_RISKY, M_NOTIF_RISKY, M_TRACE_RISKY, NMODES };
static const char *const mode_name[NMODES] = {
	"none", "allow", "isolate-all", "isolate-risky", "notif-risky", "trace-risky",
};

#define PORT		8181
#define PAGE_BYTES	4096
#define MAX_RISKY	64
#define MAX_REQ		20000

static int risky[MAX_RISKY], nrisky;
static char docroot[] = "/tmp/sci_bench_http";
static const char *busybox = "/bin/busybox";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The "name: isolate" lines of the policy, as x86-64 syscall numbers. */
static int read_policy(const char *path)
{
	char line[256], name[64];
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int nr;

		if (sscanf(line, "%63[a-z0-9_]: isolate", name) != 1 ||
		    !strstr(line, ": isolate"))
			continue;
		nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name);
		if (nr < 0 || nrisky == MAX_RISKY) {
			fprintf(stderr, "sci_bench_http: %s: %s: unknown or too many\n", path, name);
			fclose(f);
			return -1;
		}
		risky[nrisky++] = nr;
	}
	fclose(f);
	return nrisky ? 0 : -1;
}

/*
 * @action for every syscall (@all), or for the risky ones and ALLOW for the
 * rest; other architectures (none here) are allowed.
 */
static int install(unsigned int action, int all, unsigned int flags)
{
	struct sock_filter f[MAX_RISKY + 8];
	struct sock_fprog prog;
	int n = 0, i;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (all) {
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
	} else {
		f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						      offsetof(struct seccomp_data, nr));
		for (i = 0; i < nrisky; i++)
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      risky[i], nrisky - i, 0);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
	}
	prog.len = n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/* USER_NOTIF supervisor thread: every notification continues. */
static void *supervisor(void *arg)
{
	bench_supervise((int)(long)arg);
	return NULL;
}

static void __attribute__((noreturn)) exec_server(void)
{
	char port[16];

	snprintf(port, sizeof(port), "127.0.0.1:%d", PORT);
	execl(busybox, "httpd", "-f", "-p", port, "-h", docroot, (char *)NULL);
	_exit(127);
}

/*
 * Start the server under @mode; its pid (the tracer's, in trace mode,
 * which kills the server when it is killed: PTRACE_O_EXITKILL).
 */
static pid_t start_server(int mode)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = -1;
		pthread_t th;
		pid_t s;

		close(sv[0]);
		switch (mode) {
		case M_ALLOW:
			fd = install(SECCOMP_RET_ALLOW, 1, 0);
			break;
		case M_ISO_ALL:
			fd = install(SECCOMP_RET_ISOLATE, 1, 0);
			break;
		case M_ISO_RISKY:
			fd = install(SECCOMP_RET_ISOLATE, 0, 0);
			break;
		case M_NOTIF_RISKY: {
			int p[2], q[2];
			char c;

			/*
			 * The supervisor: this process; the server: its child,
			 * which waits until the supervisor holds its listener
			 * (close-on-exec) before it executes the server.
			 */
			if (pipe2(p, O_CLOEXEC) || pipe2(q, O_CLOEXEC))
				_exit(1);
			s = fork();
			if (s < 0)
				_exit(1);
			if (s == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				fd = install(SECCOMP_RET_USER_NOTIF, 0,
					     SECCOMP_FILTER_FLAG_NEW_LISTENER);
				/* write() is not a risky syscall: not notified */
				if (fd < 0 || write(p[1], &fd, sizeof(fd)) != sizeof(fd) ||
				    read(q[0], &c, 1) != 1) {
					perror("sci_bench_http: notif: listener");
					_exit(1);
				}
				exec_server();
			}
			if (read(p[0], &fd, sizeof(fd)) != sizeof(fd)) {
				fprintf(stderr, "sci_bench_http: notif: no listener from the server\n");
				_exit(1);
			}
			fd = syscall(SYS_pidfd_getfd, syscall(SYS_pidfd_open, s, 0), fd, 0);
			if (fd < 0 || pthread_create(&th, NULL, supervisor, (void *)(long)fd) ||
			    write(q[1], "", 1) != 1) {
				perror("sci_bench_http: notif: pidfd_getfd");
				_exit(1);
			}
			if (write(sv[1], "", 1) != 1)
				_exit(1);
			waitpid(s, NULL, 0);
			_exit(0);
		}
		case M_TRACE_RISKY:
			s = fork();
			if (s < 0)
				_exit(1);
			if (s == 0) {
				if (ptrace(PTRACE_TRACEME, 0, 0, 0) || raise(SIGSTOP))
					_exit(1);
				if (install(SECCOMP_RET_TRACE, 0, 0) < 0)
					_exit(1);
				exec_server();
			}
			if (write(sv[1], "", 1) != 1)
				_exit(1);
			_exit(bench_tracer(s));
		}
		if (fd < 0 && mode != M_NONE)
			_exit(1);
		if (write(sv[1], "", 1) != 1)
			_exit(1);
		exec_server();
	}
	close(sv[1]);
	{
		char c;

		if (read(sv[0], &c, 1) != 1) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			pid = -1;
		}
	}
	close(sv[0]);
	return pid;
}

/* One GET of the page; 0 when the reply was 200 with the whole page. */
static int request(void)
{
	static const char req[] = "GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n";
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	char buf[PAGE_BYTES + 1024];
	size_t got = 0;
	ssize_t r;
	char *body;
	int fd;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    write(fd, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1) {
		close(fd);
		return -1;
	}
	while (got < sizeof(buf) - 1 && (r = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += r;
	close(fd);
	buf[got] = 0;
	body = strstr(buf, "\r\n\r\n");
	if (strncmp(buf, "HTTP/1.", 7) || !strstr(buf, " 200 ") || !body ||
	    got - (body + 4 - buf) != PAGE_BYTES)
		return -1;
	return 0;
}

/* Wait until the server answers (up to 30 s). */
static int server_ready(void)
{
	int i;

	for (i = 0; i < 300; i++) {
		if (!request())
			return 0;
		usleep(100000);
	}
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct result {
	int ok;
	double rps, mean_ms, p50_ms, p99_ms;
};

static double lat[MAX_REQ];

static struct result run_mode(int mode, int n, int warmup)
{
	struct result r = { 0 };
	double t0, t1, sum = 0;
	pid_t pid = start_server(mode);
	int i, bad = 0;

	if (pid < 0 || server_ready()) {
		fprintf(stderr, "sci_bench_http: %s: the server did not start\n", mode_name[mode]);
		goto out;
	}
	for (i = 0; i < warmup; i++)
		bad += !!request();
	t0 = now_s();
	for (i = 0; i < n; i++) {
		double s = now_s();

		bad += !!request();
		lat[i] = now_s() - s;
		sum += lat[i];
	}
	t1 = now_s();
	if (bad) {
		fprintf(stderr, "sci_bench_http: %s: %d bad replies\n", mode_name[mode], bad);
		goto out;
	}
	qsort(lat, n, sizeof(lat[0]), cmp_double);
	r.ok = 1;
	r.rps = n / (t1 - t0);
	r.mean_ms = sum / n * 1e3;
	r.p50_ms = lat[n / 2] * 1e3;
	r.p99_ms = lat[(n * 99) / 100] * 1e3;
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	/*
	 * The server goes with it (PDEATHSIG in notif mode, EXITKILL in trace
	 * mode): wait until nothing answers on the port.
	 */
	for (i = 0; i < 100 && request() == 0; i++)
		usleep(10000);
	return r;
}

static int isolate_available(void)
{
	char buf[256] = "";
	int fd = open("/proc/sys/kernel/seccomp/actions_avail", O_RDONLY);

	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return strstr(buf, "isolate") != NULL;
}

int main(int argc, char **argv)
{
	const char *policy = "/sci/bin/bench/isolate-risky.policy";
	int n = 300, warmup = 20, opt, mode, failed = 0;
	struct result res[NMODES];
	char page[PAGE_BYTES], path[256];
	int fd;

	while ((opt = getopt(argc, argv, "n:p:b:")) != -1) {
		switch (opt) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'p':
			policy = optarg;
			break;
		case 'b':
			busybox = optarg;
			break;
		default:
			fprintf(stderr, "usage: sci_bench_http [-n REQUESTS] [-p POLICY] [-b BUSYBOX]\n");
			return 2;
		}
	}
	if (n < 10 || n > MAX_REQ)
		n = 300;
	printf("1..%d\n", NMODES + 1);
	if (read_policy(policy)) {
		printf("not ok 1 policy # %s: no \"NAME: isolate\" line read\n", policy);
		return 1;
	}
	printf("ok 1 policy # %d syscalls isolated from %s\n", nrisky, policy);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		/* KCONFIG=default has no networking: say so, fail nothing. */
		for (mode = 0; mode < NMODES; mode++)
			printf("ok %d %s # SKIP no AF_INET in this kernel (%s)\n",
			       mode + 2, mode_name[mode], strerror(errno));
		printf("==== SCI-BENCH HTTP BEGIN ====\n\nHTTP server benchmark skipped: "
		       "this kernel has no AF_INET (make bench-qemu KCONFIG=distro has it).\n"
		       "==== SCI-BENCH HTTP END ====\n"
		       "==== SCI-BENCH HTTP-CSV BEGIN ====\n==== SCI-BENCH HTTP-CSV END ====\n");
		return 0;
	}
	close(fd);
	mkdir(docroot, 0755);
	memset(page, 'x', sizeof(page));
	snprintf(path, sizeof(path), "%s/index.html", docroot);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, page, sizeof(page)) != sizeof(page))
		return 1;
	close(fd);
	signal(SIGPIPE, SIG_IGN);
	for (mode = 0; mode < NMODES; mode++) {
		if ((mode == M_ISO_ALL || mode == M_ISO_RISKY) && !isolate_available()) {
			printf("ok %d %s # SKIP SECCOMP_RET_ISOLATE not available\n",
			       mode + 2, mode_name[mode]);
			res[mode].ok = 0;
			continue;
		}
		res[mode] = run_mode(mode, n, warmup);
		printf("%sok %d %s\n", res[mode].ok ? "" : "not ", mode + 2, mode_name[mode]);
		failed += !res[mode].ok;
		fflush(stdout);
	}
	printf("==== SCI-BENCH HTTP BEGIN ====\n"
	       "\nbusybox httpd on the loopback, %d sequential requests of a %d-byte page\n"
	       "(after %d), from an unfiltered client; the server and the process it\n"
	       "forks per connection under each mode (risky: the %d syscalls of\n"
	       "isolate-risky.policy; slowdown: none's req/s over the mode's):\n\n"
	       "%-14s %9s %9s %9s %9s %9s\n", n, PAGE_BYTES, warmup, nrisky,
	       "mode", "req/s", "mean ms", "p50 ms", "p99 ms", "slowdown");
	for (mode = 0; mode < NMODES; mode++) {
		struct result *r = &res[mode];

		if (!r->ok)
			continue;
		printf("%-14s %9.1f %9.2f %9.2f %9.2f %8.2fx\n", mode_name[mode], r->rps,
		       r->mean_ms, r->p50_ms, r->p99_ms,
		       res[M_NONE].ok ? res[M_NONE].rps / r->rps : 0);
	}
	printf("==== SCI-BENCH HTTP END ====\n==== SCI-BENCH HTTP-CSV BEGIN ====\n");
	for (mode = 0; mode < NMODES; mode++) {
		struct result *r = &res[mode];

		if (!r->ok)
			continue;
		printf("http,%s,rps,%.4g\nhttp,%s,mean_ms,%.4g\n"
		       "http,%s,p50_ms,%.4g\nhttp,%s,p99_ms,%.4g\n",
		       mode_name[mode], r->rps, mode_name[mode], r->mean_ms,
		       mode_name[mode], r->p50_ms, mode_name[mode], r->p99_ms);
	}
	printf("==== SCI-BENCH HTTP-CSV END ====\n");
	return failed ? 1 : 0;
}
