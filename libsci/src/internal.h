/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libsci internals: shared between the library's files and its tests. */
#ifndef SCI_INTERNAL_H
#define SCI_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "sci.h"

#define SCI_NR_MAX	4095		/* largest syscall number in a rule */
#define SCI_NARGS	6
#define SCI_BPF_MAXINSNS 4096		/* the kernel's BPF_MAXINSNS */

#define SCI_RET_ACTION_FULL 0xffff0000U
#define SCI_RET_DATA	0x0000ffffU

/* One comparison as written (SCI_CMP_*). */
struct sci_atom {
	uint8_t arg;
	uint8_t op;
	uint64_t value;
	uint64_t mask;
};

/* A conjunction of atoms; n == 0 is "true". */
struct sci_clause {
	unsigned int n;
	struct sci_atom *atoms;
};

/* A disjunction of clauses; n == 0 is "true" (no condition). */
struct sci_expr {
	unsigned int n;
	struct sci_clause *clauses;
};

struct sci_arm {
	struct sci_expr cond;
	uint32_t action;
	char *origin;		/* "file:line:col" of the rule, or NULL */
	unsigned int seq;	/* 0-based: the order in which rules were added */
};

struct sci_sysrule {
	int nr;
	unsigned int narms;
	struct sci_arm *arms;
};

struct sci_policy {
	uint32_t def;
	unsigned int flags;		/* SCI_POLICY_* */
	unsigned int nsys, cap;
	struct sci_sysrule *sys;	/* sorted by nr */
	unsigned int nrules;		/* rules added (the next arm's seq) */
};

/* policy.c */
/* The SECCOMP_ISOLATE_KEEP* bit of @p's flags (0 when it keeps nothing). */
uint32_t sci__keep_bits(const struct sci_policy *p);
struct sci_sysrule *sci__sysrule(const struct sci_policy *p, int nr);
struct sci_sysrule *sci__sysrule_get(struct sci_policy *p, int nr);
int sci__add_arm(struct sci_policy *p, int nr, struct sci_expr *cond,
		 uint32_t action, const char *origin);
void sci__expr_free(struct sci_expr *e);
bool sci__atom_eval(const struct sci_atom *a, const uint64_t args[6]);
bool sci__expr_eval(const struct sci_expr *e, const uint64_t args[6]);
int sci__atom_check(unsigned int arg, unsigned int op, uint64_t value,
		    uint64_t mask);
void sci__set_error(struct sci_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The caller's extensible struct @src of @usize bytes into @dst, of the
 * @ksize bytes this library knows (the kernel's copy_struct_from_user()):
 * what the caller lacks is 0; -EINVAL if @usize < @min; -E2BIG if the
 * caller has non-zero bytes beyond @ksize.  @src NULL: all 0.
 */
int sci__copy_struct(void *dst, size_t ksize, const void *src, size_t usize,
		     size_t min, const char *name, struct sci_error *err);
const char *sci__errno_name(int e);

/* compile.c */
/*
 * Replace, in @insns, exactly the BPF_RET|BPF_K instructions whose k is
 * @from by @to.  Returns how many were replaced.
 */
unsigned int sci__rewrite_ret(struct sock_filter *insns, size_t len,
			      uint32_t from, uint32_t to);
/*
 * The two trace values used as placeholders for isolate and isolate-learn
 * when compiling @p: the first free values (not used by any trace action
 * of @p) from a fixed list.
 */
void sci__placeholders(const struct sci_policy *p, uint16_t *iso,
		       uint16_t *learn);
/* Export without any rewrite (placeholders still in), for the tests. */
int sci__export_raw(const struct sci_policy *p, struct sock_filter **insns,
		    size_t *len, uint16_t *iso, uint16_t *learn,
		    struct sci_error *err);

/* consts.c */
struct sci_const {
	const char *name;
	uint64_t value;
	bool is_errno;
	bool alias;		/* another name of the same errno */
};
extern const struct sci_const sci__consts[];
extern const unsigned int sci__nconsts;
const struct sci_const *sci__const_lookup(const char *name, size_t len);

struct sci_group {
	const char *name;		/* without the '@' */
	const char *const *members;
};
extern const struct sci_group sci__groups[];
extern const unsigned int sci__ngroups;

/* names.c */
struct sci_syscall {
	const char *name;
	int nr;
};
extern const struct sci_syscall sci__syscalls[];	/* sorted by name */
extern const unsigned int sci__nsyscalls;
const char *sci__syscall_name(int nr);
unsigned int sci__edit_distance(const char *a, size_t alen, const char *b,
				size_t blen, unsigned int limit);

#endif
