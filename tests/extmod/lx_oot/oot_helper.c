// SPDX-License-Identifier: GPL-2.0
/* Module lx_oot_multi, second object. */
#include <lx_oot.h>

int lx_oot_helper(int v)
{
	return v + 1;
}
