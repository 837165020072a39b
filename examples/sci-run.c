// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sci-run: run a program under a seccomp policy with System Call Isolation.
 *
 *   sci-run [options] -- PROGRAM [ARGS]
 *
 * sci-run forks: the child loads the filter and executes PROGRAM; the
 * parent waits, reports an SCI violation that killed the program (from
 * /proc/PID/sci, read before the child is reaped), and exits with the
 * program's status.  See sci-run(1).
 *
 * Exit status: the program's; 128+N when it was killed by signal N;
 * 125 for sci-run's own errors (usage, policy, refusal to load);
 * 126 when PROGRAM cannot be executed, 127 when it is not found;
 * with --check: 0 for a valid policy, 1 for an invalid one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sci.h"
#include "sci-run-notify.h"
#include <poll.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>

#define AUDIT_ARCH_X86_64_ 0xc000003eU
#define EXIT_SCI_ERROR	125
#define EXIT_CANNOT_RUN	126
#define EXIT_NOT_FOUND	127

static volatile sig_atomic_t child_pid;

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: sci-run [options] -- PROGRAM [ARGS...]\n"
		"       sci-run --check FILE [--isolate LIST] [--isolate-all] [--learn] [--keep-grants[=data]]\n"
		"       sci-run --dump-bpf [--policy FILE] [--isolate LIST] [--isolate-all] [--learn] [--keep-grants[=data]]\n"
		"       sci-run --oci FILE [--oci-caps LIST] [--isolate-allowed] [options] -- PROGRAM [ARGS...]\n"
		"       sci-run --record FILE -- PROGRAM [ARGS...]\n"
		"\n"
		"Run PROGRAM under a seccomp policy with System Call Isolation.\n"
		"\n"
		"  -p, --policy FILE     the policy (sci-policy(5)); without it every\n"
		"                        syscall is allowed except what --isolate says\n"
		"  -i, --isolate LIST    isolate these syscalls (comma-separated names)\n"
		"  -a, --isolate-all     isolate every syscall the policy does not name\n"
		"                        (the default action becomes isolate;\n"
		"                        io_uring_* fail with ENOSYS unless named)\n"
		"  -l, --learn           isolate-learn instead of isolate: violations\n"
		"                        are reported, not killed\n"
		"  -k, --keep-grants[=all|data]\n"
		"                        isolated syscalls keep their grants for the\n"
		"                        next ones (faster; a jump within a kept code\n"
		"                        page is no longer checked), or only their data\n"
		"                        grants (every fetch still checked): the\n"
		"                        policy's @keep-grants\n"
		"  -c, --check FILE      validate FILE and print what it compiles to\n"
		"  -d, --dump-bpf        print the BPF filter and exit\n"
		"      --allow-degrade   on a kernel without isolation, run the isolated\n"
		"                        syscalls unisolated (allow) instead of refusing\n"
		"      --log             SECCOMP_FILTER_FLAG_LOG\n"
		"      --no-nnp          do not set no_new_privs (needs CAP_SYS_ADMIN)\n"
		"      --oci FILE        the policy is an OCI runtime-spec or Docker seccomp\n"
		"                        profile (JSON; also SCMP_ACT_ISOLATE[_LEARN])\n"
		"      --oci-caps LIST   capabilities for the profile's includes/excludes\n"
		"                        (CAP_ names, docker, all, none; default docker)\n"
		"      --isolate-allowed what the policy (or --oci profile) allows runs\n"
		"                        isolated: SCI added to an existing policy\n"
		"      --include-root DIR  absolute @include paths are under DIR\n"
		"      --dump-bpf=raw[:DEST]\n"
		"                        write the filter as raw struct sock_filter to\n"
		"                        stdout, to file DEST, or to fd N with DEST &N\n"
		"                        (for bwrap --seccomp FD)\n"
		"      --no-fork         load the filter and execute PROGRAM in place\n"
		"      --name-kills      when the policy kills, name the syscall (the kill\n"
		"                        goes through sci-run: see sci-run(1))\n"
		"      --record FILE     run PROGRAM without a policy and write to FILE (-:\n"
		"                        stdout) a policy isolating each syscall it made\n"
		"  -h, --help            this help\n"
		"  -V, --version         the version\n"
		"\n"
		"Exit status: PROGRAM's; 128+N if it was killed by signal N; 125 for\n"
		"sci-run's own errors; 126 if PROGRAM cannot be run, 127 if it is not\n"
		"found.  With --check: 0 for a valid policy, 1 for an invalid one.\n");
}

static void warn_cb(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "sci-run: warning: %s\n", msg);
}

/* The real load: the dry run before it has warned already (once). */
static void warned_cb(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static void print_error(const struct sci_error *e)
{
	if (e->file[0]) {
		sci_error_print(e, stderr);
	} else {
		fprintf(stderr, "sci-run: error: %s\n", e->message);
	}
}

/*
 * io_uring hands the work of its requests to kernel threads (io-wq, sqpoll)
 * that never pass through seccomp, so under a policy whose default isolates
 * they would run unisolated.  When the default action isolates (--isolate-all
 * or "@default isolate"), io_uring_setup, io_uring_enter and io_uring_register
 * fail with ENOSYS, as on a kernel without io_uring, unless the policy has a
 * rule of its own for them (which is the way to opt out).
 */
static const int io_uring_nrs[] = {
	425,	/* io_uring_setup */
	426,	/* io_uring_enter */
	427,	/* io_uring_register */
};

static int deny_io_uring(struct sci_policy *p)
{
	uint32_t def = sci_policy_get_default(p);
	unsigned int i;

	if ((def & 0xffff0000U) != SCI_ACT_ISOLATE)
		return 0;
	for (i = 0; i < sizeof(io_uring_nrs) / sizeof(io_uring_nrs[0]); i++) {
		if (sci_policy_has_rule(p, io_uring_nrs[i]))
			continue;
		if (sci_policy_add_rule(p, SCI_ACT_ERRNO(ENOSYS), io_uring_nrs[i], 0, NULL)) {
			fprintf(stderr, "sci-run: cannot add the io_uring rule for syscall %d\n",
				io_uring_nrs[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * Apply --isolate LIST, --isolate-all, --learn and --keep-grants (@keep:
 * SCI_POLICY_KEEP_* flags to add).
 */
static int apply_options(struct sci_policy *p, const char *isolate,
			 int isolate_all, int learn, unsigned int keep)
{
	char *list, *save = NULL, *name;
	int rc = 0;

	if (isolate) {
		list = strdup(isolate);
		if (!list)
			return -1;
		for (name = strtok_r(list, ",", &save); name;
		     name = strtok_r(NULL, ",", &save)) {
			int nr = sci_syscall_nr(name);

			if (nr < 0) {
				char near[64];

				if (!sci_syscall_suggest(name, near, sizeof(near)))
					fprintf(stderr, "sci-run: --isolate: unknown syscall '%s' (did you mean '%s'?)\n",
						name, near);
				else
					fprintf(stderr, "sci-run: --isolate: unknown syscall '%s'\n", name);
				rc = -1;
				break;
			}
			if (sci_policy_has_rule(p, nr)) {
				fprintf(stderr, "sci-run: --isolate: syscall '%s' already has a rule in the policy\n",
					name);
				rc = -1;
				break;
			}
			if (sci_policy_add_rule(p, SCI_ACT_ISOLATE, nr, 0, NULL)) {
				fprintf(stderr, "sci-run: --isolate: cannot add '%s'\n", name);
				rc = -1;
				break;
			}
		}
		free(list);
		if (rc)
			return rc;
	}
	if (isolate_all)
		sci_policy_set_default(p, SCI_ACT_ISOLATE);
	if (deny_io_uring(p))
		return -1;
	if (learn)
		sci_policy_set_learn(p);
	if (keep && sci_policy_set_flags(p, sci_policy_get_flags(p) | keep))
		return -1;
	return 0;
}

/* --include-root, --isolate-allowed (policy files) */
static struct sci_parse_options parse_opts = { .size = sizeof(parse_opts) };

static int do_check(const char *file, const char *isolate, int isolate_all,
		    int learn, unsigned int keep)
{
	struct sock_filter *insns = NULL;
	struct sci_policy *p = NULL;
	struct sci_error e;
	unsigned int uses;
	size_t n = 0;
	int avail;

	if (sci_policy_parse_file_opts(file, &parse_opts, &p, &e)) {
		print_error(&e);
		return 1;
	}
	if (apply_options(p, isolate, isolate_all, learn, keep)) {
		sci_policy_free(p);
		return 1;
	}
	sci_policy_dump(p, stdout);
	if (sci_policy_export(p, 0, &insns, &n, &e)) {
		print_error(&e);
		sci_policy_free(p);
		return 1;
	}
	uses = sci_policy_uses(p);
	avail = sci_isolate_available();
	printf("%s: OK: %zu BPF instructions; isolation %s%s; this kernel %s SECCOMP_RET_ISOLATE\n",
	       file, n, uses & SCI_USES_ISOLATE ? "used" : "not used",
	       uses & SCI_USES_ISOLATE_LEARN ? " (learn mode)" : "",
	       avail == 1 ? "supports" : avail == 0 ? "does not support" : "cannot tell about");
	free(insns);
	sci_policy_free(p);
	return 0;
}

static void forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

struct child_report {
	int code;		/* exit code for sci-run */
	char msg[1200];
};

static void report_violation(const char *prog, pid_t pid, const siginfo_t *si,
			     unsigned int uses)
{
	struct sci_violation v;
	int killed = si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED;

	if ((uses & SCI_USES_ISOLATE) && !sci_violation_read(pid, &v) &&
	    (v.have & SCI_VIOL_VIOLATIONS) && v.violations > 0) {
		char what[700];

		if (v.have & SCI_VIOL_TARGET)
			snprintf(what, sizeof(what), "syscall %ld: %s at %s%s%s%s", v.syscall,
				 v.have & SCI_VIOL_REASON ? v.reason : "jump",
				 v.target, v.have & SCI_VIOL_CALLER ? " (possible caller " : "",
				 v.have & SCI_VIOL_CALLER ? v.caller : "",
				 v.have & SCI_VIOL_CALLER ? ")" : "");
		else
			snprintf(what, sizeof(what), "syscall %ld left its isolation", v.syscall);
		if (killed && (si->si_status == SIGKILL || si->si_status == SIGSYS)) {
			fprintf(stderr, "sci-run: %s (pid %d) was killed by SCI: %s\n", prog,
				(int)pid, what);
			return;
		}
		fprintf(stderr, "sci-run: %s (pid %d): %ld SCI violation%s %s; the last: %s\n",
			prog, (int)pid, v.violations, v.violations == 1 ? "" : "s",
			v.enforced ? "recorded" : "logged (learn mode)", what);
		return;
	}
	if (killed && si->si_status == SIGSYS)
		fprintf(stderr, "sci-run: %s (pid %d) was killed by SIGSYS (a system call the policy does not allow?)\n",
			prog, (int)pid);
}

/* ---- --oci, --dump-bpf=raw, --record (see also sci-run-notify.c) ---- */

static int load_oci(const char *file, const char *caps, int isolate_allowed,
		    struct sci_policy **p, unsigned int *lflags)
{
	struct sci_oci_options oo;
	struct sci_error e;

	memset(&oo, 0, sizeof(oo));
	oo.caps = SCI_OCI_DOCKER_CAPS;
	if (caps && sci_caps_parse(caps, &oo.caps, &e)) {
		fprintf(stderr, "sci-run: --oci-caps: %s\n", e.message);
		return -1;
	}
	if (isolate_allowed)
		oo.flags |= SCI_OCI_ISOLATE_ALLOWED;
	if (sci_policy_parse_oci_file(file, &oo, p, &e)) {
		print_error(&e);
		return -1;
	}
	*lflags |= oo.load_flags;
	return 0;
}

/* --dump-bpf[=text|raw|raw:DEST]: DEST a file, "-" stdout, "&N" fd N. */
static int dump_as(const char *fmt, const struct sock_filter *insns, size_t n,
		   unsigned int uses, unsigned int eflags)
{
	const char *dest = "-";
	int fd = 1, rc;

	if (!fmt || !strcmp(fmt, "text")) {
		sci_bpf_dump(insns, n, stdout);
		return 0;
	}
	if (!strncmp(fmt, "raw:", 4))
		dest = fmt + 4;
	if ((uses & SCI_USES_ISOLATE) && !(eflags & SCI_EXPORT_DEGRADE) &&
	    sci_isolate_available() != 1)
		warn_cb(NULL, "this kernel does not support SECCOMP_RET_ISOLATE: a program that loads this filter here is killed at its first isolated syscall (--allow-degrade writes the degraded filter)");
	if (dest[0] == '&') {
		char *end;
		long v = strtol(dest + 1, &end, 10);

		if (!dest[1] || *end || v < 0 || v > 1 << 20) {
			fprintf(stderr, "sci-run: --dump-bpf=raw:&N: bad fd '%s'\n", dest + 1);
			return -1;
		}
		fd = (int)v;
	} else if (strcmp(dest, "-")) {
		fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			fprintf(stderr, "sci-run: %s: %s\n", dest, strerror(errno));
			return -1;
		}
	}
	fflush(stdout);
	rc = sci_bpf_write_raw(insns, n, fd);
	if (fd > 2 && dest[0] != '&' && close(fd) && !rc)
		rc = -errno;
	if (rc) {
		fprintf(stderr, "sci-run: writing the raw filter: %s\n", strerror(-rc));
		return -1;
	}
	return 0;
}

/*
 * --record FILE -- PROGRAM: every syscall of PROGRAM and its descendants,
 * seen at its entry through ptrace (PTRACE_SYSCALL, every new task traced
 * from its start); sci-run counts them, waits for the last descendant (it
 * is their subreaper) and writes the policy.
 *
 * Not a seccomp user-notif filter, as before: a syscall waiting for the
 * supervisor fails with EINTR, before it ran, when a signal comes whose
 * handler lacks SA_RESTART (ash's SIGCHLD), even close() and kill(),
 * which no program retries; WAIT_KILLABLE_RECV only narrows that window.
 * A ptrace stop at syscall entry defers signals, it does not fail the
 * syscall: the recorded run behaves as the program does unrecorded.
 */

/* The tasks whose first stop (the SIGSTOP of a new tracee) came. */
struct rec_tasks {
	pid_t *pid;
	size_t n, cap;
};

static int rec_seen(struct rec_tasks *t, pid_t pid, int add)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->pid[i] == pid)
			return 1;
	if (!add)
		return 0;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		pid_t *np = realloc(t->pid, cap * sizeof(*np));

		if (!np)
			return 0;	/* treated as unseen again: harmless */
		t->pid = np;
		t->cap = cap;
	}
	t->pid[t->n++] = pid;
	return 0;
}

static void rec_gone(struct rec_tasks *t, pid_t pid)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->pid[i] == pid) {
			t->pid[i] = t->pid[--t->n];
			return;
		}
}

#define REC_OPTIONS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK |	\
		     PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |	\
		     PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)

/* One stop of tracee @w: count a syscall entry, resume it as it was. */
static int rec_stop(struct sn_record *rec, struct rec_tasks *t, pid_t w,
		    int st)
{
	struct __ptrace_syscall_info info;
	int sig = WSTOPSIG(st), inject = 0;
	siginfo_t si;

	if (sig == (SIGTRAP | 0x80)) {
		memset(&info, 0, sizeof(info));
		if (ptrace(PTRACE_GET_SYSCALL_INFO, w, sizeof(info), &info) <= 0) {
			if (errno == EIO)
				return -EIO;	/* before Linux 5.3 */
		} else if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
			if (info.arch == AUDIT_ARCH_X86_64_ &&
			    info.entry.nr < SN_NR_MAX)
				rec->count[info.entry.nr]++;
			else
				rec->other++;
		}
	} else if (st >> 16) {
		/* fork, vfork, clone, exec: the event itself needs nothing */
	} else if (sig == SIGSTOP && !rec_seen(t, w, 1)) {
		/* A new tracee's first stop: not a signal of the program's. */
	} else if (!ptrace(PTRACE_GETSIGINFO, w, 0, &si)) {
		/* A signal on its way to the tracee: deliver it. */
		inject = sig;
	}
	/*
	 * Else a group-stop (SIGSTOP, SIGTSTP...): resumed at once, so a
	 * stopped program goes on running while recorded.
	 */
	rec_seen(t, w, 1);
	if (ptrace(PTRACE_SYSCALL, w, 0, inject) && errno != ESRCH)
		return -errno;
	return 0;
}

static int do_record(const char *file, char *const prog[])
{
	static struct sn_record rec;
	struct rec_tasks tasks = { 0 };
	int status = 0, st, code, rc = 0;
	pid_t pid, w;

	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("sci-run: fork");
		return EXIT_SCI_ERROR;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0)) {
			fprintf(stderr, "sci-run: --record: cannot be traced: %s\n",
				strerror(errno));
			_exit(EXIT_SCI_ERROR);
		}
		/* Until sci-run has set its options. */
		raise(SIGSTOP);
		execvp(prog[0], prog);
		code = errno;
		fprintf(stderr, "sci-run: %s: %s\n", prog[0], strerror(code));
		_exit(code == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
	}
	child_pid = pid;
	while ((w = waitpid(pid, &st, __WALL)) < 0 && errno == EINTR)
		;
	if (w != pid || !WIFSTOPPED(st)) {
		if (w == pid && WIFEXITED(st))
			return WEXITSTATUS(st);
		fprintf(stderr, "sci-run: --record: the child did not stop for tracing\n");
		kill(pid, SIGKILL);
		return EXIT_SCI_ERROR;
	}
	rec_seen(&tasks, pid, 1);
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, REC_OPTIONS) ||
	    ptrace(PTRACE_SYSCALL, pid, 0, 0)) {
		fprintf(stderr, "sci-run: --record: cannot trace the child: %s\n",
			strerror(errno));
		kill(pid, SIGKILL);
		return EXIT_SCI_ERROR;
	}
	/*
	 * Until no child is left: the program, the descendants it leaves
	 * behind (sci-run is their subreaper) and every thread, all traced.
	 */
	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (w == pid)
				status = st;
			rec_gone(&tasks, w);
			continue;
		}
		if (!WIFSTOPPED(st) || rc)
			continue;
		rc = rec_stop(&rec, &tasks, w, st);
		if (rc) {
			size_t i;

			if (rc == -EIO)
				fprintf(stderr, "sci-run: --record: this kernel has no PTRACE_GET_SYSCALL_INFO (Linux 5.3 and later)\n");
			else
				fprintf(stderr, "sci-run: --record: resuming pid %d: %s\n",
					(int)w, strerror(-rc));
			/* Every tracee, stopped or not: then reap them. */
			for (i = 0; i < tasks.n; i++)
				kill(tasks.pid[i], SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	free(tasks.pid);
	if (rc)
		return EXIT_SCI_ERROR;
	rc = sn_record_write(&rec, file, prog);
	if (rc) {
		fprintf(stderr, "sci-run: --record: %s: %s\n", file, strerror(-rc));
		return EXIT_SCI_ERROR;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : EXIT_SCI_ERROR;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "isolate", required_argument, NULL, 'i' },
		{ "isolate-all", no_argument, NULL, 'a' },
		{ "learn", no_argument, NULL, 'l' },
		{ "keep-grants", optional_argument, NULL, 'k' },
		{ "check", required_argument, NULL, 'c' },
		{ "dump-bpf", optional_argument, NULL, 'd' },
		{ "allow-degrade", no_argument, NULL, 'D' },
		{ "log", no_argument, NULL, 'L' },
		{ "no-nnp", no_argument, NULL, 'N' },
		{ "oci", required_argument, NULL, 0x100 },
		{ "oci-caps", required_argument, NULL, 0x101 },
		{ "isolate-allowed", no_argument, NULL, 0x102 },
		{ "include-root", required_argument, NULL, 0x110 },
		{ "no-fork", no_argument, NULL, 0x103 },
		{ "name-kills", no_argument, NULL, 0x104 },
		{ "record", required_argument, NULL, 0x105 },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy_file = NULL, *check_file = NULL, *isolate = NULL;
	int isolate_all = 0, learn = 0, dump = 0, degrade = 0, c;
	unsigned int keep = 0;
	unsigned int lflags = 0, uses;
	/* --oci, --dump-bpf=raw, --no-fork, --name-kills, --record */
	const char *oci_file = NULL, *oci_caps = NULL, *dump_fmt = NULL;
	const char *record_file = NULL;
	int isolate_allowed = 0, no_fork = 0, name_kills = 0, listener = -1;
	struct sn_shared *sn = NULL;
	struct sn_kills kills;
	struct sci_load_options lo = { .size = sizeof(lo) };
	struct sci_policy *p = NULL;
	struct child_report rep;
	struct sci_error e;
	struct sigaction sa;
	int pfd[2], status;
	siginfo_t si;
	ssize_t got;
	pid_t pid;

	while ((c = getopt_long(argc, argv, "+p:i:alkc:dhV", opts, NULL)) != -1) {
		switch (c) {
		case 'p': policy_file = optarg; break;
		case 'i':
			if (isolate) {
				fprintf(stderr, "sci-run: give --isolate once, with a comma-separated list\n");
				return EXIT_SCI_ERROR;
			}
			isolate = optarg;
			break;
		case 'a': isolate_all = 1; break;
		case 'l': learn = 1; break;
		case 'k':
			if (!optarg || !strcmp(optarg, "all")) {
				keep = SCI_POLICY_KEEP_GRANTS;
			} else if (!strcmp(optarg, "data")) {
				keep = SCI_POLICY_KEEP_DATA;
			} else {
				fprintf(stderr, "sci-run: --keep-grants takes 'all' or 'data', not '%s'\n",
					optarg);
				return EXIT_SCI_ERROR;
			}
			break;
		case 'c': check_file = optarg; break;
		case 'd': dump = 1; dump_fmt = optarg; break;
		case 'D': degrade = 1; break;
		case 'L': lflags |= SCI_LOAD_LOG; break;
		case 'N': lflags |= SCI_LOAD_NO_NNP; break;
		case 0x100: oci_file = optarg; break;
		case 0x101: oci_caps = optarg; break;
		case 0x102: isolate_allowed = 1; break;
		case 0x110: parse_opts.include_root = optarg; break;
		case 0x103: no_fork = 1; break;
		case 0x104: name_kills = 1; break;
		case 0x105: record_file = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("sci-run (libsci) %s\n", sci_version()); return 0;
		default:
			usage(stderr);
			return EXIT_SCI_ERROR;
		}
	}
	if (isolate_allowed && !oci_file)
		parse_opts.flags |= SCI_PARSE_ISOLATE_ALLOWED;
	if (check_file) {
		if (policy_file || dump || optind < argc) {
			fprintf(stderr, "sci-run: --check FILE takes no --policy, --dump-bpf or program\n");
			return EXIT_SCI_ERROR;
		}
		return do_check(check_file, isolate, isolate_all, learn, keep);
	}
	if (record_file) {
		if (policy_file || oci_file || isolate || isolate_all || dump || no_fork ||
		    name_kills || learn || keep) {
			fprintf(stderr, "sci-run: --record takes no policy options\n");
			return EXIT_SCI_ERROR;
		}
		if (optind >= argc) {
			fprintf(stderr, "sci-run: --record FILE -- PROGRAM: no program given\n");
			return EXIT_SCI_ERROR;
		}
		return do_record(record_file, &argv[optind]);
	}
	if (oci_file && policy_file) {
		fprintf(stderr, "sci-run: give --policy or --oci, not both\n");
		return EXIT_SCI_ERROR;
	}
	if (oci_caps && !oci_file) {
		fprintf(stderr, "sci-run: --oci-caps goes with --oci\n");
		return EXIT_SCI_ERROR;
	}
	if (dump && dump_fmt && strcmp(dump_fmt, "text") && strcmp(dump_fmt, "raw") &&
	    strncmp(dump_fmt, "raw:", 4)) {
		fprintf(stderr, "sci-run: --dump-bpf takes text, raw or raw:DEST, not '%s'\n",
			dump_fmt);
		return EXIT_SCI_ERROR;
	}
	if (no_fork && name_kills) {
		fprintf(stderr, "sci-run: --name-kills needs sci-run to stay: not with --no-fork\n");
		return EXIT_SCI_ERROR;
	}
	if (!dump && optind >= argc) {
		fprintf(stderr, "sci-run: no program given\n");
		usage(stderr);
		return EXIT_SCI_ERROR;
	}
	if (!policy_file && !oci_file && !isolate && !isolate_all) {
		fprintf(stderr, "sci-run: nothing to enforce: give --policy, --isolate or --isolate-all\n");
		return EXIT_SCI_ERROR;
	}
	if (oci_file) {
		if (load_oci(oci_file, oci_caps, isolate_allowed, &p, &lflags))
			return EXIT_SCI_ERROR;
	} else if (policy_file) {
		if (sci_policy_parse_file_opts(policy_file, &parse_opts, &p, &e)) {
			print_error(&e);
			return EXIT_SCI_ERROR;
		}
	} else {
		p = sci_policy_new(SCI_ACT_ALLOW);
		if (!p) {
			perror("sci-run");
			return EXIT_SCI_ERROR;
		}
	}
	if (apply_options(p, isolate, isolate_all, learn, keep)) {
		sci_policy_free(p);
		return EXIT_SCI_ERROR;
	}
	uses = sci_policy_uses(p);
	if (degrade)
		lflags |= SCI_LOAD_ALLOW_DEGRADE;

	if (dump) {
		struct sock_filter *insns = NULL;
		unsigned int ef = 0;
		size_t n = 0;

		if (degrade && (uses & SCI_USES_ISOLATE) && sci_isolate_available() != 1) {
			ef = SCI_EXPORT_DEGRADE;
			warn_cb(NULL, "this kernel does not support SECCOMP_RET_ISOLATE: isolate and isolate-learn are degraded to allow (the program below is what would be loaded)");
		}
		if (sci_policy_export(p, ef, &insns, &n, &e)) {
			print_error(&e);
			sci_policy_free(p);
			return EXIT_SCI_ERROR;
		}
		if (dump_as(dump_fmt, insns, n, uses, ef)) {
			free(insns);
			sci_policy_free(p);
			return EXIT_SCI_ERROR;
		}
		free(insns);
		sci_policy_free(p);
		return 0;
	}

	/* Refuse (or degrade) here, before anything is forked or loaded. */
	lo.flags = lflags | SCI_LOAD_DRY_RUN;
	lo.warn = warn_cb;
	if (sci_policy_load(p, &lo, &e)) {
		print_error(&e);
		if (e.code == -EOPNOTSUPP)
			fprintf(stderr, "sci-run: --allow-degrade runs the isolated syscalls without isolation\n");
		sci_policy_free(p);
		return EXIT_SCI_ERROR;
	}

	/* --no-fork: this process becomes PROGRAM, under the filter. */
	if (no_fork) {
		lo.warn = warned_cb;
		lo.flags = lflags;
		if (sci_policy_load(p, &lo, &e)) {
			fprintf(stderr, "sci-run: cannot load the policy: %s\n", e.message);
			sci_policy_free(p);
			return EXIT_SCI_ERROR;
		}
		sci_policy_free(p);
		execvp(argv[optind], &argv[optind]);
		c = errno;
		fprintf(stderr, "sci-run: %s: %s\n", argv[optind], strerror(c));
		return c == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
	}
	if (name_kills) {
		if (sci_policy_uses(p) & SCI_USES_USER_NOTIF) {
			fprintf(stderr, "sci-run: --name-kills: the policy uses user-notif itself\n");
			sci_policy_free(p);
			return EXIT_SCI_ERROR;
		}
		sn = sn_shared_new();
		if (!sn) {
			perror("sci-run: mmap");
			return EXIT_SCI_ERROR;
		}
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		perror("sci-run: pipe");
		return EXIT_SCI_ERROR;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("sci-run: fork");
		return EXIT_SCI_ERROR;
	}
	if (pid == 0) {
		close(pfd[0]);
		lo.flags = lflags | (sn ? SCI_LOAD_NOTIFY_KILLS : 0);
		lo.warn = warned_cb;
		memset(&rep, 0, sizeof(rep));
		if (sci_policy_load(p, &lo, &e)) {
			rep.code = EXIT_SCI_ERROR;
			snprintf(rep.msg, sizeof(rep.msg), "cannot load the policy: %s", e.message);
		} else {
			if (sn && lo.notify_fd >= 0)
				sn_child_handoff(sn, lo.notify_fd);
			execvp(argv[optind], &argv[optind]);
			rep.code = errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
			snprintf(rep.msg, sizeof(rep.msg), "%s: %s", argv[optind], strerror(errno));
		}
		if (write(pfd[1], &rep, sizeof(rep)) < 0)
			_exit(EXIT_SCI_ERROR);
		_exit(rep.code);
	}
	child_pid = pid;
	close(pfd[1]);
	sci_policy_free(p);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);

	if (sn) {
		memset(&kills, 0, sizeof(kills));
		kills.child = pid;
		listener = sn_parent_take(sn, pid);
		if (listener < 0 && listener != -ECHILD) {
			/* the child spins until it gets the fd: stop it */
			fprintf(stderr, "sci-run: --name-kills: cannot take the child's seccomp listener (%s)\n",
				strerror(-listener));
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return EXIT_SCI_ERROR;
		}
		if (listener >= 0)
			sn_serve_until_exit(listener, pid, sn_kill_handler, &kills);
	}
	do
		got = read(pfd[0], &rep, sizeof(rep));
	while (got < 0 && errno == EINTR);
	close(pfd[0]);
	if (got == (ssize_t)sizeof(rep)) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		fprintf(stderr, "sci-run: %s\n", rep.msg);
		return rep.code;
	}

	/* Wait without reaping, so that /proc/PID/sci can still be read. */
	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0) {
		if (errno != EINTR) {
			perror("sci-run: waitid");
			return EXIT_SCI_ERROR;
		}
	}
	if (listener >= 0 && kills.child_killed)
		fprintf(stderr, "sci-run: %s (pid %d) was killed by the policy: %s\n",
			argv[optind], (int)pid, kills.child_msg);
	else
		report_violation(argv[optind], pid, &si, uses);
	if (listener >= 0) {
		/* descendants still under the filter keep a supervisor */
		sn_serve_rest_in_background(listener, sn_kill_handler, &kills);
		close(listener);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("sci-run: waitpid");
			return EXIT_SCI_ERROR;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_SCI_ERROR;
}
