#!/bin/sh
# The guest side of `make stress-qemu` (sci.mode=stress): isolate-everything
# workloads run concurrently on both vCPUs for STRESS_SECONDS (default 60,
# from the kernel command line), each in a loop of rounds, each round under
# `sci-run --isolate-all` and compared with a native reference run:
#   shell    the busybox shell workload (workload.sh), output byte-identical
#   pipes    fork/exec/pipe-heavy loops, output byte-identical
#   seccomp  seccomp_bpf, the same result per subtest as natively (the
#            differences listed in isolate-all.txt left out)
#   x86      threads, signals and single-stepping (x86 fsgsbase, sigreturn,
#            sigaltstack, single_step_syscall), the native exit statuses
# Then: no SCI kill or violation, a clean kernel log (no WARN, BUG, lockdep
# report, hung task), every workload completed at least one round and every
# round matched, the runs were isolated and survived context switches.
# Prints one TAP stream in the runner's format (one suite, sci_stress).
S=${STRESS_SECONDS:-60}
here=$(dirname "$0")
bin=${SCI_BIN:-/sci/bin}
list=$here/isolate-all.txt
stats=/sys/kernel/debug/sci/stats
tmp=/tmp/stress
X86="fsgsbase sigreturn sigaltstack single_step_syscall"
# A round that takes longer than this is killed and counts as differing
# (a hang under isolation must not eat the guest's whole timeout).
ROUND_TIMEOUT=${ROUND_TIMEOUT:-600}
WORKLOADS="shell pipes seccomp x86"
now() { cut -d' ' -f1 /proc/uptime; }
secs() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }
stat() { sed -n "s/^$1 //p" $stats 2>/dev/null; }
# The kernel's line for each violation: "sci: COMM[PID] syscall NR: REASON ..."
VIOLATION_RE='sci: .*\[[0-9]+\] syscall [0-9]+: '
# Kernel messages since this script's marker (counts survive a ring buffer
# that wraps; sci_attack, before, logs hundreds of violations on purpose).
MARK="sci_stress: start $$ $(cut -d' ' -f1 /proc/uptime)"
echo "$MARK" >/dev/kmsg 2>/dev/null
klog() { dmesg | sed -n "\|$MARK|,\$p"; }
violations() { klog | grep -c -E "$VIOLATION_RE"; }
KLOG_BAD='WARNING:|BUG[: ]|Oops|cut here|lockdep|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|soft lockup|hard LOCKUP|rcu_.*stall|general protection fault|scheduling while atomic|sleeping function called from invalid context'

cat_pipes() {
	cat <<'EOF'
i=0
while [ $i -lt 12 ]; do
	seq 1 $((i * 40 + 1)) | sort -rn | head -n 1
	dd if=/dev/zero bs=4096 count=$((i + 1)) 2>/dev/null | md5sum | cut -c1-12
	echo "$i" | sh -c 'read x; echo "child read $x"' | cat
	printf '%s\n' c b a $i | sort | tr '\n' ' '
	echo
	x=$( (echo sub; echo shell) | wc -l )
	echo "lines $x"
	i=$((i + 1))
done
EOF
}

# seccomp_bpf results, "NAME pass|fail|skip", without the listed differences
sb_results() {
	sed -n -E 's/^(not ok|ok) [0-9]+ ([^ #]+)( # SKIP.*)?.*$/\2 \1\3/p' "$1" |
		sed -E 's/ ok # SKIP.*/ skip/; s/ not ok$/ fail/; s/ ok$/ pass/' | sort >"$1.all"
	sed -n 's/^sci_isolate_all:seccomp_bpf\/\([^ ]*\) fail .*/^\1 /p' "$list" 2>/dev/null |
		sed 's/[.]/\\./g' >"$1.skip"
	grep -v -f "$1.skip" "$1.all" || true
}

# run_NAME DIR: one isolated round; 0 when it matched the reference
run_shell() {
	sci-run --isolate-all -- timeout -s KILL $ROUND_TIMEOUT sh $here/workload.sh $1/wl \
		>$1/out 2>$1/err &&
		cmp -s $1/out $tmp/ref.shell.out && cmp -s $1/err $tmp/ref.shell.err
}
run_pipes() {
	sci-run --isolate-all -- timeout -s KILL $ROUND_TIMEOUT sh $tmp/pipes.sh >$1/out 2>&1 &&
		cmp -s $1/out $tmp/ref.pipes.out
}
run_seccomp() {
	(cd $1 && sci-run --isolate-all -- timeout -s KILL $ROUND_TIMEOUT $bin/seccomp_bpf) \
		</dev/null >$1/sb.out 2>&1
	sb_results $1/sb.out >$1/out
	[ -s $1/out ] && cmp -s $1/out $tmp/ref.seccomp.out
}
run_x86() {
	: >$1/out
	for t in $X86; do
		(cd $1 && sci-run --isolate-all -- timeout -s KILL $ROUND_TIMEOUT $bin/x86/${t}_64) \
			</dev/null >$1/x.out 2>&1
		echo "$t $?" >>$1/out
	done
	cmp -s $1/out $tmp/ref.x86.out
}

# loop NAME: rounds until STRESS_SECONDS have passed since $start
loop() {
	d=$tmp/$1 r=0 bad=0
	mkdir -p $d
	while [ $(( $(cut -d. -f1 /proc/uptime) - start )) -lt $S ]; do
		t=$(now)
		if ! run_$1 $d; then
			bad=$((bad + 1))
			if [ $bad -le 2 ]; then
				echo "round $r differs from the reference (after $(secs $t $(now)) s):"
				diff $tmp/ref.$1.out $d/out | head -n 15
				tail -n 5 $d/err 2>/dev/null
			fi >>$tmp/$1.log
		fi
		r=$((r + 1))
		echo "$r $bad" >$tmp/$1.progress
	done
	echo "$r $bad" >$tmp/$1.result
}

body() {
	n=0 fail=0
	ok() { n=$((n + 1)); echo "ok $n $1"; }
	nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $1"; }
	rm -rf $tmp && mkdir -p $tmp
	echo "TAP version 13"
	echo "# $S s on $(grep -c ^processor /proc/cpuinfo) CPUs: $WORKLOADS"
	[ -r $stats ] || echo "# no $stats: SCI is not enabled on this boot, nothing can be isolated"

	# native references
	t0=$(now)
	cat_pipes >$tmp/pipes.sh
	sh $here/workload.sh $tmp/ref-wl >$tmp/ref.shell.out 2>$tmp/ref.shell.err
	sh $tmp/pipes.sh >$tmp/ref.pipes.out 2>&1
	(cd $tmp && timeout -s KILL 900 $bin/seccomp_bpf) </dev/null >$tmp/ref.sb.out 2>&1
	sb_results $tmp/ref.sb.out >$tmp/ref.seccomp.out
	: >$tmp/ref.x86.out
	for t in $X86; do
		(cd $tmp && timeout -s KILL 300 $bin/x86/${t}_64) </dev/null >/dev/null 2>&1
		echo "$t $?" >>$tmp/ref.x86.out
	done
	echo "# native references in $(secs $t0 $(now)) s: shell $(wc -c <$tmp/ref.shell.out) bytes," \
		"pipes $(wc -c <$tmp/ref.pipes.out) bytes, seccomp_bpf $(wc -l <$tmp/ref.seccomp.out) subtests compared," \
		"x86 $(tr '\n' ' ' <$tmp/ref.x86.out)"

	v0=$(violations)
	s0=$(stat syscalls) c0=$(stat code_faults) d0=$(stat data_faults) k0=$(stat kills) x0=$(stat violations)
	sw0=$(stat switches_out) r0=$(stat resumes_on_sci)
	t0=$(now)
	start=$(cut -d. -f1 /proc/uptime)
	for w in $WORKLOADS; do
		loop $w &
	done
	# heartbeat: rounds so far, until every loop has finished its last round
	while :; do
		sleep 30
		done_=0 line=""
		for w in $WORKLOADS; do
			[ -e $tmp/$w.result ] && done_=$((done_ + 1))
			line="$line $w $(cut -d' ' -f1 $tmp/$w.progress 2>/dev/null || echo 0)"
		done
		echo "# $(secs $t0 $(now)) s: rounds so far:$line; isolated syscalls $(( $(stat syscalls) - ${s0:-0} )), code faults $(( $(stat code_faults) - ${c0:-0} )), data faults $(( $(stat data_faults) - ${d0:-0} ))"
		[ $done_ = $(echo $WORKLOADS | wc -w) ] && break
	done
	wait
	t1=$(now)
	s1=$(stat syscalls) c1=$(stat code_faults) d1=$(stat data_faults) k1=$(stat kills) x1=$(stat violations)
	sw1=$(stat switches_out) r1=$(stat resumes_on_sci)
	v1=$(violations)
	ds=$(( ${s1:-0} - ${s0:-0} )) dc=$(( ${c1:-0} - ${c0:-0} )) dd=$(( ${d1:-0} - ${d0:-0} ))
	dsw=$(( ${sw1:-0} - ${sw0:-0} )) dr=$(( ${r1:-0} - ${r0:-0} ))
	echo "# stress ran $(secs $t0 $t1) s"
	echo "# isolated syscalls $ds, code faults $dc, data faults $dd"
	echo "# context switches out of isolated syscalls (switches_out) $dsw, resumed on the SCI tables (resumes_on_sci) $dr"

	for w in $WORKLOADS; do
		set -- $(cat $tmp/$w.result 2>/dev/null)
		echo "# $w: ${1:-0} rounds, ${2:-?} differing"
		[ -s $tmp/$w.log ] && sed 's/^/#   /' $tmp/$w.log
		if [ "${1:-0}" -ge 1 ] && [ "${2:-1}" = 0 ]; then
			ok ${w}_rounds_match
		else
			nok ${w}_rounds_match
		fi
	done
	if [ -n "$k0" ] && [ "$k0" = "$k1" ] && [ "$x0" = "$x1" ] && [ "$v0" = "$v1" ]; then
		ok no_sci_kill_or_violation
	else
		echo "# kills $k0 -> $k1, violations $x0 -> $x1, violation lines in dmesg $v0 -> $v1"
		klog | grep -E "$VIOLATION_RE" | tail -n 10 | sed 's/^/#   /'
		nok no_sci_kill_or_violation
	fi
	if klog | grep -q -E "$KLOG_BAD"; then
		klog | grep -E "$KLOG_BAD" | head -n 10 | sed 's/^/#   /'
		nok kernel_log_clean
	else
		ok kernel_log_clean
	fi
	if [ $ds -ge 10000 ] && [ $dsw -gt 0 ]; then
		ok isolated_and_switched
	else
		echo "# expected at least 10000 isolated syscalls and some switches out of them"
		nok isolated_and_switched
	fi
	echo "1..$n"
	rm -rf $tmp
	[ $fail = 0 ]
}

echo "TAP version 13"
echo "1..1"
echo "# kernel: $(uname -r) $(cat /proc/cmdline)"
echo "# selftests: sci: sci_stress"
t0=$(now)
# Line by line, so that progress streams (sed would buffer it all).
{ body 2>&1; echo $? >/tmp/.stress-rc; } | while IFS= read -r line; do echo "# $line"; done
rc=$(cat /tmp/.stress-rc)
echo "# time: sci_stress $(secs $t0 $(now)) s"
if [ "$rc" = 0 ]; then
	echo "ok 1 selftests: sci: sci_stress"
else
	echo "not ok 1 selftests: sci: sci_stress # exit=$rc"
fi
[ "$rc" = 0 ]
