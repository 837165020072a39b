// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libsci host tests: compatibility with minijail policy files (issue 13)
 * and the API items that came with it.  Included by test.c (its helpers are
 * static); run by run_compat_tests().  Every test asserts BPF verdicts
 * through the interpreter of bpf.c or exact messages.
 */

/* Compile @src with @flags, reporting errors on stderr. */
static int compile_flags(const char *src, unsigned int flags,
			 struct compiled *c, struct sci_error *e)
{
	struct sci_error tmp;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!e)
		e = &tmp;
	rc = sci_policy_parse_buffer(src, strlen(src), "t.policy", flags, &c->p, e);
	if (rc) {
		fprintf(stderr, "  parse: %s:%u:%u: %s\n", e->file, e->line, e->column, e->message);
		return rc;
	}
	rc = sci_policy_export(c->p, 0, &c->f, &c->n, e);
	if (rc)
		fprintf(stderr, "  export: %s\n", e->message);
	return rc;
}

/* Parsing @src fails with "line:col: message" == @want. */
static void check_parse_error(const char *src, unsigned int flags,
			      const char *want)
{
	struct sci_policy *p = NULL;
	struct sci_error e;
	char got[1200];
	int rc;

	memset(&e, 0, sizeof(e));
	rc = sci_policy_parse_buffer(src, strlen(src), "t.policy", flags, &p, &e);
	CHECK(rc < 0);
	CHECK(p == NULL);
	snprintf(got, sizeof(got), "%u:%u: %s", e.line, e.column, e.message);
	CHECK_STR(got, want);
	sci_policy_free(p);
}

/* ---- syscall names: Linux 6.12's x86_64 table ---- */

static void test_compat_syscall_table(void)
{
	struct compiled c;
	char name[64];

	/* names libseccomp 2.5.4 does not know */
	CHECK_EQ(sci_syscall_nr("mseal"), 462);
	CHECK_EQ(sci_syscall_nr("uretprobe"), 335);
	CHECK_EQ(sci_syscall_nr("cachestat"), 451);
	CHECK_EQ(sci_syscall_nr("fchmodat2"), 452);
	CHECK_EQ(sci_syscall_nr("map_shadow_stack"), 453);
	CHECK_EQ(sci_syscall_nr("futex_wake"), 454);
	CHECK_EQ(sci_syscall_nr("listmount"), 458);
	CHECK_EQ(sci_syscall_nr("lsm_list_modules"), 461);
	CHECK_EQ(sci_syscall_nr("read"), 0);
	CHECK_EQ(sci_syscall_nr("set_mempolicy_home_node"), 450);
	CHECK_EQ(sci_syscall_nr("mmap2"), -ENOENT);
	CHECK_EQ(sci_syscall_name(462, name, sizeof(name)), 0);
	CHECK_STR(name, "mseal");
	CHECK_EQ(sci_syscall_name(335, name, sizeof(name)), 0);
	CHECK_STR(name, "uretprobe");
	CHECK_EQ(sci_syscall_name(400, name, sizeof(name)), -ENOENT);
	CHECK_EQ(sci_syscall_suggest("msela", name, sizeof(name)), 0);
	CHECK_STR(name, "mseal");

	/* by name and by number, through the BPF */
	if (compile("mseal: allow\nlistmount: return EPERM\n463: log\ncachestat: arg0 == 3\n",
		    &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, 462, A6(0), SCI_ACT_ALLOW);
	VERDICT(&c, 458, A6(0), SCI_ACT_ERRNO(EPERM));
	VERDICT(&c, 463, A6(0), SCI_ACT_LOG);
	VERDICT(&c, 451, A6(3), SCI_ACT_ALLOW);
	VERDICT(&c, 451, A6(4), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, 461, A6(0), SCI_ACT_KILL_PROCESS);
	release(&c);
	check_parse_error("msael: allow", 0, "1:1: unknown syscall 'msael' (did you mean 'mseal'?)");
}

/* ---- named constants generated from the headers ---- */

static void test_compat_constants(void)
{
	static const struct { const char *name; uint64_t value; } want[] = {
		{ "TCGETS2", 0x802c542a }, { "TCSETS", 0x5402 },
		{ "TCSETSF", 0x5404 }, { "TIOCGWINSZ", 0x5413 },
		{ "FS_IOC_FSGETXATTR", 0x801c581f }, { "FS_IOC_GETFLAGS", 0x80086601 },
		{ "BLKGETSIZE64", 0x80081272 }, { "BLKSSZGET", 0x1268 },
		{ "BLKDISCARD", 0x1277 }, { "BLKALIGNOFF", 0x127a },
		{ "LOOP_CTL_GET_FREE", 0x4c82 }, { "LOOP_SET_FD", 0x4c00 },
		{ "SIOCGIFFLAGS", 0x8913 }, { "SIOCSIFFLAGS", 0x8914 },
		{ "SIOCGIFINDEX", 0x8933 }, { "SIOCOUTQ", 0x5411 },
		{ "FIONBIO", 0x5421 }, { "FIOCLEX", 0x5451 },
		{ "MADV_DONTNEED", 4 }, { "MADV_FREE", 8 },
		{ "MADV_GUARD_INSTALL", 102 }, { "MADV_GUARD_REMOVE", 103 },
		{ "PR_SET_NAME", 15 }, { "PR_SET_VMA", 0x53564d41 },
		{ "PR_GET_AUXV", 0x41555856 }, { "PR_SET_NO_NEW_PRIVS", 38 },
		{ "MS_BIND", 0x1000 }, { "MS_NOSUID", 2 }, { "MS_NOATIME", 0x400 },
		{ "MS_ASYNC", 1 }, { "SCHED_IDLE", 5 }, { "SCHED_BATCH", 3 },
		{ "F_DUPFD_CLOEXEC", 1030 }, { "F_SETFD", 2 },
		{ "SOCK_SEQPACKET", 5 }, { "SOCK_CLOEXEC", 02000000 },
		{ "AF_VSOCK", 40 }, { "AF_ALG", 38 }, { "AF_BLUETOOTH", 31 },
		{ "SO_ATTACH_FILTER", 26 }, { "GRND_RANDOM", 2 },
		{ "AT_FDCWD", 0xffffffffffffff9cULL }, { "P_PIDFD", 3 },
		{ "EPERM", 1 }, { "EWOULDBLOCK", 11 },
	};
	unsigned int i;
	struct compiled c;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct sci_const *k = sci__const_lookup(want[i].name, strlen(want[i].name));

		CHECK(k != NULL);
		if (k && k->value != want[i].value) {
			fprintf(stderr, "  %s == %#" PRIx64 ", expected %#" PRIx64 "\n",
				want[i].name, k->value, want[i].value);
			CHECK(0);
		}
	}
	/* errno names: the canonical one is printed */
	CHECK_STR(sci__errno_name(EAGAIN), "EAGAIN");
	CHECK_STR(sci__errno_name(EDEADLK), "EDEADLK");
	CHECK_STR(sci__errno_name(EOPNOTSUPP), "EOPNOTSUPP");

	if (compile("ioctl: arg1 == TCGETS2 || arg1 == FS_IOC_FSGETXATTR || arg1 == BLKGETSIZE64\n"
		    "madvise: arg2 == MADV_GUARD_INSTALL\n"
		    "mount: arg3 & MS_BIND\n"
		    "sched_setscheduler: arg1 == SCHED_IDLE\n", &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, nr_of("ioctl"), A6(0, 0x802c542a), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("ioctl"), A6(0, 0x801c581f), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("ioctl"), A6(0, 0x80081272), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("ioctl"), A6(0, 0x5401), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("madvise"), A6(0, 0, 102), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("madvise"), A6(0, 0, 4), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("mount"), A6(0, 0, 0, 0x1000), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("mount"), A6(0, 0, 0, 0x1), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("sched_setscheduler"), A6(0, 5), SCI_ACT_ALLOW);
	release(&c);
	/* an unknown identifier stays an error, never 0 */
	check_parse_error("ioctl: arg1 == TCGETS22", 0,
			  "1:16: unknown constant 'TCGETS22' (did you mean 'TCGETS2'?)");
	check_parse_error("ioctl: arg1 == NOT_A_CONSTANT_AT_ALL", 0,
			  "1:16: unknown constant 'NOT_A_CONSTANT_AT_ALL'");
}

/* ---- several rules for one syscall, in file order ---- */

static void test_compat_several_rules(void)
{
	struct compiled c;
	int io = nr_of("ioctl"), rd = nr_of("read"), op = nr_of("openat");

	/* crosvm's gpu_common.policy names ioctl twice: both rules apply */
	if (compile("ioctl: arg1 == FIONBIO || arg1 == FIOCLEX || arg1 & 0x6400\n"
		    "read: arg0 == 0\n"
		    "ioctl: arg1 == 0xc018aa3f || arg1 == 0xaa00\n"
		    "read: arg0 == 1; return EBADF\n"
		    "openat: arg2 in O_RDONLY|O_CLOEXEC\n"
		    "openat: return ENOENT\n", &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, io, A6(0, 0x5421), SCI_ACT_ALLOW);
	VERDICT(&c, io, A6(0, 0x4400), SCI_ACT_ALLOW);
	VERDICT(&c, io, A6(0, 0xc018aa3f), SCI_ACT_ALLOW);
	VERDICT(&c, io, A6(0, 0xaa00), SCI_ACT_ALLOW);
	VERDICT(&c, io, A6(0, 0x8912), SCI_ACT_KILL_PROCESS);
	/* first rule, then the second's condition, then its action */
	VERDICT(&c, rd, A6(0), SCI_ACT_ALLOW);
	VERDICT(&c, rd, A6(1), SCI_ACT_ALLOW);
	VERDICT(&c, rd, A6(2), SCI_ACT_ERRNO(EBADF));
	VERDICT(&c, op, A6(0, 0, 02000000), SCI_ACT_ALLOW);
	VERDICT(&c, op, A6(0, 0, 1), SCI_ACT_ERRNO(ENOENT));
	release(&c);

	/* minijail's "name: {filter, filter}" */
	if (compile("read: {arg0 == 0, arg0 == 3 || arg0 == 4, arg1 == 7; return EIO}\n", &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, rd, A6(0, 0), SCI_ACT_ALLOW);
	VERDICT(&c, rd, A6(4, 0), SCI_ACT_ALLOW);
	VERDICT(&c, rd, A6(5, 7), SCI_ACT_ALLOW);
	VERDICT(&c, rd, A6(5, 8), SCI_ACT_ERRNO(EIO));
	release(&c);

	/* a rule after an unconditional action could never apply */
	check_parse_error("read: arg0 == 0; return EIO\nread: arg0 == 1\n", 0,
			  "2:1: syscall 'read' already has an unconditional action (at t.policy:1:1): this rule could never apply");
	check_parse_error("{read, write}: log\nwrite: allow\n", 0,
			  "2:1: syscall 'write' already has an unconditional action (at t.policy:1:1): this rule could never apply");
	check_parse_error("read: {arg0 == 0, allow", 0,
			  "1:24: expected ',' or '}' after the action, found end of line");
	check_parse_error("read: {arg0 == 0} allow", 0,
			  "1:19: unexpected 'allow' after '}'");
}

/* ---- @include: include root, relative paths, the chain in errors ---- */

struct warns {
	unsigned int n;
	char msg[4][1200];
};

static void collect_warn(void *arg, const char *message)
{
	struct warns *w = arg;

	if (w->n < 4)
		snprintf(w->msg[w->n], sizeof(w->msg[0]), "%s", message);
	w->n++;
}

static void test_compat_include_root(void)
{
	char root[300], dir[400], path[500], want[1400];
	struct sci_parse_options o = { .size = sizeof(o) };
	struct sci_policy *p = NULL;
	struct warns w = { 0 };
	struct sci_error e;
	int rc;

	snprintf(root, sizeof(root), "%s/root", tmpdir);
	mkdir(root, 0700);
	snprintf(dir, sizeof(dir), "%s/usr", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/usr/policy", root);
	mkdir(dir, 0700);
	write_file(dir, "common.policy", "@frequency ./common.frequency\nread: 1\nwrite: 1\n");
	write_file(dir, "dev.policy", "@include /usr/policy/common.policy\n@include ../policy/extra.policy\nioctl: arg1 == TCGETS\n");
	write_file(dir, "extra.policy", "close: 1\n");
	write_file(dir, "loop.policy", "@include /usr/policy/loop2.policy\n");
	write_file(dir, "loop2.policy", "read: 1\n@include ./loop.policy\n");
	write_file(dir, "bad.policy", "@include /usr/policy/bad2.policy\n");
	write_file(dir, "bad2.policy", "read: 1\nwrite: arg0 == FOO_BAR\n");
	snprintf(path, sizeof(path), "%s/dev.policy", dir);

	/* without a root, the absolute path is taken as it is */
	rc = sci_policy_parse_file(path, 0, &p, &e);
	CHECK_EQ(rc, -ENOENT);
	CHECK_STR(e.message, "cannot open '/usr/policy/common.policy': No such file or directory (absolute @include paths are taken as they are unless an include root is given)");

	o.include_root = root;
	o.warn = collect_warn;
	o.warn_arg = &w;
	rc = sci_policy_parse_file_opts(path, &o, &p, &e);
	CHECK_EQ(rc, 0);
	if (!rc) {
		CHECK_EQ(sci_policy_verdict(p, nr_of("read"), A6(0)), SCI_ACT_ALLOW);
		CHECK_EQ(sci_policy_verdict(p, nr_of("close"), A6(0)), SCI_ACT_ALLOW);
		CHECK_EQ(sci_policy_verdict(p, nr_of("ioctl"), A6(0, 0x5401)), SCI_ACT_ALLOW);
		CHECK_EQ(sci_policy_verdict(p, nr_of("ioctl"), A6(0, 0x5402)), SCI_ACT_KILL_PROCESS);
		sci_policy_free(p);
	}
	/* @frequency: a note, nothing else (the file need not exist) */
	CHECK_EQ(w.n, 1);
	snprintf(want, sizeof(want), "%s/usr/policy/common.policy:1:1: note: @frequency is ignored: it is an ordering hint for minijail's compiler, and the filter means the same without it", root);
	CHECK_STR(w.msg[0], want);

	/* a root with a trailing slash */
	snprintf(dir, sizeof(dir), "%s/", root);
	o.include_root = dir;
	rc = sci_policy_parse_file_opts(path, &o, &p, &e);
	CHECK_EQ(rc, 0);
	sci_policy_free(p);
	o.include_root = root;

	/* a cycle names the chain */
	snprintf(path, sizeof(path), "%s/usr/policy/loop.policy", root);
	rc = sci_policy_parse_file_opts(path, &o, &p, &e);
	CHECK_EQ(rc, -EINVAL);
	CHECK(strstr(e.message, "@include cycle: '") == e.message);
	CHECK(strstr(e.message, "loop2.policy' includes '") != NULL);
	CHECK(strstr(e.message, "loop.policy' (included from ") != NULL);
	CHECK_EQ(e.line, 2);

	/* an error in an included file names the chain */
	snprintf(path, sizeof(path), "%s/usr/policy/bad.policy", root);
	rc = sci_policy_parse_file_opts(path, &o, &p, &e);
	CHECK_EQ(rc, -EINVAL);
	CHECK(strstr(e.file, "bad2.policy") != NULL);
	CHECK_EQ(e.line, 2);
	snprintf(want, sizeof(want), "unknown constant 'FOO_BAR' (included from %s:1:10)", path);
	CHECK_STR(e.message, want);

	/* the options struct: a short size, unknown fields */
	{
		struct { struct sci_parse_options o; long more; } big = { { .size = sizeof(big) }, 0 };

		rc = sci_policy_parse_buffer_opts("read: 1", 7, NULL, &big.o, &p, &e);
		CHECK_EQ(rc, 0);
		sci_policy_free(p);
		big.more = 1;
		rc = sci_policy_parse_buffer_opts("read: 1", 7, NULL, &big.o, &p, &e);
		CHECK_EQ(rc, -E2BIG);
		CHECK(strstr(e.message, "struct sci_parse_options: fields this libsci does not know are set") == e.message);
		big.o.size = 4;
		rc = sci_policy_parse_buffer_opts("read: 1", 7, NULL, &big.o, &p, &e);
		CHECK_EQ(rc, -EINVAL);
		o.flags = 0x80;
		rc = sci_policy_parse_buffer_opts("read: 1", 7, NULL, &o, &p, &e);
		CHECK_EQ(rc, -EINVAL);
		CHECK_STR(e.message, "unknown parse flags 0x80");
	}
}

/* ---- @denylist, groups, metadata ---- */

static void test_compat_denylist_groups(void)
{
	struct compiled c;

	/* as minijail's cros_default_v0.policy */
	if (compile("@denylist\nbpf: return EPERM\n{kexec_load, init_module}: return ENOSYS\n", &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, nr_of("bpf"), A6(0), SCI_ACT_ERRNO(EPERM));
	VERDICT(&c, nr_of("kexec_load"), A6(0), SCI_ACT_ERRNO(ENOSYS));
	VERDICT(&c, nr_of("init_module"), A6(0), SCI_ACT_ERRNO(ENOSYS));
	VERDICT(&c, nr_of("read"), A6(0), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("mseal"), A6(0), SCI_ACT_ALLOW);
	release(&c);
	/* an explicit @default still wins */
	if (compile("@denylist\n@default log\nbpf: return EPERM\n", &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, nr_of("read"), A6(0), SCI_ACT_LOG);
	release(&c);
	check_parse_error("@denylist\nbpf: allow\n", 0,
			  "2:1: in a @denylist policy every rule is 'return ERRNO' (the syscalls it names fail, the others are allowed)");
	check_parse_error("@denylist\nbpf: arg0 == 1; return EPERM\n", 0,
			  "2:1: in a @denylist policy every rule is 'return ERRNO' (the syscalls it names fail, the others are allowed)");
	check_parse_error("@denylist extra\n", 0, "1:11: unexpected 'extra' after @denylist");

	/* group@namespace: libsci's groups are "sci" */
	if (compile("basic-io@sci: allow\n{signal@sci, getpid}: log\n", &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, nr_of("read"), A6(0), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("dup3"), A6(0), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("rt_sigaction"), A6(0), SCI_ACT_LOG);
	VERDICT(&c, nr_of("getpid"), A6(0), SCI_ACT_LOG);
	VERDICT(&c, nr_of("mmap"), A6(0), SCI_ACT_KILL_PROCESS);
	release(&c);
	check_parse_error("file-io@systemd: allow", 0,
			  "1:1: unknown syscall group namespace 'systemd' in 'file-io@systemd': minijail takes its group namespaces from its compiler's tables; libsci's groups are @basic-io, @file-io, @memory, @network, @process, @signal, also written 'name@sci'");
	check_parse_error("files@sci: allow", 0,
			  "1:1: unknown syscall group 'files@sci'; the groups are @basic-io, @file-io, @memory, @network, @process, @signal");
	check_parse_error("read[arch=x86_64]: allow", 0,
			  "1:5: minijail's [arch=...] metadata is not supported (libsci policies are for x86_64)");
}

/* ---- --isolate-allowed: SCI added to an existing policy ---- */

static void test_compat_isolate_allowed(void)
{
	struct compiled c;

	if (compile_flags("read: 1\nwrite: arg0 == 1 || arg0 == 2\nclose: return EPERM\n"
			  "io_uring_setup: 1\ngetpid: log\nopenat: arg2 in O_RDONLY; return EACCES\n",
			  SCI_PARSE_ISOLATE_ALLOWED, &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, nr_of("read"), A6(0), SCI_ACT_ISOLATE);
	VERDICT(&c, nr_of("write"), A6(2), SCI_ACT_ISOLATE);
	VERDICT(&c, nr_of("write"), A6(3), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("close"), A6(0), SCI_ACT_ERRNO(EPERM));
	VERDICT(&c, nr_of("io_uring_setup"), A6(0), SCI_ACT_ERRNO(ENOSYS));
	VERDICT(&c, nr_of("getpid"), A6(0), SCI_ACT_LOG);
	VERDICT(&c, nr_of("openat"), A6(0, 0, 0), SCI_ACT_ISOLATE);
	VERDICT(&c, nr_of("openat"), A6(0, 0, 1), SCI_ACT_ERRNO(EACCES));
	VERDICT(&c, nr_of("mmap"), A6(0), SCI_ACT_KILL_PROCESS);
	release(&c);
	/* a denylist: what it allows (the default) is isolated */
	if (compile_flags("@denylist\nbpf: return EPERM\n", SCI_PARSE_ISOLATE_ALLOWED, &c, NULL)) {
		CHECK(0);
		return;
	}
	VERDICT(&c, nr_of("bpf"), A6(0), SCI_ACT_ERRNO(EPERM));
	VERDICT(&c, nr_of("read"), A6(0), SCI_ACT_ISOLATE);
	VERDICT(&c, nr_of("io_uring_enter"), A6(0), SCI_ACT_ERRNO(ENOSYS));
	release(&c);
	/* the API function on its own */
	{
		struct sci_policy *p = sci_policy_new(SCI_ACT_KILL_PROCESS);

		CHECK(p != NULL);
		CHECK_EQ(sci_policy_add_rule_name(p, SCI_ACT_ALLOW, "read", 0, NULL), 0);
		CHECK_EQ(sci_policy_add_rule_name(p, SCI_ACT_TRAP, "write", 0, NULL), 0);
		CHECK_EQ(sci_policy_isolate_allowed(p), 1);
		CHECK_EQ(sci_policy_verdict(p, 0, A6(0)), SCI_ACT_ISOLATE);
		CHECK_EQ(sci_policy_verdict(p, 1, A6(0)), SCI_ACT_TRAP);
		CHECK_EQ(sci_policy_isolate_allowed(p), 0);
		sci_policy_free(p);
		CHECK_EQ(sci_policy_isolate_allowed(NULL), -EINVAL);
	}
}

/* ---- what the corpora use, together ---- */

static void test_compat_minijail_constructs(void)
{
	struct compiled c;
	struct warns w = { 0 };
	struct sci_parse_options o = { .size = sizeof(o), .warn = collect_warn, .warn_arg = &w };
	const char *src =
		"# Copyright notice\n"
		"@frequency ./x.frequency\n"
		"clone: arg0 & CLONE_THREAD\n"
		"mmap: arg2 in ~PROT_EXEC || arg2 in ~PROT_WRITE\n"
		"madvise: arg2 == MADV_DONTNEED || arg2 == MADV_DONTDUMP || arg2 == MADV_REMOVE || \\\n"
		"  arg2 == MADV_MERGEABLE || arg2 == MADV_FREE || arg2 == MADV_NOHUGEPAGE || \\\n"
		"  arg2 == MADV_GUARD_INSTALL || arg2 == MADV_GUARD_REMOVE\n"
		"socket: arg0 == AF_UNIX && arg1 in SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK && arg2 == 0\n"
		"prctl: arg0 == PR_SET_NAME || arg0 == PR_SET_VMA || arg0 == PR_GET_AUXV\n"
		"tgkill: arg2 == SIGABRT\n"
		"mount: arg3 & (MS_BIND|MS_NOSUID) \n"
		"fcntl: arg1 == F_DUPFD_CLOEXEC || arg1 == F_GETFD\n"
		"sched_setscheduler: arg1 == SCHED_IDLE || arg1 == SCHED_BATCH\n"
		"getrandom: arg2 in ~GRND_RANDOM\n"
		"ioctl: arg1 == TCGETS2 || arg1 == BLKSSZGET || arg1 == SIOCGIFINDEX\n"
		"kill: kill\n"
		"getppid: user-notify\n"
		"getpgrp: trap\n"
		"getsid: trace\n"
		"sync: log\n"
		"mseal: 1\n"
		"restart_syscall: allow\n";

	if (compile_flags(src, 0, &c, NULL)) {
		CHECK(0);
		return;
	}
	release(&c);
	/* the same with options, to see the note */
	CHECK_EQ(sci_policy_parse_buffer_opts(src, strlen(src), "t.policy", &o, &c.p, NULL), 0);
	CHECK_EQ(w.n, 1);
	CHECK(strstr(w.msg[0], "t.policy:2:1: note: @frequency is ignored") == w.msg[0]);
	CHECK_EQ(sci_policy_export(c.p, 0, &c.f, &c.n, NULL), 0);
	VERDICT(&c, nr_of("clone"), A6(0x10000), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("clone"), A6(0x11), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("mmap"), A6(0, 0, 3), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("mmap"), A6(0, 0, 5), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("mmap"), A6(0, 0, 7), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("madvise"), A6(0, 0, 103), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("madvise"), A6(0, 0, 15), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("madvise"), A6(0, 0, 14), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("socket"), A6(1, 0x80801, 0), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("socket"), A6(1, 2, 0), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("socket"), A6(2, 1, 0), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("prctl"), A6(0x41555856), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("prctl"), A6(0x53564d41), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("prctl"), A6(22), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("tgkill"), A6(1, 2, 6), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("mount"), A6(0, 0, 0, 2), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("fcntl"), A6(3, 1030), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("sched_setscheduler"), A6(0, 3), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("getrandom"), A6(0, 0, 2), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("getrandom"), A6(0, 0, 1), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("ioctl"), A6(0, 0x1268), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("ioctl"), A6(0, 0x8933), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("kill"), A6(0), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("getppid"), A6(0), SCI_ACT_USER_NOTIF);
	VERDICT(&c, nr_of("getpgrp"), A6(0), SCI_ACT_TRAP);
	VERDICT(&c, nr_of("getsid"), A6(0), SCI_ACT_TRACE(0));
	VERDICT(&c, nr_of("sync"), A6(0), SCI_ACT_LOG);
	VERDICT(&c, nr_of("mseal"), A6(0), SCI_ACT_ALLOW);
	release(&c);
}

/* ---- binary files, empty policies ---- */

static void test_compat_binary_and_empty(void)
{
	static const unsigned char bpf[16] = { 0x20, 0, 0, 0, 4, 0, 0, 0, 0x15, 0, 1, 0, 0x3e, 0, 0, 0xc0 };
	struct sci_parse_options o = { .size = sizeof(o) };
	struct sci_policy *p = NULL;
	struct warns w = { 0 };
	struct sci_error e;
	char path[400];
	int rc;

	snprintf(path, sizeof(path), "%s/filter.bpf", tmpdir);
	{
		FILE *f = fopen(path, "w");

		CHECK(f && fwrite(bpf, 1, sizeof(bpf), f) == sizeof(bpf));
		if (f)
			fclose(f);
	}
	rc = sci_policy_parse_file(path, 0, &p, &e);
	CHECK_EQ(rc, -EINVAL);
	CHECK_STR(e.file, path);
	CHECK_EQ(e.line, 0);
	CHECK_STR(e.message, "this is a binary file, not a policy (policy files are text, see sci-policy(5))");

	o.warn = collect_warn;
	o.warn_arg = &w;
	rc = sci_policy_parse_buffer_opts("# nothing here\n", 15, "empty.policy", &o, &p, &e);
	CHECK_EQ(rc, 0);
	CHECK_EQ(w.n, 1);
	CHECK_STR(w.msg[0], "empty.policy: warning: the policy has no rules: every syscall takes the default action (kill-process)");
	sci_policy_free(p);
	w.n = 0;
	rc = sci_policy_parse_buffer_opts("@default allow\n", 15, "empty.policy", &o, &p, &e);
	CHECK_EQ(rc, 0);
	CHECK_STR(w.msg[0], "empty.policy: warning: the policy has no rules: every syscall takes the default action (allow)");
	sci_policy_free(p);
	w.n = 0;
	rc = sci_policy_parse_buffer_opts("read: 1\n", 8, "one.policy", &o, &p, &e);
	CHECK_EQ(rc, 0);
	CHECK_EQ(w.n, 0);
	sci_policy_free(p);
}

/* ---- sci-run --include-root, --isolate-allowed ---- */

static void test_compat_sci_run(void)
{
	char root[300], dir[400], file[500], *out, *err;
	int rc;

	if (!sci_run || access(sci_run, X_OK)) {
		printf("     (skipped: SCI_RUN not set or not built)\n");
		return;
	}
	snprintf(root, sizeof(root), "%s/srroot", tmpdir);
	mkdir(root, 0700);
	snprintf(dir, sizeof(dir), "%s/etc", root);
	mkdir(dir, 0700);
	write_file(dir, "common.policy", "read: 1\nio_uring_enter: 1\n");
	write_file(tmpdir, "dev.policy", "@include /etc/common.policy\nwrite: arg0 == 1\n");
	snprintf(file, sizeof(file), "%s/dev.policy", tmpdir);

	rc = SCI_RUN("--check", file);
	CHECK_EQ(rc, 1);
	CHECK(strstr(err, "cannot open '/etc/common.policy'") != NULL);
	free(out); free(err);

	rc = SCI_RUN("--include-root", root, "--check", file);
	CHECK_EQ(rc, 0);
	CHECK(strstr(out, "read (0): allow") != NULL);
	CHECK(strstr(out, "    arg0 == 0x1: allow") != NULL);
	free(out); free(err);

	rc = SCI_RUN("--include-root", root, "--isolate-allowed", "--check", file);
	CHECK_EQ(rc, 0);
	CHECK(strstr(out, "read (0): isolate") != NULL);
	CHECK(strstr(out, "    arg0 == 0x1: isolate") != NULL);
	CHECK(strstr(out, "io_uring_enter (426): return ENOSYS (38)") != NULL);
	CHECK(strstr(out, "default: kill-process") != NULL);
	free(out); free(err);
}

/* ---- SCI_CMP_* == SCMP_CMP_*, rule-adding errors with a message ---- */

#include <seccomp.h>

static void test_compat_cmp_and_add_errors(void)
{
	/* what libseccomp code passes means the same here */
	const struct sci_cond eq = { .arg = 0, .op = (enum sci_cmp)SCMP_CMP_EQ, .value = 5 };
	const struct sci_cond ge = { .arg = 1, .op = (enum sci_cmp)SCMP_CMP_GE, .value = 10 };
	const struct sci_cond me = { .arg = 2, .op = (enum sci_cmp)SCMP_CMP_MASKED_EQ,
				     .value = 0x4, .mask = 0x6 };
	struct sci_policy *p = sci_policy_new(SCI_ACT_KILL_PROCESS);
	struct sci_error e;
	struct compiled c = { 0 };

	CHECK_EQ(SCI_CMP_NE, SCMP_CMP_NE);
	CHECK_EQ(SCI_CMP_LT, SCMP_CMP_LT);
	CHECK_EQ(SCI_CMP_LE, SCMP_CMP_LE);
	CHECK_EQ(SCI_CMP_EQ, SCMP_CMP_EQ);
	CHECK_EQ(SCI_CMP_GE, SCMP_CMP_GE);
	CHECK_EQ(SCI_CMP_GT, SCMP_CMP_GT);
	CHECK_EQ(SCI_CMP_MASKED_EQ, SCMP_CMP_MASKED_EQ);
	if (!p) {
		CHECK(0);
		return;
	}
	CHECK_EQ(sci_policy_add_rule(p, SCI_ACT_ALLOW, nr_of("read"), 1, &eq), 0);
	CHECK_EQ(sci_policy_add_rule(p, SCI_ACT_ALLOW, nr_of("write"), 1, &ge), 0);
	CHECK_EQ(sci_policy_add_rule(p, SCI_ACT_ALLOW, nr_of("close"), 1, &me), 0);
	c.p = p;
	CHECK_EQ(sci_policy_export(p, 0, &c.f, &c.n, NULL), 0);
	/* {0, SCMP_CMP_EQ, 5} is arg0 == 5, not arg0 <= 5 */
	VERDICT(&c, nr_of("read"), A6(5), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("read"), A6(4), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("write"), A6(0, 10), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("write"), A6(0, 9), SCI_ACT_KILL_PROCESS);
	VERDICT(&c, nr_of("close"), A6(0, 0, 0x5), SCI_ACT_ALLOW);
	VERDICT(&c, nr_of("close"), A6(0, 0, 0x2), SCI_ACT_KILL_PROCESS);

	/* errors say why */
	{
		const struct sci_cond bad_arg[] = { SCI_COND(0, SCI_CMP_EQ, 1), SCI_COND(7, SCI_CMP_EQ, 1) };
		const struct sci_cond bad_op = { .arg = 0, .op = (enum sci_cmp)11, .value = 1 };
		const struct sci_cond bad_mask = SCI_COND_MASK(1, SCI_CMP_MASKED_EQ, 0x3, 0x4);
		const struct sci_cond never = SCI_COND(2, SCI_CMP_LT, 0);

		CHECK_EQ(sci_policy_add_rule_err(p, SCI_ACT_ALLOW, 3, 2, bad_arg, &e), -EINVAL);
		CHECK_STR(e.message, "condition 2: 'arg7' is not a syscall argument: they are arg0 to arg5");
		CHECK_EQ(sci_policy_add_rule_err(p, SCI_ACT_ALLOW, 3, 1, &bad_op, &e), -EINVAL);
		CHECK_STR(e.message, "condition 1: unknown comparison 11 (SCI_CMP_NE to SCI_CMP_IN; the SCI_CMP_* equal libseccomp's SCMP_CMP_*)");
		CHECK_EQ(sci_policy_add_rule_err(p, SCI_ACT_ALLOW, 3, 1, &bad_mask, &e), -EINVAL);
		CHECK_STR(e.message, "condition 1: the value 0x4 has bits outside the mask 0x3: 'arg1 & 0x3 == 0x4' is never true");
		CHECK_EQ(sci_policy_add_rule_err(p, SCI_ACT_ALLOW, 3, 1, &never, &e), -EINVAL);
		CHECK_STR(e.message, "condition 1: 'arg2 < 0' is never true: arguments are unsigned 64-bit values");
		CHECK_EQ(sci_policy_add_rule_err(p, SCI_ACT_ALLOW, 5000, 0, NULL, &e), -EINVAL);
		CHECK_STR(e.message, "syscall number 5000 is out of range (0 to 4095)");
		CHECK_EQ(sci_policy_add_rule_err(p, 0x12345678, 3, 0, NULL, &e), -EINVAL);
		CHECK_STR(e.message, "invalid action 0x12345678");
		CHECK_EQ(sci_policy_add_rule_name_err(p, SCI_ACT_ALLOW, "raed", 0, NULL, &e), -ENOENT);
		CHECK_STR(e.message, "unknown syscall 'raed' (did you mean 'read'?)");
		CHECK_EQ(sci_policy_add_rule_name_err(p, SCI_ACT_ALLOW, "getpid", 0, NULL, &e), 0);
		CHECK_EQ(sci_policy_add_rule_name_err(p, SCI_ACT_LOG, "getpid", 0, NULL, &e), -EEXIST);
		CHECK_STR(e.message, "syscall 'getpid' already has an unconditional rule: this one could never apply");
		CHECK_EQ(sci_policy_add_rule_name_err(p, SCI_ACT_ALLOW, "mseal", 0, NULL, &e), 0);
		CHECK_EQ(sci_policy_verdict(p, 462, A6(0)), SCI_ACT_ALLOW);
	}
	release(&c);
}

static void run_compat_tests(void)
{
	RUN(test_compat_syscall_table);
	RUN(test_compat_constants);
	RUN(test_compat_several_rules);
	RUN(test_compat_include_root);
	RUN(test_compat_denylist_groups);
	RUN(test_compat_isolate_allowed);
	RUN(test_compat_minijail_constructs);
	RUN(test_compat_binary_and_empty);
	RUN(test_compat_sci_run);
	RUN(test_compat_cmp_and_add_errors);
}
