// SPDX-License-Identifier: LGPL-2.1-or-later
/* Syscall names and numbers (libseccomp), nearest-name suggestions. */
#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Highest syscall number searched for names (x86_64 ends below 512). */
#define SCI_NAMES_NR_END 1024

/*
 * Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions), capped: anything above @limit comes back as limit + 1.
 */
unsigned int sci__edit_distance(const char *a, size_t alen, const char *b,
				size_t blen, unsigned int limit)
{
	unsigned int rows[3][65], *pp, *p, *c, *t;
	size_t i, j;

	if (alen > 64 || blen > 64)
		return limit + 1;
	if ((alen > blen ? alen - blen : blen - alen) > limit)
		return limit + 1;
	pp = rows[0];
	p = rows[1];
	c = rows[2];
	for (j = 0; j <= blen; j++)
		p[j] = (unsigned int)j;
	for (i = 1; i <= alen; i++) {
		unsigned int best;

		c[0] = (unsigned int)i;
		best = c[0];
		for (j = 1; j <= blen; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];
			unsigned int v = p[j - 1] + cost;

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
			if (v < best)
				best = v;
		}
		if (best > limit)
			return limit + 1;
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[blen] > limit ? limit + 1 : p[blen];
}

int sci_syscall_nr(const char *name)
{
	int nr;

	if (!name || !*name || strlen(name) > 64)
		return -ENOENT;
	nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, name);
	if (nr < 0 || nr > SCI_NR_MAX)
		return -ENOENT;
	return nr;
}

int sci_syscall_name(int nr, char *buf, size_t len)
{
	char *s;

	if (nr < 0)
		return -ENOENT;
	s = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	if (!s)
		return -ENOENT;
	if (len) {
		strncpy(buf, s, len - 1);
		buf[len - 1] = '\0';
	}
	free(s);
	return 0;
}

int sci_syscall_suggest(const char *name, char *buf, size_t len)
{
	size_t nlen = name ? strlen(name) : 0;
	unsigned int limit, best;
	int nr, found = 0;

	if (!nlen || nlen > 64)
		return -ENOENT;
	limit = nlen <= 3 ? 1 : nlen <= 6 ? 2 : 3;
	best = limit + 1;
	for (nr = 0; nr < SCI_NAMES_NR_END; nr++) {
		char *s = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
		unsigned int d;

		if (!s)
			continue;
		d = sci__edit_distance(name, nlen, s, strlen(s), best - 1 < limit ? best - 1 : limit);
		if (d < best && d <= limit) {
			best = d;
			found = 1;
			if (len) {
				strncpy(buf, s, len - 1);
				buf[len - 1] = '\0';
			}
		}
		free(s);
	}
	return found ? 0 : -ENOENT;
}
