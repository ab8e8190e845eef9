// expect: error: conflicting types for .maybe_ro_n.
/*
 * DEFINE_STATIC_KEY_MAYBE_RO(cfg, k) with cfg unset is a struct
 * static_key_false: declaring it a static_key_true is refused.
 */
#include <linux/jump_label.h>

DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_NO_SUCH_OPTION, maybe_ro_n);
extern struct static_key_true maybe_ro_n;
