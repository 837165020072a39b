// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * OCI runtime-spec seccomp profiles (the linux.seccomp object of an OCI
 * config.json, which runc and crun read, or a Docker/moby seccomp profile
 * such as profiles/seccomp/default.json) to a struct sci_policy, through
 * json-c.
 *
 * Semantics follow runc and moby where the spec is silent:
 *   - names that are not x86_64 syscalls are ignored (profiles list the
 *     32-bit and other architectures' names too);
 *   - errnoRet defaults to EPERM for SCMP_ACT_ERRNO and SCMP_ACT_TRACE;
 *   - the conditions of a rule are ANDed, except that a rule with two or
 *     more conditions on the same argument becomes one rule per condition
 *     (runc's compatibility behaviour);
 *   - includes/excludes (moby): arches is matched against "amd64", caps
 *     against the caller's capability set (all of includes.caps needed,
 *     any of excludes.caps excludes), minKernel against the kernel version.
 * Rules apply in file order, the first that matches a call decides (libsci's
 * model); a rule after an unconditional rule of the same syscall with the
 * same action is redundant and dropped, with another action it is an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "internal.h"

static const char *const cap_names[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
	"CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD",
	"CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};
#define NCAPS (sizeof(cap_names) / sizeof(cap_names[0]))

int sci_cap_nr(const char *name)
{
	unsigned int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < NCAPS; i++)
		if (!strcasecmp(name, cap_names[i]) ||
		    !strcasecmp(name, cap_names[i] + 4))
			return (int)i;
	return -ENOENT;
}

int sci_caps_parse(const char *list, uint64_t *caps, struct sci_error *err)
{
	const char *p = list, *end;
	uint64_t set = 0;
	char name[64];

	if (!list || !caps) {
		sci__set_error(err, -EINVAL, "no capability list");
		return -EINVAL;
	}
	while (*p) {
		size_t n;
		int nr;

		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0 || n >= sizeof(name)) {
			sci__set_error(err, -EINVAL, "bad capability list '%s'", list);
			return -EINVAL;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		if (!strcasecmp(name, "docker") || !strcasecmp(name, "default"))
			set |= SCI_OCI_DOCKER_CAPS;
		else if (!strcasecmp(name, "all"))
			set |= (1ULL << NCAPS) - 1;
		else if (strcasecmp(name, "none")) {
			nr = sci_cap_nr(name);
			if (nr < 0) {
				sci__set_error(err, -ENOENT, "unknown capability '%s'", name);
				return -ENOENT;
			}
			set |= 1ULL << nr;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	*caps = set;
	return 0;
}

struct oci {
	const struct sci_oci_options *o;
	struct sci_policy *p;
	struct sci_error *err;
	const char *name;
	unsigned int kver[3];
	uint32_t uncond[SCI_NR_MAX + 1];	/* action + 1 of an unconditional rule */
	unsigned int load_flags;
	unsigned int rules, ignored_names, skipped_rules;
};

static int fail(struct oci *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct oci *c, int code, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sci__set_error(c->err, code, "%s", msg);
	if (c->err && c->name)
		snprintf(c->err->file, sizeof(c->err->file), "%s", c->name);
	return code;
}

static const char *jtype(struct json_object *v)
{
	return v ? json_type_to_name(json_object_get_type(v)) : "null";
}

static int get_string(struct oci *c, struct json_object *v, const char *where,
		      const char **out)
{
	if (!json_object_is_type(v, json_type_string))
		return fail(c, -EINVAL, "%s: expected a string, not %s", where, jtype(v));
	*out = json_object_get_string(v);
	return 0;
}

static int get_u64(struct oci *c, struct json_object *v, const char *where,
		   uint64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return fail(c, -EINVAL, "%s: expected an unsigned integer, not %s",
			    where, jtype(v));
	if (json_object_get_int64(v) < 0)
		return fail(c, -EINVAL, "%s: expected an unsigned integer, not %lld",
			    where, (long long)json_object_get_int64(v));
	errno = 0;
	*out = json_object_get_uint64(v);
	return 0;
}

static int get_array(struct oci *c, struct json_object *v, const char *where,
		     struct json_object **out)
{
	if (v && !json_object_is_type(v, json_type_array))
		return fail(c, -EINVAL, "%s: expected an array, not %s", where, jtype(v));
	*out = v;	/* NULL (absent or null) is an empty array */
	return 0;
}

static int parse_kver(const char *s, unsigned int v[3])
{
	unsigned int i;
	char *end;

	v[0] = v[1] = v[2] = 0;
	for (i = 0; i < 3; i++) {
		unsigned long n;

		if (*s < '0' || *s > '9')
			return i >= 2 ? 0 : -EINVAL;
		n = strtoul(s, &end, 10);
		if (n > 1000000)
			return -EINVAL;
		v[i] = (unsigned int)n;
		s = end;
		if (*s != '.')
			return i >= 1 ? 0 : -EINVAL;
		s++;
	}
	return 0;
}

static int kver_ge(const unsigned int a[3], const unsigned int b[3])
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] > b[i];
	return 1;
}

/* Does @name (a moby arch, "amd64", or a libseccomp name) mean x86_64? */
static int is_x86_64(const char *name)
{
	return !strcmp(name, "amd64") || !strcmp(name, "x86_64") ||
	       !strcmp(name, "SCMP_ARCH_X86_64");
}

static int action_of(struct oci *c, const char *name, struct json_object *errno_ret,
		     uint64_t default_errno, const char *where, uint32_t *out)
{
	uint64_t e = default_errno;
	int takes_data = 0;

	if (!strcmp(name, "SCMP_ACT_ALLOW"))
		*out = (c->o->flags & SCI_OCI_ISOLATE_ALLOWED) ? SCI_ACT_ISOLATE : SCI_ACT_ALLOW;
	else if (!strcmp(name, "SCMP_ACT_KILL") || !strcmp(name, "SCMP_ACT_KILL_THREAD"))
		*out = SCI_ACT_KILL_THREAD;
	else if (!strcmp(name, "SCMP_ACT_KILL_PROCESS"))
		*out = SCI_ACT_KILL_PROCESS;
	else if (!strcmp(name, "SCMP_ACT_TRAP"))
		*out = SCI_ACT_TRAP;
	else if (!strcmp(name, "SCMP_ACT_LOG"))
		*out = SCI_ACT_LOG;
	else if (!strcmp(name, "SCMP_ACT_NOTIFY"))
		*out = SCI_ACT_USER_NOTIF;
	else if (!strcmp(name, "SCMP_ACT_ISOLATE"))
		*out = SCI_ACT_ISOLATE;
	else if (!strcmp(name, "SCMP_ACT_ISOLATE_LEARN"))
		*out = SCI_ACT_ISOLATE_LEARN;
	else if (!strcmp(name, "SCMP_ACT_ERRNO") || !strcmp(name, "SCMP_ACT_TRACE"))
		takes_data = 1;
	else
		return fail(c, -EINVAL, "%s: unknown action '%s'", where, name);
	if (!takes_data) {
		if (errno_ret)
			return fail(c, -EINVAL, "%s: errnoRet is only for SCMP_ACT_ERRNO and SCMP_ACT_TRACE, not %s",
				    where, name);
		return 0;
	}
	if (errno_ret && get_u64(c, errno_ret, where, &e))
		return c->err ? c->err->code : -EINVAL;
	if (!strcmp(name, "SCMP_ACT_ERRNO")) {
		if (e > SCI_ERRNO_MAX)
			return fail(c, -EINVAL, "%s: errnoRet %llu is larger than %d",
				    where, (unsigned long long)e, SCI_ERRNO_MAX);
		*out = SCI_ACT_ERRNO(e);
	} else {
		if (e > 0xffff)
			return fail(c, -EINVAL, "%s: the trace value %llu does not fit in 16 bits",
				    where, (unsigned long long)e);
		*out = SCI_ACT_TRACE(e);
	}
	return 0;
}

/* 1 when the rule's includes/excludes let it apply here, 0 when not. */
static int applies(struct oci *c, struct json_object *rule, const char *where,
		   int *ok)
{
	static const char *const keys[2] = { "includes", "excludes" };
	unsigned int k;

	*ok = 1;
	for (k = 0; k < 2; k++) {
		struct json_object *f = NULL, *arches = NULL, *caps = NULL, *mk = NULL;
		int inc = k == 0;
		char w[300];
		size_t i;

		if (!json_object_object_get_ex(rule, keys[k], &f) || !f)
			continue;
		if (!json_object_is_type(f, json_type_object))
			return fail(c, -EINVAL, "%s.%s: expected an object, not %s",
				    where, keys[k], jtype(f));
		json_object_object_get_ex(f, "arches", &arches);
		json_object_object_get_ex(f, "caps", &caps);
		json_object_object_get_ex(f, "minKernel", &mk);
		snprintf(w, sizeof(w), "%s.%s.arches", where, keys[k]);
		if (get_array(c, arches, w, &arches))
			return -EINVAL;
		snprintf(w, sizeof(w), "%s.%s.caps", where, keys[k]);
		if (get_array(c, caps, w, &caps))
			return -EINVAL;
		if (arches && json_object_array_length(arches) > 0) {
			int found = 0;

			for (i = 0; i < json_object_array_length(arches); i++) {
				const char *a;

				snprintf(w, sizeof(w), "%s.%s.arches[%zu]", where, keys[k], i);
				if (get_string(c, json_object_array_get_idx(arches, i), w, &a))
					return -EINVAL;
				found |= is_x86_64(a);
			}
			if (inc ? !found : found)
				*ok = 0;
		}
		for (i = 0; caps && i < json_object_array_length(caps); i++) {
			const char *a;
			int nr, have;

			snprintf(w, sizeof(w), "%s.%s.caps[%zu]", where, keys[k], i);
			if (get_string(c, json_object_array_get_idx(caps, i), w, &a))
				return -EINVAL;
			nr = sci_cap_nr(a);
			if (nr < 0 || strncasecmp(a, "CAP_", 4))
				return fail(c, -EINVAL, "%s: unknown capability '%s'", w, a);
			have = (c->o->caps >> nr) & 1;
			if (inc ? !have : have)
				*ok = 0;
		}
		if (mk) {
			unsigned int v[3];
			const char *s;

			snprintf(w, sizeof(w), "%s.%s.minKernel", where, keys[k]);
			if (get_string(c, mk, w, &s))
				return -EINVAL;
			if (parse_kver(s, v))
				return fail(c, -EINVAL, "%s: bad kernel version '%s'", w, s);
			if (inc ? !kver_ge(c->kver, v) : kver_ge(c->kver, v))
				*ok = 0;
		}
	}
	return 0;
}

static int add_one(struct oci *c, const char *where, const char *name, int nr,
		   uint32_t action, unsigned int ncond, const struct sci_cond *cond)
{
	int rc;

	if (c->uncond[nr]) {
		if (c->uncond[nr] - 1 == action) {
			c->skipped_rules++;
			return 0;
		}
		return fail(c, -EINVAL, "%s: '%s' already has an unconditional rule with another action",
			    where, name);
	}
	rc = sci_policy_add_rule(c->p, action, nr, ncond, cond);
	if (rc)
		return fail(c, rc, "%s: cannot add the rule for '%s': %s", where, name,
			    strerror(-rc));
	if (!ncond)
		c->uncond[nr] = action + 1;
	c->rules++;
	return 0;
}

static int parse_rule(struct oci *c, struct json_object *rule, size_t idx)
{
	struct json_object *names = NULL, *name1 = NULL, *act = NULL, *eret = NULL,
			   *args = NULL;
	struct sci_cond cond[SCI_NARGS * 8];
	unsigned int ncond = 0, per_arg[SCI_NARGS] = { 0 }, split = 0;
	const char *aname;
	char where[200], w[260];
	uint32_t action;
	size_t i, j;
	int ok;

	snprintf(where, sizeof(where), "syscalls[%zu]", idx);
	if (!json_object_is_type(rule, json_type_object))
		return fail(c, -EINVAL, "%s: expected an object, not %s", where, jtype(rule));
	json_object_object_get_ex(rule, "names", &names);
	json_object_object_get_ex(rule, "name", &name1);
	json_object_object_get_ex(rule, "errnoRet", &eret);
	json_object_object_get_ex(rule, "args", &args);
	if (!json_object_object_get_ex(rule, "action", &act) || !act)
		return fail(c, -EINVAL, "%s: no action", where);
	snprintf(w, sizeof(w), "%s.action", where);
	if (get_string(c, act, w, &aname))
		return -EINVAL;
	if (action_of(c, aname, eret, EPERM, where, &action))
		return -EINVAL;
	snprintf(w, sizeof(w), "%s.names", where);
	if (get_array(c, names, w, &names))
		return -EINVAL;
	if (name1 && !json_object_is_type(name1, json_type_string))
		return fail(c, -EINVAL, "%s.name: expected a string, not %s", where, jtype(name1));
	if ((!names || !json_object_array_length(names)) && !name1)
		return fail(c, -EINVAL, "%s: no names", where);
	snprintf(w, sizeof(w), "%s.args", where);
	if (get_array(c, args, w, &args))
		return -EINVAL;
	for (i = 0; args && i < json_object_array_length(args); i++) {
		struct json_object *a = json_object_array_get_idx(args, i);
		struct json_object *ix = NULL, *val = NULL, *val2 = NULL, *op = NULL;
		uint64_t index, value, value2 = 0;
		const char *ops;
		enum sci_cmp cmp;

		snprintf(w, sizeof(w), "%s.args[%zu]", where, i);
		if (!json_object_is_type(a, json_type_object))
			return fail(c, -EINVAL, "%s: expected an object, not %s", w, jtype(a));
		if (ncond >= sizeof(cond) / sizeof(cond[0]))
			return fail(c, -E2BIG, "%s: too many conditions", w);
		json_object_object_get_ex(a, "index", &ix);
		json_object_object_get_ex(a, "value", &val);
		json_object_object_get_ex(a, "valueTwo", &val2);
		json_object_object_get_ex(a, "op", &op);
		if (!ix || !op || !val)
			return fail(c, -EINVAL, "%s: needs index, value and op", w);
		if (get_u64(c, ix, w, &index) || get_u64(c, val, w, &value) ||
		    (val2 && get_u64(c, val2, w, &value2)) || get_string(c, op, w, &ops))
			return -EINVAL;
		if (index >= SCI_NARGS)
			return fail(c, -EINVAL, "%s: index %llu is not 0 to 5", w,
				    (unsigned long long)index);
		if (!strcmp(ops, "SCMP_CMP_EQ"))
			cmp = SCI_CMP_EQ;
		else if (!strcmp(ops, "SCMP_CMP_NE"))
			cmp = SCI_CMP_NE;
		else if (!strcmp(ops, "SCMP_CMP_LT"))
			cmp = SCI_CMP_LT;
		else if (!strcmp(ops, "SCMP_CMP_LE"))
			cmp = SCI_CMP_LE;
		else if (!strcmp(ops, "SCMP_CMP_GT"))
			cmp = SCI_CMP_GT;
		else if (!strcmp(ops, "SCMP_CMP_GE"))
			cmp = SCI_CMP_GE;
		else if (!strcmp(ops, "SCMP_CMP_MASKED_EQ"))
			cmp = SCI_CMP_MASKED_EQ;
		else
			return fail(c, -EINVAL, "%s: unknown op '%s'", w, ops);
		if (cmp == SCI_CMP_MASKED_EQ)	/* (arg & value) == valueTwo */
			cond[ncond] = SCI_COND_MASK((unsigned int)index, cmp, value, value2);
		else
			cond[ncond] = SCI_COND((unsigned int)index, cmp, value);
		if (++per_arg[index] > 1)
			split = 1;
		ncond++;
	}
	if (applies(c, rule, where, &ok))
		return -EINVAL;
	if (!ok) {
		c->skipped_rules++;
		return 0;
	}
	for (j = 0; ; j++) {
		struct json_object *n;
		const char *sname;
		uint32_t act1 = action;
		int nr;

		if (names) {
			if (j >= json_object_array_length(names))
				break;
			n = json_object_array_get_idx(names, j);
			snprintf(w, sizeof(w), "%s.names[%zu]", where, j);
		} else {
			if (j > 0)
				break;
			n = name1;
			snprintf(w, sizeof(w), "%s.name", where);
		}
		if (get_string(c, n, w, &sname))
			return -EINVAL;
		nr = sci_syscall_nr(sname);
		if (nr < 0 || nr > SCI_NR_MAX) {
			c->ignored_names++;
			continue;
		}
		/*
		 * io_uring's requests run in kernel threads that seccomp never
		 * sees: with isolate-allowed they would run unisolated, so an
		 * allowed io_uring syscall fails with ENOSYS instead.
		 */
		if ((c->o->flags & SCI_OCI_ISOLATE_ALLOWED) && action == SCI_ACT_ISOLATE &&
		    !strcmp(aname, "SCMP_ACT_ALLOW") && !strncmp(sname, "io_uring_", 9))
			act1 = SCI_ACT_ERRNO(ENOSYS);
		if (!split) {
			if (add_one(c, w, sname, nr, act1, ncond, cond))
				return -EINVAL;
			continue;
		}
		for (i = 0; i < ncond; i++)
			if (add_one(c, w, sname, nr, act1, 1, &cond[i]))
				return -EINVAL;
	}
	return 0;
}

static int parse_profile(struct oci *c, struct json_object *root)
{
	struct json_object *def = NULL, *deret = NULL, *arches = NULL, *flags = NULL,
			   *sys = NULL, *linux_ = NULL;
	uint64_t default_errno = EPERM;
	uint32_t defact;
	const char *s;
	size_t i;

	if (!json_object_is_type(root, json_type_object))
		return fail(c, -EINVAL, "expected a JSON object, not %s", jtype(root));
	/* A whole config.json: its linux.seccomp object. */
	if (!json_object_object_get_ex(root, "defaultAction", NULL) &&
	    json_object_object_get_ex(root, "linux", &linux_) &&
	    json_object_is_type(linux_, json_type_object)) {
		if (!json_object_object_get_ex(linux_, "seccomp", &root) ||
		    !json_object_is_type(root, json_type_object))
			return fail(c, -EINVAL, "linux.seccomp: no seccomp object in this config.json");
	}
	if (!json_object_object_get_ex(root, "defaultAction", &def) || !def)
		return fail(c, -EINVAL, "no defaultAction");
	if (get_string(c, def, "defaultAction", &s))
		return -EINVAL;
	json_object_object_get_ex(root, "defaultErrnoRet", &deret);
	if (action_of(c, s, deret, default_errno, "defaultAction", &defact))
		return -EINVAL;

	json_object_object_get_ex(root, "architectures", &arches);
	if (get_array(c, arches, "architectures", &arches))
		return -EINVAL;
	if (arches && json_object_array_length(arches) > 0) {
		int found = 0;

		for (i = 0; i < json_object_array_length(arches); i++) {
			char w[64];

			snprintf(w, sizeof(w), "architectures[%zu]", i);
			if (get_string(c, json_object_array_get_idx(arches, i), w, &s))
				return -EINVAL;
			found |= is_x86_64(s);
		}
		if (!found)
			return fail(c, -EINVAL, "architectures: libsci filters are for SCMP_ARCH_X86_64, which is not listed");
	}
	json_object_object_get_ex(root, "flags", &flags);
	if (get_array(c, flags, "flags", &flags))
		return -EINVAL;
	for (i = 0; flags && i < json_object_array_length(flags); i++) {
		char w[64];

		snprintf(w, sizeof(w), "flags[%zu]", i);
		if (get_string(c, json_object_array_get_idx(flags, i), w, &s))
			return -EINVAL;
		if (!strcmp(s, "SECCOMP_FILTER_FLAG_TSYNC"))
			c->load_flags |= SCI_LOAD_TSYNC;
		else if (!strcmp(s, "SECCOMP_FILTER_FLAG_LOG"))
			c->load_flags |= SCI_LOAD_LOG;
		else if (strcmp(s, "SECCOMP_FILTER_FLAG_SPEC_ALLOW") &&
			 strcmp(s, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"))
			return fail(c, -EINVAL, "%s: unknown flag '%s'", w, s);
	}

	c->p = sci_policy_new(defact);
	if (!c->p)
		return fail(c, -ENOMEM, "out of memory");

	json_object_object_get_ex(root, "syscalls", &sys);
	if (get_array(c, sys, "syscalls", &sys))
		return -EINVAL;
	for (i = 0; sys && i < json_object_array_length(sys); i++)
		if (parse_rule(c, json_object_array_get_idx(sys, i), i))
			return c->err ? c->err->code : -EINVAL;
	return 0;
}

static void line_col(const char *buf, size_t off, unsigned int *line,
		     unsigned int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int sci_policy_parse_oci_buffer(const char *buf, size_t len, const char *name,
				struct sci_oci_options *opts,
				struct sci_policy **out, struct sci_error *err)
{
	static const struct sci_oci_options none = { 0 };
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error jerr;
	struct oci *c;
	int rc;
	unsigned int i;

	if (out)
		*out = NULL;
	if (!buf || !out || len > INT32_MAX) {
		sci__set_error(err, -EINVAL, "bad arguments");
		return -EINVAL;
	}
	for (i = 0; opts && i < sizeof(opts->reserved) / sizeof(opts->reserved[0]); i++)
		if (opts->reserved[i]) {
			sci__set_error(err, -EINVAL, "struct sci_oci_options: reserved fields must be 0");
			return -EINVAL;
		}
	if (opts && (opts->flags & ~SCI_OCI_ISOLATE_ALLOWED)) {
		sci__set_error(err, -EINVAL, "unknown SCI_OCI_* flag %#x", opts->flags);
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		sci__set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	c->o = opts ? opts : &none;
	c->err = err;
	c->name = name ? name : "<buffer>";
	if (c->o->kernel) {
		if (parse_kver(c->o->kernel, c->kver)) {
			rc = fail(c, -EINVAL, "bad kernel version '%s'", c->o->kernel);
			free(c);
			return rc;
		}
	} else {
		struct utsname u;

		if (uname(&u) || parse_kver(u.release, c->kver)) {
			rc = fail(c, -EINVAL, "cannot read the kernel version");
			free(c);
			return rc;
		}
	}

	tok = json_tokener_new();
	if (!tok) {
		free(c);
		sci__set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < len) {
		size_t end = json_tokener_get_parse_end(tok);

		/* Trailing white space after the value is fine. */
		while (root && jerr == json_tokener_success && end < len &&
		       strchr(" \t\r\n", buf[end]))
			end++;
		if (!root || jerr != json_tokener_success || end < len) {
			unsigned int line, col;

			line_col(buf, end < len ? end : len, &line, &col);
			rc = fail(c, -EINVAL, "JSON: %s",
				  jerr == json_tokener_success ? (root ? "data after the profile" : "empty input")
				  : jerr == json_tokener_continue ? "unexpected end of input"
				  : json_tokener_error_desc(jerr));
			if (err) {
				err->line = line;
				err->column = col;
			}
			json_object_put(root);
			json_tokener_free(tok);
			free(c);
			return rc;
		}
	}
	json_tokener_free(tok);

	rc = parse_profile(c, root);
	json_object_put(root);
	if (rc) {
		sci_policy_free(c->p);
	} else {
		*out = c->p;
		if (opts) {
			opts->load_flags = c->load_flags;
			opts->rules = c->rules;
			opts->ignored_names = c->ignored_names;
			opts->skipped_rules = c->skipped_rules;
		}
	}
	free(c);
	return rc;
}

int sci_policy_parse_oci_file(const char *path, struct sci_oci_options *opts,
			      struct sci_policy **out, struct sci_error *err)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd, rc;

	if (out)
		*out = NULL;
	if (!path || !out) {
		sci__set_error(err, -EINVAL, "bad arguments");
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		sci__set_error(err, rc, "cannot open '%s': %s", path, strerror(-rc));
		return rc;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > (1U << 26)) {
				rc = -EFBIG;
				sci__set_error(err, rc, "'%s' is too large", path);
				goto out;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				rc = -ENOMEM;
				sci__set_error(err, rc, "out of memory");
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			sci__set_error(err, rc, "cannot read '%s': %s", path, strerror(-rc));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	rc = sci_policy_parse_oci_buffer(buf ? buf : "", len, path, opts, out, err);
out:
	free(buf);
	close(fd);
	return rc;
}
