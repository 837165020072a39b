#!/bin/bash
# Build the guest's initramfs: busybox-static, /init, the guest programs and
# the list of selftests to run.
# usage: mkinitramfs.sh OUT.cpio.gz GUEST_BIN_DIR TESTS_LIST [EXTRA_DIR]
set -euo pipefail
out=$(realpath -m "$1") bins=$(realpath "$2") list=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
stage=$(mktemp -d "${out%/*}/.initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
# mktemp made it 0700: it becomes the guest's /, which every user needs.
chmod 755 "$stage"
cd "$stage"
mkdir -p bin sbin dev proc sys tmp root etc sci/bin
cp /bin/busybox bin/busybox
for app in $(bin/busybox --list); do
	[ "$app" = busybox ] || ln -s busybox "bin/$app"
done
mknod -m 600 dev/console c 5 1
mknod -m 666 dev/null c 1 3
cp "$here/guest/init" init
cp "$here/guest/run-tests.sh" sci/
[ -f "$here/guest/demo.sh" ] && cp "$here/guest/demo.sh" sci/
cp "$list" sci/tests.list
cp -a "$bins/." sci/bin/
# Trinity (make fuzz-qemu), with the shared libraries it needs, when the
# machine has it (make deps installs it).
if prog=$(command -v trinity); then
	for f in "$prog" $(ldd "$prog" | grep -o '/[^ ]*'); do
		mkdir -p ".${f%/*}"
		cp -L "$f" ".$f"
	done
fi
echo "root:x:0:0:root:/root:/bin/sh" >etc/passwd
echo "nobody:x:65534:65534:nobody:/:/bin/false" >>etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >etc/group
find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
