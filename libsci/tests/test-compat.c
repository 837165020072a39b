// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libsci host tests: compatibility with minijail policy files (issue 13)
 * and the API items that came with it.  Included by test.c (its helpers are
 * static); run by run_compat_tests().  Every test asserts BPF verdicts
 * through the interpreter of bpf.c or exact messages.
 */

/* Compile @src with @flags, reporting errors on stderr. */
static __attribute__((unused)) int compile_flags(const char *src, unsigned int flags,
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

static void run_compat_tests(void)
{
	RUN(test_compat_syscall_table);
	RUN(test_compat_constants);
}
