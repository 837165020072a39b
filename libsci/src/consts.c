// SPDX-License-Identifier: LGPL-2.1-or-later
/* Named constants of sci-policy(5), and the syscall groups. */
#include <string.h>

#include "internal.h"

/*
 * The constants: generated at build time by tools/gen-consts.py from the
 * installed kernel uapi and glibc headers (build/gen/consts.inc), sorted by
 * name.
 */
const struct sci_const sci__consts[] = {
#include "consts.inc"
};
const unsigned int sci__nconsts = sizeof(sci__consts) / sizeof(sci__consts[0]);

const struct sci_const *sci__const_lookup(const char *name, size_t len)
{
	unsigned int lo = 0, hi = sci__nconsts;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		const char *c = sci__consts[mid].name;
		size_t clen = strlen(c);
		int r = memcmp(name, c, len < clen ? len : clen);

		if (!r && len == clen)
			return &sci__consts[mid];
		if (r < 0 || (!r && len < clen))
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *sci__errno_name(int e)
{
	unsigned int i;

	const char *alias = NULL;

	/* EAGAIN, not EWOULDBLOCK, and so on. */
	for (i = 0; i < sci__nconsts; i++)
		if (sci__consts[i].is_errno && sci__consts[i].value == (uint64_t)e) {
			if (!sci__consts[i].alias)
				return sci__consts[i].name;
			alias = sci__consts[i].name;
		}
	return alias;
}

/*
 * Syscall groups: x86_64 names.  Documented in sci-policy(5); keep the two
 * in step.
 */
static const char *const basic_io[] = {
	"read", "write", "readv", "writev", "pread64", "pwrite64", "preadv",
	"pwritev", "preadv2", "pwritev2", "lseek", "close", "close_range",
	"dup", "dup2", "dup3", NULL
};
static const char *const file_io[] = {
	"open", "openat", "openat2", "creat", "stat", "fstat", "lstat",
	"newfstatat", "statx", "access", "faccessat", "faccessat2",
	"readlink", "readlinkat", "getdents", "getdents64", "mkdir",
	"mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat",
	"renameat2", "link", "linkat", "symlink", "symlinkat", "chmod",
	"fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat",
	"truncate", "ftruncate", "fallocate", "fsync", "fdatasync",
	"sync_file_range", "statfs", "fstatfs", "getcwd", "chdir", "fchdir",
	"utime", "utimes", "utimensat", "futimesat", "fadvise64", "sendfile",
	"copy_file_range", "splice", "tee", "fcntl", "flock", "getxattr",
	"lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr",
	NULL
};
static const char *const process[] = {
	"clone", "clone3", "fork", "vfork", "execve", "execveat", "exit",
	"exit_group", "wait4", "waitid", "kill", "tkill", "tgkill", "getpid",
	"getppid", "gettid", "setsid", "getsid", "setpgid", "getpgid",
	"getpgrp", "prctl", "arch_prctl", "set_tid_address", "pidfd_open",
	"pidfd_send_signal", "pidfd_getfd", "unshare", "setns", NULL
};
static const char *const network[] = {
	"socket", "socketpair", "bind", "listen", "accept", "accept4",
	"connect", "getsockname", "getpeername", "getsockopt", "setsockopt",
	"sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg",
	"shutdown", NULL
};
static const char *const memory[] = {
	"brk", "mmap", "munmap", "mprotect", "mremap", "madvise", "msync",
	"mincore", "mlock", "mlock2", "munlock", "mlockall", "munlockall",
	"membarrier", NULL
};
static const char *const signal_[] = {
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending",
	"rt_sigsuspend", "rt_sigtimedwait", "sigaltstack", "signalfd",
	"signalfd4", "pause", NULL
};

const struct sci_group sci__groups[] = {
	{ "basic-io", basic_io },
	{ "file-io", file_io },
	{ "memory", memory },
	{ "network", network },
	{ "process", process },
	{ "signal", signal_ },
};
const unsigned int sci__ngroups = sizeof(sci__groups) / sizeof(sci__groups[0]);
