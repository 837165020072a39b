#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check every CR3 write in a vmlinux's kernel text against what SCI checks.

usage: cr3-scan.py [-q] VMLINUX SCI_C ALLOWLIST

A hijacked isolated syscall may call any kernel function at its start,
and a function that loads CR3 would take it off the SCI tables
(Documentation/x86/sci.rst, class 1).  Every `mov %reg,%cr3` between
_stext and _etext must be one of:

  premapped  in what the SCI tables map at rest: qemu/premap-scan.py and
             its allowlist cover these;
  bracketed  between sci_cr3_write_begin() and sci_cr3_write_end(): the
             function calls __sci_check_load() before the write and, after
             it, takes the CPU's number from the GDT (LSL) for the check of
             what was loaded against cpu_sci, whose failure jumps to
             sci_leave_violation (arch/x86/include/asm/sci.h);
  listed     one of SCI's own writes, each checked after the write by
             other means (arch/x86/mm/sci.c), or another write allowed
             with its reason: at most COUNT writes in a function listed
             in ALLOWLIST (lines "function COUNT", '#' comments,
             qemu/kernel-cr3.allow);
  never      in a function of sci_never_reached_names[] in SCI_C
             (arch/x86/mm/sci.c), or on the pages from _text to
             __sci_never_text_end (the head text and .text..sci_never):
             SCI never grants them.  Each listed function the vmlinux
             has must lie on those pages, which no other code shares
             (a grant of a neighbour would map it).

Writes in init text (freed after boot) are listed and allowed.  Exits 1,
naming each write that is none of these, so that a configuration or a
patch that adds a CR3 write SCI does not check fails the build (`make
kernel` runs this with -q, which prints only that failure).
"""
import importlib.util
import os
import re
import subprocess
import sys

# symbols() and ranges() (what the SCI tables premap) from premap-scan.py
_spec = importlib.util.spec_from_file_location(
    "premap_scan", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "premap-scan.py"))
premap_scan = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(premap_scan)


def never_reached(sci_c):
    text = open(sci_c).read()
    m = re.search(r"sci_never_reached_names\[\]\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        sys.exit("cr3-scan: no sci_never_reached_names[] in %s" % sci_c)
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    return set(re.findall(r'"([^"]+)"', body))


def functions(vmlinux):
    """Yield (name, start, [(addr, insn)]) for each function objdump shows."""
    proc = subprocess.Popen(["objdump", "-d", "--no-show-raw-insn", vmlinux],
                            stdout=subprocess.PIPE, text=True)
    name, start, insns = None, 0, []
    for line in proc.stdout:
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            if name:
                yield name, start, insns
            name, start, insns = m.group(2), int(m.group(1), 16), []
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(.*?)\s*$", line)
        if m and name:
            insns.append((int(m.group(1), 16), m.group(2)))
    if name:
        yield name, start, insns
    if proc.wait():
        sys.exit("cr3-scan: objdump failed")


def classify(name, insns, i, never, allow, seen, never_pages):
    """How the CR3 write insns[i] of function @name is checked, or None."""
    if name in never or never_pages[0] <= insns[i][0] < never_pages[1]:
        return "never"
    # In address order, not by control flow: the check's call before the
    # write, the GDT's CPU number and the kill's jump after it.
    before = any(j < i and "<__sci_check_load>" in s
                 for j, (_, s) in enumerate(insns))
    lsl = any(j > i and s.startswith("lsl ") for j, (_, s) in enumerate(insns))
    kill = any(j > i and "<sci_leave_violation>" in s
               for j, (_, s) in enumerate(insns))
    if before and lsl and kill:
        return "bracketed"
    seen[name] = seen.get(name, 0) + 1
    if seen[name] <= allow.get(name, 0):
        return "listed"
    return None


def main():
    args = sys.argv[1:]
    quiet = bool(args) and args[0] == "-q"
    if quiet:
        args = args[1:]
    if len(args) != 3:
        sys.exit(__doc__)
    out = (lambda *a: None) if quiet else print
    vmlinux, sci_c, allow_path = args
    allow, seen = {}, {}
    for line in open(allow_path):
        f = line.split("#")[0].split()
        if f:
            allow[f[0]] = int(f[1]) if len(f) > 1 else 1
    syms = premap_scan.symbols(vmlinux)
    missing = [n for n in ("_stext", "_etext", "__init_begin", "__init_end")
               if n not in syms]
    if missing:
        sys.exit("cr3-scan: %s not in the symbol table" % ", ".join(missing))
    premapped = [(s, e) for _, s, e in premap_scan.ranges(syms)]
    never = never_reached(sci_c)
    counts, bad = {}, []
    never_pages = (syms["_stext"], syms.get("__sci_never_text_end", 0))
    if never_pages[1]:
        for name in sorted(never):
            if name in syms and not never_pages[0] <= syms[name] < never_pages[1]:
                bad.append("%s (never granted, but on a page other code shares)" % name)
    for name, start, insns in functions(vmlinux):
        for i, (addr, insn) in enumerate(insns):
            m = re.match(r"^mov\s+%(\w+),%cr3$", insn)
            if not m:
                continue
            where = "%s+%#x" % (name, addr - start)
            if syms["__init_begin"] <= addr < syms["__init_end"]:
                how = "init"
            elif not syms["_stext"] <= addr < syms["_etext"]:
                how = None
            elif any(s <= addr < e for s, e in premapped):
                how = "premapped"
            else:
                how = classify(name, insns, i, never, allow, seen, never_pages)
            counts[how] = counts.get(how, 0) + 1
            out("%#x %-50s mov %%%s,%%cr3  %s" % (addr, where, m.group(1),
                                                  how or "<- NOT CHECKED"))
            if not how:
                bad.append(where)
    out("CR3 writes: " + ", ".join("%s %d" % (k or "not checked", v)
                                   for k, v in sorted(counts.items(),
                                                      key=lambda kv: str(kv[0]))))
    if bad:
        print("cr3-scan: CR3 writes in kernel text that SCI does not check "
              "(Documentation/x86/sci.rst, class 1): %s" % " ".join(bad),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
