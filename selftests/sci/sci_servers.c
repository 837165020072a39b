// SPDX-License-Identifier: GPL-2.0
/*
 * Real server workloads with every syscall isolated: each runs once
 * natively and once under a filter that returns SECCOMP_RET_ISOLATE for
 * every syscall, in both the server and the client.  The two runs must
 * print the same summary and exit the same way, with no SCI kill or
 * violation and no oops in between.  The network tests need INET
 * (KCONFIG=distro); without it they are skipped, and say so.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>

#include "kselftest_harness.h"
#include "sci.h"

#define OUT_MAX	4096

/* FNV-1a, to compare what two runs transferred. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= w;
	}
	return 0;
}

/*
 * Run @fn in a child, isolated or not; what it prints to the pipe (at
 * most OUT_MAX bytes) goes to @out.  Returns the child's wait status.
 */
static int run(int (*fn)(int out, void *arg), void *arg, bool isolate,
	       char *out)
{
	int pfd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(pfd[0]);
		if (isolate && sci_filter(-1, SECCOMP_RET_ISOLATE))
			_exit(90);
		_exit(fn(pfd[1], arg));
	}
	close(pfd[1]);
	while (len < OUT_MAX - 1 &&
	       (n = read(pfd[0], out + len, OUT_MAX - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(pfd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static void outf(int out, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		write_all(out, buf, n < (int)sizeof(buf) ? n : sizeof(buf) - 1);
}

/* ---- TCP and UNIX: an HTTP/1.0 server and client, a stream each way */

#define REQUESTS	100
#define STREAM_BYTES	(10 << 20)

struct net {
	int family;
	char path[108];
	int what;	/* 0: HTTP requests, 1: stream both ways */
};

static int net_listen(struct net *n, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	int fd = socket(n->family, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		return -1;
	memset(ss, 0, sizeof(*ss));
	if (n->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(*sin);
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	} else {
		struct sockaddr_un *sun = (struct sockaddr_un *)ss;

		sun->sun_family = AF_UNIX;
		strcpy(sun->sun_path, n->path);
		unlink(n->path);
		*len = sizeof(*sun);
	}
	if (bind(fd, (struct sockaddr *)ss, *len) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)ss, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void pattern(char *buf, size_t n, uint64_t off)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (char)((off + i) * 2654435761U >> 13);
}

/* Send STREAM_BYTES of the pattern, then read as much back: both hashes. */
static int stream(int fd, bool first_send, uint64_t *sent, uint64_t *got)
{
	static char buf[65536];
	uint64_t off;
	int pass;

	*sent = *got = 0xcbf29ce484222325ULL;
	for (pass = 0; pass < 2; pass++) {
		bool send = (pass == 0) == first_send;

		for (off = 0; off < STREAM_BYTES;) {
			size_t n = sizeof(buf);

			if (send) {
				pattern(buf, n, off);
				if (write_all(fd, buf, n))
					return -1;
				*sent = fnv(*sent, buf, n);
			} else {
				ssize_t r = read(fd, buf, n);

				if (r <= 0)
					return -1;
				n = r;
				*got = fnv(*got, buf, n);
			}
			off += n;
		}
	}
	return 0;
}

static int net_server(struct net *n, int lfd, int out)
{
	char req[512] = "", body[256], resp[512];
	uint64_t sent, got;
	int i, fd;

	if (n->what == 1) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0 || stream(fd, false, &sent, &got))
			return 3;
		outf(out, "server: got %016llx sent %016llx\n",
		     (unsigned long long)got, (unsigned long long)sent);
		close(fd);
		return 0;
	}
	for (i = 0; i < REQUESTS; i++) {
		size_t len = 0;
		ssize_t r;
		int blen;

		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			return 3;
		while (len < sizeof(req) - 1 && !strstr(req, "\r\n\r\n")) {
			r = read(fd, req + len, sizeof(req) - 1 - len);
			if (r <= 0)
				return 4;
			len += r;
			req[len] = '\0';
		}
		blen = snprintf(body, sizeof(body), "<p>%.*s</p>\n",
				(int)strcspn(req, "\r"), req);
		r = snprintf(resp, sizeof(resp),
			     "HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n%s",
			     blen, body);
		if (write_all(fd, resp, r))
			return 5;
		close(fd);
		req[0] = '\0';
	}
	return 0;
}

static int net_client(struct net *n, struct sockaddr_storage *ss,
		      socklen_t len, char *out)
{
	uint64_t h = 0xcbf29ce484222325ULL, sent, got;
	char buf[1024];
	int i, fd;

	if (n->what == 1) {
		fd = socket(n->family, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)ss, len) ||
		    stream(fd, true, &sent, &got))
			return 13;
		snprintf(out, 256, "client: sent %016llx got %016llx\n",
			 (unsigned long long)sent, (unsigned long long)got);
		close(fd);
		return 0;
	}
	for (i = 0; i < REQUESTS; i++) {
		ssize_t r;
		int m;

		fd = socket(n->family, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)ss, len))
			return 13;
		m = snprintf(buf, sizeof(buf), "GET /%d HTTP/1.0\r\n\r\n", i);
		if (write_all(fd, buf, m))
			return 14;
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			h = fnv(h, buf, r);
		if (r < 0)
			return 15;
		close(fd);
	}
	snprintf(out, 256, "client: %d responses, hash %016llx\n", REQUESTS,
		 (unsigned long long)h);
	return 0;
}

/* The server in a child (isolated as its parent is), the client here. */
static int net_run(int out, void *arg)
{
	struct net *n = arg;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int lfd = net_listen(n, &ss, &len), status, cret;
	char summary[256] = "";
	pid_t pid;

	if (lfd < 0)
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0)
		_exit(net_server(n, lfd, out));
	close(lfd);
	cret = net_client(n, &ss, len, summary);
	if (waitpid(pid, &status, 0) != pid)
		return 20;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return 21;
	/* After the server's line: the same order in every run. */
	outf(out, "%s", summary);
	return cret;
}

static bool have_inet(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

FIXTURE(server) {};
FIXTURE_SETUP(server) {}
FIXTURE_TEARDOWN(server) {}

/* Native, then isolated: same output, same status, nothing killed. */
static void compare(struct __test_metadata *_metadata,
		    int (*fn)(int, void *), void *arg)
{
	static char native[OUT_MAX], isolated[OUT_MAX];
	long kills = sci_stat("kills"), violations = sci_stat("violations");
	long syscalls = sci_stat("syscalls");
	long oops = sci_read_long("/sys/kernel/oops_count");
	long taint = sci_read_long("/proc/sys/kernel/tainted");
	int sn, si;

	sn = run(fn, arg, false, native);
	ASSERT_LE(0, kills);
	si = run(fn, arg, true, isolated);
	TH_LOG("native status %#x:\n%s", sn, native);
	TH_LOG("isolated status %#x (%ld isolated syscalls):\n%s", si,
	       sci_stat("syscalls") - syscalls, isolated);
	ASSERT_EQ(0, sn);
	ASSERT_EQ(sn, si);
	ASSERT_STREQ(native, isolated);
	/* Every syscall of the run was isolated, and many ran. */
	ASSERT_LT(syscalls + 200, sci_stat("syscalls"));
	ASSERT_EQ(kills, sci_stat("kills"));
	ASSERT_EQ(violations, sci_stat("violations"));
	ASSERT_EQ(oops, sci_read_long("/sys/kernel/oops_count"));
	ASSERT_EQ(taint, sci_read_long("/proc/sys/kernel/tainted"));
}

TEST_F_TIMEOUT(server, tcp_http_100_requests, 600)
{
	struct net n = { .family = AF_INET, .what = 0 };

	if (!have_inet())
		SKIP(return, "no INET in this kernel (KCONFIG=distro has it)");
	compare(_metadata, net_run, &n);
}

TEST_F_TIMEOUT(server, tcp_stream_10mib_each_way, 600)
{
	struct net n = { .family = AF_INET, .what = 1 };

	if (!have_inet())
		SKIP(return, "no INET in this kernel (KCONFIG=distro has it)");
	compare(_metadata, net_run, &n);
}

TEST_F_TIMEOUT(server, unix_http_100_requests, 600)
{
	struct net n = { .family = AF_UNIX, .path = "/tmp/sci_servers.sock" };

	compare(_metadata, net_run, &n);
}

TEST_F_TIMEOUT(server, unix_stream_10mib_each_way, 600)
{
	struct net n = { .family = AF_UNIX, .path = "/tmp/sci_servers.sock",
			 .what = 1 };

	compare(_metadata, net_run, &n);
}

/* ---- epoll, eventfd, timerfd, signalfd, inotify and futex-heavy threads */

#define THREADS		4
#define INCREMENTS	20000
#define EVENTS		20

static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond = PTHREAD_COND_INITIALIZER;
static long ev_counter;
static int ev_efd;

static void *ev_thread(void *arg)
{
	uint64_t one = 1;
	int i;

	for (i = 0; i < INCREMENTS; i++) {
		pthread_mutex_lock(&ev_lock);
		ev_counter++;
		pthread_cond_broadcast(&ev_cond);
		pthread_mutex_unlock(&ev_lock);
		if (i % (INCREMENTS / EVENTS) == 0 &&
		    write(ev_efd, &one, sizeof(one)) != sizeof(one))
			return (void *)1;
	}
	return NULL;
}

static int events_run(int out, void *arg)
{
	struct itimerspec its = { .it_interval.tv_nsec = 2000000,
				  .it_value.tv_nsec = 2000000 };
	int ep, tfd, sfd, ifd, i, wd;
	long eventfd_sum = 0, ticks = 0, sigs = 0, files = 0;
	struct epoll_event ev, evs[8];
	pthread_t th[THREADS];
	char path[64], buf[4096];
	uint64_t v;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return 2;
	ev_efd = eventfd(0, EFD_NONBLOCK);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	sfd = signalfd(-1, &set, SFD_NONBLOCK);
	ifd = inotify_init1(IN_NONBLOCK);
	/* KCONFIG=default has no INOTIFY_USER: the rest still runs. */
	if (ifd < 0 && errno == ENOSYS)
		files = -1;
	ep = epoll_create1(0);
	if (ev_efd < 0 || tfd < 0 || sfd < 0 || (ifd < 0 && files == 0) ||
	    ep < 0)
		return 3;
	mkdir("/tmp/sci_events", 0700);
	wd = files < 0 ? 0 : inotify_add_watch(ifd, "/tmp/sci_events", IN_CREATE);
	if (wd < 0 || timerfd_settime(tfd, 0, &its, NULL))
		return 4;
	for (i = 0; i < (files < 0 ? 3 : 4); i++) {
		int fds[] = { ev_efd, tfd, sfd, ifd };

		ev.events = EPOLLIN;
		ev.data.fd = fds[i];
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev))
			return 5;
	}
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&th[i], NULL, ev_thread, NULL))
			return 6;
	while (eventfd_sum < THREADS * EVENTS || ticks < EVENTS ||
	       sigs < EVENTS || (files >= 0 && files < EVENTS)) {
		int n = epoll_wait(ep, evs, 8, 5000);

		if (n <= 0)
			return 7;
		if (sigs < EVENTS)
			kill(getpid(), SIGUSR1);
		if (files >= 0 && files < EVENTS) {
			snprintf(path, sizeof(path), "/tmp/sci_events/f%ld",
				 files);
			close(open(path, O_CREAT | O_WRONLY, 0600));
		}
		for (i = 0; i < n; i++) {
			int fd = evs[i].data.fd;
			ssize_t r;

			if (fd == ev_efd && read(fd, &v, 8) == 8)
				eventfd_sum += v;
			if (fd == tfd && read(fd, &v, 8) == 8)
				ticks += v;
			if (fd == sfd)
				while (read(fd, buf, sizeof(struct signalfd_siginfo)) > 0)
					sigs++;
			if (fd == ifd && (r = read(fd, buf, sizeof(buf))) > 0) {
				char *p = buf;

				while (p < buf + r) {
					struct inotify_event *e = (void *)p;

					files++;
					p += sizeof(*e) + e->len;
				}
			}
		}
	}
	for (i = 0; i < THREADS; i++)
		if (pthread_join(th[i], NULL))
			return 8;
	for (i = 0; i < EVENTS; i++) {
		snprintf(path, sizeof(path), "/tmp/sci_events/f%d", i);
		unlink(path);
	}
	rmdir("/tmp/sci_events");
	outf(out, "counter %ld, eventfd %s, timer %s, signals %s, inotify %s\n",
	     ev_counter, eventfd_sum >= THREADS * EVENTS ? "ok" : "short",
	     ticks >= EVENTS ? "ok" : "short", sigs >= EVENTS ? "ok" : "short",
	     files < 0 ? "not in this kernel" : files >= EVENTS ? "ok" : "short");
	return 0;
}

TEST_F_TIMEOUT(server, epoll_eventfd_timerfd_signalfd_inotify_futex, 600)
{
	compare(_metadata, events_run, NULL);
}

TEST_HARNESS_MAIN
