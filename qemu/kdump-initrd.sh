#!/bin/bash
# The kdump boot's initramfs: the guest's, with the bzImage it boots
# appended as /sci/kdump/bzImage (the crash kernel that sci_kdump.sh loads).
# The kernel unpacks concatenated cpio archives one after the other.
# usage: kdump-initrd.sh INITRD BZIMAGE OUT
set -euo pipefail
initrd=$1 bzimage=$2 out=$(realpath -m "$3")
mkdir -p "${out%/*}"
stage=$(mktemp -d "${out%/*}/.kdump.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/sci/kdump"
cp "$bzimage" "$stage/sci/kdump/bzImage"
cp "$initrd" "$out.tmp"
(cd "$stage" && find sci | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >>"$out.tmp"
mv "$out.tmp" "$out"
