// expect: success
/* Every documented form compiles without a warning. */
#include <linux/jump_label.h>

DEFINE_STATIC_KEY_TRUE(t_key);
DEFINE_STATIC_KEY_FALSE(f_key);
DEFINE_STATIC_KEY_TRUE_RO(t_ro);
DEFINE_STATIC_KEY_FALSE_RO(f_ro);
DEFINE_STATIC_KEY_ARRAY_FALSE(f_arr, 3);
DEFINE_STATIC_KEY_ARRAY_TRUE(t_arr, 3);
DEFINE_STATIC_KEY_MAYBE(CONFIG_JUMP_LABEL, m_key);
DECLARE_STATIC_KEY_MAYBE(CONFIG_JUMP_LABEL, m_key);
DECLARE_STATIC_KEY_TRUE(t_key);

int typed_keys(void);
int typed_keys(void)
{
	int n = 0;

	n += static_branch_likely(&t_key) + static_branch_unlikely(&f_key);
	n += static_branch_likely(&f_ro) + static_branch_unlikely(&t_ro);
	n += static_branch_unlikely(&f_arr[1]) + static_branch_likely(&t_arr[2]);
	n += static_branch_maybe(CONFIG_JUMP_LABEL, &m_key);
	n += static_key_enabled(&t_key) + static_key_count(&f_key.key);
	static_branch_enable(&f_key);
	static_branch_inc(&t_key);
	return n;
}
