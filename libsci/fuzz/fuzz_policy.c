// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target: parse a policy (no @include) or, when the input starts
 * with a JSON object ('{' then '"' or '}'), an OCI/Docker seccomp
 * profile; print it, compile it, and check the compiled BPF against the
 * policy's own semantics on argument values taken from the policy.  Any
 * crash, sanitizer report, leak (other than libseccomp's own, see
 * tests/lsan.supp) or mismatch is a finding.  The last input byte's low
 * bit picks SCI_PARSE_ISOLATE_ALLOWED / SCI_OCI_ISOLATE_ALLOWED.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "bpf.h"

#define FUZZ_MAX_INPUT 8192

/* Parser notes and warnings: checked for a message, then dropped. */
static void fuzz_warn(void *arg, const char *message)
{
	(void)arg;
	if (!message || !message[0])
		abort();
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static void cross_check(const struct sci_policy *p, const struct sock_filter *f,
			size_t n, uint64_t seed)
{
	uint64_t vals[64];
	unsigned int nv = 0, i, j, v;

	vals[nv++] = 0;
	vals[nv++] = UINT64_MAX;
	for (i = 0; i < p->nsys && nv < 60; i++)
		for (j = 0; j < p->sys[i].narms && nv < 60; j++) {
			const struct sci_expr *e = &p->sys[i].arms[j].cond;
			unsigned int c, a;

			for (c = 0; c < e->n && nv < 60; c++)
				for (a = 0; a < e->clauses[c].n && nv < 56; a++) {
					const struct sci_atom *at = &e->clauses[c].atoms[a];

					vals[nv++] = at->value;
					vals[nv++] = at->value + 1;
					vals[nv++] = at->value - 1;
					vals[nv++] = at->mask ^ at->value;
				}
		}
	for (i = 0; i <= p->nsys; i++) {
		int nr = i < p->nsys ? p->sys[i].nr : 4095;

		for (v = 0; v < 24; v++) {
			struct test_seccomp_data d = { nr, TEST_AUDIT_ARCH_X86_64, 0, { 0 } };
			uint32_t want, got;
			unsigned int k;

			for (k = 0; k < 6; k++) {
				seed = mix(seed + 0x9e3779b97f4a7c15ULL);
				d.args[k] = vals[seed % nv];
				if ((seed >> 32) % 8 == 0)
					d.args[k] ^= (uint64_t)1 << ((seed >> 40) % 64);
			}
			want = sci_policy_verdict(p, nr, d.args);
			/* @keep-grants: the filter's isolate actions carry the bits */
			if ((want & SCI_RET_ACTION_FULL) == SCI_ACT_ISOLATE)
				want |= sci__keep_bits(p);
			if (bpf_run(f, n, &d, &got)) {
				fprintf(stderr, "fuzz: invalid BPF\n");
				abort();
			}
			if (want != got) {
				fprintf(stderr, "fuzz: MISMATCH nr %d args %#llx %#llx %#llx %#llx %#llx %#llx: policy %#x bpf %#x\n",
					nr, (unsigned long long)d.args[0], (unsigned long long)d.args[1],
					(unsigned long long)d.args[2], (unsigned long long)d.args[3],
					(unsigned long long)d.args[4], (unsigned long long)d.args[5], want, got);
				abort();
			}
		}
	}
}

/* A JSON object: '{', then '"' or '}' (a policy's "{read, ...}" has a name). */
static int is_json(const uint8_t *data, size_t size)
{
	size_t i = 0;

	while (i < size && data[i] && strchr(" \t\r\n", data[i]))
		i++;
	if (i >= size || data[i++] != '{')
		return 0;
	while (i < size && data[i] && strchr(" \t\r\n", data[i]))
		i++;
	return i < size && (data[i] == '"' || data[i] == '}');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct sci_policy *p = NULL;
	struct sock_filter *f = NULL;
	struct sci_error e;
	uint64_t seed = 0;
	size_t n = 0, i;
	bool isolate = size && (data[size - 1] & 1);
	int rc, json = is_json(data, size);

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (json) {
		struct sci_oci_options o = { 0 };

		o.flags = isolate ? SCI_OCI_ISOLATE_ALLOWED : 0;
		o.caps = SCI_OCI_DOCKER_CAPS;
		o.kernel = "6.1";
		rc = sci_policy_parse_oci_buffer((const char *)data, size, "fuzz", &o, &p, &e);
	} else {
		struct sci_parse_options o = { .size = sizeof(o) };

		o.flags = SCI_PARSE_NO_INCLUDE | (isolate ? SCI_PARSE_ISOLATE_ALLOWED : 0);
		o.warn = fuzz_warn;
		rc = sci_policy_parse_buffer_opts((const char *)data, size, "fuzz", &o, &p, &e);
	}
	if (rc) {
		/* every error says what (and, for a policy file, where) */
		if (p || rc != e.code || !e.message[0] || strcmp(e.file, "fuzz"))
			abort();
		if (!json && rc == -EINVAL && (!e.line || !e.column) &&
		    !strstr(e.message, "this is a binary file"))
			abort();
		if (devnull)
			sci_error_print(&e, devnull);
		return 0;
	}
	if (devnull)
		sci_policy_dump(p, devnull);
	rc = sci_policy_export(p, 0, &f, &n, &e);
	if (!rc) {
		for (i = 0; i < size; i++)
			seed = mix(seed ^ data[i]);
		cross_check(p, f, n, seed);
		if (devnull)
			sci_bpf_dump(f, n, devnull);
		free(f);
	} else if (rc != -E2BIG && rc != -EINVAL) {
		fprintf(stderr, "fuzz: export failed: %d %s\n", rc, e.message);
		abort();
	}
	sci_policy_free(p);
	return 0;
}
