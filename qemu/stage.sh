#!/bin/bash
# Run a build stage and print how long it took: stage.sh NAME CMD...
name=$1
shift
t0=$(date +%s.%N)
"$@"
rc=$?
printf '== stage %s: %.1f s%s\n' "$name" "$(echo "$(date +%s.%N) - $t0" | bc)" \
	"$([ $rc = 0 ] || echo " (FAILED, status $rc)")" >&2
exit $rc
