// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fallback fuzzing driver for machines without clang/libFuzzer: a simple
 * mutation loop (byte flips, insertions of dictionary tokens, deletions,
 * splices of corpus files) around LLVMFuzzerTestOneInput, built with gcc
 * and ASan/UBSan.  Not coverage-guided: a much weaker fuzzer than
 * libFuzzer, but it runs everywhere.
 *
 *   fuzz_policy SECONDS ARTIFACT_DIR CORPUS_DIR...
 *
 * The input being run is kept in ARTIFACT_DIR/current-input, so a crash
 * (ASan aborts the process) leaves the input that caused it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const tokens[] = {
	"read", "write", "openat", ":", ";", " ", "\n", "\\\n", "#", "arg0",
	"arg1", "arg5", "arg6", "==", "!=", "<", "<=", ">", ">=", "&", "&&",
	"||", "|", "in", "~", "(", ")", "{", "}", ",", "@default", "@include",
	"@file-io", "@network", "allow", "isolate", "isolate-learn", "log",
	"return", "EPERM", "trap", "trace", "user-notify", "kill-process",
	"kill-thread", "kill", "O_RDONLY", "PROT_EXEC", "0x", "0xffffffffffffffff",
	"-1", "1", "0", "4095", "4096", "99999999999999999999",
	/* minijail compatibility */
	"@frequency ./x.frequency", "@denylist", "@keep-grants data", "@memory",
	"file-io@sci", "@sci", "{read, write}: ", "{read, @network}: ", ", ",
	"; return ", ">= 3 && arg0 <= 1000000", "0x100000000", "ioctl", "FIONBIO",
	"AT_FDCWD", "user-notif", "\r\n",
	/* OCI / Docker profiles */
	"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": []}",
	"\"defaultAction\"", "\"defaultErrnoRet\"", "\"architectures\"",
	"\"flags\"", "\"syscalls\"", "\"names\"", "\"action\"", "\"errnoRet\"",
	"\"args\"", "\"index\"", "\"value\"", "\"valueTwo\"", "\"op\"",
	"\"includes\"", "\"excludes\"", "\"arches\"", "\"caps\"", "\"minKernel\"",
	"\"SCMP_ACT_ALLOW\"", "\"SCMP_ACT_ERRNO\"", "\"SCMP_ACT_KILL_PROCESS\"",
	"\"SCMP_ACT_TRACE\"", "\"SCMP_ACT_NOTIFY\"", "\"SCMP_ACT_ISOLATE\"",
	"\"SCMP_ACT_ISOLATE_LEARN\"", "\"SCMP_CMP_EQ\"", "\"SCMP_CMP_GE\"",
	"\"SCMP_CMP_LE\"", "\"SCMP_CMP_NE\"", "\"SCMP_CMP_MASKED_EQ\"",
	"\"SCMP_ARCH_X86_64\"", "\"amd64\"", "\"CAP_SYS_ADMIN\"", "\"4.8\"",
	": ", "[", "]", "null", "true",
};

static uint64_t state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static char *corpus[1024];
static size_t corpus_len[1024];
static unsigned int ncorpus;

static void load_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && ncorpus < 1024) {
		char path[4096];
		FILE *f;
		long n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		fseek(f, 0, SEEK_SET);
		if (n > 0 && n < 8192) {
			corpus[ncorpus] = malloc((size_t)n);
			if (fread(corpus[ncorpus], 1, (size_t)n, f) == (size_t)n)
				corpus_len[ncorpus++] = (size_t)n;
			else
				free(corpus[ncorpus]);
		}
		fclose(f);
	}
	closedir(d);
}

static size_t mutate(char *buf, size_t len, size_t cap)
{
	unsigned int k, rounds = 1 + (unsigned int)(rnd() % 6);

	for (k = 0; k < rounds; k++) {
		size_t pos = len ? (size_t)(rnd() % (len + 1)) : 0;

		switch (rnd() % 6) {
		case 0:
			if (len)
				buf[rnd() % len] ^= (char)(1u << (rnd() % 8));
			break;
		case 1: {
			const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(tokens[0]))];
			size_t tl = strlen(t);

			if (len + tl < cap) {
				memmove(buf + pos + tl, buf + pos, len - pos);
				memcpy(buf + pos, t, tl);
				len += tl;
			}
			break;
		}
		case 2:
			if (len) {
				size_t n = 1 + (size_t)(rnd() % 8);

				if (pos + n > len)
					n = len - pos;
				memmove(buf + pos, buf + pos + n, len - pos - n);
				len -= n;
			}
			break;
		case 3:
			if (ncorpus) {
				unsigned int c = (unsigned int)(rnd() % ncorpus);
				size_t n = corpus_len[c] / 2;

				if (len + n < cap) {
					memmove(buf + pos + n, buf + pos, len - pos);
					memcpy(buf + pos, corpus[c] + rnd() % (corpus_len[c] - n + 1), n);
					len += n;
				}
			}
			break;
		case 4:
			if (len)
				buf[rnd() % len] = (char)rnd();
			break;
		default:
			if (len + 1 < cap) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = "0123456789abcdefx:;&|=<>!~()\n "[rnd() % 31];
				len++;
			}
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	static char buf[8192];
	unsigned long long execs = 0;
	char cur[4096];
	time_t start = time(NULL);
	int secs, i;

	if (argc < 4) {
		fprintf(stderr, "usage: %s SECONDS ARTIFACT_DIR CORPUS_DIR...\n", argv[0]);
		return 2;
	}
	secs = atoi(argv[1]);
	snprintf(cur, sizeof(cur), "%s/current-input", argv[2]);
	for (i = 3; i < argc; i++)
		load_dir(argv[i]);
	for (i = 0; i < (int)ncorpus; i++)
		LLVMFuzzerTestOneInput((const uint8_t *)corpus[i], corpus_len[i]);
	while (time(NULL) - start < secs) {
		size_t len = 0;
		FILE *f;

		if (ncorpus) {
			unsigned int c = (unsigned int)(rnd() % ncorpus);

			memcpy(buf, corpus[c], corpus_len[c]);
			len = corpus_len[c];
		}
		len = mutate(buf, len, sizeof(buf));
		f = fopen(cur, "wb");
		if (f) {
			fwrite(buf, 1, len, f);
			fclose(f);
		}
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
		execs++;
	}
	remove(cur);
	printf("stat::number_of_executed_units: %llu\n", execs);
	printf("stat::total_time_s: %d\n", secs);
	printf("fuzz_policy (standalone mutation loop): %llu executions in %d s, no crash\n",
	       execs, secs);
	return 0;
}
