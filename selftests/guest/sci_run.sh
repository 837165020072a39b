#!/bin/sh
# sci-run and libsci in the patched guest: policies loaded through libsci
# behave as their host-side compilation says, and the launcher's exit codes
# and messages are right.  TAP output.
n=0 fail=0
t() {	# t NAME EXPECTED_STATUS EXPECTED_STDERR_PATTERN CMD...
	name=$1 want=$2 pat=$3
	shift 3
	n=$((n + 1))
	"$@" >/tmp/out 2>/tmp/err
	got=$?
	if [ "$got" = "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" /tmp/err /tmp/out; }; then
		echo "ok $n $name"
	else
		fail=$((fail + 1))
		echo "# status $got (want $want), output:"
		sed 's/^/#   /' /tmp/out /tmp/err
		echo "not ok $n $name"
	fi
}
p=/tmp/policies
mkdir -p $p
cat >$p/deny-open.policy <<'P'
@default isolate
openat: return EPERM
P
cat >$p/bad.policy <<'P'
@default isolate
reed: allow
P
cat >$p/args.policy <<'P'
@default allow
# minijail semantics: allowed when the condition holds, else the action;
# so writes to fd 1 are isolated and the others allowed
write: arg0 != 1; isolate
P

echo "TAP version 13"
cat >$p/keep.policy <<'P'
@keep-grants
@default isolate
P

echo "1..20"
t "isolate getpid, true" 0 "" sci-run --isolate getpid -- true
t "isolate-all shell keeps its exit status" 3 "" sci-run --isolate-all -- sh -c 'exit 3'
t "bad call isolated: killed, symbol named" 137 "killed by SCI: syscall 16: unverified jump at sci_test_target+0x1000/" \
	sci-run --isolate ioctl -- sci-hook write_dmesg_bad isolated
t "bad call not isolated: completes" 0 "completed" sci-run --isolate read -- sci-hook write_dmesg_bad plain
t "learn mode: reported, not killed" 0 "logged" sci-run --learn --isolate ioctl -- sci-hook write_dmesg_bad learn
t "program not found: 127" 127 "" sci-run --isolate-all -- /no/such/program
t "policy error: 125 with file:line:column" 125 "bad.policy:2:1" sci-run --policy $p/bad.policy -- true
t "unknown syscall name suggests the nearest" 125 "did you mean 'read'" sci-run --policy $p/bad.policy -- true
t "policy errno rule: openat denied with EPERM, the rest isolated" 1 "not permitted" \
	sci-run --policy $p/deny-open.policy -- cat /proc/version
t "check mode validates and shows the compiled policy" 0 "isolate" sci-run --check $p/deny-open.policy
t "argument condition: write to fd 1 isolated, runs" 0 "" sci-run --policy $p/args.policy -- sh -c 'echo hello'
s0=$(sed -n 's/^syscalls //p' /sys/kernel/debug/sci/stats)
sci-run --policy $p/args.policy -- sh -c 'echo one; echo two' >/dev/null
s1=$(sed -n 's/^syscalls //p' /sys/kernel/debug/sci/stats)
n=$((n + 1))
if [ $((s1 - s0)) -ge 2 ]; then echo "ok $n conditional isolation counted ($((s1 - s0)) isolated syscalls)"; else fail=$((fail + 1)); echo "not ok $n conditional isolation counted ($s0 -> $s1)"; fi
t "keep-grants: the filter returns ISOLATE|KEEP" 0 "ret ISOLATE|KEEP" \
	sci-run --dump-bpf --isolate-all --keep-grants
t "keep-grants=data: the filter returns ISOLATE|KEEP_DATA" 0 "ret ISOLATE|KEEP_DATA" \
	sci-run --dump-bpf --isolate-all --keep-grants=data
t "keep-grants=data: a shell runs, a bad call is killed" 137 "killed by SCI: syscall 16: unverified jump" \
	sci-run --keep-grants=data --isolate-all -- sh -c 'echo one; exec sci-hook write_dmesg_bad keepdata'
t "@keep-grants in a policy file: check mode shows it" 0 "flags: keep-grants" sci-run --check $p/keep.policy
t "keep-grants: a bad call is still killed" 137 "killed by SCI: syscall 16: unverified jump" \
	sci-run --keep-grants --isolate ioctl -- sci-hook write_dmesg_bad keep
k0=$(sed -n 's/^kept //p' /sys/kernel/debug/sci/stats)
t "keep-grants: isolate-all shell runs" 0 "one" sci-run --policy $p/keep.policy -- sh -c 'echo one; ls / >/dev/null; cat /proc/version >/dev/null'
k1=$(sed -n 's/^kept //p' /sys/kernel/debug/sci/stats)
n=$((n + 1))
if [ $((k1 - k0)) -ge 10 ]; then echo "ok $n keep-grants: syscalls kept their grants ($((k1 - k0)))"; else fail=$((fail + 1)); echo "not ok $n keep-grants: syscalls kept their grants ($k0 -> $k1)"; fi
# --record with descendants that outlive the program, one ending before the
# other's last syscalls: a zombie keeps this kernel's filter in use, so
# sci-run must reap while it serves (it used to serve for ever).
t "record: descendants outliving the program, reaped and served" 0 "late" \
	timeout -s KILL 30 sci-run --record /tmp/rec.policy -- sh -c '(sleep 0.3; true) & (sleep 1; echo late) & exit 0'
[ $fail = 0 ]
