#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkiso.sh VMLINUX CMDLINE_FILE OUT.iso [MODULES_DIR [EXTRA_DIR [USER_DIR]]]: a GRUB (BIOS) ISO
# that boots VMLINUX through multiboot2 with the command line in
# CMDLINE_FILE: its arguments, already quoted for grub.cfg
# (scripts/grub_cmdline.py). Every MODULES_DIR/<name>.ko goes along as
# /boot/modules/<name>.ko, loaded by GRUB as a multiboot2 module whose
# string is <name>, in the byte order of the names (as
# scripts/module_blobs.py lists them).
set -e

vmlinux=$1
cmdline=$(cat "$2")
out=$3
modules_dir=$4
extra_dir=$5
user_dir=$6
dir=$(dirname "$out")/isoroot

rm -rf "$dir"
mkdir -p "$dir/boot/grub" "$dir/boot/modules"
# Without its debug sections and ELF symbol table: GRUB reads every section
# into memory (for multiboot2's ELF sections tag), and the DWARF is most of
# the file; the kernel keeps its own symbol table (kallsyms) and reads no
# section of its file. $(O)/vmlinux keeps it all.
${OBJCOPY:-objcopy} --strip-all "$vmlinux" "$dir/boot/vmlinux"

# EXTRA_DIR (make run EXTRA_MODULES=...) adds its .ko files the same way.
for d in "$modules_dir" "$extra_dir"; do
	if [ -n "$d" ] && [ -d "$d" ]; then
		find "$d" -maxdepth 1 -name '*.ko' -type f \
			-exec cp {} "$dir/boot/modules/" \;
	fi
done
names=$(cd "$dir/boot/modules" && find . -maxdepth 1 -name '*.ko' -type f |
	sed 's|^\./||; s|\.ko$||' | LC_ALL=C sort)

# USER_DIR's programs go along as /boot/bin/<name>, strings /bin/<name>.
progs=""
if [ -n "$user_dir" ] && [ -d "$user_dir" ]; then
	progs=$(cd "$user_dir" && find . -maxdepth 1 -type f -perm -u+x |
		sed 's|^\./||' | LC_ALL=C sort)
fi
# No empty directory: at MEM=2M GRUB has not a byte to spare.
if [ -n "$progs" ]; then
	mkdir -p "$dir/boot/bin"
fi
for prog in $progs; do
	cp "$user_dir/$prog" "$dir/boot/bin/"
done

# The kernel boots only if it and every module loaded: each load that
# fails clears "loaded" (flat: GRUB gives up on ifs nested a hundred
# deep). GRUB's error for a load that fails (too little memory) goes to
# the screen; the fallback below repeats the loads on the serial console,
# where the error shows.
loads() {
	for name in $names; do
		printf '\tif module2 /boot/modules/%s.ko %s; then true; else set loaded=n; fi\n' \
			"$name" "$name"
	done
	for prog in $progs; do
		printf '\tif module2 /boot/bin/%s /bin/%s; then true; else set loaded=n; fi\n' \
			"$prog" "$prog"
	done
}
retries() {
	for name in $names; do
		printf '\tmodule2 /boot/modules/%s.ko %s\n' "$name" "$name"
	done
}

# When GRUB cannot load the kernel (with MEM=2M it runs out of memory), it
# would wait at its menu on a screen nobody sees. Instead: the serial
# console, one line of ours, the error again (the first went to the
# screen), and power off through isa-debug-exit with 0x14 (QEMU status 41).
# Our line comes before the loads: after them even echo may find no memory.
# The GRUB modules that needs are loaded first, while memory is free: the
# failed loads of many modules leave too little for them after.
{
	cat <<CFG
set timeout=0
set default=0
insmod serial
insmod iorw
menuentry "kernel" {
	set loaded=y
	if multiboot2 /boot/vmlinux $cmdline; then true; else set loaded=n; fi
CFG
	loads
	cat <<CFG
	if [ \$loaded = y ]; then
		boot
	fi
	serial --unit=0 --speed=115200
	terminal_output serial
	echo 'grub: cannot load the kernel or a module (the error below; "out of memory" means too little RAM): powering off'
	multiboot2 /boot/vmlinux
CFG
	retries
	cat <<'CFG'
	outb 0xf4 0x14
	halt
}
CFG
} > "$dir/boot/grub/grub.cfg"
# grub-mkrescue is chatty on success; keep its output for failures only.
if ! grub-mkrescue -o "$out" "$dir" >"$out.log" 2>&1; then
	cat "$out.log" >&2
	exit 1
fi
