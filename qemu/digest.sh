#!/bin/sh
# Repeat, at the end of make check, what failed in each guest run: the
# tapsum problems and kernel-log findings of its summary and what sci-suite
# reported about a hung suite.  A CI log often keeps only its tail.
# usage: digest.sh RUN_DIR...
for d in "$@"; do
	s=$d/summary.txt
	[ -f "$s" ] || continue
	grep -q -E '^# (UNEXPECTED|KERNEL LOG|  )' "$s" || continue
	echo "== failures of $(basename "$d"):"
	grep -E '^# (UNEXPECTED|KERNEL LOG|  )' "$s" | head -n 25
	# A failed subtest's own lines: what it printed before its "not ok"
	# (sci_isolate_all prints both runs' lines of a seccomp_bpf subtest).
	grep -E '^# UNEXPECTED: [^ ]+:[^ ]+: fail' "$s" |
		sed -E 's/^# UNEXPECTED: [^:]+:([^ ]+): fail.*/\1/' | head -n 3 |
		while read -r sub; do
			echo "-- the lines before \"not ok ... $sub\":"
			awk -v want=" $sub" '{ buf[NR % 30] = $0 }
				/not ok [0-9]+ / && substr($0, length($0) - length(want) + 1) == want {
					for (i = NR - 29; i <= NR; i++)
						if (i > 0) print buf[i % 30]
					exit
				}' "$d/tap.log"
		done
	if grep -q '^# UNEXPECTED: the guest planned' "$s"; then
		echo "-- the last lines of its TAP stream and kernel log:"
		tail -n 8 "$d/tap.log"
		tail -n 15 "$d/kernel.log"
	fi
	if grep -q -E '^(# )?# hang: ' "$d/tap.log" 2>/dev/null; then
		grep -E '^(# )?# hang: ' "$d/tap.log" | grep -v -E '^(# )?# hang:   <' | head -n 40
		grep -E '^(# )?# hang:   <' "$d/tap.log" | tail -n 15
	fi
done
exit 0
