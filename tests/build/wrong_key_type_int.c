// expect: error: .*static_branch_\*\(\) needs a struct static_key_true/false pointer
#include <linux/jump_label.h>

static int not_a_key;

int wrong_key_type_int(void);
int wrong_key_type_int(void)
{
	return static_branch_likely(&not_a_key);
}
