#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Installs the Debian packages the build and the QEMU boot need, if any is
# missing (libelf-dev for scripts/jump_label_fixup.c, python3-pyelftools for
# scripts/check_jump_table.py and scripts/modpost.py, clang-14 and
# libclang-rt-14-dev for the module loader's fuzzer, spin for the model of
# the int3 batch protocol in tests/model). As root it runs
# apt-get; otherwise it prints the command to run.
# gnuplot draws make bench's plots and make trace-flip's PNG (make test
# checks that PNG); --bench and --trace are kept as spellings for them.
set -e

need=""
have() { command -v "$1" >/dev/null 2>&1; }

have gcc || need="$need gcc"
have make || need="$need make"
have ld || need="$need binutils"
have qemu-system-x86_64 || need="$need qemu-system-x86"
have grub-mkrescue || need="$need grub-common"
[ -d /usr/lib/grub/i386-pc ] || need="$need grub-pc-bin"
have xorriso || need="$need xorriso"
have mformat || need="$need mtools"
/usr/bin/python3 -c 'import kconfiglib' 2>/dev/null || need="$need python3-kconfiglib"
/usr/bin/python3 -c 'import elftools' 2>/dev/null || need="$need python3-pyelftools"
[ -e /usr/include/gelf.h ] || need="$need libelf-dev"
# The user programs (user/Makefile): gcc -static needs glibc's libc.a.
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || need="$need libc6-dev"
# The module loader's fuzzer (make fuzz, and a short pass in make test).
have clang-14 || need="$need clang-14"
ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
	>/dev/null 2>&1 || need="$need libclang-rt-14-dev"
# The SPIN model of the int3 batch (make model, and in make test).
have spin || need="$need spin"
# The gdb commands of scripts/gdb/ (make debug; make test checks them).
have gdb || need="$need gdb"
# make trace-flip's PNG, which make test's trace check draws too; make
# bench's plots.
have gnuplot || need="$need gnuplot-nox"

[ -z "$need" ] && exit 0

cmd="apt-get install -y --no-install-recommends$need"
if [ "$(id -u)" != 0 ]; then
	echo "Missing packages:$need" >&2
	echo "Run as root:  apt-get update && $cmd" >&2
	exit 1
fi
echo "Installing:$need"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
$cmd >/dev/null
