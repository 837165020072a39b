/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two benchmarks (sci_bench, sci_bench_http) share: the USER_NOTIF
 * supervisor and the ptrace tracer that let every syscall continue.
 */
#ifndef SCI_BENCH_COMMON_H
#define SCI_BENCH_COMMON_H

#include <errno.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

/* Answer every notification of listener @fd with CONTINUE, until it fails. */
static inline void bench_supervise(int fd)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req)) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			return;
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		/* ENOENT: the task died meanwhile. */
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

/*
 * The ptrace tracer of the trace modes: continue every stop; seccomp, fork
 * and exec events, and the first stop of an auto-attached child, without a
 * signal.  Returns when @w has exited: its exit status, or 1.
 */
static inline int bench_tracer(pid_t w)
{
	int st;

	if (waitpid(w, &st, __WALL) != w || !WIFSTOPPED(st))
		return 1;
	if (ptrace(PTRACE_SETOPTIONS, w, 0,
		   PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK |
		   PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
		   PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL))
		return 1;
	ptrace(PTRACE_CONT, w, 0, 0);
	for (;;) {
		pid_t p = waitpid(-1, &st, __WALL);
		int sig;

		if (p < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (p == w)
				return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = WSTOPSIG(st);
		if (sig == SIGTRAP || sig == SIGSTOP)
			sig = 0;
		ptrace(PTRACE_CONT, p, 0, sig);
	}
}

#endif
