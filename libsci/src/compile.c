// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Compiling a policy to BPF.
 *
 * libseccomp dispatches on the architecture and the syscall number; the
 * conditions of a syscall are compiled here.  libseccomp 2.5 takes at most
 * one comparison per argument in a rule, does not order rules, and knows
 * neither SECCOMP_RET_ISOLATE nor "first matching rule", so it only ever
 * sees unconditional rules:
 *  - a syscall whose first rule has no condition gets that rule's action;
 *  - a syscall with conditions gets SCMP_ACT_TRACE(placeholder), with a
 *    placeholder of its own, and its rules are compiled here into a block
 *    of BPF appended after libseccomp's program: each rule in order, the
 *    clauses of its condition (||) in order, each comparison on the two
 *    32-bit halves of the 64-bit argument (2 to 6 instructions, whatever
 *    the values: a range costs two comparisons), jumping to the rule's
 *    action when a clause holds and to the next clause or rule when not.
 *    Exactly the BPF_RET|BPF_K instructions returning a syscall's
 *    placeholder in libseccomp's program become a BPF_JA to its block;
 *  - isolate and isolate-learn are given to libseccomp (and put in the
 *    blocks) as SCMP_ACT_TRACE(placeholder), with placeholder values that
 *    no trace action of this policy uses, and exactly the BPF_RET|BPF_K
 *    instructions returning a placeholder are rewritten afterwards.
 * Large policies use libseccomp's binary tree of syscall numbers
 * (SCMP_FLTATR_CTL_OPTIMIZE 2, libseccomp >= 2.5) where the library has it.
 * A filter over the kernel's 4096 instructions is refused, naming the rule
 * at which the policy crosses the limit (found by compiling prefixes of
 * the policy's rules in the order they were added).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* ---- placeholders ---- */

void sci__placeholders(const struct sci_policy *p, uint16_t *iso,
		       uint16_t *learn)
{
	unsigned int i, j, found = 0;
	uint32_t v;

	for (v = 0x5c15; found < 2; v = (v + 1) & 0xffff) {
		uint32_t t = SCI_ACT_TRACE(v);
		bool used = p->def == t;

		for (i = 0; i < p->nsys && !used; i++)
			for (j = 0; j < p->sys[i].narms && !used; j++)
				used = p->sys[i].arms[j].action == t;
		if (used)
			continue;
		if (found++ == 0)
			*iso = (uint16_t)v;
		else
			*learn = (uint16_t)v;
	}
}

static uint32_t map_action(uint32_t a, uint16_t iso, uint16_t learn)
{
	if (a == SCI_ACT_ISOLATE)
		return SCMP_ACT_TRACE(iso);
	if (a == SCI_ACT_ISOLATE_LEARN)
		return SCMP_ACT_TRACE(learn);
	return a;
}

static const char *sysname(int nr, char *buf, size_t len)
{
	if (sci_syscall_name(nr, buf, len) < 0)
		snprintf(buf, len, "%d", nr);
	return buf;
}

/* Trace values taken: the policy's trace actions and the placeholders. */
struct traces {
	uint8_t used[65536 / 8];
	uint32_t next;
};

static void trace_mark(struct traces *t, uint32_t action)
{
	if ((action & SCI_RET_ACTION_FULL) == 0x7ff00000U)
		t->used[(action & 0xffff) / 8] |= (uint8_t)(1u << (action & 7));
}

/* A trace value that nothing uses yet, or -1. */
static int trace_take(struct traces *t)
{
	unsigned int i;

	for (i = 0; i < 65536; i++, t->next = (t->next + 1) & 0xffff)
		if (!(t->used[t->next / 8] & (1u << (t->next & 7)))) {
			trace_mark(t, SCI_ACT_TRACE(t->next));
			return (int)t->next;
		}
	return -1;
}

/* ---- the conditions of one syscall, in BPF ---- */

#define GEN_MAX		65536	/* instructions in one syscall's block */
#define ATOM_MAX	6	/* instructions of one comparison */
#define JMP_MAX		255	/* jt, jf */
#define ARG_LO(n)	((uint32_t)(offsetof(struct seccomp_data_x86_64, args) + 8 * (n)))

/* struct seccomp_data (<linux/seccomp.h>), little-endian x86_64 */
struct seccomp_data_x86_64 {
	int nr;
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t args[6];
};

/*
 * A block is generated backwards, from its last instruction: r[0] is the
 * last one, and a label is a position in r.  A jump at position p to a
 * label q < p skips p - q - 1 instructions.
 */
struct gen {
	struct sock_filter *r;
	size_t n, cap;
	int err;		/* -E2BIG (over GEN_MAX), -ENOMEM, -EFAULT (a bug) */
};

static size_t emit(struct gen *g, struct sock_filter in)
{
	if (!g->err && g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct sock_filter *r;

		if (cap > GEN_MAX)
			g->err = -E2BIG;
		else if (!(r = realloc(g->r, cap * sizeof(*r))))
			g->err = -ENOMEM;
		else {
			g->r = r;
			g->cap = cap;
		}
	}
	if (g->err)
		return 0;
	g->r[g->n] = in;
	return g->n++;
}

static size_t jump(struct gen *g, uint16_t op, uint32_t k, size_t t, size_t f)
{
	size_t p = g->n;

	if (g->err)
		return 0;
	if (t >= p || f >= p || p - t - 1 > JMP_MAX || p - f - 1 > JMP_MAX) {
		g->err = -EFAULT;
		return 0;
	}
	return emit(g, (struct sock_filter)BPF_JUMP(BPF_JMP | op | BPF_K, k,
						     (uint8_t)(p - t - 1),
						     (uint8_t)(p - f - 1)));
}

/*
 * Make @label reachable by the conditional jumps of the comparison about
 * to be generated: beyond their 255 instructions, through a BPF_JA
 * placed after the comparison (its last instruction always jumps, so
 * nothing falls into it).  The new label replaces the old one for the
 * comparisons before.
 */
static void near(struct gen *g, size_t *label)
{
	if (!g->err && g->n + ATOM_MAX + 2 - *label > JMP_MAX)
		*label = emit(g, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
			      (uint32_t)(g->n - *label - 1), 0, 0));
}

/* A return of @action: a recent one, or a new one. */
static size_t ret_label(struct gen *g, uint32_t action)
{
	size_t i;

	for (i = g->n; i > 0 && g->n - i < 64 && !g->err; i--)
		if (g->r[i - 1].code == (BPF_RET | BPF_K) && g->r[i - 1].k == action)
			return i - 1;
	return emit(g, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

/* "A = word at @off [& @mask]; A <op> @k ? t : f". */
static size_t test32(struct gen *g, uint32_t off, uint32_t mask, uint16_t op,
		     uint32_t k, size_t t, size_t f)
{
	jump(g, op, k, t, f);
	if (mask != UINT32_MAX)
		emit(g, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, mask));
	return emit(g, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, off));
}

/* (word & mask) == value ? t : f */
static size_t masked32(struct gen *g, uint32_t off, uint32_t mask,
		       uint32_t value, size_t t, size_t f)
{
	if (value & ~mask)
		return f;
	if (!mask)
		return t;
	if (!value)
		return test32(g, off, UINT32_MAX, BPF_JSET, mask, f, t);
	return test32(g, off, mask, BPF_JEQ, value, t, f);
}

#define SWAP(a, b) do { size_t s_ = (a); (a) = (b); (b) = s_; } while (0)

/* The comparison @a: its first instruction (or @t or @f when constant). */
static size_t gen_atom(struct gen *g, const struct sci_atom *a, size_t t,
		       size_t f)
{
	uint32_t lo = ARG_LO(a->arg), hi = lo + 4;
	uint32_t vl = (uint32_t)a->value, vh = (uint32_t)(a->value >> 32);
	uint32_t ml = (uint32_t)a->mask, mh = (uint32_t)(a->mask >> 32);
	uint8_t op = a->op;
	size_t l, x;

	switch (op) {
	case SCI_CMP_NE:
		SWAP(t, f);
		/* fall through */
	case SCI_CMP_EQ:
		l = test32(g, lo, UINT32_MAX, BPF_JEQ, vl, t, f);
		return test32(g, hi, UINT32_MAX, BPF_JEQ, vh, l, f);
	case SCI_CMP_LT:		/* !(x >= v) */
		SWAP(t, f);
		op = SCI_CMP_GE;
		break;
	case SCI_CMP_LE:		/* !(x > v) */
		SWAP(t, f);
		op = SCI_CMP_GT;
		break;
	case SCI_CMP_GT:
	case SCI_CMP_GE:
		break;
	case SCI_CMP_MASKED_NE:
		SWAP(t, f);
		/* fall through */
	case SCI_CMP_MASKED_EQ:
		l = masked32(g, lo, ml, vl, t, f);
		return masked32(g, hi, mh, vh, l, f);
	case SCI_CMP_ANY_SET:
		l = ml ? test32(g, lo, UINT32_MAX, BPF_JSET, ml, t, f) : f;
		return mh ? test32(g, hi, UINT32_MAX, BPF_JSET, mh, t, l) : l;
	case SCI_CMP_IN:		/* (x & ~mask) == 0 */
		l = masked32(g, lo, ~ml, 0, t, f);
		return masked32(g, hi, ~mh, 0, l, f);
	default:
		g->err = -EFAULT;
		return f;
	}
	/* x > v, x >= v: the high halves decide unless they are equal */
	if (op == SCI_CMP_GE && !vl)
		return test32(g, hi, UINT32_MAX, BPF_JGE, vh, t, f);
	l = test32(g, lo, UINT32_MAX, op == SCI_CMP_GT ? BPF_JGT : BPF_JGE, vl, t, f);
	if (!vh)
		return test32(g, hi, UINT32_MAX, BPF_JEQ, 0, l, t);
	x = jump(g, BPF_JEQ, vh, l, f);
	jump(g, BPF_JGT, vh, t, x);
	return emit(g, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, hi));
}

static bool always(const struct sci_expr *e)
{
	unsigned int c;

	for (c = 0; c < e->n; c++)
		if (!e->clauses[c].n)
			return true;
	return !e->n;
}

/*
 * The rules of @s (first match wins, then @def), backwards into @g.
 * Returns the label where the block starts.
 */
static size_t gen_sys(struct gen *g, const struct sci_sysrule *s, uint32_t def,
		      uint16_t iso, uint16_t learn)
{
	unsigned int u, j, c, a;
	size_t next;

	for (u = 0; u < s->narms && !always(&s->arms[u].cond); u++)
		;
	next = ret_label(g, u < s->narms ? map_action(s->arms[u].action, iso, learn) : def);
	for (j = u; j-- > 0 && !g->err;) {
		const struct sci_expr *e = &s->arms[j].cond;
		uint32_t act = map_action(s->arms[j].action, iso, learn);
		size_t t, f = next;

		/* the same action whether the rule applies or not */
		if (g->r[next].code == (BPF_RET | BPF_K) && g->r[next].k == act)
			continue;
		t = ret_label(g, act);
		for (c = e->n; c-- > 0 && !g->err;) {
			const struct sci_clause *cl = &e->clauses[c];
			size_t at = t;

			/* at: where the clause goes on when atom a holds */
			for (a = cl->n; a-- > 0 && !g->err;) {
				near(g, a == cl->n - 1 ? &t : &at);
				if (a == cl->n - 1)
					at = t;
				near(g, &f);
				at = gen_atom(g, &cl->atoms[a], at, f);
			}
			f = at;		/* the previous clause goes on here */
		}
		next = f;
	}
	return next;
}

/* ---- the whole filter ---- */

struct block {
	int nr;
	uint16_t ph;		/* its placeholder */
	struct gen g;
	size_t start;
};

static int seccomp_fail(struct sci_error *err, int rc, const char *what, int nr)
{
	char name[64];

	if (nr >= 0)
		sci__set_error(err, rc, "libseccomp refused %s for syscall %s: %s", what,
			       sysname(nr, name, sizeof(name)), strerror(-rc));
	else
		sci__set_error(err, rc, "libseccomp refused %s: %s", what, strerror(-rc));
	return rc;
}

static int export_ctx(scmp_filter_ctx ctx, struct sock_filter **insns,
		      size_t *len, struct sci_error *err);

/*
 * libseccomp's binary tree of syscall numbers dispatches in about
 * log2(syscalls) comparisons instead of one per syscall, for about a
 * quarter more instructions: Docker's default profile runs 16 instead of
 * 186 instructions per syscall on average, in 438 instead of 359.  Used
 * from this many syscalls, unless the filter only fits the kernel's limit
 * without it.
 */
#define TREE_MIN_SYSCALLS 16

/* Syscalls that have rules. */
static unsigned int nsyscalls(const struct sci_policy *p)
{
	unsigned int i, n = 0;

	for (i = 0; i < p->nsys; i++)
		n += p->sys[i].narms != 0;
	return n;
}

/*
 * Compile @p with the placeholders @iso and @learn into *@insns (malloc()ed,
 * *@len instructions, not checked against the kernel's limit), with
 * libseccomp's binary tree if @tree and libseccomp has it.
 */
static int compile(const struct sci_policy *p, uint16_t iso, uint16_t learn,
		   bool tree, struct sock_filter **insns, size_t *len,
		   struct sci_error *err)
{
	uint32_t def = map_action(p->def, iso, learn);
	struct sock_filter *prog = NULL, *out;
	struct block *blocks = NULL;
	unsigned int i, j, nb = 0;
	struct traces *tr = NULL;
	scmp_filter_ctx ctx;
	size_t n = 0, total, off;
	int rc;

	ctx = seccomp_init(def);
	if (!ctx) {
		char a[64];

		sci_action_format(p->def, a, sizeof(a));
		sci__set_error(err, -EINVAL, "libseccomp refused the default action '%s' (not supported by this kernel?)", a);
		return -EINVAL;
	}
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (rc < 0) {
		seccomp_fail(err, rc, "the bad-architecture action", -1);
		goto out;
	}
#if SCMP_VER_MAJOR > 2 || (SCMP_VER_MAJOR == 2 && SCMP_VER_MINOR >= 5)
	/* an older libseccomp at run time refuses it: linear dispatch */
	if (tree)
		(void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
#else
	(void)tree;
#endif
	tr = calloc(1, sizeof(*tr));
	blocks = calloc(p->nsys ? p->nsys : 1, sizeof(*blocks));
	if (!tr || !blocks) {
		rc = -ENOMEM;
		sci__set_error(err, rc, "out of memory");
		goto out;
	}
	trace_mark(tr, p->def);
	trace_mark(tr, SCI_ACT_TRACE(iso));
	trace_mark(tr, SCI_ACT_TRACE(learn));
	for (i = 0; i < p->nsys; i++)
		for (j = 0; j < p->sys[i].narms; j++)
			trace_mark(tr, p->sys[i].arms[j].action);
	tr->next = 0x5c30;
	for (i = 0; i < p->nsys; i++) {
		const struct sci_sysrule *s = &p->sys[i];
		struct block *b = &blocks[nb];
		uint32_t act;
		char name[64];
		int ph;

		if (!s->narms)
			continue;
		b->nr = s->nr;
		b->start = gen_sys(&b->g, s, def, iso, learn);
		if (b->g.err) {
			rc = b->g.err;
			if (rc == -E2BIG)
				sci__set_error(err, rc, "the rules of syscall %s need more than %d BPF instructions",
					       sysname(s->nr, name, sizeof(name)), GEN_MAX);
			else
				sci__set_error(err, rc, "cannot compile the rules of syscall %s: %s",
					       sysname(s->nr, name, sizeof(name)), strerror(-rc));
			free(b->g.r);
			goto out;
		}
		if (b->g.r[b->start].code == (BPF_RET | BPF_K)) {
			/* a single action, whatever the arguments */
			act = b->g.r[b->start].k;
			free(b->g.r);
			memset(b, 0, sizeof(*b));
			if (act == def)
				continue;
		} else {
			ph = trace_take(tr);
			if (ph < 0) {
				rc = -E2BIG;
				sci__set_error(err, rc, "no free trace value left for syscall %s",
					       sysname(s->nr, name, sizeof(name)));
				free(b->g.r);
				goto out;
			}
			b->ph = (uint16_t)ph;
			act = SCMP_ACT_TRACE(b->ph);
			nb++;
		}
		rc = seccomp_rule_add_exact(ctx, act, s->nr, 0);
		if (rc < 0) {
			seccomp_fail(err, rc, "a rule", s->nr);
			goto out;
		}
	}
	rc = export_ctx(ctx, &prog, &n, err);
	if (rc)
		goto out;
	total = n;
	for (i = 0; i < nb; i++)
		total += blocks[i].g.n;
	out = realloc(prog, total * sizeof(*out));
	if (!out) {
		rc = -ENOMEM;
		sci__set_error(err, rc, "out of memory");
		goto out;
	}
	prog = out;
	/* the blocks after libseccomp's program, the placeholders to them */
	off = n;
	for (i = 0; i < nb; i++) {
		struct block *b = &blocks[i];
		unsigned int refs = 0;
		size_t k, entry = off + (b->g.n - 1 - b->start);

		for (k = 0; k < b->g.n; k++)
			prog[off + k] = b->g.r[b->g.n - 1 - k];
		for (k = 0; k < n; k++)
			if (prog[k].code == (BPF_RET | BPF_K) &&
			    prog[k].k == SCMP_ACT_TRACE(b->ph)) {
				prog[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
					(uint32_t)(entry - k - 1), 0, 0);
				refs++;
			}
		if (!refs) {
			char name[64];

			rc = -EFAULT;
			sci__set_error(err, rc, "internal error: libseccomp's filter never reaches the rules of syscall %s",
				       sysname(b->nr, name, sizeof(name)));
			goto out;
		}
		off += b->g.n;
	}
	*insns = prog;
	*len = total;
	prog = NULL;
	rc = 0;
out:
	free(prog);
	if (blocks)
		for (i = 0; i < nb; i++)
			free(blocks[i].g.r);
	free(blocks);
	free(tr);
	seccomp_release(ctx);
	return rc;
}

static int export_ctx(scmp_filter_ctx ctx, struct sock_filter **insns,
		      size_t *len, struct sci_error *err)
{
	struct sock_filter *buf = NULL;
	size_t got = 0;
	off_t size;
	int fd, rc;

	fd = memfd_create("sci-bpf", MFD_CLOEXEC);
	if (fd < 0) {
		FILE *f = tmpfile();

		if (!f || (fd = dup(fileno(f))) < 0) {
			rc = -errno;
			if (f)
				fclose(f);
			sci__set_error(err, rc, "cannot create a file for the BPF: %s", strerror(-rc));
			return rc;
		}
		fclose(f);
	}
	rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0) {
		sci__set_error(err, rc, "libseccomp could not generate the BPF: %s", strerror(-rc));
		goto out;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
	    size % (off_t)sizeof(struct sock_filter)) {
		rc = size < 0 ? -errno : -EIO;
		sci__set_error(err, rc, "cannot read the BPF back");
		goto out;
	}
	buf = malloc(size ? (size_t)size : 1);
	if (!buf) {
		rc = -ENOMEM;
		sci__set_error(err, rc, "out of memory");
		goto out;
	}
	while (got < (size_t)size) {
		ssize_t r = read(fd, (char *)buf + got, (size_t)size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? -errno : -EIO;
			sci__set_error(err, rc, "cannot read the BPF back");
			free(buf);
			buf = NULL;
			goto out;
		}
		got += (size_t)r;
	}
	*insns = buf;
	*len = (size_t)size / sizeof(struct sock_filter);
	rc = 0;
out:
	close(fd);
	return rc;
}

/* ---- over the kernel's limit: which rule? ---- */

/*
 * The size of the filter of @p's first @k rules (in the order they were
 * added) with the linear dispatch (the smaller one, which the export falls
 * back to), or 0 when it cannot be built (*rc says why: -E2BIG is too big).
 */
static size_t prefix_size(const struct sci_policy *p, unsigned int k,
			  uint16_t iso, uint16_t learn, int *rc)
{
	struct sci_policy q = *p;
	struct sock_filter *f = NULL;
	unsigned int i, j;
	size_t n = 0;

	q.nsys = 0;
	q.sys = calloc(p->nsys ? p->nsys : 1, sizeof(*q.sys));
	if (!q.sys) {
		*rc = -ENOMEM;
		return 0;
	}
	for (i = 0; i < p->nsys; i++) {
		const struct sci_sysrule *s = &p->sys[i];

		for (j = 0; j < s->narms && s->arms[j].seq < k; j++)
			;
		if (j) {
			q.sys[q.nsys] = *s;
			q.sys[q.nsys++].narms = j;
		}
	}
	*rc = compile(&q, iso, learn, false, &f, &n, NULL);
	free(f);
	free(q.sys);
	return *rc ? 0 : n;
}

static int too_big(const struct sci_policy *p, size_t n, uint16_t iso,
		   uint16_t learn, struct sci_error *err)
{
	unsigned int lo = 0, hi = p->nrules, i, j;
	size_t before = 0, sz;
	char need[64], name[64];
	int rc;

	if (n)
		snprintf(need, sizeof(need), "needs %zu BPF instructions", n);
	else
		snprintf(need, sizeof(need), "needs too many BPF instructions");
	/* prefix lo fits, prefix hi does not */
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		sz = prefix_size(p, mid, iso, learn, &rc);
		if (rc && rc != -E2BIG)
			break;
		if (rc || sz > SCI_BPF_MAXINSNS) {
			hi = mid;
		} else {
			lo = mid;
			before = sz;
		}
	}
	if (!before)
		before = prefix_size(p, lo, iso, learn, &rc);
	for (i = 0; i < p->nsys; i++)
		for (j = 0; j < p->sys[i].narms; j++) {
			const struct sci_arm *a = &p->sys[i].arms[j];

			if (a->seq != hi - 1)
				continue;
			sysname(p->sys[i].nr, name, sizeof(name));
			if (a->origin)
				sci__set_error(err, -E2BIG, "the filter %s, more than the kernel's %d: the rule at %s (%s) crosses the limit (the rules before it need %zu)",
					       need, SCI_BPF_MAXINSNS, a->origin, name, before);
			else
				sci__set_error(err, -E2BIG, "the filter %s, more than the kernel's %d: rule %u of the policy (%s, its rule %u) crosses the limit (the rules before it need %zu)",
					       need, SCI_BPF_MAXINSNS, a->seq + 1, name, j + 1, before);
			return -E2BIG;
		}
	sci__set_error(err, -E2BIG, "the filter %s, more than the kernel's %d",
		       need, SCI_BPF_MAXINSNS);
	return -E2BIG;
}

int sci__export_raw(const struct sci_policy *p, struct sock_filter **insns,
		    size_t *len, uint16_t *iso, uint16_t *learn,
		    struct sci_error *err)
{
	struct sock_filter *buf = NULL;
	size_t n = 0;
	int rc;

	sci__placeholders(p, iso, learn);
	rc = compile(p, *iso, *learn, nsyscalls(p) >= TREE_MIN_SYSCALLS, &buf, &n, err);
	if (!rc && n > SCI_BPF_MAXINSNS && nsyscalls(p) >= TREE_MIN_SYSCALLS) {
		/* the linear dispatch is smaller */
		free(buf);
		buf = NULL;
		rc = compile(p, *iso, *learn, false, &buf, &n, err);
	}
	if (rc && rc != -E2BIG)
		return rc;
	if (rc || n > SCI_BPF_MAXINSNS) {
		free(buf);
		return too_big(p, rc ? 0 : n, *iso, *learn, err);
	}
	*insns = buf;
	*len = n;
	return 0;
}

unsigned int sci__rewrite_ret(struct sock_filter *insns, size_t len,
			      uint32_t from, uint32_t to)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		if (insns[i].code == (BPF_RET | BPF_K) && insns[i].k == from) {
			insns[i].k = to;
			n++;
		}
	return n;
}

int sci_policy_export(const struct sci_policy *p, unsigned int flags,
		      struct sock_filter **insns, size_t *len,
		      struct sci_error *err)
{
	struct sock_filter *buf = NULL;
	uint16_t iso, learn;
	uint32_t keep = 0;
	size_t n = 0;
	int rc;

	if (!p || !insns || !len ||
	    (flags & ~(SCI_EXPORT_DEGRADE | SCI_EXPORT_NO_KEEP))) {
		sci__set_error(err, -EINVAL, "invalid argument");
		return -EINVAL;
	}
	rc = sci__export_raw(p, &buf, &n, &iso, &learn, err);
	if (rc)
		return rc;
	if (!(flags & SCI_EXPORT_NO_KEEP))
		keep = sci__keep_bits(p);
	sci__rewrite_ret(buf, n, SCMP_ACT_TRACE(iso),
			 flags & SCI_EXPORT_DEGRADE ? SCI_ACT_ALLOW : SCI_ACT_ISOLATE | keep);
	sci__rewrite_ret(buf, n, SCMP_ACT_TRACE(learn),
			 flags & SCI_EXPORT_DEGRADE ? SCI_ACT_ALLOW :
			 SCI_ACT_ISOLATE_LEARN | keep);
	*insns = buf;
	*len = n;
	return 0;
}

/* ---- disassembly ---- */

static void ret_name(uint32_t k, char *buf, size_t len)
{
	uint32_t data = k & SCI_RET_DATA;

	switch (k & SCI_RET_ACTION_FULL) {
	case SCI_ACT_KILL_PROCESS: snprintf(buf, len, "KILL_PROCESS"); break;
	case SCI_ACT_KILL_THREAD: snprintf(buf, len, "KILL_THREAD"); break;
	case SCI_ACT_TRAP: snprintf(buf, len, "TRAP"); break;
	case 0x00050000U: snprintf(buf, len, "ERRNO(%u)", data); break;
	case SCI_ACT_USER_NOTIF: snprintf(buf, len, "USER_NOTIF"); break;
	case 0x7ff00000U: snprintf(buf, len, "TRACE(%u)", data); break;
	case SCI_ACT_LOG: snprintf(buf, len, "LOG"); break;
	case SCI_ACT_ALLOW: snprintf(buf, len, "ALLOW"); break;
	case SCI_ACT_ISOLATE:
		snprintf(buf, len, "ISOLATE%s%s%s", data & SECCOMP_ISOLATE_LEARN ? "|LEARN" : "",
			 data & SECCOMP_ISOLATE_KEEP ? "|KEEP" : "",
			 data & SECCOMP_ISOLATE_KEEP_DATA ? "|KEEP_DATA" : "");
		data &= ~(SECCOMP_ISOLATE_LEARN | SECCOMP_ISOLATE_KEEP |
			  SECCOMP_ISOLATE_KEEP_DATA);
		if (data) {
			size_t l = strlen(buf);

			snprintf(buf + l, len - l, "|%#x", data);
		}
		return;
	default: snprintf(buf, len, "%#x", k); return;
	}
	if (data && (k & SCI_RET_ACTION_FULL) != 0x00050000U &&
	    (k & SCI_RET_ACTION_FULL) != 0x7ff00000U) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, "|%#x", data);
	}
}

static const char *data_field(uint32_t k, char *buf, size_t len)
{
	static const char *const args[] = { "args[0]", "args[1]", "args[2]",
					    "args[3]", "args[4]", "args[5]" };

	if (k == 0)
		return "nr";
	if (k == 4)
		return "arch";
	if (k == 8)
		return "instruction_pointer";
	if (k == 12)
		return "instruction_pointer+4";
	if (k >= 16 && k < 64) {
		snprintf(buf, len, "%s%s", args[(k - 16) / 8], (k % 8) ? " hi" : " lo");
		return buf;
	}
	snprintf(buf, len, "%u", k);
	return buf;
}

int sci_bpf_dump(const struct sock_filter *insns, size_t len, FILE *out)
{
	static const char *const jmp[] = { "ja", "jeq", "jgt", "jge", "jset" };
	static const char *const alu[] = { "add", "sub", "mul", "div", "or",
					   "and", "lsh", "rsh", "neg", "mod", "xor" };
	char b[64], f[64];
	size_t i;

	for (i = 0; i < len; i++) {
		const struct sock_filter *in = &insns[i];
		unsigned int cls = BPF_CLASS(in->code);

		fprintf(out, "%04zu: 0x%02x %3u %3u 0x%08x  ", i, in->code, in->jt,
			in->jf, in->k);
		switch (cls) {
		case BPF_LD:
			if (in->code == (BPF_LD | BPF_W | BPF_ABS))
				fprintf(out, "ld  [%u]  ; %s", in->k, data_field(in->k, f, sizeof(f)));
			else if (BPF_MODE(in->code) == BPF_IMM)
				fprintf(out, "ld  #%#x", in->k);
			else if (BPF_MODE(in->code) == BPF_MEM)
				fprintf(out, "ld  M[%u]", in->k);
			else if (BPF_MODE(in->code) == BPF_LEN)
				fprintf(out, "ld  #len");
			else
				fprintf(out, "ld  ?");
			break;
		case BPF_LDX:
			if (BPF_MODE(in->code) == BPF_MEM)
				fprintf(out, "ldx M[%u]", in->k);
			else
				fprintf(out, "ldx #%#x", in->k);
			break;
		case BPF_ST:
			fprintf(out, "st  M[%u]", in->k);
			break;
		case BPF_STX:
			fprintf(out, "stx M[%u]", in->k);
			break;
		case BPF_ALU: {
			unsigned int op = BPF_OP(in->code) >> 4;

			if (op < sizeof(alu) / sizeof(alu[0]))
				fprintf(out, "%s %s", alu[op],
					BPF_SRC(in->code) == BPF_X ? "x" : (snprintf(b, sizeof(b), "#%#x", in->k), b));
			else
				fprintf(out, "alu ?");
			break;
		}
		case BPF_JMP: {
			unsigned int op = BPF_OP(in->code) >> 4;

			if (op == 0)
				fprintf(out, "ja  %zu", i + 1 + in->k);
			else if (op < sizeof(jmp) / sizeof(jmp[0]))
				fprintf(out, "%-4s %s, %zu, %zu", jmp[op],
					BPF_SRC(in->code) == BPF_X ? "x" : (snprintf(b, sizeof(b), "#%#x", in->k), b),
					i + 1 + in->jt, i + 1 + in->jf);
			else
				fprintf(out, "jmp ?");
			break;
		}
		case BPF_RET:
			if (BPF_RVAL(in->code) == BPF_A) {
				fprintf(out, "ret a");
			} else {
				ret_name(in->k, b, sizeof(b));
				fprintf(out, "ret %s", b);
			}
			break;
		case BPF_MISC:
			fprintf(out, "%s", BPF_MISCOP(in->code) == BPF_TAX ? "tax" : "txa");
			break;
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
