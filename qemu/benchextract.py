#!/usr/bin/env python3
"""Extract the benchmark's table and CSV from the guest's output, check the
guest's kernel log, print the table.

usage: benchextract.py TAP_LOG KERNEL_LOG OUTDIR

Writes OUTDIR/bench.txt (the table) and OUTDIR/bench.csv, the blocks that
sci_bench prints between "==== SCI-BENCH TABLE|CSV BEGIN/END ====" lines,
each followed by sci_bench_http's HTTP and HTTP-CSV blocks.
Exits 1 when a block is missing or the kernel log reports a problem (the
patterns of qemu/tapsum.py).
"""
import ast, os, re, sys


def kernel_bad():
    """KERNEL_BAD of tapsum.py, read without running that script."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tapsum.py")
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "KERNEL_BAD" for t in node.targets):
            return ast.literal_eval(node.value)
    return [r"Kernel panic", r"\bOops\b", r"\bBUG[: ]", r"WARNING:"]


def block(lines, name):
    begin, end = f"==== SCI-BENCH {name} BEGIN ====", f"==== SCI-BENCH {name} END ===="
    if begin not in lines or end not in lines[lines.index(begin):]:
        return None
    i = lines.index(begin)
    return lines[i + 1:lines.index(end, i)]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tap, klog, outdir = sys.argv[1:]
    lines = open(tap, errors="replace").read().replace("\r", "").split("\n")
    rc = 0
    for name, fname in (("TABLE", "bench.txt"), ("CSV", "bench.csv")):
        body = block(lines, name)
        out = os.path.join(outdir, fname)
        if body is None:
            print(f"# FAILED: no {name} block in {tap}")
            if os.path.exists(out):
                os.remove(out)
            rc = 1
            continue
        with open(out, "w") as f:
            f.write("\n".join(body) + "\n")
        if name == "TABLE":
            print("\n".join(body))
    # The application benchmark (sci_bench_http): appended to both files.
    for name, fname in (("HTTP", "bench.txt"), ("HTTP-CSV", "bench.csv")):
        body = block(lines, name)
        if body is None:
            print(f"# FAILED: no {name} block in {tap}")
            rc = 1
            continue
        out = os.path.join(outdir, fname)
        if os.path.exists(out):
            with open(out, "a") as f:
                f.write("\n".join(body) + "\n")
        if name == "HTTP":
            print("\n".join(body))
    for line in lines:
        if line.startswith("# FAIL"):
            print(line)
    pats = kernel_bad()
    try:
        bad = [l.rstrip() for l in open(klog, errors="replace")
               if any(re.search(p, l) for p in pats)]
    except FileNotFoundError:
        bad = ["(no kernel log)"]
    if bad:
        print(f"# KERNEL LOG ({klog}) reports a problem:")
        for l in bad[:20]:
            print(f"#   {l}")
        rc = 1
    print(f"# table: {os.path.join(outdir, 'bench.txt')}, CSV: {os.path.join(outdir, 'bench.csv')}")
    sys.exit(rc)


main()
