#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generate libsci's table of named constants from the installed headers.

    gen-consts.py CC OUT.inc [CFLAGS...]

Every object-like macro of the headers below whose name starts with one of
PREFIXES (or is in NAMES) and that is an integer constant expression is
taken, with the value the compiler gives it, as a 64-bit two's complement.
The headers come in groups compiled apart (glibc's and the kernel's uapi
headers cannot all be included in one file).  A macro defined by several
groups takes the first group's value.  Names newer than the installed
headers come from consts-extra.txt, where the headers do not define them.

The output is a sorted list of { "NAME", value, is_errno } initializers.
"""
import os
import re
import subprocess
import sys
import tempfile

GROUPS = [
    # glibc (and the uapi headers it includes itself)
    ["errno.h", "fcntl.h", "unistd.h", "sys/mman.h", "sys/socket.h",
     "netinet/in.h", "netinet/tcp.h", "sys/prctl.h", "sched.h", "signal.h",
     "sys/ioctl.h", "sys/wait.h", "sys/resource.h", "sys/random.h",
     "sys/epoll.h", "sys/eventfd.h", "sys/timerfd.h", "sys/inotify.h",
     "sys/mount.h", "sys/stat.h", "sys/ptrace.h", "sys/file.h",
     "sys/personality.h", "sys/xattr.h", "poll.h", "time.h",
     "asm/prctl.h", "linux/futex.h", "linux/sched.h", "linux/falloc.h",
     "linux/sockios.h", "linux/netlink.h", "linux/seccomp.h",
     "linux/capability.h", "linux/close_range.h", "linux/membarrier.h",
     "linux/memfd.h", "linux/userfaultfd.h", "linux/kcmp.h",
     "linux/if_tun.h", "linux/vm_sockets.h", "net/if.h"],
    # kernel uapi only: ioctls whose size needs kernel structs
    ["linux/types.h", "asm/termbits.h", "asm/ioctls.h", "linux/fs.h",
     "linux/loop.h", "linux/sockios.h", "linux/fiemap.h", "linux/fd.h",
     "linux/hdreg.h", "linux/random.h", "linux/tiocl.h",
     "linux/userfaultfd.h", "linux/dma-buf.h", "linux/sync_file.h",
     "linux/vfio.h", "linux/kvm.h", "linux/vhost.h", "linux/if_tun.h",
     "linux/uinput.h", "linux/input.h", "linux/fuse.h", "linux/nsfs.h",
     "linux/blkzoned.h", "linux/fsverity.h", "linux/fscrypt.h",
     "linux/udmabuf.h", "linux/magic.h", "linux/mount.h",
     "linux/openat2.h", "linux/pidfd.h", "linux/mman.h"],
]

PREFIXES = (
    "O_", "AT_", "F_", "FD_", "SEEK_", "R_OK", "W_OK", "X_OK", "PROT_",
    "MAP_", "MREMAP_", "MS_", "MNT_", "UMOUNT_", "MOUNT_", "MOVE_MOUNT_",
    "FSOPEN_", "FSMOUNT_", "FSCONFIG_", "FSPICK_", "OPEN_TREE_", "MADV_",
    "MFD_", "MCL_", "MLOCK_", "AF_", "PF_", "SOCK_", "MSG_", "SOL_", "SO_",
    "SCM_", "IPPROTO_", "IP_", "IPV6_", "TCP_", "SHUT_", "CLONE_", "CSIGNAL",
    "SIG", "SA_", "SS_", "PR_", "ARCH_", "FUTEX_", "TC", "TIOC", "FIO",
    "CLOCK_", "TIMER_", "TFD_", "EFD_", "EPOLL", "GRND_", "P_", "WNOHANG",
    "WUNTRACED", "WSTOPPED", "WEXITED", "WCONTINUED", "WNOWAIT", "__WALL",
    "__WCLONE", "__WNOTHREAD", "RLIMIT_", "RLIM_", "SCHED_", "FS_IOC_",
    "FS_", "BLK", "LOOP_", "LO_", "SIOC", "NETLINK_", "IFF_", "FALLOC_FL_",
    "RENAME_", "STATX_", "UFFD", "USERFAULTFD_", "KCMP_", "PIDFD_", "IN_",
    "SECCOMP_", "PTRACE_", "CAP_", "POLL", "SPLICE_F_", "SYNC_FILE_RANGE_",
    "MEMBARRIER_", "CLOSE_RANGE_", "RESOLVE_", "LOCK_", "S_I", "XATTR_",
    "PER_", "ADDR_", "UNAME26", "TUN", "VMADDR_", "FIEMAP_", "FIGETBSZ",
    "FIBMAP", "FICLONE", "FIDEDUPERANGE", "FIFREEZE", "FITHAW", "FITRIM",
    "FDGET", "FDSET", "FDFLUSH", "HDIO_", "RNDGET", "RNDADD", "RNDZAP",
    "RNDCLEAR", "RNDRESEED", "DMA_BUF_", "SYNC_IOC_", "VFIO_", "KVM_",
    "VHOST_", "UI_", "EVIOC", "FUSE_DEV_IOC_", "NS_GET_", "FS_VERITY_",
    "UDMABUF_", "AT_", "PIDFS_",
)
NAMES = ("TIOCL_GETSHIFTSTATE",)

ERRNO_RE = re.compile(r"^E[A-Z0-9]+$")
# Aliases: the other name of the same errno comes first in messages.
ERRNO_ALIASES = {"EWOULDBLOCK", "EDEADLOCK", "ENOTSUP"}


def run(cmd, **kw):
    return subprocess.run(cmd, check=False, capture_output=True, text=True,
                          **kw)


def macros(cc, cflags, headers, tmp):
    src = os.path.join(tmp, "m.c")
    with open(src, "w") as f:
        f.write("#define _GNU_SOURCE\n")
        for h in headers:
            f.write("#if __has_include(<%s>)\n#include <%s>\n#endif\n" % (h, h))
    r = run([cc] + cflags + ["-E", "-dM", src])
    if r.returncode:
        sys.exit("gen-consts: %s -E failed:\n%s" % (cc, r.stderr))
    names = set()
    for line in r.stdout.splitlines():
        m = re.match(r"#define ([A-Za-z_][A-Za-z0-9_]*)(\(?)", line)
        if not m or m.group(2):
            continue
        n = m.group(1)
        if n.startswith(PREFIXES) or n in NAMES or ERRNO_RE.match(n):
            names.add(n)
    return names


def probe(cc, cflags, headers, names, extra, tmp, tag):
    """name -> value for the names that are integer constants here."""
    names = sorted(names)
    while True:
        src = os.path.join(tmp, "p%s.c" % tag)
        exe = os.path.join(tmp, "p%s" % tag)
        lines = ["#define _GNU_SOURCE"]
        for h in headers:
            lines.append("#if __has_include(<%s>)\n#include <%s>\n#endif" % (h, h))
        lines += ["#include <stdio.h>",
                  "#define P(n, x) printf(\"%s %llx\\n\", n, "
                  "(unsigned long long)(long long)(x))",
                  "int main(void) {"]
        first = len(lines)
        for n in names:
            if n in extra:
                lines.append("#ifdef %s\n P(\"%s\", %s);\n#else\n P(\"%s\", %s);\n#endif"
                             % (n, n, n, n, extra[n]))
            else:
                lines.append(" { enum { v = (%s) != 0 }; P(\"%s\", %s); }" % (n, n, n))
        lines.append("return 0; }")
        text = "\n".join(lines) + "\n"
        with open(src, "w") as f:
            f.write(text)
        r = run([cc] + cflags + ["-w", "-o", exe, src])
        if r.returncode == 0:
            break
        # Drop the names on the lines with errors and try again.
        lineno = {}
        ln = 1
        for i, l in enumerate(text.split("\n")):
            lineno[ln] = i
            ln += 1
        bad = set()
        for m in re.finditer(r"%s:(\d+):\d+: error" % re.escape(src), r.stderr):
            i = lineno.get(int(m.group(1)))
            if i is None:
                continue
            mm = re.search(r'P\("([A-Za-z0-9_]+)"', text.split("\n")[i])
            if mm:
                bad.add(mm.group(1))
        if not bad:
            sys.exit("gen-consts: cannot compile the probe:\n" + r.stderr[:4000])
        names = [n for n in names if n not in bad]
    r = run([exe])
    if r.returncode:
        sys.exit("gen-consts: the probe failed")
    out = {}
    for line in r.stdout.splitlines():
        n, v = line.split()
        out[n] = int(v, 16)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: gen-consts.py CC OUT.inc [CFLAGS...]")
    cc, outpath, cflags = sys.argv[1], sys.argv[2], sys.argv[3:]
    here = os.path.dirname(os.path.abspath(__file__))
    extra = {}
    with open(os.path.join(here, "..", "src", "consts-extra.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                extra[line[0]] = line[1]
    values = {}
    with tempfile.TemporaryDirectory() as tmp:
        errnos = {n for n in macros(cc, cflags, ["errno.h"], tmp)
                  if ERRNO_RE.match(n)}
        for i, headers in enumerate(GROUPS):
            names = macros(cc, cflags, headers, tmp)
            names = {n for n in names if not ERRNO_RE.match(n) or n in errnos}
            if i == 0:
                names |= set(extra)
            for n, v in probe(cc, cflags, headers, names, extra, tmp,
                              str(i)).items():
                values.setdefault(n, v)
    with open(outpath + ".tmp", "w") as f:
        f.write("/* Generated by tools/gen-consts.py from the installed "
                "headers: do not edit. */\n")
        for n in sorted(values):
            e = n in errnos and values[n] <= 4095
            f.write('\t{ "%s", 0x%xULL, %s, %s },\n'
                    % (n, values[n], "true" if e else "false",
                       "true" if n in ERRNO_ALIASES else "false"))
    os.replace(outpath + ".tmp", outpath)


main()
