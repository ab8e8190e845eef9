// SPDX-License-Identifier: GPL-2.0
/*
 * A static call site outside its text: a PLT32 relocation (a call's)
 * against sct_exported's trampoline in .data. Must be refused at load.
 */
#include <linux/module.h>
#include <fixtures/static_call_modules.h>

asm(".pushsection .data\n\t.balign 4\n\t.long __SCT__sct_exported@PLT\n\t.popsection");

MODULE_LICENSE("GPL");
