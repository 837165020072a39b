#!/bin/bash
# Install, as root and only if missing, the Debian packages the project needs.
set -euo pipefail
pkgs="linux-source gcc make flex bison bc cpio xz-utils patch libelf-dev libssl-dev
libseccomp-dev libcap-dev qemu-system-x86 busybox-static python3 ccache patchutils
rsync git debootstrap libjson-c-dev pkg-config gcc-multilib trinity
bochs bochsbios bochs-term vgabios isolinux syslinux-common xorriso"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing; run 'make deps' as root" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
