// expect: success
/* DEFINE_STATIC_KEY_MAYBE_RO(cfg, name): _TRUE_RO when cfg=y, _FALSE_RO else. */
#include <linux/jump_label.h>

DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_JUMP_LABEL, maybe_ro_y);
DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_NO_SUCH_OPTION, maybe_ro_n);

int maybe_ro(void);
int maybe_ro(void)
{
	return static_branch_likely(&maybe_ro_y) +
	       static_branch_unlikely(&maybe_ro_n);
}
