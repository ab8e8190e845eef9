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
# When GRUB cannot load the kernel (with MEM=2M it runs out of memory), it
# would wait at its menu on a screen nobody sees. Instead: the serial
# console, the error again (the first went to the screen), one line of
# ours, and power off through isa-debug-exit with 0x14 (QEMU status 41).
cat > "$dir/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
menuentry "kernel" {
	if multiboot2 /boot/vmlinux $cmdline; then
		boot
	fi
	serial --unit=0 --speed=115200
	terminal_output serial
	multiboot2 /boot/vmlinux
	echo 'grub: cannot load the kernel (the error above; "out of memory" means too little RAM): powering off'
	insmod iorw
	outb 0xf4 0x14
	halt
}
CFG
# grub-mkrescue is chatty on success; keep its output for failures only.
if ! grub-mkrescue -o "$out" "$dir" >"$out.log" 2>&1; then
	cat "$out.log" >&2
	exit 1
fi
