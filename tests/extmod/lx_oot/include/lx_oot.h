/* SPDX-License-Identifier: GPL-2.0 */
/* Found through ccflags-y's -I$(src)/include. */
#ifndef LX_OOT_H
#define LX_OOT_H
int lx_oot_helper(int v);
#endif
