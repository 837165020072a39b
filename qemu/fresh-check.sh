#!/bin/bash
# A fresh machine: a minimal Debian chroot with only git and make, this
# repository cloned into it, then `make deps` (which must install every
# package the build needs), `make check-host`, `make kernel initramfs` and
# the sci=off smoke boot.  Run as root; needs debootstrap (make deps).
# usage: fresh-check.sh BUILD_DIR
# Environment: FRESH_SUITE (bookworm), FRESH_MIRROR (the first mirror in
# apt's sources), FRESH_KEEP=1 keeps the chroot afterwards.
# The host's ccache is shared, so the kernel build is warm when the host
# has built the same tree before.
set -euo pipefail
bdir=$(realpath -m "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
suite=${FRESH_SUITE:-bookworm}
root=$bdir/fresh/root
log=$bdir/fresh/log
[ "$(id -u)" = 0 ] || { echo "fresh-check: run as root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "fresh-check: debootstrap missing: run 'make deps'" >&2; exit 1; }
mirror=${FRESH_MIRROR:-$(
	{ cat /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -E '^URIs:' | awk '{print $2}' || true;
	  cat /etc/apt/sources.list 2>/dev/null | grep -E '^deb ' | awk '{print $2}' || true; } |
	grep -v security | head -1 || true)}
mirror=${mirror:-http://deb.debian.org/debian}

mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
	[ "${FRESH_KEEP:-0}" = 1 ] || rm -rf "$root"
}
trap cleanup EXIT
bindmount() { mkdir -p "$2"; mount --bind "$1" "$2"; mounts+=("$2"); }

for m in $(awk -v r="$root" '$2 ~ "^"r {print $2}' /proc/mounts | sort -r); do umount -l "$m" || true; done
rm -rf "$root"
mkdir -p "$root" "$log"
t0=$(date +%s)
echo "fresh-check: debootstrap --variant=minbase --include=git,make $suite from $mirror"
debootstrap --variant=minbase --include=git,make "$suite" "$root" "$mirror" >"$log/debootstrap.log" 2>&1 ||
	{ tail -20 "$log/debootstrap.log"; exit 1; }
t1=$(date +%s)
echo "== stage fresh-debootstrap: $((t1 - t0)) s"
# The same package sources as this machine (point releases, security).
rm -f "$root/etc/apt/sources.list"
cp -a /etc/apt/sources.list "$root/etc/apt/" 2>/dev/null || true
cp -a /etc/apt/sources.list.d/. "$root/etc/apt/sources.list.d/" 2>/dev/null || true
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
bindmount /sys "$root/sys"
bindmount /dev "$root/dev"
bindmount /dev/pts "$root/dev/pts"
cache=$(ccache --get-config cache_dir 2>/dev/null || echo "$HOME/.cache/ccache")
mkdir -p "$cache"
bindmount "$cache" "$root/root/.cache/ccache"
bindmount "$top" "$root/mnt/src"
# Only git and make: nothing else from this machine reaches the chroot.
cat >"$root/root/fresh.sh" <<'IN'
set -euo pipefail
export HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
git config --global --add safe.directory '*'
git clone -q /mnt/src /root/sci
cd /root/sci
s=$(date +%s); make deps; echo "== stage fresh-deps: $(( $(date +%s) - s )) s"
s=$(date +%s); make check-host; echo "== stage fresh-check-host: $(( $(date +%s) - s )) s"
s=$(date +%s); make kernel initramfs; echo "== stage fresh-kernel-initramfs: $(( $(date +%s) - s )) s"
s=$(date +%s); make smoke-qemu; echo "== stage fresh-smoke: $(( $(date +%s) - s )) s"
IN
rc=0
chroot "$root" /bin/bash /root/fresh.sh 2>&1 | tee "$log/fresh.log" | grep -E '^(== |deps:|ktree:|[0-9]+ passed|not ok|# FAILED|make: \*\*\*)' || rc=1
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
echo "== fresh-check: $(( $(date +%s) - t0 )) s, $([ $rc = 0 ] && echo passed || echo "FAILED (log: $log/fresh.log)")"
exit $rc
