// SPDX-License-Identifier: GPL-2.0
/*
 * Isolated syscalls into module code (selftests/module/sci_testmod.c, in
 * the guest at /sci/bin/modules/sci_testmod.ko):
 *   - a syscall that runs module code end to end (the module's ioctl, its
 *     own function, the kernel functions that one calls) works isolated,
 *     and its module text was granted, not premapped;
 *   - a jump into the middle of a module function kills, as one into the
 *     kernel image does;
 *   - a module unloaded while a task that ran its code keeps running
 *     isolated, keeping its grants: the grant of the freed module text is
 *     gone before the task's next isolated syscall (whether or not the
 *     module is loaded again at the same address), and the reloaded
 *     module works isolated.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "sci.h"
#include "../module/sci_testmod.h"

#define TESTMOD_KO	"/sci/bin/modules/sci_testmod.ko"
#define TESTMOD_PATH	"/dev/sci_testmod"
#define SCI_TEST_MAPPED	_IOW('S', 23, unsigned long)

#define KEEP	(SECCOMP_RET_ISOLATE | SECCOMP_ISOLATE_KEEP)

/*
 * Load the module.  Loaded already is fine once it is live: a module that
 * is still going away (an earlier test's unload, or its killed task's last
 * reference) makes finit_module() fail with EEXIST too, so wait for
 * "live" or for it to be gone (at most 5 s).
 */
static int load_module(void)
{
	char state[32];
	int i, fd, ret;

	for (i = 0; i < 100; i++) {
		fd = open(TESTMOD_KO, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		ret = syscall(__NR_finit_module, fd, "", 0);
		close(fd);
		if (!ret)
			return 0;
		if (errno != EEXIST)
			return -1;
		if (sci_read_file("/sys/module/sci_testmod/initstate", state,
				  sizeof(state)) > 0 && !strcmp(state, "live\n"))
			return 0;
		usleep(50000);
	}
	errno = ETIMEDOUT;
	return -1;
}

/*
 * Unload it: EBUSY (not live yet, or going) and EAGAIN (a reference not
 * dropped yet, such as a killed task's file on its way out) are retried
 * for at most 5 s.
 */
static int unload_module(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!syscall(__NR_delete_module, "sci_testmod", O_NONBLOCK))
			return 0;
		if (errno != EBUSY && errno != EAGAIN)
			return -1;
		usleep(50000);
	}
	return -1;
}

/* 0 when the module's ioctl summed 1..64 right. */
static int sum_ok(int fd)
{
	struct sci_testmod_sum s;
	int i;

	for (i = 0; i < SCI_TESTMOD_N; i++)
		s.v[i] = i + 1;
	s.sum = 0;
	if (ioctl(fd, SCI_TESTMOD_SUM, &s))
		return 1;
	return s.sum == SCI_TESTMOD_N * (SCI_TESTMOD_N + 1) / 2 ? 0 : 2;
}

FIXTURE(mod) {
	int fd;
	struct sci_testmod_info info;
};

FIXTURE_SETUP(mod)
{
	if (access(TESTMOD_KO, R_OK))
		SKIP(return, "no %s in this guest", TESTMOD_KO);
	ASSERT_EQ(0, load_module()) TH_LOG("finit_module: %s", strerror(errno));
	self->fd = open(TESTMOD_PATH, O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, SCI_TESTMOD_INFO, &self->info));
}

FIXTURE_TEARDOWN(mod)
{
	if (self->fd >= 0)
		close(self->fd);
	unload_module();
}

/*
 * The module's ioctl isolated: right result, no kill; with kept grants the
 * module function's page is mapped in the task's SCI tables afterwards
 * (granted while the syscall ran), without them it is not.
 */
TEST_F(mod, call_into_module_isolated)
{
	long kills = sci_stat("kills");
	int keep, status;
	pid_t pid;

	ASSERT_EQ(0, sum_ok(self->fd));		/* natively */
	for (keep = 0; keep < 2; keep++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			int tfd = open(SCI_TEST_PATH, O_RDWR), r;

			if (tfd < 0 || sci_filter(__NR_ioctl, keep ? KEEP : SECCOMP_RET_ISOLATE))
				_exit(90);
			r = sum_ok(self->fd);
			if (r)
				_exit(10 + r);
			r = ioctl(tfd, SCI_TEST_MAPPED, (unsigned long)self->info.sum_fn);
			if (r < 0)
				_exit(errno == EAGAIN ? 20 : 21);
			/* kept: granted and still there; not kept: dropped */
			_exit(r == keep ? 0 : 30 + r);
		}
		status = sci_reap(pid, NULL, 0);
		TH_LOG("keep %d: status 0x%x (exit 1x: wrong sum, 20: not isolated, 3x: mapped %% d)",
		       keep, status);
		ASSERT_EXIT0(status);
	}
	ASSERT_EQ(kills, sci_stat("kills"));
}

/* One page into sci_testmod_sled(): harmless natively, a kill isolated. */
TEST_F(mod, gadget_in_module_killed)
{
	long kills = sci_stat("kills");
	int status;
	pid_t pid;

	ASSERT_EQ(0, ioctl(self->fd, SCI_TESTMOD_GADGET));	/* natively */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sci_filter(__NR_ioctl, SECCOMP_RET_ISOLATE))
			_exit(90);
		ioctl(self->fd, SCI_TESTMOD_GADGET);
		_exit(1);	/* the gadget ran */
	}
	status = sci_reap(pid, NULL, 0);
	TH_LOG("status 0x%x (exit 1: the mid-function jump ran isolated)", status);
	ASSERT_KILLED(status);
	ASSERT_EQ(kills + 1, sci_stat("kills"));
}

/*
 * A task keeps grants of module text, the module goes away and comes back
 * while the task waits between isolated syscalls.
 */
TEST_F(mod, module_unloaded_under_isolated_task)
{
	long stale = sci_stat("stale_grants");
	int to_child[2], to_parent[2], status;
	struct sci_testmod_info again;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int tfd = open(SCI_TEST_PATH, O_RDWR), fd = self->fd, r;
		unsigned long old = self->info.sum_fn;
		struct sci_testmod_info info;

		if (tfd < 0 || sci_filter(__NR_ioctl, KEEP))
			_exit(90);
		if (sum_ok(fd))
			_exit(1);
		if (ioctl(tfd, SCI_TEST_MAPPED, old) != 1)
			_exit(2);	/* not granted, or not isolated */
		close(fd);		/* the module's last user goes */
		if (write(to_parent[1], "g", 1) != 1 || read(to_child[0], &c, 1) != 1)
			_exit(91);
		/* Unloaded and loaded again: the old grant must be gone. */
		r = ioctl(tfd, SCI_TEST_MAPPED, old);
		if (r != 0)
			_exit(r == 1 ? 3 : 4);
		fd = open(TESTMOD_PATH, O_RDWR);
		if (fd < 0 || ioctl(fd, SCI_TESTMOD_INFO, &info))
			_exit(5);
		if (sum_ok(fd))
			_exit(6);
		if (ioctl(tfd, SCI_TEST_MAPPED, (unsigned long)info.sum_fn) != 1)
			_exit(7);
		_exit(0);
	}
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	ASSERT_EQ(0, unload_module()) TH_LOG("delete_module: %s", strerror(errno));
	ASSERT_EQ(0, load_module()) TH_LOG("finit_module: %s", strerror(errno));
	self->fd = open(TESTMOD_PATH, O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, SCI_TESTMOD_INFO, &again));
	TH_LOG("sci_testmod_sum_array at %s address after the reload",
	       again.sum_fn == self->info.sum_fn ? "the same" : "another");
	ASSERT_EQ(1, write(to_child[1], "r", 1));
	status = sci_reap(pid, NULL, 0);
	TH_LOG("status 0x%x (exit 3: the freed module text still mapped, 5-7: the reloaded module failed)",
	       status);
	ASSERT_EXIT0(status);
	/* The unload dropped the kept grants of its text. */
	ASSERT_LT(stale, sci_stat("stale_grants"));
}

TEST_HARNESS_MAIN
