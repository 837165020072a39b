#!/bin/bash
# Boot the guest under Bochs, an emulator whose CPU models have PCID and
# INVPCID (QEMU's TCG has neither), and stream what it prints on its TAP
# channel, as run-guest.sh does for QEMU.
# usage: run-bochs.sh BZIMAGE INITRD OUTDIR MODE
# Environment: BOCHS_CPU (corei7_haswell_4770), BOCHS_SMP (2), BOCHS_MEM
#              (1024), BOCHS_IPS (400000000), GUEST_CMDLINE (default
#              "sci=on no5lvl"), GUEST_TIMEOUT (seconds, 1800), SCI_TESTS.
# The kernel and initramfs go on an isolinux CD image; the kernel log is
# COM1, and TAP comes through it too (sci.tap=kmsg: lines "sci-tap: ...",
# split off on this side), in order with the kernel's own messages.  The guest ends Bochs through its shutdown port
# (sci-poweroff); Bochs's exit status says nothing, so the exit status
# here is 0 when the guest reached "init: MODE done", 1 otherwise.
#
# What Bochs checks and what it does not: it runs the PCID code paths
# (CR4.PCIDE, PCIDs in CR3, INVPCID) and keeps global TLB entries across
# CR3 writes, but it ignores the no-flush bit of a CR3 write (it flushes
# every non-global entry), so a missed flush does not show as a stale
# translation: the DEBUG_VM assertions of the kernel check those.
set -uo pipefail
kernel=$1 initrd=$2 outdir=$3 mode=$4
cmdline=${GUEST_CMDLINE-sci=on no5lvl}
cpu=${BOCHS_CPU:-corei7_haswell_4770} smp=${BOCHS_SMP:-2} mem=${BOCHS_MEM:-1024}
ips=${BOCHS_IPS:-400000000} tmo=${GUEST_TIMEOUT:-1800}
for f in /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 \
	/usr/share/bochs/BIOS-bochs-latest /usr/share/bochs/VGABIOS-lgpl-latest; do
	[ -e "$f" ] || { echo "run-bochs.sh: $f is missing: make deps installs Bochs and isolinux" >&2; exit 1; }
done
for p in bochs xorriso script; do
	command -v $p >/dev/null || { echo "run-bochs.sh: $p is missing: make deps" >&2; exit 1; }
done
mkdir -p "$outdir"
outdir=$(realpath "$outdir")
work=$outdir/bochs
rm -rf "$work"
mkdir -p "$work/iso/isolinux"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$work/iso/isolinux/"
cp "$kernel" "$work/iso/bzImage"
cp "$initrd" "$work/iso/initrd.gz"
pti=pti=on
case " $cmdline " in *" pti="*|*" nopti "*) pti= ;; esac
cat >"$work/iso/isolinux/isolinux.cfg" <<EOF
DEFAULT l
PROMPT 0
LABEL l
 KERNEL /bzImage
 INITRD /initrd.gz
 APPEND console=ttyS0 $pti panic=-1 printk.devkmsg=on sci.tap=kmsg sci.mode=$mode ${SCI_TESTS:+sci.tests=$SCI_TESTS} $cmdline
EOF
xorriso -as mkisofs -quiet -o "$work/boot.iso" -b isolinux/isolinux.bin -c isolinux/boot.cat \
	-no-emul-boot -boot-load-size 4 -boot-info-table "$work/iso" 2>"$work/xorriso.log" ||
	{ cat "$work/xorriso.log" >&2; exit 1; }
tap=$outdir/tap.log klog=$outdir/kernel.log raw=$outdir/console.log
: >"$tap"
: >"$klog"
: >"$raw"
cat >"$work/bochsrc" <<EOF
megs: $mem
cpu: model=$cpu, count=$smp, ips=$ips
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/bochs/VGABIOS-lgpl-latest
ata0-master: type=cdrom, path=$work/boot.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$raw
display_library: term
log: $work/bochs.log
panic: action=fatal
clock: sync=none, time0=local
EOF
# Debian's Bochs has its debugger built in and stops before the first
# instruction: continue, and quit once the simulation ends.
printf 'c\nquit\n' >"$work/cmds"
# The term display needs a terminal: script(1) gives it one.
timeout -k 10 "$tmo" script -q -e -c "bochs -q -f $work/bochsrc -rc $work/cmds" /dev/null \
	>"$work/term.log" 2>&1 </dev/null &
bpid=$!
# Bochs's term display draws the guest's screen on a pseudo-terminal of its
# own and says which; nobody reads it, and once its buffer is full Bochs
# blocks in write() and the whole guest stops: drain it.
drain=
for i in $(seq 60); do
	pts=$(grep -ao 'connected to screen "/dev/pts/[0-9]*"' "$work/term.log" 2>/dev/null |
		head -n 1 | grep -o '/dev/pts/[0-9]*')
	if [ -n "$pts" ]; then
		cat "$pts" >/dev/null 2>&1 &
		drain=$!
		break
	fi
	kill -0 $bpid 2>/dev/null || break
	sleep 1
done
[ -n "$drain" ] || echo "# run-bochs.sh: Bochs named no screen terminal to drain; it may block" >&2
# The console splits into the TAP stream and the kernel log proper.
tail -n +1 -f --pid=$bpid "$raw" |
	while IFS= read -r l; do
		l=${l%$'\r'}
		case $l in
		"sci-tap: "*) printf '%s\n' "${l#sci-tap: }" | tee -a "$tap" ;;
		*) printf '%s\n' "$l" >>"$klog" ;;
		esac
	done &
tpid=$!
# A guest that powered off ends Bochs; one that rebooted instead (no
# shutdown port) would boot again: stop it once init said it is done.
while kill -0 $bpid 2>/dev/null; do
	if grep -q "init: $mode done" "$klog" 2>/dev/null; then
		sleep 5
		pkill -f "bochs -q -f $work/bochsrc" 2>/dev/null
		break
	fi
	sleep 2
done
wait $bpid 2>/dev/null
wait $tpid 2>/dev/null
[ -n "$drain" ] && kill $drain 2>/dev/null
if grep -q "init: $mode done, status 0" "$klog"; then
	exit 0
fi
if grep -q "init: $mode done" "$klog"; then
	echo "# the guest's $mode run failed (init: $(grep -o "init: $mode done.*" "$klog" | tr -d '\r'))"
else
	echo "# Bochs ended before the guest's $mode run was done (timeout ${tmo} s?); end of the kernel log:"
	tail -n 5 "$klog" | tr -d '\r' | sed 's/^/#   /'
fi
exit 1
