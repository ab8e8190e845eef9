// SPDX-License-Identifier: GPL-2.0
/* 1 key(s) of its own: see jlm_keys.h. */
#define JLM_KEYS 1
#include "jlm_keys.h"
