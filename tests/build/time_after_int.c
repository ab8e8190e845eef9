// expect: error: .*typecheck: expected deadline to be unsigned long
/* time_after() refuses a narrower (or signed) value than a jiffy count. */
#include <linux/jiffies.h>

int time_int(int deadline);
int time_int(int deadline)
{
	return time_after(jiffies, deadline);
}
