#!/bin/bash
# Boot the guest under QEMU and stream what it prints on its TAP channel.
# usage: run-guest.sh BZIMAGE INITRD OUTDIR MODE [EXTRA_CMDLINE]
# Environment: QEMU_ACCEL (tcg), QEMU_TCG_THREAD (single), QEMU_CPU (max),
#              QEMU_SMP (2), QEMU_MEM (1024),
#              GUEST_CMDLINE (extra kernel parameters, default "sci=on no5lvl"),
#              GUEST_TIMEOUT (seconds, 900), BOOT_TIMEOUT (seconds to /init,
#              300: a boot that hangs before is retried once), QEMU_EXTRA
#              (more QEMU arguments, e.g. "-gdb unix:/tmp/g.sock,server=on,wait=off"
#              to inspect a frozen guest with gdb).
# Exit status: 0 when the guest ran MODE to the end and powered off through
# isa-debug-exit; 1 otherwise, with a message saying why.
set -uo pipefail
kernel=$1 initrd=$2 outdir=$3 mode=$4 extra=${5:-${GUEST_CMDLINE-sci=on no5lvl}}
accel=${QEMU_ACCEL:-tcg} cpu=${QEMU_CPU:-max} smp=${QEMU_SMP:-2} mem=${QEMU_MEM:-1024}
# TCG runs both vCPUs on one host thread (QEMU_TCG_THREAD=multi for one
# thread per vCPU).  Debian's QEMU 7.2 with a thread per vCPU now and then
# keeps executing an INT3 that text_poke_bp() has already replaced: both
# vCPUs loop in the INT3 handler while guest memory holds the new
# instruction, and writing the same byte again through QEMU's gdbstub
# (which invalidates the page's translations) lets the guest go on.  Seen
# in 2 of 2 runs of mov_ss_trap (perf's static key) in a loop, under 100
# iterations each, and in 2 of about 7 full distro runs; never in 600
# iterations single-threaded.  README.md, "Known limitations".
case $accel in
tcg) accel="tcg,thread=${QEMU_TCG_THREAD:-single}" ;;
esac
tmo=${GUEST_TIMEOUT:-900}
mkdir -p "$outdir"
# PTI on (SCI needs it), unless the extra parameters say otherwise.
pti=pti=on
case " $extra " in *" pti="*|*" nopti "*) pti= ;; esac
tap=$outdir/tap.log klog=$outdir/kernel.log
# A guest that has not reached /init (no TAP line) after BOOT_TIMEOUT
# seconds hung in the kernel's boot: booted once more, and said so.  (A
# 5-level-paging boot under TCG hung once in about ten in inet_init(),
# SCI off; not understood.)  Every kernel log of the run is kept.
boot_tmo=${BOOT_TIMEOUT:-300}
rm -f "$klog.boot-hang"

# A guest still running 20 s before GUEST_TIMEOUT: the registers of its
# vCPUs (monitor "info registers -a") go to OUTDIR/hang-registers.txt, to
# say where a frozen guest spins (KASLR: compare RIP with the kernel log's
# addresses).
mon="$outdir/monitor.sock"
here=$(cd "$(dirname "$0")" && pwd)

watchdog() {
	local t=$((tmo > 40 ? tmo - 20 : tmo / 2)) i=0
	while [ $i -lt $t ]; do
		sleep 1
		kill -0 "$1" 2>/dev/null || return 0
		i=$((i + 1))
	done
	{
		echo "# $(date -u +%FT%TZ): the guest still runs $t s after its start"
		python3 "$here/monitor.py" "$mon" "info cpus" "info registers -a"
	} >"$outdir/hang-registers.txt" 2>&1
}

boot() {
	: >"$tap"
	: >"$klog"
	rm -f "$mon" "$outdir/hang-registers.txt"
	timeout -k 10 "$tmo" qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$mem" \
		-nodefaults -no-user-config -display none -no-reboot \
		-monitor "unix:$mon,server=on,wait=off" \
		-serial "file:$klog" -serial "file:$tap" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-kernel "$kernel" -initrd "$initrd" ${QEMU_EXTRA:-} \
		-append "console=ttyS0 $pti panic=-1 sci.mode=$mode ${SCI_TESTS:+sci.tests=$SCI_TESTS} $extra" &
	qpid=$!
	watchdog $qpid &
	wpid=$!
	waited=0
	while [ ! -s "$tap" ] && kill -0 $qpid 2>/dev/null; do
		if [ $waited -ge "$boot_tmo" ]; then
			pkill -KILL -P $qpid 2>/dev/null
			wait $qpid 2>/dev/null
			kill $wpid 2>/dev/null
			return 200
		fi
		sleep 1
		waited=$((waited + 1))
	done
	tail -n +1 -f --pid=$qpid "$tap" | tr -d '\r' &
	tpid=$!
	wait $qpid
	rc=$?
	wait $tpid 2>/dev/null
	kill $wpid 2>/dev/null
	wait $wpid 2>/dev/null
	return $rc
}

boot
rc=$?
if [ $rc = 200 ]; then
	mv "$klog" "$klog.boot-hang"
	echo "# the guest did not reach /init in $boot_tmo s (BOOT_TIMEOUT); its kernel log ends:"
	tail -n 5 "$klog.boot-hang" | tr -d '\r' | sed 's/^/#   /'
	echo "# booting once more (the hung boot's log: $klog.boot-hang)"
	boot
	rc=$?
fi
echo "# guest kernel log: $klog"
case $rc in
1) exit 0 ;;		# sci-poweroff 0: (0 << 1) | 1
124|137) echo "# FAILED: the guest did not finish within $tmo s (GUEST_TIMEOUT)"
	[ -s "$outdir/hang-registers.txt" ] &&
		echo "# its vCPUs' registers before the timeout: $outdir/hang-registers.txt" ;;
200) echo "# FAILED: the guest did not reach /init in $boot_tmo s, twice (BOOT_TIMEOUT)" ;;
0) echo "# FAILED: the guest rebooted instead of powering off (panic? see $klog)" ;;
3) echo "# FAILED: the guest reported a failure of its $mode run" ;;
*) echo "# FAILED: QEMU exited with status $rc" ;;
esac
grep -m3 -E "Kernel panic|Oops|BUG:" "$klog" | sed 's/^/#   /'
exit 1
