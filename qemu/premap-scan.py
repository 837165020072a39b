#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""List what the SCI tables map executable before any grant, in a vmlinux.

usage: premap-scan.py VMLINUX [ALLOWLIST]

The premapped code is what SCI maps at rest (arch/x86/mm/sci.c,
sci_premap()): the PMD-aligned entry text block, .noinstr.text and the
indirect and return thunks.  A jump into it never faults, so every
instruction in it is reachable by a hijacked isolated syscall.  This
prints each range's size, its RET, IRET and SYSRET counts, and every
write to CR3 with the function it is in.  With ALLOWLIST (lines
"function+0xoff" or "function", '#' comments), it exits 1 when a CR3
write is not listed, naming it, so that new CR3 loads in premapped code
cannot land unnoticed.
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
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    vmlinux = sys.argv[1]
    allow = set()
    if len(sys.argv) == 3:
        for line in open(sys.argv[2]):
            line = line.split("#")[0].strip()
            if line:
                allow.add(line)
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
        print("%s: %#x-%#x, %d bytes; %d ret, %d iret, %d sysret, %d CR3 writes"
              % (name, start, end, end - start, rets, irets, sysrets, len(cr3)))
        for addr, func, off, reg in cr3:
            where = "%s+%#x" % (func, off)
            listed = where in allow or func in allow
            if allow and not listed:
                unlisted.append(where)
            print("  %#x %s: mov %%%s,%%cr3%s" % (addr, where, reg,
                  "" if not allow or listed else "   <- not on the allowlist"))
    print("premapped executable: %d bytes" % total)
    if unlisted:
        print("premap-scan: CR3 writes in premapped code not on the allowlist: %s"
              % " ".join(unlisted), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
