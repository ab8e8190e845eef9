// expect: success
/*
 * The old API compiles without a diagnostic, as Linux's does: Linux code
 * using it must build under -Werror (scripts/check_old_api.py keeps new
 * in-tree code off it instead). old-api: allowed, a test of it.
 */
#include <linux/jump_label.h>

struct static_key old_key = STATIC_KEY_INIT_FALSE;
struct static_key old_key_true = STATIC_KEY_INIT_TRUE;
struct static_key old_key_plain = STATIC_KEY_INIT;

int old_api(void);
int old_api(void)
{
	int n = static_key_false(&old_key) + static_key_true(&old_key_true);

	static_key_slow_inc(&old_key_plain);
	static_key_slow_dec(&old_key_plain);
	static_key_enable(&old_key);
	static_key_disable(&old_key);
	return n + static_key_enabled(&old_key_plain) +
	       static_key_count(&old_key_plain) +
	       jump_label_enabled(&old_key_true);
}
