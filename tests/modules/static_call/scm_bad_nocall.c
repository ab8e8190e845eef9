// SPDX-License-Identifier: GPL-2.0
/*
 * A static call "site" in text that is not a call: a PLT32 relocation
 * against sct_exported's trampoline after a NOP. Must be refused at load.
 */
#include <linux/module.h>
#include <fixtures/static_call_modules.h>

asm(".pushsection .text\n\tnop\n\t.long __SCT__sct_exported@PLT\n\tret\n\t.popsection");

MODULE_LICENSE("GPL");
