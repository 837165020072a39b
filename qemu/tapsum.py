#!/usr/bin/env python3
"""Summarize the guest's TAP stream, compare it with the expectations and
check the guest's kernel log.

usage: tapsum.py TAP_LOG KERNEL_LOG EXPECTATIONS [EXPECTATIONS...]
       tapsum.py --self-test     (the kernel log check against known lines)

A suite that prints kselftest-harness TAP (indented "# ok N name") counts
each of its cases as "SUITE:CASE"; any other suite counts once as "SUITE".
Every result is expected to be "pass" unless an expectations file says
otherwise ("KEY RESULT reason...", RESULT one of pass, fail, skip; a KEY may
end in * to cover several).  The run fails on any difference in either
direction, on a missing suite, and on a kernel log that reports a problem
(except between the lines "sci-selftest: expected oops begin" and "...end"
that a test writing a deliberate oops puts around it, and kmemleak's own
report between "sci-selftest: expected kmemleak begin" and "...end", which
the kmemleak test puts around the scan that reports what earlier tests'
deliberate kills leaked before it clears them).  Prints "N passed, N failed, N skipped" as its last line.
"""
import fnmatch, re, sys

KERNEL_BAD = [
    r"Kernel panic", r"\bOops\b", r"\bBUG[: ]", r"WARNING:", r"cut here",
    r"KASAN", r"UBSAN", r"kmemleak: \d+ new suspected", r"possible recursive locking",
    r"possible circular locking", r"inconsistent lock state", r"suspicious RCU usage",
    r"possible irq lock inversion", r"lock held when returning", r"DEBUG_LOCKS_WARN_ON",
    r"lockdep: .*(bug|BUG|warn)", r"possible deadlock",
    r"INFO: task .* blocked", r"soft lockup", r"hard LOCKUP",
    r"rcu.*(detected stall|stall on CPU|detected expedited stall)", r"RCU Tasks.*stall",
    r"kthread starved",
    r"general protection fault", r"double fault", r"Unable to handle",
    r"unable to handle", r"stack-protector", r"list_(add|del) corruption",
    r"scheduling while atomic", r"sleeping function called from invalid context",
]

# Kernel symbols as %pS prints them ("name+0xoff/0xsize", "name.constprop.0+...").
# They are removed before the patterns above are tried: a kill message that
# names rcu_check_gp_start_stall() or report_bug() is not a stall or a BUG.
SYMBOL = re.compile(r"[A-Za-z_][\w.$]*\+0x[0-9a-f]+/0x[0-9a-f]+(?: \[\w+\])?")

# A user-mode fault the kernel reports and signals (do_trap()'s
# show_signal(): "traps: prog[pid] general protection fault ip:... in
# prog[...]") is the program's, not the kernel's.
USER_TRAP = re.compile(r"^traps: \S+\[\d+\] general protection fault ip:[0-9a-f]+ sp:[0-9a-f]+ error:[0-9a-f]+( in |$)")

def is_bad(line):
    if USER_TRAP.search(line.strip()):
        return False
    text = SYMBOL.sub("SYM", line)
    return any(re.search(p, text) for p in KERNEL_BAD)

SELF_TEST = [
    # (kernel log line, reports a problem?)
    ("sci: sci_attack[363] syscall 16: unverified jump at rcu_check_gp_start_stall.constprop.0+0x132/0x265, "
     "possible caller sci_test_call_unmapped+0xc0/0xce, last code grant p4d_offset+0x0/0x35", False),
    ("sci: t[1] syscall 16: unverified jump at report_bug+0x10/0x1a0, possible caller x+0x1/0x2", False),
    ("sci: t[1] syscall 16: unverified jump at warn_bogus_irq+0x8/0x20 [sci_test]", False),
    ("rcu: INFO: rcu_preempt self-detected stall on CPU", True),
    ("rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", True),
    ("rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {", True),
    ("rcu: INFO: rcu_sched detected expedited stall on CPU", True),
    ("INFO: rcu_tasks detected stalls on tasks:", True),
    ("rcu: rcu_preempt kthread starved for 2503 jiffies!", True),
    ("WARNING: CPU: 0 PID: 1 at mm/slub.c:10 kmem_cache_free+0x1/0x2", True),
    ("BUG: kernel NULL pointer dereference, address: 0000000000000000", True),
    ("kernel BUG at mm/memory.c:100!", True),
    ("RIP: 0010:rcu_check_gp_start_stall+0x12/0x80", False),
    ("watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [a:1]", True),
    ("traps: ldt_gdt_64[2567] general protection fault ip:401665 sp:7ffefa4c3f10 error:802 in ldt_gdt_64[401000+8c000]", False),
    ("general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] PREEMPT SMP PTI", True),
]

def self_test():
    failed = 0
    for n, (line, want) in enumerate(SELF_TEST, 1):
        got = is_bad(line)
        print(f"{'ok' if got == want else 'not ok'} {n} kernel log check: {line[:60]}")
        failed += got != want
    print(f"{len(SELF_TEST) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

def load_expect(paths):
    exp = []
    for path in paths:
        for n, line in enumerate(open(path), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[1] not in ("pass", "fail", "skip"):
                sys.exit(f"{path}:{n}: expected 'KEY pass|fail|skip reason'")
            exp.append((parts[0], parts[1]))
    return exp

def expected(exp, key):
    for pat, res in reversed(exp):   # later files override earlier ones
        if fnmatch.fnmatchcase(key, pat):
            return res, pat
    return "pass", None

def parse(tap):
    results, times, suites = {}, {}, []
    plan, cur, inner, last_run = None, None, [], None
    inner_plan = totals_fail = None
    for raw in open(tap, errors="replace"):
        line = raw.rstrip("\r\n")
        m = re.match(r"^1\.\.(\d+)", line)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = re.match(r"^# selftests: sci: (\S+)", line)
        if m:
            cur, inner, last_run = m.group(1), [], None
            inner_plan = totals_fail = None
            continue
        m = re.match(r"^# time: (\S+) ([\d.]+) s", line)
        if m:
            times[m.group(1)] = float(m.group(2))
            continue
        if cur and line.startswith("# "):
            body = line[2:]
            m = re.match(r"^1\.\.(\d+)$", body)
            if m and inner_plan is None:
                inner_plan = int(m.group(1))
            m = re.match(r"^# Totals: pass:\d+ fail:(\d+) ", body)
            if m:
                totals_fail = int(m.group(1))
            m = re.match(r"^#\s+RUN\s+(\S+) \.\.\.", body)
            if m:
                last_run = m.group(1)
            m = re.match(r"^(not ok|ok) \d+ (.*)$", body)
            if m:
                rest = m.group(2)
                if "# SKIP" in rest:
                    name = rest.split("# SKIP")[0].strip() or last_run or "?"
                    inner.append((name, "skip", rest.split("# SKIP", 1)[1].strip()))
                else:
                    inner.append((rest.strip(), "pass" if m.group(1) == "ok" else "fail", ""))
            continue
        m = re.match(r"^(not ok|ok) \d+ selftests: sci: (\S+)\s*(.*)$", line)
        if m:
            name, status, note = m.group(2), m.group(1), m.group(3)
            res = "skip" if "# SKIP" in note else ("pass" if status == "ok" else "fail")
            suites.append((name, res, note))
            if inner:
                for case, r, why in inner:
                    results[f"{name}:{case}"] = (r, why)
                # A harness suite that died or timed out is a failure of
                # its own; one that ran its whole plan and failed exactly
                # the subtests it reported failed is judged by them (an
                # expected failure of one is not a failure of the suite).
                nfail = sum(r == "fail" for _, r, _ in inner)
                ran_all = inner_plan == len(inner) and totals_fail == nfail
                if res == "fail" and not (ran_all and nfail and note.strip() == "# exit=1"):
                    results[name] = (res, note)
            else:
                results[name] = (res, note)
            cur, inner = None, []
    return plan, suites, results, times

def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    tap, klog, *exp_paths = sys.argv[1:]
    exp = load_expect(exp_paths)
    plan, suites, results, times = parse(tap)
    problems = []
    if plan is None:
        problems.append("the guest printed no TAP plan")
    elif len(suites) != plan:
        problems.append(f"the guest planned {plan} suites and reported {len(suites)}")
    passed = skipped = xfail = 0
    failed = len(problems)
    for key, (res, why) in sorted(results.items()):
        want, pat = expected(exp, key)
        if res == want:
            if res == "pass":
                passed += 1
            else:
                skipped += 1
                xfail += res == "fail"
        else:
            failed += 1
            problems.append(f"{key}: {res}, expected {want}" + (f" ({why})" if why else ""))
    for pat, res in exp:
        if "*" not in pat and pat not in results and plan is not None and len(suites) == plan:
            suite = pat.split(":")[0]
            if any(s[0] == suite for s in suites):
                problems.append(f"{pat}: expected {res}, but it did not run")
                failed += 1
    bad = []
    exempt = 0
    leak_exempt = False
    try:
        for line in open(klog, errors="replace"):
            if "sci-selftest: expected oops begin" in line:
                exempt = 1
            elif "sci-selftest: expected oops end" in line:
                exempt = 0
            elif "sci-selftest: expected kmemleak begin" in line:
                leak_exempt = True
            elif "sci-selftest: expected kmemleak end" in line:
                leak_exempt = False
            elif leak_exempt and re.search(r"kmemleak: \d+ new suspected", line):
                continue
            elif is_bad(line):
                if exempt:
                    exempt += 1
                else:
                    bad.append(line.rstrip())
    except FileNotFoundError:
        bad.append("(no kernel log)")
    print("# suite times: " + ", ".join(f"{k} {v:.1f}s" for k, v in times.items()))
    for s, r, note in suites:
        print(f"# suite {s}: {r} {note}".rstrip())
    for p in problems:
        print(f"# UNEXPECTED: {p}")
    if bad:
        print(f"# KERNEL LOG ({klog}) reports a problem:")
        for l in bad[:20]:
            print(f"#   {l}")
        failed += 1
    print(f"# {xfail} expected failures and the skips are documented in the expectations files")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed or problems else 0)

main()
