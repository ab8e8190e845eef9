// expect: warning: .*STATIC_KEY_INIT_FALSE is deprecated
// expect: warning: .*static_key_false.* is deprecated
/* The old API still compiles, and says it is deprecated. */
#include <linux/jump_label.h>

struct static_key old_key = STATIC_KEY_INIT_FALSE;

int old_api(void);
int old_api(void)
{
	return static_key_false(&old_key);
}
