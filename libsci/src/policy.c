// SPDX-License-Identifier: LGPL-2.1-or-later
/* The policy object: rules, reference semantics, readable dump. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *sci_version(void)
{
	return "0.2.0";
}

void sci__set_error(struct sci_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

int sci__copy_struct(void *dst, size_t ksize, const void *src, size_t usize,
		     size_t min, const char *name, struct sci_error *err)
{
	memset(dst, 0, ksize);
	if (!src)
		return 0;
	if (usize < min) {
		sci__set_error(err, -EINVAL, "struct %s: size %zu is too small (at least %zu)",
			       name, usize, min);
		return -EINVAL;
	}
	if (usize > ksize) {
		const unsigned char *extra = (const unsigned char *)src + ksize;
		size_t k;

		for (k = 0; k < usize - ksize; k++)
			if (extra[k]) {
				sci__set_error(err, -E2BIG, "struct %s: fields this libsci does not know are set (size %zu, this libsci knows %zu bytes)",
					       name, usize, ksize);
				return -E2BIG;
			}
		usize = ksize;
	}
	memcpy(dst, src, usize);
	return 0;
}

int sci_error_print(const struct sci_error *err, FILE *out)
{
	if (err->file[0] && err->line)
		return fprintf(out, "%s:%u:%u: error: %s\n", err->file,
			       err->line, err->column, err->message);
	if (err->file[0])
		return fprintf(out, "%s: error: %s\n", err->file, err->message);
	return fprintf(out, "error: %s\n", err->message);
}

int sci_action_valid(uint32_t action)
{
	uint32_t data = action & SCI_RET_DATA;

	switch (action & SCI_RET_ACTION_FULL) {
	case SCI_ACT_KILL_PROCESS:
	case SCI_ACT_KILL_THREAD:
	case SCI_ACT_TRAP:
	case SCI_ACT_USER_NOTIF:
	case SCI_ACT_LOG:
	case SCI_ACT_ALLOW:
		return data == 0;
	case SCI_ACT_ISOLATE:
		return (data & ~SECCOMP_ISOLATE_LEARN) == 0;
	case 0x00050000U:	/* ERRNO */
		return data <= SCI_ERRNO_MAX;
	case 0x7ff00000U:	/* TRACE */
		return 1;
	}
	return 0;
}

int sci_action_format(uint32_t action, char *buf, size_t len)
{
	uint32_t data = action & SCI_RET_DATA;
	const char *name;

	if (!sci_action_valid(action))
		return -EINVAL;
	switch (action & SCI_RET_ACTION_FULL) {
	case SCI_ACT_KILL_PROCESS:
		return snprintf(buf, len, "kill-process");
	case SCI_ACT_KILL_THREAD:
		return snprintf(buf, len, "kill-thread");
	case SCI_ACT_TRAP:
		return snprintf(buf, len, "trap");
	case SCI_ACT_USER_NOTIF:
		return snprintf(buf, len, "user-notify");
	case SCI_ACT_LOG:
		return snprintf(buf, len, "log");
	case SCI_ACT_ALLOW:
		return snprintf(buf, len, "allow");
	case SCI_ACT_ISOLATE:
		return snprintf(buf, len, data ? "isolate-learn" : "isolate");
	case 0x00050000U:
		name = sci__errno_name((int)data);
		if (name)
			return snprintf(buf, len, "return %s", name);
		return snprintf(buf, len, "return %u", data);
	default:
		return snprintf(buf, len, "trace %u", data);
	}
}

int sci__atom_check(unsigned int arg, unsigned int op, uint64_t value,
		    uint64_t mask)
{
	if (arg >= SCI_NARGS || op < SCI_CMP_NE || op > SCI_CMP_IN)
		return -EINVAL;
	/* Conditions that can never hold are mistakes. */
	if ((op == SCI_CMP_MASKED_EQ || op == SCI_CMP_MASKED_NE) &&
	    (value & ~mask))
		return -EINVAL;
	if (op == SCI_CMP_ANY_SET && !mask)
		return -EINVAL;
	if (op == SCI_CMP_LT && value == 0)
		return -EINVAL;
	if (op == SCI_CMP_GT && value == UINT64_MAX)
		return -EINVAL;
	return 0;
}

struct sci_policy *sci_policy_new(uint32_t default_action)
{
	struct sci_policy *p;

	if (!sci_action_valid(default_action)) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->def = default_action;
	return p;
}

void sci__expr_free(struct sci_expr *e)
{
	unsigned int i;

	for (i = 0; i < e->n; i++)
		free(e->clauses[i].atoms);
	free(e->clauses);
	e->clauses = NULL;
	e->n = 0;
}

void sci_policy_free(struct sci_policy *p)
{
	unsigned int i, j;

	if (!p)
		return;
	for (i = 0; i < p->nsys; i++) {
		for (j = 0; j < p->sys[i].narms; j++) {
			sci__expr_free(&p->sys[i].arms[j].cond);
			free(p->sys[i].arms[j].origin);
		}
		free(p->sys[i].arms);
	}
	free(p->sys);
	free(p);
}

int sci_policy_set_default(struct sci_policy *p, uint32_t action)
{
	if (!sci_action_valid(action))
		return -EINVAL;
	p->def = action;
	return 0;
}

uint32_t sci_policy_get_default(const struct sci_policy *p)
{
	return p->def;
}

struct sci_sysrule *sci__sysrule(const struct sci_policy *p, int nr)
{
	unsigned int lo = 0, hi = p->nsys;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (p->sys[mid].nr == nr)
			return &p->sys[mid];
		if (p->sys[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct sci_sysrule *sci__sysrule_get(struct sci_policy *p, int nr)
{
	struct sci_sysrule *s = sci__sysrule(p, nr);
	unsigned int i;

	if (s)
		return s;
	if (p->nsys == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 16;
		struct sci_sysrule *n = realloc(p->sys, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->sys = n;
		p->cap = cap;
	}
	for (i = p->nsys; i > 0 && p->sys[i - 1].nr > nr; i--)
		p->sys[i] = p->sys[i - 1];
	memset(&p->sys[i], 0, sizeof(p->sys[i]));
	p->sys[i].nr = nr;
	p->nsys++;
	return &p->sys[i];
}

/* Takes @cond over (it is cleared) on success and on failure. */
int sci__add_arm(struct sci_policy *p, int nr, struct sci_expr *cond,
		 uint32_t action, const char *origin)
{
	struct sci_sysrule *s;
	struct sci_arm *arms;
	char *o = NULL;

	if (nr < 0 || nr > SCI_NR_MAX || !sci_action_valid(action)) {
		sci__expr_free(cond);
		return -EINVAL;
	}
	s = sci__sysrule_get(p, nr);
	if (!s) {
		sci__expr_free(cond);
		return -ENOMEM;
	}
	if (s->narms && s->arms[s->narms - 1].cond.n == 0) {
		sci__expr_free(cond);
		return -EEXIST;
	}
	if (origin) {
		o = strdup(origin);
		if (!o) {
			sci__expr_free(cond);
			return -ENOMEM;
		}
	}
	arms = realloc(s->arms, (s->narms + 1) * sizeof(*arms));
	if (!arms) {
		free(o);
		sci__expr_free(cond);
		return -ENOMEM;
	}
	s->arms = arms;
	arms[s->narms].cond = *cond;
	arms[s->narms].action = action;
	arms[s->narms].origin = o;
	arms[s->narms].seq = p->nrules++;
	s->narms++;
	cond->n = 0;
	cond->clauses = NULL;
	return 0;
}

/* Why condition @i is invalid, into @err; -EINVAL. */
static int cond_error(const struct sci_cond *c, unsigned int i,
		      struct sci_error *err)
{
	static const char *const ops[] = {
		[SCI_CMP_NE] = "!=", [SCI_CMP_LT] = "<", [SCI_CMP_LE] = "<=",
		[SCI_CMP_EQ] = "==", [SCI_CMP_GE] = ">=", [SCI_CMP_GT] = ">",
	};

	if (c->arg >= SCI_NARGS)
		sci__set_error(err, -EINVAL, "condition %u: 'arg%u' is not a syscall argument: they are arg0 to arg5",
			       i + 1, c->arg);
	else if (c->op < SCI_CMP_NE || c->op > SCI_CMP_IN)
		sci__set_error(err, -EINVAL, "condition %u: unknown comparison %d (SCI_CMP_NE to SCI_CMP_IN; the SCI_CMP_* equal libseccomp's SCMP_CMP_*)",
			       i + 1, (int)c->op);
	else if (c->op == SCI_CMP_MASKED_EQ || c->op == SCI_CMP_MASKED_NE)
		sci__set_error(err, -EINVAL, "condition %u: the value %#" PRIx64 " has bits outside the mask %#" PRIx64 ": 'arg%u & %#" PRIx64 " %s %#" PRIx64 "' is %s",
			       i + 1, c->value, c->mask, c->arg, c->mask,
			       c->op == SCI_CMP_MASKED_EQ ? "==" : "!=", c->value,
			       c->op == SCI_CMP_MASKED_EQ ? "never true" : "always true");
	else if (c->op == SCI_CMP_ANY_SET)
		sci__set_error(err, -EINVAL, "condition %u: 'arg%u & 0' is never true: the mask is 0",
			       i + 1, c->arg);
	else
		sci__set_error(err, -EINVAL, "condition %u: 'arg%u %s %#" PRIx64 "' is never true: arguments are unsigned 64-bit values",
			       i + 1, c->arg, ops[c->op], c->value);
	return -EINVAL;
}

int sci_policy_add_rule_err(struct sci_policy *p, uint32_t action, int nr,
			    unsigned int ncond, const struct sci_cond *cond,
			    struct sci_error *err)
{
	struct sci_expr e = { 0, NULL };
	char name[64];
	unsigned int i;
	int rc;

	if (!p) {
		sci__set_error(err, -EINVAL, "no policy");
		return -EINVAL;
	}
	if (nr < 0 || nr > SCI_NR_MAX) {
		sci__set_error(err, -EINVAL, "syscall number %d is out of range (0 to %d)", nr, SCI_NR_MAX);
		return -EINVAL;
	}
	if (!sci_action_valid(action)) {
		sci__set_error(err, -EINVAL, "invalid action %#x", action);
		return -EINVAL;
	}
	if (ncond && !cond) {
		sci__set_error(err, -EINVAL, "%u conditions and no array of them", ncond);
		return -EINVAL;
	}
	for (i = 0; i < ncond; i++) {
		if (cond[i].reserved[0] || cond[i].reserved[1]) {
			sci__set_error(err, -EINVAL, "condition %u: its reserved fields are set (a later libsci's condition?): they must be 0",
				       i + 1);
			return -EINVAL;
		}
		if (sci__atom_check(cond[i].arg, cond[i].op, cond[i].value,
				    cond[i].mask))
			return cond_error(&cond[i], i, err);
	}
	if (ncond) {
		e.clauses = calloc(1, sizeof(*e.clauses));
		if (!e.clauses)
			goto nomem;
		e.n = 1;
		e.clauses[0].atoms = calloc(ncond, sizeof(struct sci_atom));
		if (!e.clauses[0].atoms) {
			free(e.clauses);
			goto nomem;
		}
		e.clauses[0].n = ncond;
		for (i = 0; i < ncond; i++) {
			struct sci_atom *a = &e.clauses[0].atoms[i];

			a->arg = (uint8_t)cond[i].arg;
			a->op = (uint8_t)cond[i].op;
			a->value = cond[i].value;
			a->mask = cond[i].mask;
			if (a->op < SCI_CMP_MASKED_EQ)
				a->mask = 0;
			if (a->op == SCI_CMP_ANY_SET || a->op == SCI_CMP_IN)
				a->value = 0;
		}
	}
	rc = sci__add_arm(p, nr, &e, action, NULL);
	if (rc == -EEXIST) {
		if (sci_syscall_name(nr, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "%d", nr);
		sci__set_error(err, rc, "syscall '%s' already has an unconditional rule: this one could never apply", name);
	} else if (rc == -ENOMEM) {
		sci__set_error(err, rc, "out of memory");
	}
	return rc;
nomem:
	sci__set_error(err, -ENOMEM, "out of memory");
	return -ENOMEM;
}

int sci_policy_add_rule(struct sci_policy *p, uint32_t action, int nr,
			unsigned int ncond, const struct sci_cond *cond)
{
	return sci_policy_add_rule_err(p, action, nr, ncond, cond, NULL);
}

int sci_policy_add_rule_name_err(struct sci_policy *p, uint32_t action,
				 const char *name, unsigned int ncond,
				 const struct sci_cond *cond,
				 struct sci_error *err)
{
	char near[64];
	int nr;

	if (!name) {
		sci__set_error(err, -EINVAL, "no syscall name");
		return -EINVAL;
	}
	nr = sci_syscall_nr(name);
	if (nr < 0) {
		if (!sci_syscall_suggest(name, near, sizeof(near)))
			sci__set_error(err, nr, "unknown syscall '%.64s' (did you mean '%s'?)", name, near);
		else
			sci__set_error(err, nr, "unknown syscall '%.64s'", name);
		return nr;
	}
	return sci_policy_add_rule_err(p, action, nr, ncond, cond, err);
}

int sci_policy_add_rule_name(struct sci_policy *p, uint32_t action,
			     const char *name, unsigned int ncond,
			     const struct sci_cond *cond)
{
	return sci_policy_add_rule_name_err(p, action, name, ncond, cond, NULL);
}

int sci_policy_has_rule(const struct sci_policy *p, int nr)
{
	const struct sci_sysrule *s = sci__sysrule(p, nr);

	return s && s->narms;
}

int sci_policy_set_learn(struct sci_policy *p)
{
	unsigned int i, j;
	int n = 0;

	if (p->def == SCI_ACT_ISOLATE) {
		p->def = SCI_ACT_ISOLATE_LEARN;
		n++;
	}
	for (i = 0; i < p->nsys; i++)
		for (j = 0; j < p->sys[i].narms; j++)
			if (p->sys[i].arms[j].action == SCI_ACT_ISOLATE) {
				p->sys[i].arms[j].action = SCI_ACT_ISOLATE_LEARN;
				n++;
			}
	return n;
}

int sci_policy_isolate_allowed(struct sci_policy *p)
{
	unsigned int i, j;
	int n = 0;

	if (!p)
		return -EINVAL;
	if (p->def == SCI_ACT_ALLOW) {
		int nr;

		p->def = SCI_ACT_ISOLATE;
		n++;
		/* io_uring's work runs in kernel threads, unisolated */
		for (nr = 425; nr <= 427; nr++)
			if (!sci_policy_has_rule(p, nr)) {
				struct sci_expr none = { 0, NULL };
				int rc = sci__add_arm(p, nr, &none, SCI_ACT_ERRNO(ENOSYS), NULL);

				if (rc)
					return rc;
			}
	}
	for (i = 0; i < p->nsys; i++)
		for (j = 0; j < p->sys[i].narms; j++) {
			uint32_t *a = &p->sys[i].arms[j].action;
			int nr = p->sys[i].nr;

			if (*a != SCI_ACT_ALLOW)
				continue;
			/* io_uring's work runs in kernel threads, unisolated */
			*a = nr >= 425 && nr <= 427 ? SCI_ACT_ERRNO(ENOSYS) : SCI_ACT_ISOLATE;
			n++;
		}
	return n;
}

static unsigned int uses_of(uint32_t action)
{
	if (action == SCI_ACT_ISOLATE)
		return SCI_USES_ISOLATE;
	if (action == SCI_ACT_ISOLATE_LEARN)
		return SCI_USES_ISOLATE | SCI_USES_ISOLATE_LEARN;
	if (action == SCI_ACT_USER_NOTIF)
		return SCI_USES_USER_NOTIF;
	return 0;
}

unsigned int sci_policy_uses(const struct sci_policy *p)
{
	unsigned int i, j, u = uses_of(p->def);

	for (i = 0; i < p->nsys; i++)
		for (j = 0; j < p->sys[i].narms; j++)
			u |= uses_of(p->sys[i].arms[j].action);
	return u;
}

bool sci__atom_eval(const struct sci_atom *a, const uint64_t args[6])
{
	uint64_t x = args[a->arg];

	switch (a->op) {
	case SCI_CMP_EQ:
		return x == a->value;
	case SCI_CMP_NE:
		return x != a->value;
	case SCI_CMP_LT:
		return x < a->value;
	case SCI_CMP_LE:
		return x <= a->value;
	case SCI_CMP_GT:
		return x > a->value;
	case SCI_CMP_GE:
		return x >= a->value;
	case SCI_CMP_MASKED_EQ:
		return (x & a->mask) == a->value;
	case SCI_CMP_MASKED_NE:
		return (x & a->mask) != a->value;
	case SCI_CMP_ANY_SET:
		return (x & a->mask) != 0;
	case SCI_CMP_IN:
		return (x & ~a->mask) == 0;
	}
	return false;
}

bool sci__expr_eval(const struct sci_expr *e, const uint64_t args[6])
{
	unsigned int i, j;

	if (e->n == 0)
		return true;
	for (i = 0; i < e->n; i++) {
		for (j = 0; j < e->clauses[i].n; j++)
			if (!sci__atom_eval(&e->clauses[i].atoms[j], args))
				break;
		if (j == e->clauses[i].n)
			return true;
	}
	return false;
}

uint32_t sci_policy_verdict(const struct sci_policy *p, int nr,
			    const uint64_t args[6])
{
	const struct sci_sysrule *s = sci__sysrule(p, nr);
	unsigned int i;

	if (s)
		for (i = 0; i < s->narms; i++)
			if (sci__expr_eval(&s->arms[i].cond, args))
				return s->arms[i].action;
	return p->def;
}

static void dump_atom(const struct sci_atom *a, FILE *out)
{
	static const char *const ops[] = {
		[SCI_CMP_EQ] = "==", [SCI_CMP_NE] = "!=", [SCI_CMP_LT] = "<",
		[SCI_CMP_LE] = "<=", [SCI_CMP_GT] = ">", [SCI_CMP_GE] = ">=",
	};

	switch (a->op) {
	case SCI_CMP_MASKED_EQ:
	case SCI_CMP_MASKED_NE:
		fprintf(out, "arg%u & 0x%" PRIx64 " %s 0x%" PRIx64, a->arg,
			a->mask, a->op == SCI_CMP_MASKED_EQ ? "==" : "!=",
			a->value);
		break;
	case SCI_CMP_ANY_SET:
		fprintf(out, "arg%u & 0x%" PRIx64, a->arg, a->mask);
		break;
	case SCI_CMP_IN:
		fprintf(out, "arg%u in 0x%" PRIx64, a->arg, a->mask);
		break;
	default:
		fprintf(out, "arg%u %s 0x%" PRIx64, a->arg, ops[a->op],
			a->value);
	}
}

static void dump_expr(const struct sci_expr *e, FILE *out)
{
	unsigned int i, j;

	for (i = 0; i < e->n; i++) {
		if (i)
			fputs(" || ", out);
		for (j = 0; j < e->clauses[i].n; j++) {
			if (j)
				fputs(" && ", out);
			dump_atom(&e->clauses[i].atoms[j], out);
		}
	}
}

static const char *act_str(uint32_t action, char *buf, size_t len)
{
	if (sci_action_format(action, buf, len) < 0)
		snprintf(buf, len, "invalid action %#x", action);
	if ((action & SCI_RET_ACTION_FULL) == 0x00050000U &&
	    sci__errno_name((int)(action & SCI_RET_DATA))) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, " (%u)", action & SCI_RET_DATA);
	}
	return buf;
}

uint32_t sci__keep_bits(const struct sci_policy *p)
{
	if (p->flags & SCI_POLICY_KEEP_GRANTS)
		return SECCOMP_ISOLATE_KEEP;
	if (p->flags & SCI_POLICY_KEEP_DATA)
		return SECCOMP_ISOLATE_KEEP_DATA;
	return 0;
}

int sci_policy_set_flags(struct sci_policy *p, unsigned int flags)
{
	if (!p || (flags & ~(SCI_POLICY_KEEP_GRANTS | SCI_POLICY_KEEP_DATA)))
		return -EINVAL;
	p->flags = flags;
	return 0;
}

unsigned int sci_policy_get_flags(const struct sci_policy *p)
{
	return p ? p->flags : 0;
}

int sci_policy_dump(const struct sci_policy *p, FILE *out)
{
	unsigned int i, j;
	char name[64], act[64];

	if (p->flags & SCI_POLICY_KEEP_GRANTS)
		fprintf(out, "flags: keep-grants (isolated syscalls keep their grants)\n");
	else if (p->flags & SCI_POLICY_KEEP_DATA)
		fprintf(out, "flags: keep-grants data (isolated syscalls keep their data grants)\n");
	fprintf(out, "default: %s\n", act_str(p->def, act, sizeof(act)));
	for (i = 0; i < p->nsys; i++) {
		const struct sci_sysrule *s = &p->sys[i];

		if (!s->narms)
			continue;
		if (sci_syscall_name(s->nr, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "syscall");
		if (s->narms == 1 && s->arms[0].cond.n == 0) {
			fprintf(out, "%s (%d): %s", name, s->nr,
				act_str(s->arms[0].action, act, sizeof(act)));
			if (s->arms[0].origin)
				fprintf(out, "  # %s", s->arms[0].origin);
			fputc('\n', out);
			continue;
		}
		fprintf(out, "%s (%d):\n", name, s->nr);
		for (j = 0; j < s->narms; j++) {
			const struct sci_arm *a = &s->arms[j];

			fputs("    ", out);
			if (a->cond.n)
				dump_expr(&a->cond, out);
			else
				fputs("otherwise", out);
			fprintf(out, ": %s",
				act_str(a->action, act, sizeof(act)));
			if (a->origin)
				fprintf(out, "  # %s", a->origin);
			fputc('\n', out);
		}
		if (s->arms[s->narms - 1].cond.n)
			fprintf(out, "    otherwise: %s (default)\n",
				act_str(p->def, act, sizeof(act)));
	}
	return ferror(out) ? -EIO : 0;
}
