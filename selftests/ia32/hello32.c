// SPDX-License-Identifier: GPL-2.0
/*
 * A 32-bit program (gcc -m32 -static) for isolate_action: writes one line
 * and exits 0 through the i386 system call table.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("hello from a 32-bit program, pid %d\n", (int)getpid());
	return 0;
}
