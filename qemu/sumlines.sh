#!/bin/bash
# Add up the closing "N passed, N failed[, N skipped]" lines of summaries.
p=0 f=0 s=0
for file in "$@"; do
	line=$(tail -n1 "$file" 2>/dev/null)
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
		p=$((p + BASH_REMATCH[1])) f=$((f + BASH_REMATCH[2])) s=$((s + ${BASH_REMATCH[4]:-0}))
	else
		echo "# no summary in $file"
		f=$((f + 1))
	fi
done
echo "$p passed, $f failed, $s skipped"
