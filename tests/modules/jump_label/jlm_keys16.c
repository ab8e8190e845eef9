// SPDX-License-Identifier: GPL-2.0
/* 16 key(s) of its own: see jlm_keys.h. */
#define JLM_KEYS 16
#include "jlm_keys.h"
