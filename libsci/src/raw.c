// SPDX-License-Identifier: LGPL-2.1-or-later
/* Raw BPF output: the struct sock_filter array, for bwrap --seccomp FD. */
#include <errno.h>
#include <unistd.h>

#include "internal.h"

int sci_bpf_write_raw(const struct sock_filter *insns, size_t len, int fd)
{
	const char *p = (const char *)insns;
	size_t left;

	if (!insns || len == 0 || len > SCI_BPF_MAXINSNS || fd < 0)
		return -EINVAL;
	left = len * sizeof(*insns);
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		left -= (size_t)n;
	}
	return 0;
}
