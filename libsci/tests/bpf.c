// SPDX-License-Identifier: LGPL-2.1-or-later
#include <string.h>

#include "bpf.h"

static int load_word(const struct test_seccomp_data *d, uint32_t off,
		     uint32_t *out)
{
	unsigned char buf[sizeof(*d)];

	/* struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6] */
	if (off % 4 || off > 64 - 4)
		return -1;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &d->nr, 4);
	memcpy(buf + 4, &d->arch, 4);
	memcpy(buf + 8, &d->instruction_pointer, 8);
	memcpy(buf + 16, d->args, 48);
	memcpy(out, buf + off, 4);	/* host (little endian) order, as the kernel */
	return 0;
}

int bpf_run(const struct sock_filter *prog, size_t len,
	    const struct test_seccomp_data *d, uint32_t *ret)
{
	unsigned int steps;

	return bpf_run_steps(prog, len, d, ret, &steps);
}

int bpf_run_steps(const struct sock_filter *prog, size_t len,
		  const struct test_seccomp_data *d, uint32_t *ret,
		  unsigned int *steps)
{
	uint32_t A = 0, X = 0, M[16] = { 0 };
	size_t pc = 0;

	*steps = 0;
	if (!len || len > 4096)
		return -1;
	while (pc < len) {
		const struct sock_filter *in = &prog[pc];
		uint32_t src = BPF_SRC(in->code) == BPF_X ? X : in->k;
		size_t next = pc + 1;

		++*steps;

		switch (BPF_CLASS(in->code)) {
		case BPF_LD:
			switch (BPF_MODE(in->code)) {
			case BPF_ABS:
				if (BPF_SIZE(in->code) != BPF_W || load_word(d, in->k, &A))
					return -1;
				break;
			case BPF_IMM: A = in->k; break;
			case BPF_MEM:
				if (in->k >= 16)
					return -1;
				A = M[in->k];
				break;
			case BPF_LEN: A = 64; break;
			default: return -1;
			}
			break;
		case BPF_LDX:
			switch (BPF_MODE(in->code)) {
			case BPF_IMM: X = in->k; break;
			case BPF_MEM:
				if (in->k >= 16)
					return -1;
				X = M[in->k];
				break;
			case BPF_LEN: X = 64; break;
			default: return -1;
			}
			break;
		case BPF_ST:
		case BPF_STX:
			if (in->k >= 16)
				return -1;
			M[in->k] = BPF_CLASS(in->code) == BPF_ST ? A : X;
			break;
		case BPF_ALU:
			switch (BPF_OP(in->code)) {
			case BPF_ADD: A += src; break;
			case BPF_SUB: A -= src; break;
			case BPF_MUL: A *= src; break;
			case BPF_DIV:
				if (!src) { *ret = 0; return 0; }
				A /= src;
				break;
			case BPF_MOD:
				if (!src) { *ret = 0; return 0; }
				A %= src;
				break;
			case BPF_OR: A |= src; break;
			case BPF_AND: A &= src; break;
			case BPF_XOR: A ^= src; break;
			case BPF_LSH: A = src >= 32 ? 0 : A << src; break;
			case BPF_RSH: A = src >= 32 ? 0 : A >> src; break;
			case BPF_NEG: A = -A; break;
			default: return -1;
			}
			break;
		case BPF_JMP: {
			int cond;

			if (BPF_OP(in->code) == BPF_JA) {
				next = pc + 1 + in->k;
				break;
			}
			switch (BPF_OP(in->code)) {
			case BPF_JEQ: cond = A == src; break;
			case BPF_JGT: cond = A > src; break;
			case BPF_JGE: cond = A >= src; break;
			case BPF_JSET: cond = (A & src) != 0; break;
			default: return -1;
			}
			next = pc + 1 + (cond ? in->jt : in->jf);
			break;
		}
		case BPF_RET:
			if (BPF_RVAL(in->code) == BPF_K)
				*ret = in->k;
			else if (BPF_RVAL(in->code) == BPF_A)
				*ret = A;
			else
				return -1;
			return 0;
		case BPF_MISC:
			if (BPF_MISCOP(in->code) == BPF_TAX)
				X = A;
			else
				A = X;
			break;
		default:
			return -1;
		}
		if (next <= pc || next > len)
			return -1;
		pc = next;
	}
	return -1;
}
