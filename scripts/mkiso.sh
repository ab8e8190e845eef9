#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkiso.sh VMLINUX CMDLINE_FILE OUT.iso [MODULES_DIR [EXTRA_DIR [PROGRAM...]]]:
# a GRUB (BIOS) ISO that boots VMLINUX through multiboot2 with the command
# line in CMDLINE_FILE: its arguments, already quoted for grub.cfg
# (scripts/grub_cmdline.py). Every MODULES_DIR/<name>.ko and EXTRA_DIR/*.ko
# (make run EXTRA_MODULES=...), and each PROGRAM file, go along in one
# boot archive, /boot/initramfs (scripts/mkinitramfs.py), which GRUB loads
# as one multiboot2 module whose string is "initramfs": the kernel finds
# its modules and programs there (kernel/module/initramfs.c).
set -e

vmlinux=$1
cmdline=$(cat "$2")
out=$3
modules_dir=$4
extra_dir=$5
shift 3
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
dir=$(dirname "$out")/isoroot

rm -rf "$dir"
mkdir -p "$dir/boot/grub"
# Without its debug sections and ELF symbol table: GRUB reads every section
# into memory (for multiboot2's ELF sections tag), and the DWARF is most of
# the file; the kernel keeps its own symbol table (kallsyms) and reads no
# section of its file. $(O)/vmlinux keeps it all.
${OBJCOPY:-objcopy} --strip-all "$vmlinux" "$dir/boot/vmlinux"

# The programs are what is left in "$@".
${PYTHON:-/usr/bin/python3} "$(dirname "$0")/mkinitramfs.py" \
	"$dir/boot/initramfs" ${modules_dir:+--modules "$modules_dir"} \
	${extra_dir:+--modules "$extra_dir"} \
	${PACKED_CACHE:+--cache "$PACKED_CACHE"} "$@"

# The kernel boots only if it and the archive loaded. When GRUB cannot
# load them (with MEM=2M it runs out of memory), it would wait at its menu
# on a screen nobody sees. Instead: the serial console, one line of ours,
# the loads again (their error shows there: the first went to the
# screen), and power off through isa-debug-exit with 0x14 (QEMU status
# 41). Our line comes before the loads: after them even echo may find no
# memory. The GRUB modules that needs are loaded first, while memory is
# free.
cat > "$dir/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
insmod serial
insmod iorw
menuentry "kernel" {
	set loaded=y
	if multiboot2 /boot/vmlinux $cmdline; then true; else set loaded=n; fi
	if module2 /boot/initramfs initramfs; then true; else set loaded=n; fi
	if [ \$loaded = y ]; then
		boot
	fi
	serial --unit=0 --speed=115200
	terminal_output serial
	echo 'grub: cannot load the kernel or its boot archive (the error below; "out of memory" means too little RAM): powering off'
	multiboot2 /boot/vmlinux
	module2 /boot/initramfs initramfs
	outb 0xf4 0x14
	halt
}
CFG
# grub-mkrescue is chatty on success; keep its output for failures only.
if ! grub-mkrescue -o "$out" "$dir" >"$out.log" 2>&1; then
	cat "$out.log" >&2
	exit 1
fi
