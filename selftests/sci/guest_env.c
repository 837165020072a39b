// SPDX-License-Identifier: GPL-2.0
/*
 * The guest invariants every other SCI test relies on: both vCPUs online,
 * kernel page-table isolation active, KASLR not disabled, seccomp filters
 * available.  A pipeline that silently lost one of these would make later
 * tests meaningless, so they are checked rather than assumed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"

TEST(two_cpus_online)
{
	ASSERT_EQ(2, sysconf(_SC_NPROCESSORS_ONLN));
}

/* The SCI tables are built on PTI's; -cpu max is not Meltdown-affected, so
 * the guest forces PTI with pti=on and the CPU flag must say it took (off
 * in the boot with pti=off, where SCI refuses). */
TEST(pti_active)
{
	char line[4096], cmdline[4096] = "";
	int found = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strstr(line, " pti"))
			found = 1;
	fclose(f);
	f = fopen("/proc/cmdline", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(cmdline, sizeof(cmdline), f));
	fclose(f);
	ASSERT_EQ(strstr(cmdline, "pti=off") ? 0 : 1, found);
}

/*
 * KASLR randomizes the kernel's virtual and physical placement independently;
 * both landing on their defaults by chance is about one boot in 10^5.
 */
TEST(kaslr_active)
{
	unsigned long long text = 0, code = 0;
	char line[512];
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " _text\n")) {
			text = strtoull(line, NULL, 16);
			break;
		}
	fclose(f);
	f = fopen("/proc/iomem", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "Kernel code")) {
			code = strtoull(line + strspn(line, " "), NULL, 16);
			break;
		}
	fclose(f);
	ASSERT_NE(0, text);
	ASSERT_NE(0, code);
	TH_LOG("_text %s default, kernel code %s default",
	       text == 0xffffffff81000000ULL ? "at" : "not at",
	       code == 0x1000000ULL ? "at" : "not at");
	ASSERT_TRUE(text != 0xffffffff81000000ULL || code != 0x1000000ULL);
}

TEST(seccomp_filter_available)
{
	/* NULL filter: EFAULT means the filter mode exists, EINVAL it does not. */
	ASSERT_EQ(-1, syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL));
	ASSERT_EQ(EFAULT, errno);
}

TEST_HARNESS_MAIN
