#!/bin/sh
# The guest side of `make demo`: System Call Isolation at work, in words.
step() { echo; echo "=== $*"; }
stat() { sed -n "s/^$1 //p" /sys/kernel/debug/sci/stats; }
run() { echo "\$ $*"; "$@"; last=$?; echo "(exit status $last)"; }
fail=0

echo "SCI demo on $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs, kernel command line: $(cat /proc/cmdline)"
dmesg | grep -m1 "sci: system call isolation enabled" ||
	{ echo "SCI is not enabled in this guest"; exit 1; }
echo "seccomp actions: $(cat /proc/sys/kernel/seccomp/actions_avail)"

step "1. A program with some of its syscalls isolated"
echo "sci-run loads a seccomp policy that marks read, write, openat, close and sendfile"
echo "'isolate', then runs cat: those syscalls run on the reduced page tables."
s0=$(stat syscalls) c0=$(stat code_faults) d0=$(stat data_faults)
run sci-run --isolate read,write,openat,close,sendfile -- cat /proc/version
s1=$(stat syscalls) c1=$(stat code_faults) d1=$(stat data_faults)
echo "SCI counters: $((s1 - s0)) isolated syscalls, $((c1 - c0)) code faults (each verified) and $((d1 - d0)) data faults served by mapping pages in on demand."

step "2. The bad syscall, not isolated"
echo "sci-hook write_dmesg_bad makes an ioctl whose kernel code jumps into the"
echo "middle of a function (like a ROP gadget would). Without isolation nothing checks it:"
run sci-hook write_dmesg_bad "hello from an unisolated bad call"

step "3. The same syscall, isolated"
echo "Now the ioctl runs isolated: the jump lands on a page that is not mapped,"
echo "the page fault handler finds it is not the start of a function, and kills the program."
run sci-run --isolate ioctl -- sci-hook write_dmesg_bad "hello from an isolated bad call"
[ "$last" = 137 ] || { echo "DEMO FAILED: the isolated bad call was not killed"; fail=1; }
echo "The kernel's own line about it:"
dmesg | grep "sci: .*unverified jump" | tail -1

step "4. Learning mode reports instead of killing"
run sci-run --learn --isolate ioctl -- sci-hook write_dmesg_bad "learning"
dmesg | grep "not enforced" | tail -1

step "5. Keeping grants: opt-in speed"
echo "Each isolated syscall starts from the premapped set and faults in every page it"
echo "touches.  --keep-grants=data keeps the data pages for the next syscalls (every"
echo "instruction fetch still checked); --keep-grants keeps code pages too (faster, but a"
echo "jump within a code page an earlier syscall ran is no longer checked)."
job='for f in 1 2 3 4 5 6 7 8; do cat /proc/version /proc/uptime >/dev/null; done'
for k in "" "--keep-grants=data" "--keep-grants"; do
	c0=$(stat code_faults) d0=$(stat data_faults) s0=$(stat syscalls)
	t0=$(cut -d' ' -f1 /proc/uptime)
	sci-run --isolate-all $k -- sh -c "$job"
	t1=$(cut -d' ' -f1 /proc/uptime)
	c1=$(stat code_faults) d1=$(stat data_faults) s1=$(stat syscalls)
	echo "sci-run --isolate-all ${k:-(nothing kept)}: $((s1 - s0)) isolated syscalls, $((c1 - c0)) code faults, $((d1 - d0)) data faults, $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") s"
done

step "6. The system is still running"
run sci-run --isolate-all -- sh -c 'echo "a shell with every syscall isolated: $(ls / | wc -l) entries in /, pid $$"'
echo "oops count: $(cat /sys/kernel/oops_count), taint flags: $(cat /proc/sys/kernel/tainted)"
echo "SCI counters now:"
sed 's/^/  /' /sys/kernel/debug/sci/stats
[ "$(cat /sys/kernel/oops_count)" = 0 ] || { echo "DEMO FAILED: the kernel oopsed"; fail=1; }
[ $fail = 0 ] || exit 1
echo
echo "=== demo done"
