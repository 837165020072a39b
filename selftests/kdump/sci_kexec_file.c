// SPDX-License-Identifier: GPL-2.0
/*
 * sci_kexec_file KERNEL INITRD CMDLINE: load KERNEL (a bzImage) and INITRD
 * as the crash kernel with kexec_file_load(KEXEC_FILE_ON_CRASH), which the
 * kernel then starts on a panic (kdump).  busybox has no kexec; a helper of
 * the guest's sci_kdump.sh, not a test of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int kfd, ifd;

	if (argc != 4) {
		fprintf(stderr, "usage: sci_kexec_file KERNEL INITRD CMDLINE\n");
		return 2;
	}
	kfd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (kfd < 0) {
		fprintf(stderr, "sci_kexec_file: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	ifd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (ifd < 0) {
		fprintf(stderr, "sci_kexec_file: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(argv[3]) + 1, argv[3],
		    KEXEC_FILE_ON_CRASH)) {
		fprintf(stderr, "sci_kexec_file: kexec_file_load: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
