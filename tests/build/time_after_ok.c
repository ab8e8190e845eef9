// expect: success
/* The time_after() family on unsigned long and u64 values compiles clean. */
#include <linux/jiffies.h>

int time_ok(unsigned long deadline, u64 deadline64);
int time_ok(unsigned long deadline, u64 deadline64)
{
	unsigned long j = jiffies;

	return time_after(j, deadline) + time_before_eq(jiffies, deadline) +
	       time_in_range(j, deadline, deadline + HZ) +
	       time_after64(get_jiffies_64(), deadline64) +
	       (int)msecs_to_jiffies(10);
}
