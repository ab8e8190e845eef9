#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs QEMU and turns the kernel's isa-debug-exit code into a shell status:
# 33 (clean power-off, tests passed) -> 0, 35 (tests failed) -> 1,
# 37 (panic) and 0 (triple fault: -no-reboot) -> 2.
"$@"
rc=$?
case $rc in
33) exit 0 ;;
35) echo "qemu: kernel reported failed tests" >&2; exit 1 ;;
37) echo "qemu: kernel panic" >&2; exit 2 ;;
0) echo "qemu: the machine reset (triple fault?)" >&2; exit 2 ;;
*) echo "qemu: exited with status $rc" >&2; exit 2 ;;
esac
