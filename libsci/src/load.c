// SPDX-License-Identifier: LGPL-2.1-or-later
/* The kernel side: probing for isolation, loading, violation records. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER		1
#endif
#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL	2
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC
#define SECCOMP_FILTER_FLAG_TSYNC	(1UL << 0)
#endif
#ifndef SECCOMP_FILTER_FLAG_LOG
#define SECCOMP_FILTER_FLAG_LOG		(1UL << 1)
#endif
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH	(1UL << 4)
#endif
#ifndef PR_SET_NO_NEW_PRIVS
#define PR_SET_NO_NEW_PRIVS		38
#endif

/* 1 if the kernel reports @action (SECCOMP_GET_ACTION_AVAIL), 0 if not. */
static int action_available(unsigned int action)
{
	long rc;

#ifdef __NR_seccomp
	rc = syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
#else
	rc = -1;
	errno = ENOSYS;
#endif
	if (rc == 0)
		return 1;
	switch (errno) {
	case EOPNOTSUPP:	/* the kernel does not know or cannot honour it */
	case EINVAL:		/* no SECCOMP_GET_ACTION_AVAIL (before 4.14) */
	case ENOSYS:		/* no seccomp(2) */
		return 0;
	}
	return -errno;
}

int sci_isolate_available(void)
{
	return action_available(SECCOMP_RET_ISOLATE);
}

/* Does the program return SECCOMP_RET_ISOLATE (with data bits @data)? */
static bool returns_isolate(const struct sock_filter *insns, size_t len,
			    uint32_t data)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (insns[i].code == (BPF_RET | BPF_K) &&
		    (insns[i].k & SCI_RET_ACTION_FULL) == SCI_ACT_ISOLATE &&
		    (insns[i].k & data) == data)
			return true;
	return false;
}

static void warn(const struct sci_load_options *o, const char *msg)
{
	if (o->warn)
		o->warn(o->warn_arg, msg);
	else
		fprintf(stderr, "libsci: warning: %s\n", msg);
}

/*
 * Load @p with the options @o (the library's own copy: the out fields are
 * written there).
 */
static int load(const struct sci_policy *p, struct sci_load_options *o,
		 struct sci_error *err)
{
	unsigned int flags = o->flags;
	unsigned int uses, eflags = 0;
	unsigned long kflags = 0;
	struct sock_filter *insns = NULL;
	struct sock_fprog prog;
	size_t len = 0;
	int avail = 0, keep = 0, rc;
	long r;

	if (!p || (flags & ~(SCI_LOAD_NO_NNP | SCI_LOAD_TSYNC | SCI_LOAD_LOG |
			     SCI_LOAD_ALLOW_DEGRADE | SCI_LOAD_DRY_RUN |
			     SCI_LOAD_NOTIFY_KILLS | SCI_LOAD_WAIT_KILLABLE))) {
		sci__set_error(err, -EINVAL, "invalid argument");
		return -EINVAL;
	}
	uses = sci_policy_uses(p);
	if ((flags & SCI_LOAD_NOTIFY_KILLS) && (uses & SCI_USES_USER_NOTIF)) {
		sci__set_error(err, -EINVAL,
			       "SCI_LOAD_NOTIFY_KILLS: the policy uses user-notif itself");
		return -EINVAL;
	}
	if (uses & SCI_USES_ISOLATE) {
		avail = sci_isolate_available();
		if (avail < 0) {
			sci__set_error(err, avail,
				       "cannot tell whether this kernel supports SECCOMP_RET_ISOLATE (SECCOMP_GET_ACTION_AVAIL: %s); refusing to load a policy that uses isolation",
				       strerror(-avail));
			return avail;
		}
		if (!avail) {
			if (!(flags & SCI_LOAD_ALLOW_DEGRADE)) {
				sci__set_error(err, -EOPNOTSUPP,
					       "this kernel does not support SECCOMP_RET_ISOLATE (the seccomp action 'isolate'): refusing to load a policy that uses isolation; allow it to run without isolation with SCI_LOAD_ALLOW_DEGRADE (the degrade option)");
				return -EOPNOTSUPP;
			}
			eflags |= SCI_EXPORT_DEGRADE;
			warn(o, "this kernel does not support SECCOMP_RET_ISOLATE: isolate and isolate-learn are degraded to allow, system calls run without isolation");
			o->degraded = 1;
		}
	}
	if (avail == 1 && sci__keep_bits(p)) {
		keep = action_available(SECCOMP_RET_ISOLATE | sci__keep_bits(p));
		if (keep != 1) {
			/* Stricter than asked, never weaker: isolate, keep nothing. */
			eflags |= SCI_EXPORT_NO_KEEP;
			warn(o, "this kernel cannot keep SCI grants across system calls (SECCOMP_ISOLATE_KEEP): keep-grants is ignored, every isolated system call starts from the premapped set (slower, as strict)");
		}
	}
	rc = sci_policy_export(p, eflags, &insns, &len, err);
	if (rc)
		return rc;
	/* Never hand the kernel an action it did not report. */
	if ((avail != 1 && returns_isolate(insns, len, 0)) ||
	    (keep != 1 && (returns_isolate(insns, len, SECCOMP_ISOLATE_KEEP) ||
			   returns_isolate(insns, len, SECCOMP_ISOLATE_KEEP_DATA)))) {
		free(insns);
		sci__set_error(err, -EOPNOTSUPP,
			       "internal error: the filter returns SECCOMP_RET_ISOLATE on a kernel without it; not loaded");
		return -EOPNOTSUPP;
	}
	/* Kill-process as user-notif: a supervisor names the syscall, then kills. */
	if (flags & SCI_LOAD_NOTIFY_KILLS)
		sci__rewrite_ret(insns, len, SCI_ACT_KILL_PROCESS, SCI_ACT_USER_NOTIF);
	if (flags & SCI_LOAD_DRY_RUN) {
		free(insns);
		return 0;
	}
	if (flags & SCI_LOAD_TSYNC)
		kflags |= SECCOMP_FILTER_FLAG_TSYNC;
	if (flags & SCI_LOAD_LOG)
		kflags |= SECCOMP_FILTER_FLAG_LOG;
	if ((uses & SCI_USES_USER_NOTIF) || (flags & SCI_LOAD_NOTIFY_KILLS)) {
		kflags |= SECCOMP_FILTER_FLAG_NEW_LISTENER;
		if (flags & SCI_LOAD_WAIT_KILLABLE)
			kflags |= SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
		if (flags & SCI_LOAD_TSYNC)
			kflags |= SECCOMP_FILTER_FLAG_TSYNC_ESRCH;
	}
	if (!(flags & SCI_LOAD_NO_NNP) && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		rc = -errno;
		free(insns);
		sci__set_error(err, rc, "cannot set no_new_privs: %s", strerror(-rc));
		return rc;
	}
	prog.len = (unsigned short)len;
	prog.filter = insns;
#ifdef __NR_seccomp
	r = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, kflags, &prog);
#else
	r = -1;
	errno = ENOSYS;
#endif
	rc = r < 0 ? -errno : 0;
	free(insns);
	if (r < 0) {
		sci__set_error(err, rc, "seccomp(SECCOMP_SET_MODE_FILTER) failed: %s%s", strerror(-rc),
			       rc == -EACCES ? " (no_new_privs is not set and the caller lacks CAP_SYS_ADMIN)" : "");
		return rc;
	}
	if ((flags & SCI_LOAD_TSYNC) && r > 0 && !(kflags & SECCOMP_FILTER_FLAG_NEW_LISTENER)) {
		sci__set_error(err, -ESRCH, "thread %ld could not be synchronised (TSYNC)", r);
		return -ESRCH;
	}
	if (kflags & SECCOMP_FILTER_FLAG_NEW_LISTENER)
		o->notify_fd = (int)r;
	return 0;
}

/* Does the caller's struct of @usize bytes have @field? */
#define HAS_FIELD(usize, type, field) \
	((usize) >= offsetof(type, field) + sizeof(((type *)0)->field))

int sci_policy_load(const struct sci_policy *p, struct sci_load_options *opts,
		    struct sci_error *err)
{
	struct sci_load_options o;
	size_t usize = 0;
	int rc;

	if (opts)
		usize = opts->size ? opts->size : SCI_LOAD_OPTIONS_SIZE_VER0;
	rc = sci__copy_struct(&o, sizeof(o), opts, usize,
			      offsetof(struct sci_load_options, flags) + sizeof(o.flags),
			      "sci_load_options", err);
	if (rc)
		return rc;
	o.notify_fd = -1;
	o.degraded = 0;
	rc = load(p, &o, err);
	/* the out fields that the caller's struct has; a listener it cannot
	 * receive is closed (its user-notify syscalls fail with ENOSYS) */
	if (opts && HAS_FIELD(usize, struct sci_load_options, notify_fd))
		opts->notify_fd = o.notify_fd;
	else if (o.notify_fd >= 0)
		close(o.notify_fd);
	if (opts && HAS_FIELD(usize, struct sci_load_options, degraded))
		opts->degraded = o.degraded;
	return rc;
}

/* ---- /proc/PID/sci ---- */

static void copy_val(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static bool parse_long(const char *s, size_t n, long *out)
{
	char buf[32], *end;
	long v;

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

int sci_violation_parse(const char *text, size_t len, struct sci_violation *v)
{
	const char *p = text, *end = text + len;

	memset(v, 0, sizeof(*v));
	v->syscall = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *colon, *ks, *ke, *vs, *ve;
		long n;

		colon = memchr(p, ':', (size_t)(le - p));
		if (colon) {
			ks = p;
			ke = colon;
			while (ks < ke && (*ks == ' ' || *ks == '\t'))
				ks++;
			while (ke > ks && (ke[-1] == ' ' || ke[-1] == '\t'))
				ke--;
			vs = colon + 1;
			ve = le;
			while (vs < ve && (*vs == ' ' || *vs == '\t'))
				vs++;
			while (ve > vs && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r'))
				ve--;
#define KEY(s) ((size_t)(ke - ks) == strlen(s) && !memcmp(ks, s, strlen(s)))
			if (KEY("violations") && parse_long(vs, (size_t)(ve - vs), &n)) {
				v->violations = n;
				v->have |= SCI_VIOL_VIOLATIONS;
			} else if (KEY("enforced") && parse_long(vs, (size_t)(ve - vs), &n)) {
				v->enforced = n != 0;
				v->have |= SCI_VIOL_ENFORCED;
			} else if (KEY("syscall") && parse_long(vs, (size_t)(ve - vs), &n)) {
				v->syscall = n;
				v->have |= SCI_VIOL_SYSCALL;
			} else if (KEY("target") && ve > vs) {
				copy_val(v->target, sizeof(v->target), vs, (size_t)(ve - vs));
				v->have |= SCI_VIOL_TARGET;
			} else if (KEY("caller") && ve > vs) {
				copy_val(v->caller, sizeof(v->caller), vs, (size_t)(ve - vs));
				v->have |= SCI_VIOL_CALLER;
			} else if (KEY("reason") && ve > vs) {
				copy_val(v->reason, sizeof(v->reason), vs, (size_t)(ve - vs));
				v->have |= SCI_VIOL_REASON;
			} else if (KEY("last_grant") && ve > vs) {
				copy_val(v->last_grant, sizeof(v->last_grant), vs, (size_t)(ve - vs));
				v->have |= SCI_VIOL_LAST_GRANT;
			}
#undef KEY
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

int sci_violation_read(pid_t pid, struct sci_violation *v)
{
	char path[64], buf[4096];
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/sci", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < sizeof(buf) - 1) {
		ssize_t r = read(fd, buf + got, sizeof(buf) - 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return sci_violation_parse(buf, got, v);
}
