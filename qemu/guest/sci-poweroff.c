// SPDX-License-Identifier: GPL-2.0
/*
 * Leave QEMU with an exit status chosen by the guest, through the
 * isa-debug-exit device at port 0xf4: QEMU exits with (value << 1) | 1.
 * Under Bochs, which has no such device, end the simulation through its
 * shutdown port 0x8900 instead (the status is then in the TAP output).
 * usage: sci-poweroff [VALUE]   (VALUE 0..127, default 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int v = argc > 1 ? atoi(argv[1]) : 0;

	sync();
	if (ioperm(0xf4, 4, 1)) {
		perror("sci-poweroff: ioperm");
		return 1;
	}
	outl(v & 0x7f, 0xf4);
	/* Only reached without the device: Bochs, or QEMU without it. */
	if (!ioperm(0x8900, 1, 1)) {
		const char *p;

		for (p = "Shutdown"; *p; p++)
			outb(*p, 0x8900);
	}
	fprintf(stderr, "sci-poweroff: no isa-debug-exit device or Bochs shutdown port\n");
	return 1;
}
