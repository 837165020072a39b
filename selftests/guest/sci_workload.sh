#!/bin/sh
# A real program with every syscall isolated: the busybox shell workload
# (workload.sh: files, pipes, fork/exec, vfork, signals, sleeps, a few
# hundred commands) run natively, then under `sci-run --isolate-all`.  The
# isolated run must exit 0, print byte for byte what the native run printed,
# kill nothing, and really be isolated (the SCI syscall counter grows by at
# least a few thousand).  TAP output; the figures are TAP comments.
here=$(dirname "$0")
wl=$here/workload.sh
stats=/sys/kernel/debug/sci/stats
# The workload makes ~20000 syscalls natively under busybox; far fewer
# isolated syscalls than this means the filter did not isolate them.
MIN_SYSCALLS=${MIN_SYSCALLS:-5000}
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
stat() { sed -n "s/^$1 //p" $stats 2>/dev/null; }
now() { cut -d' ' -f1 /proc/uptime; }
secs() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }
# The kernel's line for each violation: "sci: COMM[PID] syscall NR: REASON ..."
VIOLATION_RE='sci: .*\[[0-9]+\] syscall [0-9]+: '
# Kernel messages since this script's marker (counts survive a ring buffer
# that wraps; sci_attack, before, logs hundreds of violations on purpose).
MARK="sci_workload: start $$ $(cut -d' ' -f1 /proc/uptime)"
echo "$MARK" >/dev/kmsg 2>/dev/null
klog() { dmesg | sed -n "\|$MARK|,\$p"; }
violations() { klog | grep -c -E "$VIOLATION_RE"; }

echo "TAP version 13"
echo "1..8"
[ -r $stats ] || echo "# no $stats: SCI is not enabled on this boot, nothing can be isolated"

t0=$(now)
sh $wl /tmp/wl-native >/tmp/wl-native.out 2>/tmp/wl-native.err
rc_native=$?
t1=$(now)
echo "# native run: exit $rc_native, $(wc -c </tmp/wl-native.out) bytes of output, $(secs $t0 $t1) s"
check native_run_exits_0 '[ $rc_native = 0 ]'

v0=$(violations)
s0=$(stat syscalls) c0=$(stat code_faults) d0=$(stat data_faults)
k0=$(stat kills) g0=$(stat grants) x0=$(stat violations)
t0=$(now)
sci-run --isolate-all -- sh $wl /tmp/wl-isolated >/tmp/wl-isolated.out 2>/tmp/wl-isolated.err
rc_iso=$?
t1=$(now)
s1=$(stat syscalls) c1=$(stat code_faults) d1=$(stat data_faults)
k1=$(stat kills) g1=$(stat grants) x1=$(stat violations)
v1=$(violations)
echo "# isolated run: exit $rc_iso, $(wc -c </tmp/wl-isolated.out) bytes of output, $(secs $t0 $t1) s"
if [ $rc_iso != 0 ]; then
	echo "# stderr of the isolated run:"
	sed 's/^/#   /' /tmp/wl-isolated.err | tail -n 20
fi
check isolated_run_exits_0 '[ $rc_iso = 0 ]'

if cmp -s /tmp/wl-native.out /tmp/wl-isolated.out &&
	cmp -s /tmp/wl-native.err /tmp/wl-isolated.err; then
	ok output_identical_to_native
else
	echo "# differences (native, isolated):"
	diff /tmp/wl-native.out /tmp/wl-isolated.out | head -n 20 | sed 's/^/#   /'
	diff /tmp/wl-native.err /tmp/wl-isolated.err | head -n 10 | sed 's/^/#   /'
	nok output_identical_to_native
fi

if [ -n "$k0" ] && [ "$k0" = "$k1" ] && [ "$x0" = "$x1" ] && [ "$v0" = "$v1" ]; then
	ok no_sci_kill_or_violation
else
	echo "# kills $k0 -> $k1, violations $x0 -> $x1, violation lines in dmesg $v0 -> $v1"
	klog | grep -E "$VIOLATION_RE" | tail -n 5 | sed 's/^/#   /'
	nok no_sci_kill_or_violation
fi

ds=$(( ${s1:-0} - ${s0:-0} )) dc=$(( ${c1:-0} - ${c0:-0} )) dd=$(( ${d1:-0} - ${d0:-0} ))
dg=$(( ${g1:-0} - ${g0:-0} ))
echo "# isolated syscalls $ds, code faults $dc, data faults $dd, grants $dg"
if [ $ds -gt 0 ]; then
	awk "BEGIN { printf \"# per isolated syscall: %.3f code faults, %.3f data faults\\n\", $dc / $ds, $dd / $ds }"
fi
iso_secs=$(secs $t0 $t1)
echo "# at least $MIN_SYSCALLS isolated syscalls and some code faults expected"
check really_isolated '[ $ds -ge $MIN_SYSCALLS ] && [ $dc -gt 0 ]'

# io_uring under an isolating default: ENOSYS from the filter, never
# isolated (its work would run in kernel threads that seccomp does not see).
# getppid, the control, is isolated every time.
count() {	# count NR CALLS: isolated syscalls of `syscall_loop NR CALLS`
	a=$(stat syscalls)
	sci-run --isolate-all -- $here/../sci/syscall_loop "$@" >/tmp/wl-loop.out 2>&1
	b=$(stat syscalls)
	echo $(( ${b:-0} - ${a:-0} ))
}
base=$(count 425 0)
uring=$(count 425 300)
grep -q "errno 38" /tmp/wl-loop.out || uring_err=$(cat /tmp/wl-loop.out)
ctl=$(count 110 300)
echo "# isolated syscalls: syscall_loop alone $base, with 300 io_uring_setup $uring, with 300 getppid $ctl"
check io_uring_enosys_not_isolated \
	'[ -z "${uring_err:-}" ] && [ $uring -lt $((base + 20)) ] && [ $ctl -ge $((base + 300)) ]'
[ -z "${uring_err:-}" ] || echo "# io_uring_setup: $uring_err"

# The same with SECCOMP_ISOLATE_KEEP (sci-run --keep-grants): same output,
# nothing killed, and the grants kept (far fewer faults per syscall).
v0=$(violations)
s0=$(stat syscalls) c0=$(stat code_faults) d0=$(stat data_faults)
k0=$(stat kills) x0=$(stat violations) p0=$(stat kept)
t0=$(now)
sci-run --isolate-all --keep-grants -- sh $wl /tmp/wl-keep >/tmp/wl-keep.out 2>/tmp/wl-keep.err
rc_keep=$?
t1=$(now)
s1=$(stat syscalls) c1=$(stat code_faults) d1=$(stat data_faults)
k1=$(stat kills) x1=$(stat violations) p1=$(stat kept)
v1=$(violations)
ds=$(( ${s1:-0} - ${s0:-0} )) df=$(( ${c1:-0} + ${d1:-0} - ${c0:-0} - ${d0:-0} ))
dp=$(( ${p1:-0} - ${p0:-0} ))
echo "# keep-grants run: exit $rc_keep, $(secs $t0 $t1) s (isolate: $iso_secs s), $ds isolated syscalls, $dp kept their grants, $df faults"
if [ $ds -gt 0 ]; then
	awk "BEGIN { printf \"# keep-grants: %.3f faults per isolated syscall\\n\", $df / $ds }"
fi
if [ $rc_keep = 0 ] && cmp -s /tmp/wl-native.out /tmp/wl-keep.out &&
	cmp -s /tmp/wl-native.err /tmp/wl-keep.err; then
	ok keep_grants_output_identical_to_native
else
	echo "# exit $rc_keep; differences (native, keep-grants):"
	diff /tmp/wl-native.out /tmp/wl-keep.out | head -n 20 | sed 's/^/#   /'
	sed 's/^/#   /' /tmp/wl-keep.err | tail -n 10
	nok keep_grants_output_identical_to_native
fi
check keep_grants_no_kill_and_kept \
	'[ "$k0" = "$k1" ] && [ "$x0" = "$x1" ] && [ "$v0" = "$v1" ] && [ $ds -ge $MIN_SYSCALLS ] && [ $dp -ge $((ds / 2)) ]'

rm -rf /tmp/wl-native /tmp/wl-isolated /tmp/wl-keep
[ $fail = 0 ]
