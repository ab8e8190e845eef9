// expect: error: .*static_branch_\*\(\) needs a struct static_key_true/false pointer
/* A bare struct static_key is not a valid argument of the branch macros. */
#include <linux/jump_label.h>

static struct static_key plain_key;

int wrong_key_type(void);
int wrong_key_type(void)
{
	return static_branch_unlikely(&plain_key);
}
