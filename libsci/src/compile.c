// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Compiling a policy to BPF through libseccomp.
 *
 * libseccomp 2.5 knows neither SECCOMP_RET_ISOLATE nor "first matching
 * rule" ordering, and takes at most one comparison per argument in a rule.
 * So:
 *  - every rule's conditions are lowered to a disjunction of libseccomp
 *    rules with at most one native comparison per argument (ranges and
 *    combined masks become aligned masked-equality blocks);
 *  - the rules of one syscall are made disjoint (rule i applies where its
 *    condition holds and no earlier rule's does), so the order in which
 *    libseccomp arranges them does not matter;
 *  - isolate and isolate-learn are given to libseccomp as
 *    SCMP_ACT_TRACE(placeholder), with placeholder values that no trace
 *    action of this policy uses, and exactly the BPF_RET|BPF_K
 *    instructions returning a placeholder are rewritten afterwards.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* One native comparison: op is SCI_CMP_EQ..GE (a = value) or MASKED_EQ
 * (a = mask, b = value). */
struct natom {
	uint8_t arg;
	uint8_t op;
	uint64_t a, b;
};

/* A conjunction, at most one natom per argument once normalized. */
struct ncl {
	unsigned int n;
	struct natom at[SCI_NARGS];
};

struct dnf {
	unsigned int n, cap;
	struct ncl *c;
	int err;		/* -E2BIG, -ENOMEM */
	bool eq;		/* only EQ and MASKED_EQ comparisons */
};

static void dnf_free(struct dnf *d)
{
	free(d->c);
	d->c = NULL;
	d->n = d->cap = 0;
}

/* An empty DNF (false) in the comparison mode of @like. */
static struct dnf dnf_like(const struct dnf *like)
{
	struct dnf d = { 0 };

	d.eq = like->eq;
	return d;
}

static void dnf_push(struct dnf *d, const struct ncl *c)
{
	if (d->err)
		return;
	if (d->n >= SCI_CLAUSE_MAX) {
		d->err = -E2BIG;
		return;
	}
	if (d->n == d->cap) {
		unsigned int cap = d->cap ? d->cap * 2 : 8;
		struct ncl *n = realloc(d->c, cap * sizeof(*n));

		if (!n) {
			d->err = -ENOMEM;
			return;
		}
		d->c = n;
		d->cap = cap;
	}
	d->c[d->n++] = *c;
}

static void dnf_true(struct dnf *d)
{
	struct ncl c = { 0 };

	dnf_push(d, &c);
}

/* ---- per-argument normalization ---- */

struct argset {
	uint64_t lo, hi;	/* interval */
	uint64_t m, v;		/* (x & m) == v */
	uint64_t ne[16];	/* excluded values */
	unsigned int nne;
	bool unsat;
};

/* A list of alternatives for one argument; n == 0 with any == true: no
 * constraint at all. */
struct alts {
	unsigned int n;
	bool any;
	struct natom a[256];
	int err;
};

static void alt_push(struct alts *al, uint8_t arg, uint8_t op, uint64_t a,
		     uint64_t b)
{
	if (al->n >= sizeof(al->a) / sizeof(al->a[0])) {
		al->err = -E2BIG;
		return;
	}
	if (op == SCI_CMP_MASKED_EQ && a == UINT64_MAX) {
		op = SCI_CMP_EQ;
		a = b;
		b = 0;
	}
	al->a[al->n++] = (struct natom){ arg, op, a, b };
}

/* [lo, hi] (lo <= hi, not the whole range) intersected with (m, v). */
static void emit_interval(struct alts *al, uint8_t arg, uint64_t lo,
			  uint64_t hi, uint64_t m, uint64_t v, bool eq)
{
	if (lo == hi) {
		if ((lo & m) == v)
			alt_push(al, arg, SCI_CMP_EQ, lo, 0);
		return;
	}
	if (!eq && !m && lo == 0) {
		alt_push(al, arg, SCI_CMP_LE, hi, 0);
		return;
	}
	if (!eq && !m && hi == UINT64_MAX) {
		alt_push(al, arg, SCI_CMP_GE, lo, 0);
		return;
	}
	/* Aligned blocks: [lo, lo + 2^k - 1], as masked equalities. */
	for (;;) {
		unsigned int k = lo ? (unsigned int)__builtin_ctzll(lo) : 63;
		uint64_t span;

		if (k > 63)
			k = 63;
		for (;;) {
			span = (k == 64) ? UINT64_MAX : (((uint64_t)1 << k) - 1);
			if (lo + span >= lo && lo + span <= hi)
				break;
			k--;
		}
		{
			uint64_t cm = ~span, cv = lo;

			if (!((cv ^ v) & cm & m))
				alt_push(al, arg, SCI_CMP_MASKED_EQ, cm | m,
					 (cv & cm) | v);
		}
		if (al->err || lo + span == hi)
			return;
		lo += span + 1;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void emit_argset(struct alts *al, uint8_t arg, struct argset *s,
			bool eq, bool no_ne)
{
	uint64_t ne[16], lo;
	unsigned int i, n = 0;

	al->n = 0;
	al->any = false;
	if (s->unsat || s->lo > s->hi)
		return;
	for (i = 0; i < s->nne; i++) {
		uint64_t q = s->ne[i];

		if (q < s->lo || q > s->hi || (q & s->m) != s->v)
			continue;
		ne[n++] = q;
	}
	qsort(ne, n, sizeof(ne[0]), cmp_u64);
	if (!no_ne && n == 1 && s->lo == 0 && s->hi == UINT64_MAX && !s->m) {
		alt_push(al, arg, SCI_CMP_NE, ne[0], 0);
		return;
	}
	if (!n && s->lo == 0 && s->hi == UINT64_MAX) {
		if (!s->m)
			al->any = true;
		else
			alt_push(al, arg, SCI_CMP_MASKED_EQ, s->m, s->v);
		return;
	}
	lo = s->lo;
	for (i = 0; i < n; i++) {
		if (i && ne[i] == ne[i - 1])
			continue;
		if (ne[i] > lo)
			emit_interval(al, arg, lo, ne[i] - 1, s->m, s->v, eq);
		if (ne[i] == UINT64_MAX)
			return;
		lo = ne[i] + 1;
	}
	if (lo <= s->hi) {
		if (lo == 0 && s->hi == UINT64_MAX)
			alt_push(al, arg, SCI_CMP_MASKED_EQ, s->m, s->v);
		else
			emit_interval(al, arg, lo, s->hi, s->m, s->v, eq);
	}
}

static int add_to_set(struct argset *s, const struct natom *a)
{
	switch (a->op) {
	case SCI_CMP_EQ:
		if (a->a > s->lo)
			s->lo = a->a;
		if (a->a < s->hi)
			s->hi = a->a;
		break;
	case SCI_CMP_NE:
		if (s->nne >= 16)
			return -E2BIG;
		s->ne[s->nne++] = a->a;
		break;
	case SCI_CMP_LT:
		if (!a->a)
			s->unsat = true;
		else if (a->a - 1 < s->hi)
			s->hi = a->a - 1;
		break;
	case SCI_CMP_LE:
		if (a->a < s->hi)
			s->hi = a->a;
		break;
	case SCI_CMP_GT:
		if (a->a == UINT64_MAX)
			s->unsat = true;
		else if (a->a + 1 > s->lo)
			s->lo = a->a + 1;
		break;
	case SCI_CMP_GE:
		if (a->a > s->lo)
			s->lo = a->a;
		break;
	case SCI_CMP_MASKED_EQ:
		if ((s->v ^ a->b) & s->m & a->a)
			s->unsat = true;
		s->m |= a->a;
		s->v |= a->b & a->a;
		break;
	}
	return 0;
}

/*
 * Append to @out the normalized form of the conjunction @atoms: one or more
 * clauses with at most one comparison per argument.
 */
static void normalize(struct dnf *out, const struct natom *atoms,
		      unsigned int n)
{
	static const struct argset init = { 0, UINT64_MAX, 0, 0, { 0 }, 0, false };
	struct alts *al;
	unsigned int arg, i, idx[SCI_NARGS] = { 0 }, seen = 0, last = 0;
	unsigned long long total = 1;
	int rc;

	for (i = 0; i < n; i++)
		if (atoms[i].arg > last)
			last = atoms[i].arg;
	/* Fast path: one comparison per argument, of a kind that can stay. */
	for (i = 0; i < n; i++) {
		if (seen & (1u << atoms[i].arg) ||
		    (atoms[i].op != SCI_CMP_EQ && atoms[i].op != SCI_CMP_MASKED_EQ &&
		     ((out->eq && atoms[i].arg != last) || atoms[i].op != SCI_CMP_NE)))
			break;
		seen |= 1u << atoms[i].arg;
	}
	if (i == n) {
		struct ncl c = { 0 };

		for (i = 0; i < n; i++) {
			struct natom a = atoms[i];

			switch (a.op) {
			case SCI_CMP_MASKED_EQ:
				if (a.b & ~a.a)
					return;
				if (!a.a)
					continue;
				if (a.a == UINT64_MAX) {
					a.op = SCI_CMP_EQ;
					a.a = a.b;
					a.b = 0;
				}
				break;
			}
			c.at[c.n++] = a;
		}
		dnf_push(out, &c);
		return;
	}
	al = malloc(SCI_NARGS * sizeof(*al));
	if (!al) {
		out->err = -ENOMEM;
		return;
	}
	for (arg = 0; arg < SCI_NARGS; arg++) {
		struct argset s = init;

		for (i = 0; i < n; i++) {
			if (atoms[i].arg != arg)
				continue;
			rc = add_to_set(&s, &atoms[i]);
			if (rc) {
				out->err = rc;
				goto done;
			}
		}
		al[arg].err = 0;
		emit_argset(&al[arg], (uint8_t)arg, &s, out->eq, out->eq && arg != last);
		if (al[arg].err) {
			out->err = al[arg].err;
			goto done;
		}
		if (!al[arg].any && !al[arg].n)
			goto done;	/* unsatisfiable: no clause */
		if (!al[arg].any)
			total *= al[arg].n;
		if (total > SCI_CLAUSE_MAX) {
			out->err = -E2BIG;
			goto done;
		}
	}
	/* The product of the alternatives of each argument. */
	for (;;) {
		struct ncl c = { 0 };

		for (arg = 0; arg < SCI_NARGS; arg++)
			if (!al[arg].any)
				c.at[c.n++] = al[arg].a[idx[arg]];
		dnf_push(out, &c);
		if (out->err)
			break;
		for (arg = 0; arg < SCI_NARGS; arg++) {
			if (al[arg].any)
				continue;
			if (++idx[arg] < al[arg].n)
				break;
			idx[arg] = 0;
		}
		if (arg == SCI_NARGS)
			break;
	}
done:
	free(al);
}

/* ---- lowering the policy's atoms ---- */

/* The source atom @a (negated with @neg) as a disjunction of natoms. */
static void lower_atom(struct dnf *out, const struct sci_atom *a, bool neg)
{
	uint8_t op = a->op, arg = a->arg;
	uint64_t v = a->value, m = a->mask, bit;
	struct natom na = { arg, 0, 0, 0 };
	struct ncl c = { 0 };

	if (neg) {
		switch (op) {
		case SCI_CMP_EQ: op = SCI_CMP_NE; break;
		case SCI_CMP_NE: op = SCI_CMP_EQ; break;
		case SCI_CMP_LT: op = SCI_CMP_GE; break;
		case SCI_CMP_LE: op = SCI_CMP_GT; break;
		case SCI_CMP_GT: op = SCI_CMP_LE; break;
		case SCI_CMP_GE: op = SCI_CMP_LT; break;
		case SCI_CMP_MASKED_EQ: op = SCI_CMP_MASKED_NE; break;
		case SCI_CMP_MASKED_NE: op = SCI_CMP_MASKED_EQ; break;
		case SCI_CMP_ANY_SET: op = SCI_CMP_MASKED_EQ; v = 0; break;
		case SCI_CMP_IN: op = SCI_CMP_ANY_SET; m = ~m; break;
		}
	}
	switch (op) {
	case SCI_CMP_EQ: case SCI_CMP_NE: case SCI_CMP_LT:
	case SCI_CMP_LE: case SCI_CMP_GT: case SCI_CMP_GE:
		na.op = op;
		na.a = v;
		normalize(out, &na, 1);
		return;
	case SCI_CMP_MASKED_EQ:
		if (v & ~m)
			return;			/* never true */
		na.op = SCI_CMP_MASKED_EQ;
		na.a = m;
		na.b = v;
		normalize(out, &na, 1);
		return;
	case SCI_CMP_IN:
		na.op = SCI_CMP_MASKED_EQ;
		na.a = ~m;
		na.b = 0;
		normalize(out, &na, 1);
		return;
	case SCI_CMP_MASKED_NE:
		if (v & ~m) {			/* always true */
			dnf_push(out, &c);
			return;
		}
		if (m == UINT64_MAX) {
			na.op = SCI_CMP_NE;
			na.a = v;
			normalize(out, &na, 1);
			return;
		}
		/* some bit of the mask differs from the value */
		for (bit = 1; bit; bit <<= 1) {
			if (!(m & bit))
				continue;
			c.n = 1;
			c.at[0] = (struct natom){ arg, SCI_CMP_MASKED_EQ, bit, ~v & bit };
			dnf_push(out, &c);
		}
		return;
	case SCI_CMP_ANY_SET:
		for (bit = 1; bit; bit <<= 1) {
			if (!(m & bit))
				continue;
			c.n = 1;
			c.at[0] = (struct natom){ arg, SCI_CMP_MASKED_EQ, bit, bit };
			dnf_push(out, &c);
		}
		return;
	}
}

/* @a AND @b into @out (normalized). */
static void dnf_and(struct dnf *out, const struct dnf *a, const struct dnf *b)
{
	unsigned int i, j;

	if (a->err || b->err) {
		out->err = a->err ? a->err : b->err;
		return;
	}
	for (i = 0; i < a->n && !out->err; i++)
		for (j = 0; j < b->n && !out->err; j++) {
			struct natom at[2 * SCI_NARGS];
			unsigned int n = 0, k;

			for (k = 0; k < a->c[i].n; k++)
				at[n++] = a->c[i].at[k];
			for (k = 0; k < b->c[j].n; k++)
				at[n++] = b->c[j].at[k];
			normalize(out, at, n);
		}
}

/* The condition @e, lowered. */
static void lower_expr(struct dnf *out, const struct sci_expr *e)
{
	unsigned int i, j;

	if (!e->n) {
		dnf_true(out);
		return;
	}
	for (i = 0; i < e->n && !out->err; i++) {
		struct dnf acc = dnf_like(out);

		dnf_true(&acc);
		for (j = 0; j < e->clauses[i].n && !acc.err; j++) {
			struct dnf one = dnf_like(out), next = dnf_like(out);

			lower_atom(&one, &e->clauses[i].atoms[j], false);
			dnf_and(&next, &acc, &one);
			dnf_free(&one);
			dnf_free(&acc);
			acc = next;
		}
		for (j = 0; j < acc.n && !acc.err; j++)
			dnf_push(out, &acc.c[j]);
		if (acc.err)
			out->err = acc.err;
		dnf_free(&acc);
	}
}

/* NOT @e, lowered: the AND over its clauses of the OR of negated atoms. */
static void lower_not_expr(struct dnf *out, const struct sci_expr *e)
{
	struct dnf acc = dnf_like(out);
	unsigned int i, j;

	if (!e->n)
		return;		/* NOT true: no clause */
	dnf_true(&acc);
	for (i = 0; i < e->n && !acc.err; i++) {
		struct dnf any = dnf_like(out), next = dnf_like(out);

		for (j = 0; j < e->clauses[i].n && !any.err; j++)
			lower_atom(&any, &e->clauses[i].atoms[j], true);
		dnf_and(&next, &acc, &any);
		dnf_free(&any);
		dnf_free(&acc);
		acc = next;
	}
	for (j = 0; j < acc.n && !acc.err; j++)
		dnf_push(out, &acc.c[j]);
	if (acc.err)
		out->err = acc.err;
	dnf_free(&acc);
}

/* ---- libseccomp ---- */

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

struct prule {
	const struct ncl *c;
	uint32_t action;
	unsigned int order;
};

static unsigned int argbits(const struct ncl *c)
{
	unsigned int k, b = 0;

	for (k = 0; k < c->n; k++)
		b |= 1u << c->at[k].arg;
	return b;
}

/*
 * Longer rules first, then by the arguments they test, then as generated:
 * libseccomp 2.5.4 can take exponential time to merge a rule into a tree
 * of shorter rules on other arguments, not the other way round.
 */
static int cmp_prule(const void *a, const void *b)
{
	const struct prule *x = a, *y = b;
	unsigned int bx = argbits(x->c), by = argbits(y->c);

	if (x->c->n != y->c->n)
		return x->c->n > y->c->n ? -1 : 1;
	if (bx != by)
		return bx < by ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int add_rule(scmp_filter_ctx ctx, int nr, uint32_t action,
		    const struct ncl *cl, struct sci_error *err);

static int add_sys_rules(scmp_filter_ctx ctx, const struct sci_sysrule *s,
			 uint16_t iso, uint16_t learn, const struct dnf *here,
			 unsigned int total, struct sci_error *err)
{
	struct prule *r = calloc(total ? total : 1, sizeof(*r));
	unsigned int j, i, n = 0;
	int rc = 0;

	if (!r) {
		sci__set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	for (j = 0; j < s->narms; j++)
		for (i = 0; i < here[j].n && n < total; i++, n++) {
			r[n].c = &here[j].c[i];
			r[n].action = map_action(s->arms[j].action, iso, learn);
			r[n].order = n;
		}
	qsort(r, n, sizeof(*r), cmp_prule);
	for (i = 0; i < n && !rc; i++)
		rc = add_rule(ctx, s->nr, r[i].action, r[i].c, err);
	free(r);
	return rc;
}

static int add_rule(scmp_filter_ctx ctx, int nr, uint32_t action,
		    const struct ncl *cl, struct sci_error *err)
{
	const struct dnf one = { 1, 1, (struct ncl *)cl, 0, false };
	const struct dnf *d = &one;
	unsigned int i, k;
	char name[64];
	int rc;

	for (i = 0; i < d->n; i++) {
		struct scmp_arg_cmp cmp[SCI_NARGS];

		for (k = 0; k < d->c[i].n; k++) {
			const struct natom *a = &d->c[i].at[k];
			static const enum scmp_compare ops[] = {
				[SCI_CMP_EQ] = SCMP_CMP_EQ, [SCI_CMP_NE] = SCMP_CMP_NE,
				[SCI_CMP_LT] = SCMP_CMP_LT, [SCI_CMP_LE] = SCMP_CMP_LE,
				[SCI_CMP_GT] = SCMP_CMP_GT, [SCI_CMP_GE] = SCMP_CMP_GE,
				[SCI_CMP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
			};

			cmp[k].arg = a->arg;
			cmp[k].op = ops[a->op];
			cmp[k].datum_a = a->a;
			cmp[k].datum_b = a->b;
		}
		rc = seccomp_rule_add_exact_array(ctx, action, nr, d->c[i].n, cmp);
		if (rc < 0) {
			sci__set_error(err, rc, "libseccomp refused a rule for syscall %s: %s",
				       sysname(nr, name, sizeof(name)), strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/*
 * The disjoint libseccomp rules of syscall @s into @here (one DNF per
 * rule of @s, empty where its action is the default's); *total is the
 * number of libseccomp rules.
 */
static int lower_sys(const struct sci_sysrule *s, uint32_t def, uint16_t iso,
		     uint16_t learn, bool eq, struct dnf *here,
		     unsigned int *total)
{
	unsigned int j, k;
	int rc = 0;

	*total = 0;
	for (j = 0; j < s->narms; j++) {
		const struct sci_arm *arm = &s->arms[j];
		uint32_t act = map_action(arm->action, iso, learn);
		struct dnf cur = { 0 };

		here[j] = (struct dnf){ 0 };
		here[j].eq = eq;
		if (act == map_action(def, iso, learn))
			continue;	/* the default covers it */
		/*
		 * Where this rule's condition holds and no earlier rule's
		 * does.  Earlier rules with the same action need not be
		 * excluded: where they hold, the action is the same.
		 */
		cur.eq = eq;
		lower_expr(&cur, &arm->cond);
		for (k = 0; k < j && !cur.err && cur.n; k++) {
			struct dnf notc = dnf_like(&cur), next = dnf_like(&cur);

			if (map_action(s->arms[k].action, iso, learn) == act)
				continue;
			lower_not_expr(&notc, &s->arms[k].cond);
			dnf_and(&next, &cur, &notc);
			dnf_free(&notc);
			dnf_free(&cur);
			cur = next;
		}
		here[j] = cur;
		rc = cur.err;
		if (rc)
			break;
		*total += cur.n;
		if (*total > SCI_SYS_RULES_MAX) {
			rc = -E2BIG;
			break;
		}
	}
	return rc;
}

static int build_ctx(const struct sci_policy *p, uint16_t iso, uint16_t learn,
		     scmp_filter_ctx *out, struct sci_error *err)
{
	uint32_t def = map_action(p->def, iso, learn);
	unsigned int i, j, all = 0;
	scmp_filter_ctx ctx;
	char name[64];
	int rc = 0;

	ctx = seccomp_init(def);
	if (!ctx) {
		char a[64];

		sci_action_format(p->def, a, sizeof(a));
		sci__set_error(err, -EINVAL, "libseccomp refused the default action '%s' (not supported by this kernel?)", a);
		return -EINVAL;
	}
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (rc < 0) {
		sci__set_error(err, rc, "libseccomp: cannot set the bad-architecture action: %s",
			       strerror(-rc));
		goto fail;
	}
	for (i = 0; i < p->nsys; i++) {
		const struct sci_sysrule *s = &p->sys[i];
		struct dnf *here = calloc(s->narms ? s->narms : 1, sizeof(*here));
		unsigned int total = 0;

		if (!here) {
			rc = -ENOMEM;
			sci__set_error(err, rc, "out of memory");
			goto fail;
		}
		/*
		 * libseccomp 2.5.4 merges the rules of a syscall into a tree
		 * and gets it wrong (drops a rule, or loops forever) when a
		 * NE or ordered comparison of an earlier argument precedes
		 * other rules.  Its native NE, LT, LE, GT and GE are kept
		 * only when the syscall has a single rule; otherwise every
		 * condition is lowered to EQ and MASKED_EQ.
		 */
		rc = lower_sys(s, p->def, iso, learn, false, here, &total);
		if (!rc && total > 1) {
			for (j = 0; j < s->narms; j++)
				dnf_free(&here[j]);
			rc = lower_sys(s, p->def, iso, learn, true, here, &total);
		}
		if (!rc && (all += total) > SCI_POLICY_RULES_MAX)
			rc = -E2BIG;
		if (rc == -E2BIG)
			sci__set_error(err, rc, "the conditions of syscall %s are too complex: they need more than %d libseccomp rules (%d in the whole policy), which could not fit the kernel's %d BPF instructions",
				       sysname(s->nr, name, sizeof(name)), SCI_SYS_RULES_MAX,
				       SCI_POLICY_RULES_MAX, SCI_BPF_MAXINSNS);
		else if (rc)
			sci__set_error(err, rc, "cannot compile the rules of syscall %s: %s",
				       sysname(s->nr, name, sizeof(name)), strerror(-rc));
		if (!rc)
			rc = add_sys_rules(ctx, s, iso, learn, here, total, err);
		for (j = 0; j < s->narms; j++)
			dnf_free(&here[j]);
		free(here);
		if (rc)
			goto fail;
	}
	*out = ctx;
	return 0;
fail:
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

int sci__export_raw(const struct sci_policy *p, struct sock_filter **insns,
		    size_t *len, uint16_t *iso, uint16_t *learn,
		    struct sci_error *err)
{
	scmp_filter_ctx ctx;
	int rc;

	sci__placeholders(p, iso, learn);
	rc = build_ctx(p, *iso, *learn, &ctx, err);
	if (rc)
		return rc;
	rc = export_ctx(ctx, insns, len, err);
	seccomp_release(ctx);
	return rc;
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
	size_t n = 0;
	int rc;

	uint32_t keep = 0;

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
	if (n > SCI_BPF_MAXINSNS) {
		free(buf);
		sci__set_error(err, -E2BIG, "the filter has %zu instructions; the kernel takes at most %d",
			       n, SCI_BPF_MAXINSNS);
		return -E2BIG;
	}
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
