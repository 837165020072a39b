#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""List what the SCI tables map executable before any grant, in a vmlinux.

usage: premap-scan.py [-q] VMLINUX [ALLOWLIST]

The premapped code is what SCI maps at rest (arch/x86/mm/sci.c,
sci_premap()): the PMD-aligned entry text block, .noinstr.text and the
indirect and return thunks.  A jump into it never faults, so every
instruction in it is reachable by a hijacked isolated syscall.  This
prints each range's size, its RET, IRET and SYSRET counts, and every
write to CR3 with the function it is in.  With ALLOWLIST (lines
"function COUNT", '#' comments), it exits 1 when a function has more CR3
writes than listed, or one that is not listed, naming them, so that new
CR3 loads in premapped code cannot land unnoticed.  -q prints nothing but that failure (the build
check `make kernel` runs).
"""
import re
import subprocess
import sys

PMD = 2 << 20


def symbols(vmlinux):
    out = subprocess.run(["nm", "-n", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3:
            syms.setdefault(f[2], int(f[0], 16))
    return syms


def ranges(syms):
    need = ["__entry_text_start", "__entry_text_end", "__noinstr_text_start",
            "__noinstr_text_end", "__indirect_thunk_start",
            "__indirect_thunk_end"]
    missing = [n for n in need if n not in syms]
    if missing:
        sys.exit("premap-scan: %s not in the symbol table" % ", ".join(missing))
    return [
        ("entry text block (PMD-aligned)",
         syms["__entry_text_start"] & ~(PMD - 1),
         (syms["__entry_text_end"] + PMD - 1) & ~(PMD - 1)),
        (".noinstr.text", syms["__noinstr_text_start"],
         syms["__noinstr_text_end"]),
        ("thunks", syms["__indirect_thunk_start"],
         syms["__indirect_thunk_end"]),
    ]


def disasm(vmlinux, start, end):
    out = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", "--start-address=%#x" % start,
         "--stop-address=%#x" % end, vmlinux],
        check=True, capture_output=True, text=True).stdout
    func = "?"
    fstart = start
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            fstart, func = int(m.group(1), 16), m.group(2)
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line)
        if m:
            addr = int(m.group(1), 16)
            yield addr, func, addr - fstart, m.group(2).strip()


def main():
    args = sys.argv[1:]
    quiet = bool(args) and args[0] == "-q"
    if quiet:
        args = args[1:]
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    out = (lambda *a: None) if quiet else print
    vmlinux = args[0]
    allow = {}
    if len(args) == 2:
        for line in open(args[1]):
            f = line.split("#")[0].split()
            if f:
                allow[f[0]] = int(f[1]) if len(f) > 1 else 1
    seen = {}
    syms = symbols(vmlinux)
    total = 0
    unlisted = []
    for name, start, end in ranges(syms):
        rets = irets = sysrets = 0
        cr3 = []
        for addr, func, off, insn in disasm(vmlinux, start, end):
            op = insn.split()[0] if insn else ""
            if op in ("ret", "retq"):
                rets += 1
            elif op in ("iretq", "iret"):
                irets += 1
            elif op in ("sysretq", "sysretl", "sysret"):
                sysrets += 1
            m = re.match(r"^mov\s+%(\w+),%cr3$", insn)
            if m:
                cr3.append((addr, func, off, m.group(1)))
        total += end - start
        out("%s: %#x-%#x, %d bytes; %d ret, %d iret, %d sysret, %d CR3 writes"
              % (name, start, end, end - start, rets, irets, sysrets, len(cr3)))
        for addr, func, off, reg in cr3:
            where = "%s+%#x" % (func, off)
            seen[func] = seen.get(func, 0) + 1
            listed = seen[func] <= allow.get(func, 0)
            if allow and not listed:
                unlisted.append(where)
            out("  %#x %s: mov %%%s,%%cr3%s" % (addr, where, reg,
                  "" if not allow or listed else "   <- not on the allowlist"))
    out("premapped executable: %d bytes" % total)
    if unlisted:
        print("premap-scan: CR3 writes in premapped code not on the allowlist: %s"
              % " ".join(unlisted), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
