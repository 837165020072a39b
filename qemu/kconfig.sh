#!/bin/bash
# Make $OBJ/.config from `make tinyconfig` plus the given fragments, then
# check that Kconfig kept every option the fragments asked for.
# usage: kconfig.sh SRC OBJ FRAGMENT...
set -euo pipefail
src=$(realpath "$1") obj=$(realpath -m "$2")
shift 2
mkdir -p "$obj"
make -s -C "$src" O="$obj" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" >/dev/null
make -s -C "$src" O="$obj" olddefconfig 2>&1 | { grep -v "override: .* changes choice state" >&2 || true; }

# Last fragment wins, as in merge_config.sh.  With KCONFIG_LENIENT=1
# (bisect-check), an option that this tree's Kconfig does not define yet
# (an early patch of the series) is reported, not fatal.
declare -A want
for f in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) want[${line%%=*}]=${line#*=} ;;
		"# CONFIG_"*" is not set") o=${line#\# }; want[${o%% *}]=n ;;
		esac
	done <"$f"
done
bad=0
for opt in "${!want[@]}"; do
	v=${want[$opt]}
	got=$(grep -E "^$opt=" "$obj/.config" | head -1 | cut -d= -f2- || true)
	[ -n "$got" ] || got=n
	if [ "$got" != "$v" ]; then
		if [ "${KCONFIG_LENIENT:-0}" = 1 ] &&
		   ! grep -rqE "^(menu)?config ${opt#CONFIG_}\$" --include='Kconfig*' "$src"; then
			echo "kconfig: $opt: not defined by this tree (lenient)" >&2
			continue
		fi
		echo "kconfig: $opt: asked for '$v', Kconfig gave '$got' (a dependency is missing)" >&2
		bad=1
	fi
done
[ $bad -eq 0 ] || { rm -f "$obj/.config"; exit 1; }
echo "kconfig: $(grep -c '=y' "$obj/.config") options set, ${#want[@]} requested options verified"
