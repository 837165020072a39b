#!/bin/sh
# libsci around the shell workload (workload.sh, as sci_workload runs it):
#   - Docker's default seccomp profile (docker-default.json, from moby) read
#     by `sci-run --oci ... --isolate-allowed`: what Docker allows runs
#     isolated, the rest is denied as Docker denies it;
#   - a policy recorded with `sci-run --record` (every syscall the workload
#     made, each isolated), then enforced.
# Each isolated run must exit 0, print byte for byte what the native run
# printed, kill nothing, and isolate thousands of syscalls.  TAP output.
here=$(dirname "$0")
wl=$here/workload.sh
profile=$here/docker-default.json
stats=/sys/kernel/debug/sci/stats
MIN_SYSCALLS=${MIN_SYSCALLS:-5000}
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
stat() { sed -n "s/^$1 //p" $stats 2>/dev/null; }
now() { cut -d' ' -f1 /proc/uptime; }
secs() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }
VIOLATION_RE='sci: .*\[[0-9]+\] syscall [0-9]+: '
MARK="sci_oci: start $$ $(now)"
echo "$MARK" >/dev/kmsg 2>/dev/null
klog() { dmesg | sed -n "\|$MARK|,\$p"; }
violations() { klog | grep -c -E "$VIOLATION_RE"; }

# run NAME CMD...: run the workload under CMD, compare with the native run,
# check that nothing was killed and that syscalls were isolated.
run() {
	name=$1; shift
	v0=$(violations) s0=$(stat syscalls) k0=$(stat kills) x0=$(stat violations)
	t0=$(now)
	"$@" sh $wl /tmp/oci-$name >/tmp/oci-$name.out 2>/tmp/oci-$name.err
	rc=$?
	t1=$(now)
	v1=$(violations) s1=$(stat syscalls) k1=$(stat kills) x1=$(stat violations)
	ds=$(( ${s1:-0} - ${s0:-0} ))
	echo "# $name: exit $rc, $(wc -c </tmp/oci-$name.out) bytes of output, $(secs $t0 $t1) s, $ds isolated syscalls"
	if [ $rc = 0 ] && cmp -s /tmp/wl-native.out /tmp/oci-$name.out &&
		cmp -s /tmp/wl-native.err /tmp/oci-$name.err; then
		ok ${name}_output_identical_to_native
	else
		echo "# exit $rc; differences (native, $name):"
		diff /tmp/wl-native.out /tmp/oci-$name.out | head -n 20 | sed 's/^/#   /'
		diff /tmp/wl-native.err /tmp/oci-$name.err | head -n 10 | sed 's/^/#   /'
		nok ${name}_output_identical_to_native
	fi
	if [ -n "$k0" ] && [ "$k0" = "$k1" ] && [ "$x0" = "$x1" ] && [ "$v0" = "$v1" ]; then
		ok ${name}_no_kill_or_violation
	else
		echo "# kills $k0 -> $k1, violations $x0 -> $x1, violation lines $v0 -> $v1"
		klog | grep -E "$VIOLATION_RE" | tail -n 5 | sed 's/^/#   /'
		nok ${name}_no_kill_or_violation
	fi
	check ${name}_really_isolated '[ $ds -ge $MIN_SYSCALLS ]'
	rm -rf /tmp/oci-$name
}

echo "TAP version 13"
echo "1..9"
[ -r $stats ] || echo "# no $stats: SCI is not enabled on this boot, nothing can be isolated"

sh $wl /tmp/wl-native >/tmp/wl-native.out 2>/tmp/wl-native.err
check native_run_exits_0 '[ $? = 0 ]'
rm -rf /tmp/wl-native

# Docker's default profile with Docker's default capabilities (--oci-caps
# docker, the default), what it allows isolated.
sci-run --dump-bpf --oci $profile --isolate-allowed >/tmp/oci.bpf 2>/tmp/oci.bpf.err
check docker_profile_compiles_isolating \
	'grep -q "ret ISOLATE" /tmp/oci.bpf && ! grep -q "ret ALLOW" /tmp/oci.bpf'
run docker sci-run --oci $profile --isolate-allowed --

# Record the workload, then run it under the recorded policy.  sci-run
# --record traces with ptrace: no syscall of the workload fails with
# EINTR (the user-notif recorder of before lost close() and kill() that
# way, and the workload then hung or printed less).  A recording still
# going after RECORD_TIMEOUT seconds is killed, with what it left
# behind, and fails the check below.
RECORD_TIMEOUT=${RECORD_TIMEOUT:-180}
timeout -s KILL $RECORD_TIMEOUT \
	sci-run --record /tmp/wl.policy -- sh $wl /tmp/oci-rec >/tmp/oci-rec.out 2>/tmp/oci-rec.err
rc=$?
if [ $rc = 137 ]; then
	echo "# recording killed after ${RECORD_TIMEOUT} s"
	for p in /proc/[0-9]*; do
		grep -q oci-rec $p/cmdline 2>/dev/null && kill -9 ${p#/proc/} 2>/dev/null
	done
	sleep 1
fi
rm -rf /tmp/oci-rec
echo "# recorded: exit $rc, $(grep -c ': isolate' /tmp/wl.policy 2>/dev/null) syscalls in the policy"
grep -E ': isolate' /tmp/wl.policy | head -n 8 | sed 's/^/#   /'
# What the workload and sci-run said, when the recording went wrong.
if [ $rc != 0 ] || ! cmp -s /tmp/wl-native.out /tmp/oci-rec.out; then
	echo "# the recorded run's stderr, and its output against the native run's:"
	head -n 20 /tmp/oci-rec.err | sed 's/^/#   /'
	diff /tmp/wl-native.out /tmp/oci-rec.out | head -n 20 | sed 's/^/#   /'
fi
check record_exits_0_same_output \
	'[ $rc = 0 ] && cmp -s /tmp/wl-native.out /tmp/oci-rec.out && sci-run --check /tmp/wl.policy >/dev/null'
run recorded sci-run --policy /tmp/wl.policy --

rm -f /tmp/oci.bpf /tmp/oci.bpf.err
[ $fail = 0 ]
