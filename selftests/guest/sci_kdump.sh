#!/bin/sh
# sci_kdump: a panic inside an isolated syscall starts the crash kernel
# (kdump), as a panic outside one does.  Run by /init in the kdump boot of
# `make check` (sci.mode=kdump, a configuration with KEXEC_FILE, booted with
# crashkernel=): this kernel loads a crash kernel, the bzImage it booted from
# (/sci/kdump/bzImage, which the Makefile appends to the initramfs), with a
# small initramfs built here, then panics (sysrq c) from a shell whose every
# syscall is isolated, on CPU 0, while an isolated syscall loop runs on CPU
# 1.  The crash kernel's /init finishes the TAP stream: it checks that it is
# a crash kernel and that /proc/vmcore holds an ELF core, and powers the
# guest off.  A panic that resets the machine or hangs never reports, and
# the boot fails.  TAP in the kselftest runner's format (one suite).
here=$(dirname "$0")
bin=/sci/bin
n=0
ok() { n=$((n + 1)); echo "# ok $n $1"; }
fail() {
	n=$((n + 1))
	echo "# not ok $n $1"
	[ -s /tmp/kd.err ] && sed 's/^/#   /' /tmp/kd.err
	echo "not ok 1 selftests: sci: sci_kdump"
	exit 1
}

echo "TAP version 13"
echo "1..1"
echo "# kernel: $(uname -r) $(cat /proc/cmdline)"
echo "# selftests: sci: sci_kdump"
echo "# 1..5"

# The crash kernel's initramfs: busybox, sci-poweroff and an /init that
# reports on the TAP port (ttyS1) and powers off.
kd=/tmp/kd
rm -rf $kd
mkdir -p $kd/bin $kd/dev $kd/proc
cp /bin/busybox $kd/bin/busybox
cp $bin/sci-poweroff $kd/bin/sci-poweroff
cat >$kd/init <<'INIT'
#!/bin/busybox sh
b=/bin/busybox
$b mount -t proc proc /proc
$b mount -t devtmpfs devtmpfs /dev
echo "sci-selftest: expected oops end (the crash kernel runs)" >/dev/kmsg
out=/dev/ttyS1
$b stty -F $out raw -echo 2>/dev/null
st=0
if $b grep -q "elfcorehdr=" /proc/cmdline; then
	echo "# ok 4 crash_kernel_started" >$out
else
	echo "# not ok 4 crash_kernel_started: no elfcorehdr= in $($b cat /proc/cmdline)" >$out
	st=1
fi
magic=$($b dd if=/proc/vmcore bs=4 count=1 2>/dev/null | $b tail -c 3)
size=$($b stat -c %s /proc/vmcore 2>/dev/null)
if [ "$magic" = ELF ] && [ "${size:-0}" -gt 0 ]; then
	echo "# ok 5 vmcore_is_an_elf_core ($size bytes)" >$out
else
	echo "# not ok 5 vmcore_is_an_elf_core (magic '$magic', size '$size')" >$out
	st=1
fi
if [ $st = 0 ]; then
	echo "ok 1 selftests: sci: sci_kdump" >$out
else
	echo "not ok 1 selftests: sci: sci_kdump" >$out
fi
/bin/sci-poweroff $st
INIT
chmod 755 $kd/init
(cd $kd && find . | cpio -o -H newc 2>/dev/null) >/tmp/kd.cpio ||
	fail "crash_kernel_loaded: cannot build its initramfs"

cmdline="console=ttyS0 nr_cpus=1 reset_devices irqpoll pti=on no5lvl panic=-1"
if $here/../kdump/sci_kexec_file /sci/kdump/bzImage /tmp/kd.cpio "$cmdline" 2>/tmp/kd.err &&
   [ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ]; then
	ok "crash_kernel_loaded"
else
	fail "crash_kernel_loaded"
fi

# The other CPU in isolated syscalls when the panic stops it (getpid).
taskset -c 1 sci-run --isolate-all -- $bin/sci/syscall_loop 39 1000000000 >/dev/null 2>&1 &
loop=$!
sleep 1
if kill -0 $loop 2>/dev/null; then
	ok "isolated_loop_runs_on_cpu_1"
else
	fail "isolated_loop_runs_on_cpu_1"
fi

# /proc/PID/sci lists the kept-grant checks only for a task that has SCI
# tables, that is one that has made an isolated syscall; the shell reads its
# own (a builtin read: no fork), then writes "c" to /proc/sysrq-trigger:
# panic() inside the isolated write().
echo "sci-selftest: expected oops begin (sci_kdump: a panic in an isolated syscall)" >/dev/kmsg
taskset -c 0 sci-run --isolate-all -- sh -c '
	tables=no
	while read -r l; do
		case $l in kept_check:*) tables=yes ;; esac
	done </proc/$$/sci
	if [ $tables = yes ]; then
		echo "# ok 3 panicking_shell_runs_isolated"
	else
		echo "# not ok 3 panicking_shell_runs_isolated: no SCI tables in /proc/$$/sci"
		exit 1
	fi
	echo c >/proc/sysrq-trigger
	echo "# the panic returned"
	exit 1'
n=3
fail "the_panic_started_the_crash_kernel"
