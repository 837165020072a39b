// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_loop NR COUNT: make raw system call NR, all arguments 0, COUNT
 * times and print what the last one returned.  A helper of the guest shell
 * tests (sci_isolate_all.sh counts how many of them ran isolated), not a
 * test of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long nr, count, i, ret = 0;
	int err = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: syscall_loop NR COUNT\n");
		return 2;
	}
	nr = strtol(argv[1], NULL, 0);
	count = strtol(argv[2], NULL, 0);
	for (i = 0; i < count; i++) {
		errno = 0;
		ret = syscall(nr, 0L, 0L, 0L, 0L, 0L, 0L);
		err = errno;
	}
	printf("syscall %ld: %ld calls, the last returned %ld, errno %d (%s)\n",
	       nr, count, ret, err, err ? strerror(err) : "none");
	return 0;
}
