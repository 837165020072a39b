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

static int do_check(const char *file, const char *isolate, int isolate_all,
		    int learn, unsigned int keep)
{
	struct sock_filter *insns = NULL;
	struct sci_policy *p = NULL;
	struct sci_error e;
	unsigned int uses;
	size_t n = 0;
	int avail;

	if (sci_policy_parse_file(file, 0, &p, &e)) {
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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "isolate", required_argument, NULL, 'i' },
		{ "isolate-all", no_argument, NULL, 'a' },
		{ "learn", no_argument, NULL, 'l' },
		{ "keep-grants", optional_argument, NULL, 'k' },
		{ "check", required_argument, NULL, 'c' },
		{ "dump-bpf", no_argument, NULL, 'd' },
		{ "allow-degrade", no_argument, NULL, 'D' },
		{ "log", no_argument, NULL, 'L' },
		{ "no-nnp", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy_file = NULL, *check_file = NULL, *isolate = NULL;
	int isolate_all = 0, learn = 0, dump = 0, degrade = 0, c;
	unsigned int keep = 0;
	unsigned int lflags = 0, uses;
	struct sci_load_options lo = { 0 };
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
		case 'd': dump = 1; break;
		case 'D': degrade = 1; break;
		case 'L': lflags |= SCI_LOAD_LOG; break;
		case 'N': lflags |= SCI_LOAD_NO_NNP; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("sci-run (libsci) %s\n", sci_version()); return 0;
		default:
			usage(stderr);
			return EXIT_SCI_ERROR;
		}
	}
	if (check_file) {
		if (policy_file || dump || optind < argc) {
			fprintf(stderr, "sci-run: --check FILE takes no --policy, --dump-bpf or program\n");
			return EXIT_SCI_ERROR;
		}
		return do_check(check_file, isolate, isolate_all, learn, keep);
	}
	if (!dump && optind >= argc) {
		fprintf(stderr, "sci-run: no program given\n");
		usage(stderr);
		return EXIT_SCI_ERROR;
	}
	if (!policy_file && !isolate && !isolate_all) {
		fprintf(stderr, "sci-run: nothing to enforce: give --policy, --isolate or --isolate-all\n");
		return EXIT_SCI_ERROR;
	}
	if (policy_file) {
		if (sci_policy_parse_file(policy_file, 0, &p, &e)) {
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
		sci_bpf_dump(insns, n, stdout);
		free(insns);
		sci_policy_free(p);
		return 0;
	}

	/* Refuse (or degrade) here, before anything is forked or loaded. */
	lo.flags = lflags | SCI_LOAD_DRY_RUN;
	lo.warn = warn_cb;
	if (sci_policy_load(p, &lo, &e)) {
		print_error(&e);
		sci_policy_free(p);
		return EXIT_SCI_ERROR;
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
		lo.flags = lflags;
		lo.warn = NULL;
		memset(&rep, 0, sizeof(rep));
		if (sci_policy_load(p, &lo, &e)) {
			rep.code = EXIT_SCI_ERROR;
			snprintf(rep.msg, sizeof(rep.msg), "cannot load the policy: %s", e.message);
		} else {
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
	report_violation(argv[optind], pid, &si, uses);
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
