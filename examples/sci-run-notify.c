// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sci-run: the seccomp user-notification supervisor behind --record (every
 * syscall notified, answered CONTINUE and counted) and --name-kills (the
 * policy's kill-process actions notified, the syscall named, the process
 * killed with SIGSYS).
 *
 * The child loads the filter with libsci (the listener fd is its own,
 * close-on-exec), publishes the fd number in a shared page and spins,
 * without a syscall, until the parent has copied the listener with
 * pidfd_getfd(2); only then does it execute the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sci.h"
#include "sci-run-notify.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif
#define AUDIT_ARCH_X86_64_ 0xc000003eU

struct sn_shared *sn_shared_new(void)
{
	struct sn_shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED)
		return NULL;
	s->fd = -1;
	s->ack = 0;
	return s;
}

void sn_child_handoff(struct sn_shared *s, int fd)
{
	__atomic_store_n(&s->fd, fd, __ATOMIC_RELEASE);
	/* No syscall here: under --record every one waits for the parent. */
	while (!__atomic_load_n(&s->ack, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

int sn_parent_take(struct sn_shared *s, pid_t pid)
{
	struct timespec ms = { 0, 1000000 };
	int fd = -1, pidfd, n, rc;
	siginfo_t si;

	for (n = 0; n < 30000; n++) {
		fd = __atomic_load_n(&s->fd, __ATOMIC_ACQUIRE);
		if (fd >= 0)
			break;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == pid)
			return -ECHILD;	/* the child failed before the handoff */
		nanosleep(&ms, NULL);
	}
	if (fd < 0)
		return -ETIMEDOUT;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return -errno;
	rc = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (rc < 0)
		rc = -errno;
	close(pidfd);
	if (rc >= 0) {
		fcntl(rc, F_SETFD, FD_CLOEXEC);
		__atomic_store_n(&s->ack, 1, __ATOMIC_RELEASE);
	}
	return rc;
}

/* One notification: 1 handled, 0 nothing to read, -1 the filter is gone. */
int sn_serve_one(int listener, sn_handler fn, void *arg, int timeout_ms)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	struct pollfd pfd = { listener, POLLIN, 0 };
	int r;

	r = poll(&pfd, 1, timeout_ms);
	if (r <= 0)
		return 0;
	if (!(pfd.revents & POLLIN))
		return pfd.revents & (POLLHUP | POLLERR | POLLNVAL) ? -1 : 0;
	memset(&req, 0, sizeof(req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
		/* ENOENT: the task was interrupted before we received it. */
		if (errno == EINTR || errno == ENOENT)
			return 1;
		fprintf(stderr, "sci-run: SECCOMP_IOCTL_NOTIF_RECV: %s\n", strerror(errno));
		return -1;
	}
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	fn(arg, &req, &resp);
	/*
	 * ENOENT: the task was killed or interrupted meanwhile (its syscall
	 * restarts with a new notification).  EINTR: a signal came while the
	 * kernel waited for its lock; the task still waits for this answer.
	 */
	while (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0 && errno != ENOENT) {
		if (errno != EINTR) {
			fprintf(stderr, "sci-run: SECCOMP_IOCTL_NOTIF_SEND: %s\n", strerror(errno));
			break;
		}
	}
	return 1;
}

int sn_serve_until_exit(int listener, pid_t child, sn_handler fn, void *arg)
{
	siginfo_t si;

	for (;;) {
		int r = sn_serve_one(listener, fn, arg, 50);

		if (r < 0)
			return 0;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)child, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == child) {
			/* what the child's last threads asked meanwhile */
			while (sn_serve_one(listener, fn, arg, 0) > 0)
				;
			return 0;
		}
	}
}

void sn_serve_rest_in_background(int listener, sn_handler fn, void *arg)
{
	struct pollfd pfd = { listener, POLLIN, 0 };
	pid_t p;

	/* Nobody left under the filter: nothing to serve. */
	if (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLHUP) && !(pfd.revents & POLLIN))
		return;
	fflush(NULL);
	p = fork();
	if (p != 0) {
		if (p > 0)
			waitpid(p, NULL, 0);
		return;
	}
	/* A grandchild, reparented: serves the descendants until the last goes. */
	if (fork() != 0)
		_exit(0);
	setsid();
	while (sn_serve_one(listener, fn, arg, -1) >= 0)
		;
	_exit(0);
}

void sn_syscall_name(const struct seccomp_notif *req, char *buf, size_t len)
{
	char name[64];

	if (req->data.arch == AUDIT_ARCH_X86_64_ && req->data.nr >= 0 &&
	    !(req->data.nr & 0x40000000) &&
	    !sci_syscall_name(req->data.nr, name, sizeof(name)))
		snprintf(buf, len, "%s (%d)", name, req->data.nr);
	else if (req->data.arch == AUDIT_ARCH_X86_64_)
		snprintf(buf, len, "%d (0x%x, not an x86_64 syscall)", req->data.nr,
			 (unsigned int)req->data.nr);
	else
		snprintf(buf, len, "%d of architecture 0x%x", req->data.nr, req->data.arch);
}

/* /proc/TID/status: the thread group and whether SIGSYS would be fatal. */
static int thread_status(pid_t tid, pid_t *tgid, int *sigsys_fatal, char *comm,
			 size_t clen)
{
	char path[64], line[256];
	unsigned long long m = 0, any = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	*tgid = tid;
	comm[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:\t", 6)) {
			snprintf(comm, clen, "%.63s", line + 6);
			comm[strcspn(comm, "\n")] = '\0';
		} else if (sscanf(line, "Tgid: %d", tgid) == 1) {
			continue;
		} else if (sscanf(line, "SigBlk: %llx", &m) == 1 ||
			   sscanf(line, "SigIgn: %llx", &m) == 1 ||
			   sscanf(line, "SigCgt: %llx", &m) == 1) {
			any |= m;
		}
	}
	fclose(f);
	*sigsys_fatal = !(any & (1ULL << (SIGSYS - 1)));
	return 0;
}

int sn_kill_handler(void *arg, const struct seccomp_notif *req,
		    struct seccomp_notif_resp *resp)
{
	struct sn_kills *k = arg;
	pid_t tid = (pid_t)req->pid, tgid = tid;
	int fatal = 0, again = 0;
	char comm[64] = "?", what[128];
	unsigned int i;

	sn_syscall_name(req, what, sizeof(what));
	thread_status(tid, &tgid, &fatal, comm, sizeof(comm));
	for (i = 0; i < k->nsent; i++)
		if (k->sent[i] == tid)
			again = 1;
	if (fatal && !again) {
		syscall(SYS_tgkill, tgid, tid, SIGSYS);
		if (k->nsent < sizeof(k->sent) / sizeof(k->sent[0]))
			k->sent[k->nsent++] = tid;
	} else {
		kill(tgid, SIGKILL);
	}
	if (tgid == k->child) {
		snprintf(k->child_msg, sizeof(k->child_msg), "syscall %s", what);
		k->child_killed = 1;
	} else {
		fprintf(stderr, "sci-run: pid %d (%s) was killed by the policy: syscall %s\n",
			(int)tgid, comm, what);
	}
	resp->error = -ENOSYS;	/* not reached: the task is dying */
	return 0;
}

/* ---- --record ---- */

int sn_record_handler(void *arg, const struct seccomp_notif *req,
		      struct seccomp_notif_resp *resp)
{
	struct sn_record *r = arg;

	if (req->data.arch == AUDIT_ARCH_X86_64_ && req->data.nr >= 0 &&
	    req->data.nr < SN_NR_MAX)
		r->count[req->data.nr]++;
	else
		r->other++;
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	return 0;
}

struct sorted {
	int nr;
	unsigned long n;
};

static int by_count(const void *a, const void *b)
{
	const struct sorted *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->nr - y->nr;
}

int sn_record_write(const struct sn_record *r, const char *path,
		    char *const argv[])
{
	static struct sorted s[SN_NR_MAX];
	unsigned long total = 0;
	unsigned int n = 0, i;
	FILE *f;
	int nr;

	for (nr = 0; nr < SN_NR_MAX; nr++) {
		if (!r->count[nr])
			continue;
		s[n].nr = nr;
		s[n].n = r->count[nr];
		total += r->count[nr];
		n++;
	}
	qsort(s, n, sizeof(s[0]), by_count);
	f = strcmp(path, "-") ? fopen(path, "we") : stdout;
	if (!f)
		return -errno;
	fprintf(f, "# Recorded by sci-run --record (libsci %s): the system calls that\n#  ",
		sci_version());
	for (i = 0; argv[i]; i++)
		fprintf(f, " %s", argv[i]);
	fprintf(f, "\n# and its descendants made (%u syscalls, %lu calls), most frequent\n"
		"# first, each isolated.  Anything else is killed.  Edit to taste\n"
		"# (sci-policy(5)); check with sci-run --check FILE.\n", n, total);
	if (r->other)
		fprintf(f, "# %lu calls of other architectures or x32 numbers were made: the\n"
			"# policy kills them.\n", r->other);
	fprintf(f, "@default kill-process\n");
	for (i = 0; i < n; i++) {
		char name[64];

		if (sci_syscall_name(s[i].nr, name, sizeof(name)))
			fprintf(f, "# syscall %d (%lu calls): no name known to libsci\n",
				s[i].nr, s[i].n);
		else
			fprintf(f, "%s: isolate\t# %lu\n", name, s[i].n);
	}
	if (f != stdout && fclose(f))
		return -errno;
	if (f == stdout)
		fflush(f);
	return 0;
}
