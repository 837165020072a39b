// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sci-policy(5) parser: minijail's seccomp policy syntax plus the
 * isolate actions, syscall groups and masked comparisons.
 *
 * Robustness: the input is bounded (SCI_FILE_MAX per file), @include is
 * bounded in depth and cycles are refused, parentheses are bounded in
 * depth, every loop consumes input, and every error path frees what it
 * allocated.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define SCI_INCLUDE_MAX	8		/* nested @include levels */
#define SCI_PAREN_MAX	32		/* nested parentheses */
#define SCI_FILE_MAX	(1 << 20)	/* bytes in one policy file */

enum tok_type {
	T_EOL, T_IDENT, T_NUM, T_AT, T_PATH, T_COLON, T_SEMI, T_COMMA,
	T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_TILDE, T_PIPE, T_OROR,
	T_AMP, T_ANDAND, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE,
};

struct tok {
	enum tok_type t;
	const char *s;
	size_t len;
	unsigned int line, col;
};

struct src {
	const char *name;	/* as shown in messages */
	char *dir;		/* base of relative @include paths */
	const char *buf;
	size_t len;
	dev_t dev;
	ino_t ino;
	bool has_id;
};

/* A rule's right-hand side. */
struct filter {
	struct sci_expr expr;	/* n == 0: no condition */
	bool has_expr;
	bool has_action;
	uint32_t action;	/* taken when the condition fails */
	char origin[1100];
	char group[64];		/* group statements: its name */
	char file[1024];	/* where the group statement is */
	unsigned int line, col;
	struct filter *next;	/* "name: {filter, filter}": the next one */
};

struct pend {
	int nr;
	unsigned int filter;	/* index in parser.gfilters */
};

struct parser {
	struct sci_policy *p;
	struct sci_error *err;
	unsigned int flags;
	unsigned int depth;
	const struct src *stack[SCI_INCLUDE_MAX + 2];
	const struct src *cur;
	bool have_default;
	char default_origin[1100];
	struct tok *toks;
	unsigned int ntoks, captoks;
	struct filter **gfilters;
	unsigned int ngfilters;
	struct pend *pends;
	unsigned int npends, cappends;
	const char *include_root;	/* absolute @include paths under it */
	sci_warn_fn warn;
	void *warn_arg;
	bool denylist;			/* @denylist seen */
	bool have_rule;			/* a rule seen */
};

static int perr(struct parser *ps, const struct tok *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct parser *ps, const struct tok *t, const char *fmt, ...)
{
	struct sci_error *err = ps->err;
	va_list ap;

	if (!err)
		return -EINVAL;
	memset(err, 0, sizeof(*err));
	err->code = -EINVAL;
	snprintf(err->file, sizeof(err->file), "%s", ps->cur->name);
	if (t) {
		err->line = t->line;
		err->column = t->col;
	}
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A note or warning, "file:line:col: note: ..." (stderr without a callback). */
static void pwarn(struct parser *ps, const struct tok *t, const char *kind,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void pwarn(struct parser *ps, const struct tok *t, const char *kind,
		  const char *fmt, ...)
{
	char msg[1024], line[1300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t)
		snprintf(line, sizeof(line), "%s:%u:%u: %s: %s", ps->cur->name,
			 t->line, t->col, kind, msg);
	else
		snprintf(line, sizeof(line), "%s: %s: %s", ps->cur->name, kind, msg);
	if (ps->warn)
		ps->warn(ps->warn_arg, line);
	else
		fprintf(stderr, "libsci: %s\n", line);
}

/* A token for messages: 'text' or "end of line". */
static const char *tdesc(const struct tok *t, char *buf, size_t len)
{
	size_t n;

	if (t->t == T_EOL)
		return "end of line";
	n = t->len > 40 ? 40 : t->len;
	snprintf(buf, len, "'%.*s%s'", (int)n, t->s, t->len > 40 ? "..." : "");
	return buf;
}

static bool tok_is(const struct tok *t, const char *word)
{
	return (t->t == T_IDENT || t->t == T_AT) && strlen(word) == t->len &&
	       !memcmp(t->s, word, t->len);
}

/* ---- suggestions ---- */

static unsigned int suggest_limit(size_t len)
{
	return len <= 3 ? 1 : len <= 6 ? 2 : 3;
}

/* Nearest of @cands (NULL-terminated, or @n entries) to @s, or NULL. */
static const char *nearest(const char *s, size_t len, const char *const *cands,
			   unsigned int n, size_t stride)
{
	unsigned int limit = suggest_limit(len), best = limit + 1, i;
	const char *found = NULL;

	for (i = 0; i < n; i++) {
		const char *c = *(const char *const *)((const char *)cands +
						      i * stride);
		unsigned int d;

		if (!c)
			break;
		d = sci__edit_distance(s, len, c, strlen(c), limit);
		if (d < best) {
			best = d;
			found = c;
		}
	}
	return found;
}

static void did_you_mean(char *buf, size_t len, const char *what)
{
	if (what)
		snprintf(buf, len, " (did you mean '%s'?)", what);
	else
		buf[0] = '\0';
}

/* ---- tokenizer ---- */

static int push_tok(struct parser *ps, enum tok_type t, const char *s,
		    size_t len, unsigned int line, unsigned int col)
{
	if (ps->ntoks == ps->captoks) {
		unsigned int cap = ps->captoks ? ps->captoks * 2 : 64;
		struct tok *n = realloc(ps->toks, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		ps->toks = n;
		ps->captoks = cap;
	}
	ps->toks[ps->ntoks++] = (struct tok){ t, s, len, line, col };
	return 0;
}

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

/*
 * Tokenize one physical line [s, s + len).  *cont is set when the line
 * ends with a backslash outside a comment (the statement goes on).
 */
static int tokenize(struct parser *ps, const char *s, size_t len,
		    unsigned int line, bool *cont)
{
	size_t i = 0;
	int rc;

	*cont = false;
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		unsigned int col = (unsigned int)i + 1;
		size_t j = i + 1;
		enum tok_type t;

		if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '#')
			return 0;
		if (c == '\\') {
			size_t k = i + 1;

			while (k < len && (s[k] == ' ' || s[k] == '\t'))
				k++;
			if (k == len) {
				*cont = true;
				return 0;
			}
			goto bad;
		}
		/* The path of an @include is one word, taken as it is. */
		if (ps->ntoks == 1 && (tok_is(&ps->toks[0], "@include") ||
				       tok_is(&ps->toks[0], "@frequency"))) {
			while (j < len && !isspace((unsigned char)s[j]))
				j++;
			rc = push_tok(ps, T_PATH, s + i, j - i, line, col);
			if (rc)
				return rc;
			i = j;
			continue;
		}
		if (is_ident_start(c)) {
			while (j < len && is_ident((unsigned char)s[j]))
				j++;
			/* minijail's group@namespace */
			if (j + 1 < len && s[j] == '@' && is_ident_start((unsigned char)s[j + 1])) {
				j++;
				while (j < len && is_ident((unsigned char)s[j]))
					j++;
			}
			t = T_IDENT;
		} else if (c == '@') {
			while (j < len && is_ident((unsigned char)s[j]))
				j++;
			t = T_AT;
		} else if (isdigit(c) ||
			   (c == '-' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
			while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '_'))
				j++;
			t = T_NUM;
		} else {
			char n = i + 1 < len ? s[i + 1] : '\0';

			switch (c) {
			case ':': t = T_COLON; break;
			case ';': t = T_SEMI; break;
			case ',': t = T_COMMA; break;
			case '(': t = T_LPAREN; break;
			case ')': t = T_RPAREN; break;
			case '{': t = T_LBRACE; break;
			case '}': t = T_RBRACE; break;
			case '~': t = T_TILDE; break;
			case '|':
				t = n == '|' ? T_OROR : T_PIPE;
				j += n == '|';
				break;
			case '&':
				t = n == '&' ? T_ANDAND : T_AMP;
				j += n == '&';
				break;
			case '<':
				t = n == '=' ? T_LE : T_LT;
				j += n == '=';
				break;
			case '>':
				t = n == '=' ? T_GE : T_GT;
				j += n == '=';
				break;
			case '=':
				if (n != '=')
					goto bad;
				t = T_EQ;
				j++;
				break;
			case '!':
				if (n != '=')
					goto bad;
				t = T_NE;
				j++;
				break;
			default:
				goto bad;
			}
		}
		rc = push_tok(ps, t, s + i, j - i, line, col);
		if (rc)
			return rc;
		i = j;
		continue;
bad:
		{
			struct tok bt = { T_IDENT, s + i, 1, line, col };

			if (c == '=')
				return perr(ps, &bt, "unexpected '=': comparisons are written '=='");
			if (c == '!')
				return perr(ps, &bt, "unexpected '!': the only use of '!' is '!='");
			if (c == '\\')
				return perr(ps, &bt, "unexpected '\\': a backslash continues a line only at its end");
			if (c == '[')
				return perr(ps, &bt, "minijail's [arch=...] metadata is not supported (libsci policies are for x86_64)");
			if (isprint(c))
				return perr(ps, &bt, "unexpected character '%c'", c);
			return perr(ps, &bt, "unexpected byte 0x%02x", c);
		}
	}
	return 0;
}

/* ---- numbers and constants ---- */

static int parse_number(struct parser *ps, const struct tok *t, uint64_t *out)
{
	const char *s = t->s;
	size_t i = 0, n = t->len;
	bool neg = false;
	unsigned int base = 10;
	uint64_t v = 0;

	if (s[0] == '-') {
		neg = true;
		i++;
	}
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (n - i > 1 && s[i] == '0') {
		base = 8;
		i++;
	}
	if (i == n)
		return perr(ps, t, "invalid number '%.*s'", (int)t->len, t->s);
	for (; i < n; i++) {
		unsigned int d;
		int c = (unsigned char)s[i];

		if (isdigit(c))
			d = (unsigned int)(c - '0');
		else if (isxdigit(c))
			d = (unsigned int)(tolower(c) - 'a' + 10);
		else
			d = 99;
		if (d >= base)
			return perr(ps, t, "invalid number '%.*s'%s", (int)t->len, t->s,
				    base == 8 && d < 10 ? " (a leading 0 means octal)" : "");
		if (v > (UINT64_MAX - d) / base)
			return perr(ps, t, "number '%.*s' does not fit in 64 bits",
				    (int)t->len, t->s);
		v = v * base + d;
	}
	if (neg) {
		if (v > (UINT64_MAX >> 1) + 1)
			return perr(ps, t, "number '%.*s' does not fit in 64 bits",
				    (int)t->len, t->s);
		v = (uint64_t)0 - v;
	}
	*out = v;
	return 0;
}

static int parse_value(struct parser *ps, unsigned int *i, uint64_t *out,
		       unsigned int depth);

/* constant = [ '~' ] ( '(' value ')' | number | name ) */
static int parse_constant(struct parser *ps, unsigned int *i, uint64_t *out,
			  unsigned int depth)
{
	struct tok *t = &ps->toks[*i];
	bool neg = false;
	char b1[64], b2[80];
	int rc;

	if (t->t == T_TILDE) {
		neg = true;
		t = &ps->toks[++*i];
		if (t->t == T_TILDE)
			return perr(ps, t, "'~~' is not allowed: write the value itself");
	}
	if (t->t == T_LPAREN) {
		const struct tok *open = t;

		if (depth >= SCI_PAREN_MAX)
			return perr(ps, t, "parentheses nested too deeply (more than %d)",
				    SCI_PAREN_MAX);
		++*i;
		rc = parse_value(ps, i, out, depth + 1);
		if (rc)
			return rc;
		t = &ps->toks[*i];
		if (t->t != T_RPAREN)
			return perr(ps, t, "expected ')' to close the '(' at column %u, found %s",
				    open->col, tdesc(t, b1, sizeof(b1)));
		++*i;
	} else if (t->t == T_NUM) {
		rc = parse_number(ps, t, out);
		if (rc)
			return rc;
		++*i;
	} else if (t->t == T_IDENT) {
		const struct sci_const *c = sci__const_lookup(t->s, t->len);

		if (!c) {
			char name[72];

			snprintf(name, sizeof(name), "%.*s", (int)(t->len > 64 ? 64 : t->len), t->s);
			did_you_mean(b2, sizeof(b2),
				     nearest(name, strlen(name), &sci__consts[0].name,
					     sci__nconsts, sizeof(sci__consts[0])));
			return perr(ps, t, "unknown constant '%s'%s", name, b2);
		}
		*out = c->value;
		++*i;
	} else {
		return perr(ps, t, "expected a value (a number, a constant like O_RDONLY, '~' or '('), found %s",
			    tdesc(t, b1, sizeof(b1)));
	}
	if (neg)
		*out = ~*out;
	return 0;
}

/* value = constant { '|' constant } */
static int parse_value(struct parser *ps, unsigned int *i, uint64_t *out,
		       unsigned int depth)
{
	uint64_t v = 0, c;
	int rc;

	for (;;) {
		rc = parse_constant(ps, i, &c, depth);
		if (rc)
			return rc;
		v |= c;
		if (ps->toks[*i].t != T_PIPE)
			break;
		++*i;
	}
	*out = v;
	return 0;
}

/* ---- expressions ---- */

static int clause_push(struct sci_clause *c, const struct sci_atom *a)
{
	struct sci_atom *n = realloc(c->atoms, (c->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	c->atoms = n;
	c->atoms[c->n++] = *a;
	return 0;
}

static int expr_push(struct sci_expr *e)
{
	struct sci_clause *n = realloc(e->clauses, (e->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	e->clauses = n;
	e->clauses[e->n].n = 0;
	e->clauses[e->n].atoms = NULL;
	e->n++;
	return 0;
}

static int expr_copy(struct sci_expr *dst, const struct sci_expr *src)
{
	unsigned int i;

	dst->n = 0;
	dst->clauses = NULL;
	if (!src->n)
		return 0;
	dst->clauses = calloc(src->n, sizeof(*dst->clauses));
	if (!dst->clauses)
		return -ENOMEM;
	dst->n = src->n;
	for (i = 0; i < src->n; i++) {
		size_t sz = src->clauses[i].n * sizeof(struct sci_atom);

		dst->clauses[i].atoms = malloc(sz ? sz : 1);
		if (!dst->clauses[i].atoms) {
			sci__expr_free(dst);
			return -ENOMEM;
		}
		memcpy(dst->clauses[i].atoms, src->clauses[i].atoms, sz);
		dst->clauses[i].n = src->clauses[i].n;
	}
	return 0;
}

static bool is_arg_tok(const struct tok *t)
{
	return t->t == T_IDENT && t->len > 3 && !memcmp(t->s, "arg", 3) &&
	       isdigit((unsigned char)t->s[3]);
}

/* atom = argN op value | argN '&' value [ ('==' | '!=') value ] | argN 'in' value */
static int parse_atom(struct parser *ps, unsigned int *i, struct sci_atom *a)
{
	struct tok *t = &ps->toks[*i], *opt, *vt;
	unsigned int k, arg = 0;
	uint64_t v, m;
	char b[64];
	int rc;

	if (!is_arg_tok(t))
		return perr(ps, t, "expected an argument (arg0 to arg5), found %s",
			    tdesc(t, b, sizeof(b)));
	for (k = 3; k < t->len; k++) {
		if (!isdigit((unsigned char)t->s[k]) || arg > 100)
			return perr(ps, t, "expected an argument (arg0 to arg5), found %s",
				    tdesc(t, b, sizeof(b)));
		arg = arg * 10 + (unsigned int)(t->s[k] - '0');
	}
	if (arg >= SCI_NARGS)
		return perr(ps, t, "'%.*s' is not a syscall argument: they are arg0 to arg5",
			    (int)(t->len > 40 ? 40 : t->len), t->s);
	a->arg = (uint8_t)arg;
	opt = &ps->toks[*i + 1];	/* t is not the last token (T_EOL) */
	switch (opt->t) {
	case T_EQ: a->op = SCI_CMP_EQ; break;
	case T_NE: a->op = SCI_CMP_NE; break;
	case T_LT: a->op = SCI_CMP_LT; break;
	case T_LE: a->op = SCI_CMP_LE; break;
	case T_GT: a->op = SCI_CMP_GT; break;
	case T_GE: a->op = SCI_CMP_GE; break;
	case T_AMP: a->op = SCI_CMP_ANY_SET; break;
	default:
		if (tok_is(opt, "in")) {
			a->op = SCI_CMP_IN;
			break;
		}
		return perr(ps, opt, "expected a comparison (==, !=, <, <=, >, >=, &, in) after 'arg%u', found %s",
			    arg, tdesc(opt, b, sizeof(b)));
	}
	*i += 2;
	vt = &ps->toks[*i];
	rc = parse_value(ps, i, &v, 0);
	if (rc)
		return rc;
	a->value = v;
	a->mask = 0;
	if (a->op == SCI_CMP_IN) {
		a->mask = v;
		a->value = 0;
	} else if (a->op == SCI_CMP_ANY_SET) {
		a->mask = v;
		a->value = 0;
		t = &ps->toks[*i];
		if (t->t == T_EQ || t->t == T_NE) {
			struct tok *vt2;

			a->op = t->t == T_EQ ? SCI_CMP_MASKED_EQ : SCI_CMP_MASKED_NE;
			++*i;
			vt2 = &ps->toks[*i];
			rc = parse_value(ps, i, &m, 0);
			if (rc)
				return rc;
			a->value = m;
			if (m & ~a->mask)
				return perr(ps, vt2, "the value %#" PRIx64 " has bits outside the mask %#" PRIx64 ": 'arg%u & %#" PRIx64 " %s %#" PRIx64 "' is %s",
					    m, a->mask, arg, a->mask, t->t == T_EQ ? "==" : "!=", m,
					    t->t == T_EQ ? "never true" : "always true");
		} else if (!a->mask) {
			return perr(ps, vt, "'arg%u & 0' is never true: the mask is 0", arg);
		}
	} else if (a->op == SCI_CMP_LT && v == 0) {
		return perr(ps, vt, "'arg%u < 0' is never true: arguments are unsigned", arg);
	} else if (a->op == SCI_CMP_GT && v == UINT64_MAX) {
		return perr(ps, vt, "'arg%u > 0xffffffffffffffff' is never true", arg);
	}
	return 0;
}

/* expr = clause { '||' clause };  clause = atom { '&&' atom } */
static int parse_expr(struct parser *ps, unsigned int *i, struct sci_expr *e)
{
	struct sci_atom a;
	int rc;

	for (;;) {
		rc = expr_push(e);
		if (rc)
			return rc;
		for (;;) {
			rc = parse_atom(ps, i, &a);
			if (rc)
				return rc;
			rc = clause_push(&e->clauses[e->n - 1], &a);
			if (rc)
				return rc;
			if (ps->toks[*i].t != T_ANDAND)
				break;
			++*i;
		}
		if (ps->toks[*i].t != T_OROR)
			break;
		++*i;
	}
	return 0;
}

/* ---- actions ---- */

static const char *const action_names[] = {
	"allow", "isolate", "isolate-learn", "log", "return", "trap", "trace",
	"user-notify", "kill", "kill-thread", "kill-process", NULL
};

#define ACTIONS_HELP "allow, isolate, isolate-learn, log, return ERRNO, trap, trace, user-notify, kill-thread, kill-process"

static int parse_action(struct parser *ps, unsigned int *i, uint32_t *out)
{
	struct tok *t = &ps->toks[*i], *v;
	char b[64], b2[80];
	uint64_t n;
	int rc;

	if (t->t == T_NUM && t->len == 1 && t->s[0] == '1') {
		*out = SCI_ACT_ALLOW;
		++*i;
		return 0;
	}
	if (t->t != T_IDENT) {
		if (t->t == T_EOL)
			return perr(ps, t, "expected an action (" ACTIONS_HELP ") at end of line");
		return perr(ps, t, "expected an action (" ACTIONS_HELP "), found %s",
			    tdesc(t, b, sizeof(b)));
	}
	++*i;
	if (tok_is(t, "allow")) {
		*out = SCI_ACT_ALLOW;
	} else if (tok_is(t, "isolate")) {
		*out = SCI_ACT_ISOLATE;
	} else if (tok_is(t, "isolate-learn")) {
		*out = SCI_ACT_ISOLATE_LEARN;
	} else if (tok_is(t, "log")) {
		*out = SCI_ACT_LOG;
	} else if (tok_is(t, "trap")) {
		*out = SCI_ACT_TRAP;
	} else if (tok_is(t, "user-notify") || tok_is(t, "user-notif")) {
		*out = SCI_ACT_USER_NOTIF;
	} else if (tok_is(t, "kill") || tok_is(t, "kill-process")) {
		*out = SCI_ACT_KILL_PROCESS;
	} else if (tok_is(t, "kill-thread")) {
		*out = SCI_ACT_KILL_THREAD;
	} else if (tok_is(t, "trace")) {
		v = &ps->toks[*i];
		n = 0;
		if (v->t == T_NUM) {
			rc = parse_number(ps, v, &n);
			if (rc)
				return rc;
			if (n > 0xffff)
				return perr(ps, v, "trace data %s is out of range (0 to 65535)",
					    tdesc(v, b, sizeof(b)));
			++*i;
		}
		*out = SCI_ACT_TRACE(n);
	} else if (tok_is(t, "return")) {
		v = &ps->toks[*i];
		if (v->t == T_NUM) {
			rc = parse_number(ps, v, &n);
			if (rc)
				return rc;
			if (n > SCI_ERRNO_MAX)
				return perr(ps, v, "errno %s is out of range (0 to %d)",
					    tdesc(v, b, sizeof(b)), SCI_ERRNO_MAX);
		} else if (v->t == T_IDENT) {
			const struct sci_const *c = sci__const_lookup(v->s, v->len);

			if (!c || !c->is_errno) {
				char name[72];
				const char *cands[160];
				unsigned int k, nc = 0;

				for (k = 0; k < sci__nconsts && nc < 159; k++)
					if (sci__consts[k].is_errno)
						cands[nc++] = sci__consts[k].name;
				cands[nc] = NULL;
				snprintf(name, sizeof(name), "%.*s",
					 (int)(v->len > 64 ? 64 : v->len), v->s);
				did_you_mean(b2, sizeof(b2),
					     nearest(name, strlen(name), cands, nc,
						     sizeof(cands[0])));
				return perr(ps, v, "unknown errno '%s'%s", name, b2);
			}
			n = c->value;
		} else if (v->t == T_EOL) {
			return perr(ps, v, "expected an errno (like EPERM, or a number) after 'return'");
		} else {
			return perr(ps, v, "expected an errno (like EPERM, or a number) after 'return', found %s",
				    tdesc(v, b, sizeof(b)));
		}
		++*i;
		*out = SCI_ACT_ERRNO(n);
	} else {
		char name[72];

		snprintf(name, sizeof(name), "%.*s", (int)(t->len > 64 ? 64 : t->len), t->s);
		if (is_arg_tok(t))
			return perr(ps, t, "unknown action '%s' (a condition must come before ';', the action after it)", name);
		did_you_mean(b2, sizeof(b2), nearest(name, strlen(name), action_names, 100,
						    sizeof(action_names[0])));
		return perr(ps, t, "unknown action '%s'%s", name, b2);
	}
	return 0;
}

static int expect_eol(struct parser *ps, unsigned int i, const char *after)
{
	char b[64];

	if (ps->toks[i].t == T_EOL)
		return 0;
	return perr(ps, &ps->toks[i], "unexpected %s after %s",
		    tdesc(&ps->toks[i], b, sizeof(b)), after);
}

/* The end of a single filter: the end of the line, or ',' / '}' in braces. */
static int filter_end(struct parser *ps, unsigned int i, bool braced,
		      const char *after)
{
	if (braced && (ps->toks[i].t == T_COMMA || ps->toks[i].t == T_RBRACE))
		return 0;
	if (braced && ps->toks[i].t == T_EOL)
		return perr(ps, &ps->toks[i], "expected ',' or '}' after %s, found end of line", after);
	return expect_eol(ps, i, after);
}

/* filter = action | expr [ ';' action ] */
static int parse_filter(struct parser *ps, unsigned int *i, struct filter *f,
			bool braced)
{
	struct tok *t = &ps->toks[*i];
	char b[64];
	int rc;

	if (is_arg_tok(t)) {
		f->has_expr = true;
		rc = parse_expr(ps, i, &f->expr);
		if (rc)
			return rc;
		t = &ps->toks[*i];
		if (t->t == T_SEMI) {
			++*i;
			f->has_action = true;
			rc = parse_action(ps, i, &f->action);
			if (rc)
				return rc;
			return filter_end(ps, *i, braced, "the action");
		}
		if (t->t == T_EOL && !braced)
			return 0;
		if (braced && (t->t == T_COMMA || t->t == T_RBRACE))
			return 0;
		return perr(ps, t, "expected '&&', '||', ';' or the end of the line after the condition, found %s",
			    tdesc(t, b, sizeof(b)));
	}
	if (t->t == T_EOL)
		return perr(ps, t, "expected an action or a condition after ':'");
	f->has_action = true;
	rc = parse_action(ps, i, &f->action);
	if (rc)
		return rc;
	return filter_end(ps, *i, braced, "the action");
}

/* Give syscall @nr the arms of @f (one filter). */
static int apply_one(struct parser *ps, int nr, const struct filter *f)
{
	struct sci_expr e = { 0, NULL };
	int rc;

	if (f->has_expr) {
		rc = expr_copy(&e, &f->expr);
		if (rc)
			return rc;
		rc = sci__add_arm(ps->p, nr, &e, SCI_ACT_ALLOW, f->origin);
		if (rc)
			return rc;
	}
	if (f->has_action)
		return sci__add_arm(ps->p, nr, &e, f->action, f->origin);
	return 0;
}

/*
 * Give syscall @nr the arms of @f and the filters chained to it, after the
 * arms it has: the rules of a syscall apply in file order.  @t is the token
 * to blame when an earlier rule already decides every call.
 */
static int apply_filter(struct parser *ps, int nr, const struct filter *f,
			const struct tok *t)
{
	int rc = 0;

	for (; f && !rc; f = f->next) {
		rc = apply_one(ps, nr, f);
		if (rc == -EEXIST) {
			const struct sci_sysrule *s = sci__sysrule(ps->p, nr);
			const char *o = s && s->narms ? s->arms[s->narms - 1].origin : NULL;
			char name[64];

			if (sci_syscall_name(nr, name, sizeof(name)) < 0)
				snprintf(name, sizeof(name), "%d", nr);
			return perr(ps, t, "syscall '%s' already has an unconditional action (at %s): this rule could never apply",
				    name, o ? o : "?");
		}
	}
	return rc;
}

static void origin_of(struct parser *ps, const struct tok *t, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s:%u:%u", ps->cur->name, t->line, t->col);
}

/* ---- statements ---- */

struct desc {
	int nr;
	int group;	/* -1: named explicitly */
	const struct tok *tok;
};

static int add_desc(struct desc **d, unsigned int *n, int nr, int group,
		    const struct tok *t)
{
	struct desc *x;

	if (*n >= 8192)
		return -E2BIG;
	x = realloc(*d, (*n + 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	*d = x;
	x[*n] = (struct desc){ nr, group, t };
	++*n;
	return 0;
}

static int find_group(const char *s, size_t len)
{
	unsigned int g;

	for (g = 0; g < sci__ngroups; g++)
		if (strlen(sci__groups[g].name) == len &&
		    !memcmp(sci__groups[g].name, s, len))
			return (int)g;
	return -1;
}

static int add_group(struct desc **d, unsigned int *n, int g,
		     const struct tok *t)
{
	unsigned int k;
	int nr, rc;

	for (k = 0; sci__groups[g].members[k]; k++) {
		nr = sci_syscall_nr(sci__groups[g].members[k]);
		if (nr < 0)
			continue;
		rc = add_desc(d, n, nr, g, t);
		if (rc)
			return rc;
	}
	return 0;
}

/* "@basic-io, @file-io, ..." */
static void group_list(char *list, size_t len)
{
	unsigned int k;

	list[0] = '\0';
	for (k = 0; k < sci__ngroups; k++)
		snprintf(list + strlen(list), len - strlen(list), "%s@%s",
			 k ? ", " : "", sci__groups[k].name);
}

static int parse_one_desc(struct parser *ps, unsigned int *i, struct desc **d,
			  unsigned int *n)
{
	struct tok *t = &ps->toks[*i];
	char b[64], b2[80], name[72];
	uint64_t v;
	int rc, nr;

	snprintf(name, sizeof(name), "%.*s", (int)(t->len > 64 ? 64 : t->len), t->s);
	if (t->t == T_IDENT && memchr(t->s, '@', t->len)) {
		/* minijail's group@namespace: libsci's groups are "sci" */
		const char *at = memchr(t->s, '@', t->len);
		size_t glen = (size_t)(at - t->s), nslen = t->len - glen - 1;
		char list[256];
		int g;

		group_list(list, sizeof(list));
		if (nslen != 3 || memcmp(at + 1, "sci", 3))
			return perr(ps, t, "unknown syscall group namespace '%.*s' in '%s': minijail takes its group namespaces from its compiler's tables; libsci's groups are %s, also written 'name@sci'",
				    (int)(nslen > 40 ? 40 : nslen), at + 1, name, list);
		g = find_group(t->s, glen);
		if (g < 0)
			return perr(ps, t, "unknown syscall group '%s'; the groups are %s", name, list);
		rc = add_group(d, n, g, t);
		if (!rc)
			++*i;
		return rc;
	}
	if (t->t == T_IDENT) {
		nr = sci_syscall_nr(name);
		if (nr < 0 || t->len > 64) {
			int pseudo = seccomp_syscall_resolve_name(name);

			if (pseudo < 0 && pseudo != __NR_SCMP_ERROR && t->len <= 64)
				return perr(ps, t, "'%s' is not a syscall on this architecture", name);
			did_you_mean(b2, sizeof(b2),
				     nearest(name, strlen(name), &sci__syscalls[0].name,
					     sci__nsyscalls, sizeof(sci__syscalls[0])));
			return perr(ps, t, "unknown syscall '%s'%s", name, b2);
		}
		++*i;
		return add_desc(d, n, nr, -1, t);
	}
	if (t->t == T_NUM) {
		rc = parse_number(ps, t, &v);
		if (rc)
			return rc;
		if (v > SCI_NR_MAX)
			return perr(ps, t, "syscall number %s is out of range (0 to %d)",
				    tdesc(t, b, sizeof(b)), SCI_NR_MAX);
		++*i;
		return add_desc(d, n, (int)v, -1, t);
	}
	if (t->t == T_AT) {
		unsigned int g, k;
		const char *gn[16];

		for (g = 0; g < sci__ngroups; g++)
			if (strlen(sci__groups[g].name) == t->len - 1 &&
			    !memcmp(sci__groups[g].name, t->s + 1, t->len - 1))
				break;
		if (g == sci__ngroups) {
			char list[256] = "";

			for (k = 0; k < sci__ngroups && k < 15; k++) {
				gn[k] = sci__groups[k].name;
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
					 "%s@%s", k ? ", " : "", sci__groups[k].name);
			}
			gn[k] = NULL;
			did_you_mean(b2, sizeof(b2), NULL);
			{
				const char *near = nearest(name + 1, strlen(name + 1), gn, k,
							   sizeof(gn[0]));

				if (near)
					snprintf(b2, sizeof(b2), " (did you mean '@%s'?)", near);
			}
			return perr(ps, t, "unknown syscall group '%s'%s; the groups are %s",
				    name, b2, list);
		}
		for (k = 0; sci__groups[g].members[k]; k++) {
			nr = sci_syscall_nr(sci__groups[g].members[k]);
			if (nr < 0)
				continue;
			rc = add_desc(d, n, nr, (int)g, t);
			if (rc)
				return rc;
		}
		++*i;
		return 0;
	}
	if (t->t == T_EOL)
		return perr(ps, t, "expected a syscall name, number or @group at end of line");
	return perr(ps, t, "expected a syscall name, number or @group, found %s",
		    tdesc(t, b, sizeof(b)));
}

static int push_pend(struct parser *ps, int nr, unsigned int filter)
{
	if (ps->npends == ps->cappends) {
		unsigned int cap = ps->cappends ? ps->cappends * 2 : 64;
		struct pend *n = realloc(ps->pends, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		ps->pends = n;
		ps->cappends = cap;
	}
	ps->pends[ps->npends++] = (struct pend){ nr, filter };
	return 0;
}

static void free_filter(struct filter *f)
{
	while (f) {
		struct filter *next = f->next;

		sci__expr_free(&f->expr);
		free(f);
		f = next;
	}
}

static int parse_rule(struct parser *ps)
{
	struct desc *d = NULL;
	unsigned int nd = 0, i = 0, k, j;
	struct filter *f;
	bool any_group = false;
	char b[64];
	int rc;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	if (ps->toks[0].t == T_LBRACE) {
		const struct tok *open = &ps->toks[0];

		i = 1;
		for (;;) {
			rc = parse_one_desc(ps, &i, &d, &nd);
			if (rc)
				goto out;
			if (ps->toks[i].t != T_COMMA)
				break;
			i++;
		}
		if (ps->toks[i].t != T_RBRACE) {
			rc = perr(ps, &ps->toks[i], "expected ',' or '}' to close the '{' at column %u, found %s",
				  open->col, tdesc(&ps->toks[i], b, sizeof(b)));
			goto out;
		}
		i++;
	} else {
		rc = parse_one_desc(ps, &i, &d, &nd);
		if (rc)
			goto out;
	}
	if (ps->toks[i].t != T_COLON) {
		const struct tok *prev = &ps->toks[i - 1];

		rc = perr(ps, &ps->toks[i], "expected ':' after '%.*s', found %s",
			  (int)(prev->len > 40 ? 40 : prev->len), prev->s,
			  tdesc(&ps->toks[i], b, sizeof(b)));
		goto out;
	}
	origin_of(ps, &ps->toks[0], f->origin, sizeof(f->origin));
	i++;
	if (ps->toks[i].t == T_LBRACE) {
		/* minijail's "name: {filter, filter, ...}": in order */
		const struct tok *open = &ps->toks[i];
		struct filter *last = f;

		i++;
		for (;;) {
			rc = parse_filter(ps, &i, last, true);
			if (rc)
				goto out;
			if (ps->toks[i].t != T_COMMA)
				break;
			i++;
			last->next = calloc(1, sizeof(*f));
			if (!last->next) {
				rc = -ENOMEM;
				goto out;
			}
			memcpy(last->next->origin, f->origin, sizeof(f->origin));
			last = last->next;
		}
		if (ps->toks[i].t != T_RBRACE) {
			rc = perr(ps, &ps->toks[i], "expected ',' or '}' to close the '{' at column %u, found %s",
				  open->col, tdesc(&ps->toks[i], b, sizeof(b)));
			goto out;
		}
		rc = expect_eol(ps, i + 1, "'}'");
	} else {
		rc = parse_filter(ps, &i, f, false);
	}
	if (rc)
		goto out;
	if (ps->denylist) {
		const struct filter *x;

		/* minijail: every rule of a denylist returns an errno */
		for (x = f; x; x = x->next)
			if (x->has_expr || (x->action & SCI_RET_ACTION_FULL) != 0x00050000U) {
				rc = perr(ps, &ps->toks[0], "in a @denylist policy every rule is 'return ERRNO' (the syscalls it names fail, the others are allowed)");
				goto out;
			}
	}
	ps->have_rule = true;

	for (k = 0; k < nd; k++) {
		if (d[k].group >= 0) {
			any_group = true;
			continue;
		}
		for (j = 0; j < k; j++)
			if (d[j].group < 0 && d[j].nr == d[k].nr) {
				rc = perr(ps, d[k].tok, "syscall '%.*s' is named twice in this rule",
					  (int)(d[k].tok->len > 40 ? 40 : d[k].tok->len),
					  d[k].tok->s);
				goto out;
			}
		rc = apply_filter(ps, d[k].nr, f, d[k].tok);
		if (rc)
			goto out;
	}
	if (any_group) {
		struct filter **n;
		const struct tok *gt = NULL;

		for (k = 0; k < nd; k++)
			if (d[k].group >= 0) {
				gt = d[k].tok;
				break;
			}
		origin_of(ps, gt, f->origin, sizeof(f->origin));
		snprintf(f->file, sizeof(f->file), "%s", ps->cur->name);
		f->line = gt->line;
		f->col = gt->col;
		snprintf(f->group, sizeof(f->group), "%.*s", (int)(gt->len > 60 ? 60 : gt->len), gt->s);
		n = realloc(ps->gfilters, (ps->ngfilters + 1) * sizeof(*n));
		if (!n) {
			rc = -ENOMEM;
			goto out;
		}
		ps->gfilters = n;
		ps->gfilters[ps->ngfilters++] = f;
		for (k = 0; k < nd; k++)
			if (d[k].group >= 0) {
				rc = push_pend(ps, d[k].nr, ps->ngfilters - 1);
				if (rc)
					break;
			}
		free(d);
		return rc;
	}
	rc = 0;
out:
	free(d);
	free_filter(f);
	return rc;
}

static int parse_src(struct parser *ps, const struct src *src);

static int read_file(const char *path, char **buf, size_t *len, dev_t *dev,
		     ino_t *ino, char *why, size_t whylen)
{
	struct stat st;
	size_t got = 0;
	char *b;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;

		snprintf(why, whylen, "cannot open '%s': %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		snprintf(why, whylen, "cannot stat '%s': %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, whylen, "'%s' is not a regular file", path);
		return -EINVAL;
	}
	if (st.st_size > SCI_FILE_MAX) {
		close(fd);
		snprintf(why, whylen, "'%s' is larger than %d bytes", path, SCI_FILE_MAX);
		return -EFBIG;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		close(fd);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, b + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			close(fd);
			snprintf(why, whylen, "cannot read '%s': %s", path, strerror(e));
			return -e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	b[got] = '\0';
	*buf = b;
	*len = got;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return 0;
}

static char *dir_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

static int parse_include(struct parser *ps)
{
	const struct tok *t = &ps->toks[1];
	char path[4096], why[1200];
	struct src inc = { 0 };
	char *buf = NULL;
	unsigned int k, line, col;
	int rc;

	if (ps->flags & SCI_PARSE_NO_INCLUDE)
		return perr(ps, &ps->toks[0], "@include is not allowed here");
	if (t->t != T_PATH)
		return perr(ps, t, "expected a file name after @include");
	rc = expect_eol(ps, 2, "the file name");
	if (rc)
		return rc;
	if (ps->depth >= SCI_INCLUDE_MAX)
		return perr(ps, &ps->toks[0], "@include nested too deeply (more than %d levels)",
			    SCI_INCLUDE_MAX);
	if (t->len >= sizeof(path) - 1 - strlen(ps->cur->dir) -
	    (ps->include_root ? strlen(ps->include_root) : 0))
		return perr(ps, t, "file name too long");
	{
		const char *s = t->s;
		size_t n = t->len;

		/*
		 * As minijail: relative to the directory of the including
		 * file ("./x" is "x" next to it); an absolute path is under
		 * the include root when there is one.
		 */
		while (s[0] != '/' && strcmp(ps->cur->dir, ".") && n > 2 &&
		       s[0] == '.' && s[1] == '/') {
			s += 2;
			n -= 2;
		}
		if (s[0] == '/' && ps->include_root)
			snprintf(path, sizeof(path), "%s%s%.*s", ps->include_root,
				 ps->include_root[0] && ps->include_root[strlen(ps->include_root) - 1] == '/' ? "." : "",
				 (int)n, s);
		else if (s[0] == '/' || !strcmp(ps->cur->dir, "."))
			snprintf(path, sizeof(path), "%.*s", (int)n, s);
		else
			snprintf(path, sizeof(path), "%s/%.*s", ps->cur->dir, (int)n, s);
	}
	rc = read_file(path, &buf, &inc.len, &inc.dev, &inc.ino, why, sizeof(why));
	if (rc) {
		perr(ps, t, "%s%s", why,
		     rc == -ENOENT && t->s[0] == '/' && !ps->include_root ?
		     " (absolute @include paths are taken as they are unless an include root is given)" : "");
		if (ps->err)
			ps->err->code = rc;
		return rc;
	}
	inc.has_id = true;
	for (k = 0; k <= ps->depth; k++)
		if (ps->stack[k]->has_id && ps->stack[k]->dev == inc.dev &&
		    ps->stack[k]->ino == inc.ino) {
			char chain[1024] = "";
			unsigned int m;

			for (m = k; m <= ps->depth; m++)
				snprintf(chain + strlen(chain), sizeof(chain) - strlen(chain),
					 "'%s' includes ", ps->stack[m]->name);
			free(buf);
			return perr(ps, t, "@include cycle: %s'%s'", chain, path);
		}
	inc.name = path;
	inc.buf = buf;
	inc.dir = dir_of(path);
	if (!inc.dir) {
		free(buf);
		return -ENOMEM;
	}
	line = t->line;
	col = t->col;
	rc = parse_src(ps, &inc);	/* may move ps->toks: t is stale */
	if (rc == -EINVAL && ps->err) {
		/* name the chain: "... (included from top.policy:2:10)" */
		char *m = ps->err->message;
		size_t l = strlen(m);

		if (ps->depth + 1 < SCI_INCLUDE_MAX && l && m[l - 1] == ')' &&
		    strstr(m, " (included from "))
			snprintf(m + l - 1, sizeof(ps->err->message) - l + 1,
				 ", from %s:%u:%u)", ps->cur->name, line, col);
		else if (!strstr(m, " (included from "))
			snprintf(m + l, sizeof(ps->err->message) - l,
				 " (included from %s:%u:%u)", ps->cur->name, line, col);
	}
	free(inc.dir);
	free(buf);
	return rc;
}

static int parse_statement(struct parser *ps)
{
	const struct tok *t0 = &ps->toks[0];
	unsigned int i;
	uint32_t a;
	int rc;

	if (tok_is(t0, "@include"))
		return parse_include(ps);
	if (tok_is(t0, "@default")) {
		i = 1;
		rc = parse_action(ps, &i, &a);
		if (rc)
			return rc;
		rc = expect_eol(ps, i, "the action");
		if (rc)
			return rc;
		if (ps->have_default)
			return perr(ps, t0, "@default given twice: it was set at %s",
				    ps->default_origin);
		ps->have_default = true;
		origin_of(ps, t0, ps->default_origin, sizeof(ps->default_origin));
		ps->p->def = a;
		return 0;
	}
	if (tok_is(t0, "@keep-grants")) {
		const struct tok *t1 = &ps->toks[1];
		unsigned int flag = SCI_POLICY_KEEP_GRANTS;

		char b[64];

		if (t1->t != T_EOL) {
			if (t1->t == T_IDENT && tok_is(t1, "data"))
				flag = SCI_POLICY_KEEP_DATA;
			else if (t1->t != T_IDENT || !tok_is(t1, "all"))
				return perr(ps, t1, "@keep-grants takes 'all' (the default) or 'data', found %s",
					    tdesc(t1, b, sizeof(b)));
			rc = expect_eol(ps, 2, "@keep-grants all|data");
			if (rc)
				return rc;
		}
		ps->p->flags |= flag;
		return 0;
	}
	if (tok_is(t0, "@frequency")) {
		if (ps->toks[1].t != T_PATH)
			return perr(ps, &ps->toks[1], "expected a file name after @frequency");
		rc = expect_eol(ps, 2, "the file name");
		if (rc)
			return rc;
		pwarn(ps, t0, "note", "@frequency is ignored: it is an ordering hint for minijail's compiler, and the filter means the same without it");
		return 0;
	}
	if (tok_is(t0, "@denylist")) {
		rc = expect_eol(ps, 1, "@denylist");
		if (rc)
			return rc;
		if (ps->have_rule)
			return perr(ps, t0, "@denylist must come before the rules");
		ps->denylist = true;
		return 0;
	}
	return parse_rule(ps);
}

static int parse_src(struct parser *ps, const struct src *src)
{
	const struct src *saved = ps->cur;
	const char *p = src->buf, *end = src->buf + src->len;
	unsigned int line = 0;
	bool cont = false;
	int rc = 0;

	ps->depth += saved ? 1 : 0;
	ps->stack[ps->depth] = src;
	ps->cur = src;
	ps->ntoks = 0;
	if (src->len && memchr(src->buf, '\0', src->len)) {
		/* a NUL byte: not a text file (a compiled filter, say) */
		rc = perr(ps, NULL, "this is a binary file, not a policy (policy files are text, see sci-policy(5))");
		goto done;
	}
	while (p < end || cont) {
		const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		const char *le = nl ? nl : end;
		size_t len = (size_t)(le - p);

		line++;
		if (len && p[len - 1] == '\r')
			len--;
		if (memchr(p, '\0', len)) {
			struct tok z = { T_IDENT, p, 1, line,
					 (unsigned int)((const char *)memchr(p, '\0', len) - p) + 1 };

			rc = perr(ps, &z, "unexpected byte 0x00");
			break;
		}
		if (p < end) {
			rc = tokenize(ps, p, len, line, &cont);
			if (rc)
				break;
		} else {
			cont = false;
		}
		if (!cont && ps->ntoks) {
			rc = push_tok(ps, T_EOL, p + len, 0, line, (unsigned int)len + 1);
			if (!rc)
				rc = parse_statement(ps);
			ps->cur = src;
			ps->ntoks = 0;
			if (rc)
				break;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!rc && ps->ntoks) {
		/* a continuation on the last line */
		rc = push_tok(ps, T_EOL, end, 0, line, 1);
		if (!rc)
			rc = parse_statement(ps);
	}
done:
	ps->ntoks = 0;
	ps->cur = saved ? saved : src;
	ps->depth -= saved ? 1 : 0;
	return rc;
}

static int cmp_pend(const void *a, const void *b)
{
	const struct pend *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return x->filter < y->filter ? -1 : x->filter > y->filter;
}

/* Rules that came from groups, for the syscalls without a rule of their own. */
static int apply_groups(struct parser *ps, const struct src *top)
{
	unsigned int i, j;
	int rc;

	if (!ps->npends)
		return 0;
	qsort(ps->pends, ps->npends, sizeof(*ps->pends), cmp_pend);
	for (i = 0; i < ps->npends; i = j) {
		const struct pend *a = &ps->pends[i];

		for (j = i + 1; j < ps->npends && ps->pends[j].nr == a->nr; j++)
			;
		if (sci_policy_has_rule(ps->p, a->nr))
			continue;
		if (ps->pends[j - 1].filter != a->filter) {
			const struct filter *f1 = ps->gfilters[a->filter];
			const struct filter *f2 = ps->gfilters[ps->pends[j - 1].filter];
			char name[64];

			if (sci_syscall_name(a->nr, name, sizeof(name)) < 0)
				snprintf(name, sizeof(name), "%d", a->nr);
			ps->cur = top;
			perr(ps, NULL, "syscall '%s' is in %s (at %s) and in %s (at %s): give it a rule of its own",
			     name, f1->group, f1->origin, f2->group, f2->origin);
			if (ps->err) {
				/* point at the later group rule */
				snprintf(ps->err->file, sizeof(ps->err->file), "%s", f2->file);
				ps->err->line = f2->line;
				ps->err->column = f2->col;
			}
			return -EINVAL;
		}
		rc = apply_filter(ps, a->nr, ps->gfilters[a->filter], NULL);
		if (rc)
			return rc;
	}
	return 0;
}

static int parse_top(const struct src *src,
		     const struct sci_parse_options *opts,
		     struct sci_policy **out, struct sci_error *err)
{
	struct parser ps = { 0 };
	unsigned int i;
	int rc;

	ps.err = err;
	ps.flags = opts->flags;
	ps.include_root = opts->include_root;
	ps.warn = opts->warn;
	ps.warn_arg = opts->warn_arg;
	ps.p = sci_policy_new(SCI_ACT_KILL_PROCESS);
	if (!ps.p)
		return -ENOMEM;
	rc = parse_src(&ps, src);
	if (!rc)
		rc = apply_groups(&ps, src);
	if ((rc == -ENOMEM || rc == -E2BIG) && err) {
		sci__set_error(err, rc, "%s", rc == -ENOMEM ? "out of memory" :
			       "too many syscalls in one rule");
		snprintf(err->file, sizeof(err->file), "%s", src->name);
	}
	if (!rc) {
		ps.cur = src;
		/* minijail's denylist: what the policy does not name is allowed */
		if (ps.denylist && !ps.have_default)
			ps.p->def = SCI_ACT_ALLOW;
		if (!ps.p->nsys && !ps.denylist) {
			char a[64];

			sci_action_format(ps.p->def, a, sizeof(a));
			pwarn(&ps, NULL, "warning", "the policy has no rules: every syscall takes the default action (%s)", a);
		}
		if (opts->flags & SCI_PARSE_ISOLATE_ALLOWED)
			sci_policy_isolate_allowed(ps.p);
	}
	free(ps.toks);
	for (i = 0; i < ps.ngfilters; i++)
		free_filter(ps.gfilters[i]);
	free(ps.gfilters);
	free(ps.pends);
	if (rc) {
		sci_policy_free(ps.p);
		return rc;
	}
	*out = ps.p;
	return 0;
}

#define SCI_PARSE_FLAGS (SCI_PARSE_NO_INCLUDE | SCI_PARSE_ISOLATE_ALLOWED)

/*
 * The caller's options, as this version of the library knows them: @size
 * is how much of the struct the caller has; what it lacks is 0, and what
 * it has beyond the fields known here must be 0.
 */
static int get_opts(const struct sci_parse_options *in,
		    struct sci_parse_options *o, struct sci_error *err)
{
	int rc;

	rc = sci__copy_struct(o, sizeof(*o), in, in ? in->size : 0,
			      offsetof(struct sci_parse_options, flags) + sizeof(in->flags),
			      "sci_parse_options", err);
	if (rc)
		return rc;
	if (o->flags & ~SCI_PARSE_FLAGS) {
		sci__set_error(err, -EINVAL, "unknown parse flags %#x", o->flags & ~SCI_PARSE_FLAGS);
		return -EINVAL;
	}
	return 0;
}

int sci_policy_parse_buffer_opts(const char *buf, size_t len, const char *name,
				 const struct sci_parse_options *opts,
				 struct sci_policy **out, struct sci_error *err)
{
	struct sci_parse_options o;
	struct src src = { 0 };
	int rc;

	if (!out || (!buf && len))
		return -EINVAL;
	*out = NULL;
	rc = get_opts(opts, &o, err);
	if (rc)
		return rc;
	src.name = name ? name : "<buffer>";
	src.buf = buf ? buf : "";
	src.len = len;
	if (len > SCI_FILE_MAX) {
		sci__set_error(err, -EFBIG, "policy is larger than %d bytes", SCI_FILE_MAX);
		if (err)
			snprintf(err->file, sizeof(err->file), "%s", src.name);
		return -EFBIG;
	}
	src.dir = dir_of(name);
	if (!src.dir)
		return -ENOMEM;
	rc = parse_top(&src, &o, out, err);
	free(src.dir);
	return rc;
}

int sci_policy_parse_file_opts(const char *path,
			       const struct sci_parse_options *opts,
			       struct sci_policy **out, struct sci_error *err)
{
	struct sci_parse_options o;
	struct src src = { 0 };
	char *buf = NULL, why[1200];
	int rc;

	if (!out || !path)
		return -EINVAL;
	*out = NULL;
	rc = get_opts(opts, &o, err);
	if (rc)
		return rc;
	rc = read_file(path, &buf, &src.len, &src.dev, &src.ino, why, sizeof(why));
	if (rc) {
		sci__set_error(err, rc, "%s", why);
		return rc;
	}
	src.has_id = true;
	src.name = path;
	src.buf = buf;
	src.dir = dir_of(path);
	if (!src.dir) {
		free(buf);
		return -ENOMEM;
	}
	rc = parse_top(&src, &o, out, err);
	free(src.dir);
	free(buf);
	return rc;
}

int sci_policy_parse_buffer(const char *buf, size_t len, const char *name,
			    unsigned int flags, struct sci_policy **out,
			    struct sci_error *err)
{
	struct sci_parse_options o = { sizeof(o), flags, NULL, NULL, NULL };

	return sci_policy_parse_buffer_opts(buf, len, name, &o, out, err);
}

int sci_policy_parse_file(const char *path, unsigned int flags,
			  struct sci_policy **out, struct sci_error *err)
{
	struct sci_parse_options o = { sizeof(o), flags, NULL, NULL, NULL };

	return sci_policy_parse_file_opts(path, &o, out, err);
}
