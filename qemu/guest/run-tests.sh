#!/bin/sh
# Run every selftest listed in /sci/tests.list ("NAME TIMEOUT CMD...") and
# print one TAP stream in the kselftest runner's format: each test's own
# output indented with "# ", then one result line for it.
# TIMEOUT may carry ",notcg": the test is reported as SKIP under QEMU's TCG,
# where it cannot run (the reason is in selftests/expected/tcg.txt).
# SCI_TESTS, if set, is a comma-separated list of names (shell patterns) to
# run; a pattern with a leading "-" excludes instead.
list=/sci/tests.list
selected() {
	inc=0 any=0
	for pat in $(echo "$SCI_TESTS" | tr , ' '); do
		case $pat in
		-*) case $1 in ${pat#-}) return 1 ;; esac ;;
		*) any=1; case $1 in $pat) inc=1 ;; esac ;;
		esac
	done
	[ $any = 0 ] || [ $inc = 1 ]
}
now() { cut -d' ' -f1 /proc/uptime; }
tcg=0
grep -q "QEMU TCG CPU" /proc/cpuinfo && tcg=1
# sci.tscale=N on the kernel command line multiplies every timeout (slow
# configurations such as KASAN under TCG).
tscale=1
for arg in $(cat /proc/cmdline); do
	case $arg in sci.tscale=[1-9]*) tscale=${arg#sci.tscale=} ;; esac
done

n=0
while read -r name tmo cmd; do
	case $name in ''|'#'*) continue ;; esac
	selected "$name" && n=$((n + 1))
done <$list
echo "TAP version 13"
echo "1..$n"
echo "# kernel: $(uname -r) $(cat /proc/cmdline)"
echo "# cpus online: $(cat /sys/devices/system/cpu/online)"

i=0
while read -r name tmo cmd; do
	case $name in ''|'#'*) continue ;; esac
	selected "$name" || continue
	i=$((i + 1))
	echo "# selftests: sci: $name"
	case $tmo in
	*,notcg)
		tmo=${tmo%,notcg}
		if [ $tcg = 1 ]; then
			echo "ok $i selftests: sci: $name # SKIP cannot run under TCG"
			continue
		fi ;;
	esac
	tmo=$((tmo * tscale))
	t0=$(now)
	cd /tmp
	# sci-suite prefixes the output with "# ", kills the suite's processes
	# at the time limit and reports what hung (exit status 124).
	sci-suite "$tmo" $cmd
	rc=$?
	t1=$(now)
	echo "# time: $name $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s"
	case $rc in
	0) echo "ok $i selftests: sci: $name" ;;
	4) echo "ok $i selftests: sci: $name # SKIP" ;;
	124) echo "not ok $i selftests: sci: $name # TIMEOUT $tmo seconds" ;;
	*) echo "not ok $i selftests: sci: $name # exit=$rc" ;;
	esac
done <$list
