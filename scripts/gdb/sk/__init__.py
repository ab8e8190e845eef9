# SPDX-License-Identifier: GPL-2.0
"""gdb commands for this kernel (scripts/gdb/vmlinux-gdb.py loads them)."""
