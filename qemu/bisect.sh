#!/bin/bash
# Build the kernel after each patch of the kernel tree's series and boot
# some of the builds with a smoke test.
# usage: bisect.sh BUILD_DIR INITRD EXPECTATIONS...
# Environment: BISECT_BOOT (patch numbers to boot, "last" for the last;
# default "1 2 3 6 last"), BISECT_TESTS (guest tests of each boot),
# JOBS, KCC.
#
# The builds use a worktree of the kernel tree (BUILD_DIR/bisect/tree) and
# an object folder of their own (BUILD_DIR/bisect/kbuild): the work tree
# and the configurations' builds are not touched, and each step rebuilds
# only what its patch changed.  The configuration is the default one;
# options that an early patch does not have yet are reported, not fatal.
# Patch 1 boots with sci=off (it has no SCI); the others with sci=on.
set -uo pipefail
bdir=$(realpath "$1") initrd=$(realpath "$2")
shift 2
here=$(dirname "$(realpath "$0")")
top=$(dirname "$here")
tree=$bdir/linux-source-6.1 wt=$bdir/bisect/tree obj=$bdir/bisect/kbuild
boots=${BISECT_BOOT:-1 2 3 6 last}
tests=${BISECT_TESTS:-guest_env,isolate_action}
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
mkdir -p "$bdir/bisect"

commits=$(git -C "$tree" rev-list --reverse pristine..HEAD)
n=$(echo "$commits" | wc -w)
[ "$n" -gt 0 ] || { echo "bisect: no patches in $tree"; exit 1; }
if [ ! -e "$wt/.git" ]; then
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" pristine || exit 1
fi

rc=0 i=0 results=
for c in $commits; do
	i=$((i + 1))
	subj=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c" || { rc=1; break; }
	t0=$(date +%s)
	if ! KCONFIG_LENIENT=1 "$here/kconfig.sh" "$wt" "$obj" "$top/qemu/config/base.config" >"$bdir/bisect/kconfig-$i.log" 2>&1 ||
	   ! make -s -C "$wt" O="$obj" CC="${KCC:-gcc}" -j"${JOBS:-2}" bzImage >"$bdir/bisect/build-$i.log" 2>&1; then
		echo "not ok $i build: $subj"
		tail -20 "$bdir/bisect/build-$i.log" "$bdir/bisect/kconfig-$i.log" | sed 's/^/#   /'
		rc=1 results="$results $i:build-FAILED"
		continue
	fi
	echo "ok $i build ($(( $(date +%s) - t0 )) s): $subj"
	boot=no
	for b in $boots; do
		[ "$b" = "$i" ] || { [ "$b" = last ] && [ "$i" = "$n" ]; } && boot=yes
	done
	[ $boot = yes ] || { results="$results $i:built"; continue; }
	cmdline="sci=on no5lvl"
	[ "$i" = 1 ] && cmdline="sci=off no5lvl"
	run=$bdir/bisect/run-$i
	cp "$obj/arch/x86/boot/bzImage" "$bdir/bisect/bzImage-$i"
	t0=$(date +%s)
	GUEST_CMDLINE="$cmdline" SCI_TESTS="$tests" GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} \
		"$here/run-guest.sh" "$bdir/bisect/bzImage-$i" "$initrd" "$run" selftest >/dev/null
	grc=$?
	sum=$("$here/tapsum.py" "$run/tap.log" "$run/kernel.log" "$@" 2>&1 | tail -1)
	if [ $grc = 0 ] && [[ $sum =~ ^[1-9][0-9]*\ passed,\ 0\ failed ]]; then
		echo "ok $i boot ($cmdline, $tests, $(( $(date +%s) - t0 )) s): $sum"
		results="$results $i:booted"
	else
		echo "not ok $i boot ($cmdline): $sum; see $run"
		"$here/tapsum.py" "$run/tap.log" "$run/kernel.log" "$@" 2>&1 | grep -E "^(not ok|#.*(FAIL|differ|kernel))" | head -10 | sed 's/^/#   /'
		rc=1 results="$results $i:boot-FAILED"
	fi
done
echo "bisect:$results"
exit $rc
