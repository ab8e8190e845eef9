# SPDX-License-Identifier: GPL-2.0
"""gdb commands that read the kernel's memory, with no help from it.

`make debug` writes a gdbinit that loads this file (source it by hand:
`source scripts/gdb/vmlinux-gdb.py` after `file build/vmlinux`). The
commands (`help sk-keys` and so on, Documentation/building.rst):

  sk-keys [GLOB]         static keys with sites (the console's keys)
  sk-sites KEY           a key's sites, their bytes decoded, and whether
                         they agree with the key (the console's sites)
  sk-batch               the int3 batch in flight: sites, step, each
                         CPU's reference
  sk-calls [-v] [GLOB]   static calls and their targets (the console's
                         calls; -v: every site decoded)
  sk-dmesg               the kernel log (the console's dmesg)
  sk-lsmod               loaded modules (the console's lsmod)
  sk-symbols [DIR...]    load the modules' symbols at their addresses

They work on a kernel stopped anywhere, in a panic too, and say
"corrupt: ..." naming the structure when one reads as impossible.
"""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
for _p in (_here, os.path.dirname(_here)):     # sk/, and scripts/ (jl_insn)
    if _p not in sys.path:
        sys.path.insert(0, _p)

from sk import batch, calls, keys, modules  # noqa: E402

for _m in (keys, batch, calls, modules):
    _m.register()
