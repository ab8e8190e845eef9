#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkiso.sh VMLINUX CMDLINE_FILE OUT.iso: a GRUB (BIOS) ISO that boots
# VMLINUX through multiboot2 with the command line in CMDLINE_FILE: its
# arguments, already quoted for grub.cfg (scripts/grub_cmdline.py).
set -e

vmlinux=$1
cmdline=$(cat "$2")
out=$3
dir=$(dirname "$out")/isoroot

rm -rf "$dir"
mkdir -p "$dir/boot/grub"
cp "$vmlinux" "$dir/boot/vmlinux"
cat > "$dir/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
menuentry "kernel" {
	multiboot2 /boot/vmlinux $cmdline
	boot
}
CFG
# grub-mkrescue is chatty on success; keep its output for failures only.
if ! grub-mkrescue -o "$out" "$dir" >"$out.log" 2>&1; then
	cat "$out.log" >&2
	exit 1
fi
