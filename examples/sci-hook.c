// SPDX-License-Identifier: GPL-2.0
/*
 * sci-hook: the 2019 proof of concept's demo system calls, through the
 * test hooks of CONFIG_SYSCALL_ISOLATION_TEST (/sys/kernel/debug/sci/test).
 *
 *   sci-hook [--isolate] get_answer
 *   sci-hook [--isolate] write_dmesg MESSAGE
 *   sci-hook [--isolate] write_dmesg_bad MESSAGE
 *
 * With --isolate the program marks its own ioctl() isolated through libsci
 * before the call.  write_dmesg_bad makes an indirect call into the middle
 * of a kernel function: harmless without isolation, and a violation that
 * kills the program with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <sci.h>

#define SCI_TEST_PATH		"/sys/kernel/debug/sci/test"
#define SCI_TEST_GET_ANSWER	_IO('S', 0)
#define SCI_TEST_WRITE_DMESG	_IOW('S', 1, char *)
#define SCI_TEST_WRITE_DMESG_BAD _IOW('S', 2, char *)

static int isolate_ioctl(void)
{
	struct sci_policy *policy = sci_policy_new(SCI_ACT_ALLOW);
	struct sci_error err = { 0 };
	int ret;

	if (!policy)
		return -errno;
	ret = sci_policy_add_rule_name(policy, SCI_ACT_ISOLATE, "ioctl", 0, NULL);
	if (!ret)
		ret = sci_policy_load(policy, NULL, &err);
	if (ret)
		fprintf(stderr, "sci-hook: cannot isolate ioctl: %s\n",
			err.message[0] ? err.message : strerror(-ret));
	sci_policy_free(policy);
	return ret;
}

static int usage(void)
{
	fprintf(stderr, "usage: sci-hook [--isolate] get_answer | write_dmesg MESSAGE | write_dmesg_bad MESSAGE\n");
	return 2;
}

int main(int argc, char **argv)
{
	int isolate = 0, fd;
	long ret;
	const char *cmd;

	if (argc > 1 && !strcmp(argv[1], "--isolate")) {
		isolate = 1;
		argv++;
		argc--;
	}
	if (argc < 2)
		return usage();
	cmd = argv[1];
	fd = open(SCI_TEST_PATH, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "sci-hook: %s: %s (a kernel with CONFIG_SYSCALL_ISOLATION_TEST, as root)\n",
			SCI_TEST_PATH, strerror(errno));
		return 1;
	}
	if (isolate && isolate_ioctl())
		return 1;
	if (!strcmp(cmd, "get_answer")) {
		ret = ioctl(fd, SCI_TEST_GET_ANSWER);
		printf("get_answer: %ld%s\n", ret, isolate ? " (isolated)" : "");
	} else if (!strcmp(cmd, "write_dmesg") && argc > 2) {
		ret = ioctl(fd, SCI_TEST_WRITE_DMESG, argv[2]);
		printf("write_dmesg: %ld bytes to the kernel log%s\n", ret,
		       isolate ? " (isolated)" : "");
	} else if (!strcmp(cmd, "write_dmesg_bad") && argc > 2) {
		ret = ioctl(fd, SCI_TEST_WRITE_DMESG_BAD, argv[2]);
		printf("write_dmesg_bad: completed, %ld bytes%s\n", ret,
		       isolate ? " (isolated: this should not happen)" : "");
	} else {
		return usage();
	}
	return ret < 0;
}
