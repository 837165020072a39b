/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libsci: seccomp policies with System Call Isolation (SECCOMP_RET_ISOLATE).
 *
 * A struct sci_policy says, for each system call, what happens to it: the
 * usual seccomp actions (allow, log, errno, trap, trace, user-notif,
 * kill-thread, kill-process) and this project's two: isolate (run the
 * syscall on the SCI page tables, kill on a violation) and isolate-learn
 * (run it isolated, report violations but do not kill).  A policy is built
 * with the functions below or parsed from a policy file (sci-policy(5)),
 * compiled to classic BPF through libseccomp, and loaded with seccomp(2).
 *
 * Conventions
 *   - Functions that can fail return 0 (or a non-negative value) on success
 *     and a negative errno value on failure.  Those that take a
 *     struct sci_error * fill it on failure when it is not NULL: for a
 *     parse error with the file, line and column; otherwise with the code
 *     and a message (file empty, line and column 0).
 *   - The library has no global state and installs no signal handler.
 *   - Thread safety: distinct struct sci_policy objects can be used from
 *     distinct threads at the same time.  Functions that take a
 *     const struct sci_policy * do not modify it and can run concurrently
 *     on the same policy; functions that take a non-const pointer must not
 *     run concurrently with any other call on the same policy.  The
 *     compilation goes through libseccomp (a fresh filter context per call),
 *     which caches the kernel's seccomp features process-wide on first use.
 *     sci_policy_load() changes the calling thread (no_new_privs, the
 *     filter) or, with SCI_LOAD_TSYNC, every thread of the process.
 *
 * See libsci(3), sci-policy(5) and sci-run(1).
 */
#ifndef SCI_H
#define SCI_H

#include <linux/filter.h>	/* struct sock_filter */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SCI_VERSION_MAJOR 0
#define SCI_VERSION_MINOR 2
#define SCI_VERSION_MICRO 0

/* "0.2.0" (the shared library's soname is libsci.so.1) */
const char *sci_version(void);

/*
 * Extensible structs, as the kernel's and libseccomp's:
 *   - structs the caller fills (struct sci_parse_options,
 *     struct sci_load_options) start with a size: set it to sizeof the
 *     struct as your header has it and zero the rest (an initializer
 *     does).  A library newer than your header takes the fields you lack
 *     as 0; an older one refuses with -E2BIG the fields it does not know
 *     unless they are 0; a size smaller than the first fields is -EINVAL.
 *   - struct sci_cond has reserved fields that must be 0 (-EINVAL
 *     otherwise): later versions give them a meaning where 0 is today's.
 *   - structs the library fills (struct sci_error, struct sci_violation)
 *     end with reserved room that the library sets to 0, for later fields
 *     (struct sci_violation says which fields it has in @have).
 */

/*
 * The kernel ABI of the SCI patches (<linux/seccomp.h> of a patched
 * kernel); defined here for headers that lack it.
 */
#ifndef SECCOMP_RET_ISOLATE
#define SECCOMP_RET_ISOLATE	0x7f800000U /* allow, on the SCI page tables */
#endif
#ifndef SECCOMP_ISOLATE_LEARN
#define SECCOMP_ISOLATE_LEARN	0x00000001U /* log violations, do not kill */
#endif
#ifndef SECCOMP_ISOLATE_KEEP
#define SECCOMP_ISOLATE_KEEP	0x00000002U /* keep grants across syscalls */
#endif
#ifndef SECCOMP_ISOLATE_KEEP_DATA
#define SECCOMP_ISOLATE_KEEP_DATA 0x00000004U /* keep data grants only */
#endif

/*
 * Actions.  The values are the kernel's SECCOMP_RET_* return values, so an
 * action is also what the BPF program returns.
 */
#define SCI_ACT_KILL_PROCESS	0x80000000U
#define SCI_ACT_KILL_THREAD	0x00000000U
#define SCI_ACT_TRAP		0x00030000U
#define SCI_ACT_ERRNO(e)	(0x00050000U | ((uint32_t)(e) & 0x0000ffffU))
#define SCI_ACT_USER_NOTIF	0x7fc00000U
#define SCI_ACT_TRACE(n)	(0x7ff00000U | ((uint32_t)(n) & 0x0000ffffU))
#define SCI_ACT_LOG		0x7ffc0000U
#define SCI_ACT_ALLOW		0x7fff0000U
#define SCI_ACT_ISOLATE		0x7f800000U
#define SCI_ACT_ISOLATE_LEARN	(SCI_ACT_ISOLATE | SECCOMP_ISOLATE_LEARN)

/* Largest errno that SCI_ACT_ERRNO() accepts (the kernel's MAX_ERRNO). */
#define SCI_ERRNO_MAX		4095

/*
 * 1 if @action is one of the actions above with valid data (an errno up to
 * SCI_ERRNO_MAX, any 16-bit trace value, no data for the others), else 0.
 */
int sci_action_valid(uint32_t action);

/*
 * Write the policy-file spelling of @action into @buf ("allow",
 * "return EPERM", "trace 7", "isolate-learn"...).  Returns the length it
 * needed (like snprintf), or -EINVAL for an invalid action.
 */
int sci_action_format(uint32_t action, char *buf, size_t len);

/*
 * Argument comparisons; arg is 0 to 5, every comparison is on 64 bits.
 * The first seven have the values of libseccomp's SCMP_CMP_* (SCI_CMP_EQ ==
 * SCMP_CMP_EQ...), so code written for libseccomp means the same here.
 */
enum sci_cmp {
	SCI_CMP_NE = 1,		/* arg != value */
	SCI_CMP_LT = 2,		/* arg <  value (unsigned) */
	SCI_CMP_LE = 3,		/* arg <= value */
	SCI_CMP_EQ = 4,		/* arg == value */
	SCI_CMP_GE = 5,		/* arg >= value */
	SCI_CMP_GT = 6,		/* arg >  value */
	SCI_CMP_MASKED_EQ = 7,	/* (arg & mask) == value */
	SCI_CMP_MASKED_NE = 8,	/* (arg & mask) != value */
	SCI_CMP_ANY_SET = 9,	/* (arg & mask) != 0: minijail's "argN & MASK" */
	SCI_CMP_IN = 10,	/* (arg & ~mask) == 0: minijail's "argN in MASK" */
};

struct sci_cond {
	unsigned int arg;
	enum sci_cmp op;
	uint64_t value;		/* unused by ANY_SET and IN */
	uint64_t mask;		/* MASKED_EQ, MASKED_NE, ANY_SET and IN only */
	uint64_t reserved[2];	/* must be 0 */
};

#define SCI_COND(a, o, v)		((struct sci_cond){ .arg = (a), .op = (o), .value = (v) })
#define SCI_COND_MASK(a, o, m, v)	((struct sci_cond){ .arg = (a), .op = (o), .value = (v), .mask = (m) })

/* Errors: a negative errno, and where it comes from. */
struct sci_error {
	int code;		/* the negative errno also returned */
	unsigned int line;	/* 1-based; 0 when not about a file */
	unsigned int column;	/* 1-based; 0 when not about a position */
	char file[1024];	/* policy file (or buffer name), or "" */
	char message[1024];	/* what went wrong / what was expected */
	uint32_t reserved[8];	/* set to 0 by the library */
};

/*
 * Print @err as "file:line:column: error: message" (or "error: message"
 * when it is not about a file) followed by a newline.  Returns what fprintf
 * returned.
 */
int sci_error_print(const struct sci_error *err, FILE *out);

/* The policy: opaque. */
struct sci_policy;

/*
 * A new empty policy whose default action (for every syscall without a
 * rule) is @default_action.  Returns NULL with errno EINVAL (invalid
 * action) or ENOMEM.
 */
struct sci_policy *sci_policy_new(uint32_t default_action);
void sci_policy_free(struct sci_policy *policy);

int sci_policy_set_default(struct sci_policy *policy, uint32_t action);
uint32_t sci_policy_get_default(const struct sci_policy *policy);

/*
 * Add a rule: syscall @nr (x86_64 number, 0 to 4095) takes @action when all
 * @ncond conditions hold (always when @ncond is 0).  The rules of one
 * syscall are tried in the order they were added and the first whose
 * conditions hold decides; when none does, the default action applies.
 * -EINVAL: bad action, syscall number or condition; -EEXIST: the syscall
 * already has an unconditional rule, so this one could never apply.
 */
int sci_policy_add_rule(struct sci_policy *policy, uint32_t action, int nr,
			unsigned int ncond, const struct sci_cond *cond);
/* The same by name; -ENOENT for a name that is not an x86_64 syscall. */
int sci_policy_add_rule_name(struct sci_policy *policy, uint32_t action,
			     const char *name, unsigned int ncond,
			     const struct sci_cond *cond);

/* 1 if syscall @nr has at least one rule, else 0. */
int sci_policy_has_rule(const struct sci_policy *policy, int nr);

/*
 * Turn every isolate action of the policy (rules and default) into
 * isolate-learn.  Returns how many were changed.
 */
int sci_policy_set_learn(struct sci_policy *policy);

/*
 * Policy flags.
 *
 * SCI_POLICY_KEEP_GRANTS: the isolated syscalls of a task keep what they
 * were granted (kernel pages mapped into its SCI page tables) for its next
 * isolated syscalls, instead of starting each one from the premapped set
 * (SECCOMP_ISOLATE_KEEP).  Much faster for programs that repeat the same
 * syscalls, but weaker: a jump into the middle of a function on a code
 * page that an earlier syscall executed, or into a function that starts
 * on such a page, is no longer caught.  Policy files set it with the line
 * "@keep-grants".
 *
 * SCI_POLICY_KEEP_DATA: only the data grants are kept
 * (SECCOMP_ISOLATE_KEEP_DATA): every instruction fetch of every isolated
 * syscall is still checked, and about half of the faults are saved.
 * "@keep-grants data" in a policy file.  SCI_POLICY_KEEP_GRANTS wins when
 * both are set.
 *
 * Where the kernel cannot keep grants, sci_policy_load() isolates without
 * keeping (stricter, slower) and warns.
 */
#define SCI_POLICY_KEEP_GRANTS	0x1
#define SCI_POLICY_KEEP_DATA	0x2
/* Set the policy's flags (replacing them); -EINVAL for an unknown flag. */
int sci_policy_set_flags(struct sci_policy *policy, unsigned int flags);
unsigned int sci_policy_get_flags(const struct sci_policy *policy);

#define SCI_USES_ISOLATE	0x1	/* some rule or the default isolates */
#define SCI_USES_ISOLATE_LEARN	0x2	/* ... in learn mode */
#define SCI_USES_USER_NOTIF	0x4	/* needs a user-notification listener */
unsigned int sci_policy_uses(const struct sci_policy *policy);

/*
 * What the policy decides for syscall @nr with arguments @args (6 values),
 * computed from the rules themselves (not from the BPF): the reference
 * semantics that the compiled filter implements for x86_64.
 */
uint32_t sci_policy_verdict(const struct sci_policy *policy, int nr,
			    const uint64_t args[6]);

/* Print the policy in readable form (sci-run --check). 0 or -errno. */
int sci_policy_dump(const struct sci_policy *policy, FILE *out);

/*
 * Parsing (sci-policy(5)).  On success *out is a new policy; on failure
 * *out is NULL, @err says where and what, and the return value is -EINVAL
 * for a syntax or meaning error, or the errno of a failed open/read.
 * @name names a buffer in messages and is the base of relative @include
 * paths (its directory; the current directory when @name is NULL).
 */
#define SCI_PARSE_NO_INCLUDE	0x1	/* @include is an error */
int sci_policy_parse_file(const char *path, unsigned int flags,
			  struct sci_policy **out, struct sci_error *err);
int sci_policy_parse_buffer(const char *buf, size_t len, const char *name,
			    unsigned int flags, struct sci_policy **out,
			    struct sci_error *err);

/*
 * Compile to classic BPF for x86_64 (other architectures, and x32 syscall
 * numbers, kill the process).  On success *insns is a malloc()ed array
 * of *len instructions; free() it.  Isolate actions come out as
 * SECCOMP_RET_ISOLATE (| SECCOMP_ISOLATE_LEARN, | SECCOMP_ISOLATE_KEEP or
 * SECCOMP_ISOLATE_KEEP_DATA with the policy's flags unless
 * SCI_EXPORT_NO_KEEP); with
 * SCI_EXPORT_DEGRADE as SECCOMP_RET_ALLOW.  -E2BIG when the filter would
 * exceed the kernel's 4096 instructions; @err then names the rule at which
 * the policy crosses the limit ("the rule at FILE:LINE:COL (NAME)", or
 * "rule N of the policy (NAME, its rule M)" for rules added through the
 * API, N counting from 1 in the order they were added).
 */
#define SCI_EXPORT_DEGRADE	0x1
#define SCI_EXPORT_NO_KEEP	0x2
int sci_policy_export(const struct sci_policy *policy, unsigned int flags,
		      struct sock_filter **insns, size_t *len,
		      struct sci_error *err);

/* Print a BPF program, one instruction a line, isolate actions by name. */
int sci_bpf_dump(const struct sock_filter *insns, size_t len, FILE *out);

/*
 * Is SECCOMP_RET_ISOLATE available?  Asks the kernel
 * (seccomp(SECCOMP_GET_ACTION_AVAIL)).  1: yes; 0: no (EOPNOTSUPP, or a
 * kernel without seccomp or without the query); a negative errno when the
 * kernel's answer could not be understood.
 */
int sci_isolate_available(void);

/*
 * Loading.  Compiles @policy and installs it on the calling thread with
 * seccomp(SECCOMP_SET_MODE_FILTER).
 *
 * Isolation: if the policy uses isolate or isolate-learn and the kernel
 * does not support SECCOMP_RET_ISOLATE, the load is refused with
 * -EOPNOTSUPP and an error message that says so; nothing is installed.
 * With SCI_LOAD_ALLOW_DEGRADE every isolate action becomes allow instead
 * and the warning callback is called (stderr when it is NULL) with a
 * message that says so.  The library never installs a filter that returns
 * SECCOMP_RET_ISOLATE on a kernel that does not report the action.
 *
 * Flags:
 *   SCI_LOAD_NO_NNP         do not set no_new_privs first (it is set by
 *                           default; without it the caller needs
 *                           CAP_SYS_ADMIN)
 *   SCI_LOAD_TSYNC          SECCOMP_FILTER_FLAG_TSYNC: every thread
 *   SCI_LOAD_LOG            SECCOMP_FILTER_FLAG_LOG: log the actions
 *                           that the kernel logs on request
 *   SCI_LOAD_ALLOW_DEGRADE  opt-in: run isolate as allow where the kernel
 *                           cannot isolate (warns)
 *   SCI_LOAD_DRY_RUN        do everything but set no_new_privs and install
 *                           the filter (the probe, the refusal, the
 *                           degradation and its warning)
 *
 * A policy with user-notify is installed with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER and the listener is returned in
 * opts->notify_fd (else -1); the caller owns it.  @opts may be NULL
 * (no flags, warnings to stderr).
 */
#define SCI_LOAD_NO_NNP		0x01
#define SCI_LOAD_TSYNC		0x02
#define SCI_LOAD_LOG		0x04
#define SCI_LOAD_ALLOW_DEGRADE	0x08
#define SCI_LOAD_DRY_RUN	0x10

typedef void (*sci_warn_fn)(void *arg, const char *message);

/*
 * Extensible (see the top of this file): @size is
 * sizeof(struct sci_load_options); at least up to @flags.  0 is
 * SCI_LOAD_OPTIONS_SIZE_VER0, the fields of libsci 0.1, for code written
 * before @size existed ("= { 0 }", then the fields).  The out fields are
 * written only when @size covers them.
 */
struct sci_load_options {
	size_t size;		/* sizeof(struct sci_load_options), or 0 */
	unsigned int flags;
	sci_warn_fn warn;	/* NULL: "libsci: warning: ..." on stderr */
	void *warn_arg;
	int notify_fd;		/* out */
	int degraded;		/* out: 1 if isolate was degraded to allow */
};

#define SCI_LOAD_OPTIONS_SIZE_VER0 \
	(offsetof(struct sci_load_options, degraded) + sizeof(int))

int sci_policy_load(const struct sci_policy *policy,
		    struct sci_load_options *opts, struct sci_error *err);

/*
 * The per-task SCI violation record, /proc/PID/sci on a patched kernel
 * (readable by the parent, also while the child is a zombie).
 */
#define SCI_VIOL_VIOLATIONS	0x01
#define SCI_VIOL_ENFORCED	0x02
#define SCI_VIOL_SYSCALL	0x04
#define SCI_VIOL_TARGET		0x08
#define SCI_VIOL_CALLER		0x10
#define SCI_VIOL_LAST_GRANT	0x20
#define SCI_VIOL_REASON		0x40

struct sci_violation {
	unsigned int have;	/* SCI_VIOL_* of the fields that were there */
	long violations;
	int enforced;
	long syscall;
	char target[256];	/* e.g. "some_function+0x12/0x80" */
	char caller[256];
	char last_grant[256];
	char reason[64];	/* e.g. "unverified jump", "write to SCI state" */
	uint64_t reserved[8];	/* set to 0 by the library */
};

/*
 * Parse the text of a record: "key: value" lines, unknown keys and
 * malformed lines ignored, values truncated to the buffers.  Returns 0.
 */
int sci_violation_parse(const char *text, size_t len,
			struct sci_violation *v);
/* Read /proc/PID/sci.  -ENOENT: the kernel keeps no record. */
int sci_violation_read(pid_t pid, struct sci_violation *v);

/* Syscall names and numbers (x86_64, through libseccomp). */
/* The number of @name, or -ENOENT (not a syscall on x86_64). */
int sci_syscall_nr(const char *name);
/* The name of @nr into @buf; -ENOENT if libseccomp knows no such number. */
int sci_syscall_name(int nr, char *buf, size_t len);
/*
 * The known syscall name nearest to @name (edit distance) into @buf.
 * 0 if there is one close enough, -ENOENT if not.
 */
int sci_syscall_suggest(const char *name, char *buf, size_t len);

/*
 * OCI runtime-spec seccomp profiles (libsci/src/oci.c, needs json-c).
 *
 * The JSON is the linux.seccomp object of an OCI config.json (what runc and
 * crun read; a whole config.json is accepted too) or a Docker seccomp
 * profile (moby's profiles/seccomp/default.json): defaultAction,
 * defaultErrnoRet, architectures, flags, and syscalls with names, action,
 * errnoRet, args (index, value, valueTwo, op: every SCMP_CMP_*) and moby's
 * includes/excludes (arches, caps, minKernel).  Actions: every SCMP_ACT_*
 * (SCMP_ACT_KILL is kill-thread, SCMP_ACT_NOTIFY user-notif) plus
 * SCMP_ACT_ISOLATE and SCMP_ACT_ISOLATE_LEARN.  Names that are not x86_64
 * syscalls are ignored; errnoRet defaults to EPERM; a rule with several
 * conditions on one argument becomes one rule per condition (as runc does).
 * Other architectures than x86_64 are killed (see sci_policy_export()).
 * See libsci(3), OCI PROFILES.
 *
 * SCI_OCI_ISOLATE_ALLOWED: every SCMP_ACT_ALLOW (rules and default) becomes
 * isolate, except io_uring_setup, io_uring_enter and io_uring_register,
 * which fail with ENOSYS (their work would run unisolated).
 */
#define SCI_OCI_ISOLATE_ALLOWED	0x1

/* Docker's default capability set (moby oci/caps/defaults.go), bit N = cap N. */
#define SCI_OCI_DOCKER_CAPS	((1ULL << 0) | (1ULL << 1) | (1ULL << 3) | \
				 (1ULL << 4) | (1ULL << 5) | (1ULL << 6) | \
				 (1ULL << 7) | (1ULL << 8) | (1ULL << 10) | \
				 (1ULL << 13) | (1ULL << 18) | (1ULL << 27) | \
				 (1ULL << 29) | (1ULL << 31))

struct sci_oci_options {
	unsigned int flags;	/* SCI_OCI_* */
	uint64_t caps;		/* the container's capabilities, bit N = cap N,
				 * for includes/excludes caps (0: none) */
	const char *kernel;	/* "MAJOR.MINOR[.PATCH]" for minKernel;
				 * NULL: this kernel (uname(2)) */
	/* out, on success */
	unsigned int load_flags;	/* SCI_LOAD_TSYNC, SCI_LOAD_LOG from "flags" */
	unsigned int rules;		/* rules added to the policy */
	unsigned int ignored_names;	/* names that are not x86_64 syscalls */
	unsigned int skipped_rules;	/* rules that includes/excludes ruled out,
					 * and redundant ones */
	unsigned long reserved[8];	/* must be 0 */
};

/*
 * Parse an OCI/Docker seccomp profile.  @opts may be NULL (no flags, no
 * capabilities, this kernel).  Errors as for sci_policy_parse_file(): a
 * JSON syntax error has its line and column, a meaning error names the
 * member ("syscalls[3].args[0]: unknown op 'SCMP_CMP_FOO'").
 */
int sci_policy_parse_oci_file(const char *path, struct sci_oci_options *opts,
			      struct sci_policy **out, struct sci_error *err);
int sci_policy_parse_oci_buffer(const char *buf, size_t len, const char *name,
				struct sci_oci_options *opts,
				struct sci_policy **out, struct sci_error *err);
/* A capability's number from its name ("CAP_SYS_ADMIN" or "sys_admin"). */
int sci_cap_nr(const char *name);
/*
 * A comma-separated capability list into a set: names as sci_cap_nr()
 * takes them, "docker" (or "default": SCI_OCI_DOCKER_CAPS), "all", "none".
 */
int sci_caps_parse(const char *list, uint64_t *caps, struct sci_error *err);

/*
 * Write a BPF program as the raw array of struct sock_filter (8 bytes per
 * instruction, host byte order): what bwrap --seccomp FD reads, and
 * what prctl(PR_SET_SECCOMP) and seccomp(2) take as struct sock_fprog's
 * filter.  Returns 0 or a negative errno (-EINVAL for an empty or too long
 * program).
 */
int sci_bpf_write_raw(const struct sock_filter *insns, size_t len, int fd);

/*
 * ---- minijail policy files: parse options, --isolate-allowed ----
 *
 * struct sci_parse_options is extensible (see the top of this file): set
 * @size to sizeof(struct sci_parse_options) as your header has it (zero
 * the rest with an initializer); at least up to @flags.  A library older
 * than your header refuses fields it does not know with -E2BIG unless
 * they are 0; a newer one takes what is missing as 0.
 *
 * @include_root: where absolute @include paths are resolved
 * ("@include /usr/share/policy/x.policy" reads
 * INCLUDE_ROOT/usr/share/policy/x.policy); NULL: as they are.  Relative
 * paths are relative to the directory of the including file, as in
 * minijail.
 *
 * @warn: notes and warnings of the parser ("file:line:col: note: ..."):
 * an ignored @frequency, an empty policy.  NULL: "libsci: ..." on stderr.
 *
 * SCI_PARSE_ISOLATE_ALLOWED: sci_policy_isolate_allowed() on the result.
 */
#define SCI_PARSE_ISOLATE_ALLOWED	0x2

struct sci_parse_options {
	size_t size;		/* sizeof(struct sci_parse_options) */
	unsigned int flags;	/* SCI_PARSE_* */
	const char *include_root;
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
};

int sci_policy_parse_file_opts(const char *path,
			       const struct sci_parse_options *opts,
			       struct sci_policy **out, struct sci_error *err);
int sci_policy_parse_buffer_opts(const char *buf, size_t len, const char *name,
				 const struct sci_parse_options *opts,
				 struct sci_policy **out, struct sci_error *err);

/*
 * Add SCI to a policy written for plain seccomp: every allow (rules, and
 * the default) becomes isolate; io_uring_setup, io_uring_enter and
 * io_uring_register, whose work runs unisolated in kernel threads, fail
 * with ENOSYS instead.  Returns how many actions changed, or a negative
 * errno.
 */
int sci_policy_isolate_allowed(struct sci_policy *policy);

/*
 * sci_policy_add_rule() and sci_policy_add_rule_name() that say why a rule
 * is refused, as the parser does: "condition 2: 'arg7' is not a syscall
 * argument...", "unknown syscall 'raed' (did you mean 'read'?)".
 */
int sci_policy_add_rule_err(struct sci_policy *policy, uint32_t action, int nr,
			    unsigned int ncond, const struct sci_cond *cond,
			    struct sci_error *err);
int sci_policy_add_rule_name_err(struct sci_policy *policy, uint32_t action,
				 const char *name, unsigned int ncond,
				 const struct sci_cond *cond,
				 struct sci_error *err);

/*
 * SCI_LOAD_NOTIFY_KILLS (sci_policy_load()): every kill-process that the
 * filter returns (rules, default, other architectures and x32 numbers)
 * becomes user-notif and the listener is returned in opts->notify_fd, so
 * that a supervisor can name the syscall before it kills the process
 * (sci-run --name-kills).  The supervisor must kill: without one, those
 * syscalls fail with ENOSYS.  A program under such a filter cannot install
 * a filter with a listener of its own (EBUSY).  -EINVAL for a policy that
 * uses user-notif.
 */
#define SCI_LOAD_NOTIFY_KILLS	0x20

/*
 * SCI_LOAD_WAIT_KILLABLE (sci_policy_load(), a policy with user-notif):
 * SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (Linux 6.0): once the supervisor
 * has received a notification, only a fatal signal interrupts the task's
 * wait for the answer.  Without it any signal with a handler makes the
 * syscall fail with EINTR before it ran when the handler lacks
 * SA_RESTART, even close() or kill(), which programs do not retry.  Before
 * the supervisor receives the notification a signal still interrupts: the
 * window narrows, it does not close.  A kernel without the flag: -EINVAL
 * from the kernel, as for any unknown flag.
 */
#define SCI_LOAD_WAIT_KILLABLE	0x40

#ifdef __cplusplus
}
#endif

#endif /* SCI_H */
