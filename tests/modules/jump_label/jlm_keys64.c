// SPDX-License-Identifier: GPL-2.0
/* 64 key(s) of its own: see jlm_keys.h. */
#define JLM_KEYS 64
#include "jlm_keys.h"
