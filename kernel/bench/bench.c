// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark runner: bench=GLOB selects cases by name; each runs once and
 * prints its figures; KTAP around them tells the host runner how it went.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

extern const struct bench_case __bench_cases_start[], __bench_cases_end[];

static char *bench_glob;
core_param_named("bench", bench_glob, charp);

static unsigned int bench_reports;

bool bench_requested(void)
{
	return bench_glob && *bench_glob;
}

void bench_report(const char *name, const char *params, u64 value_x100,
		  const char *unit)
{
	printk("BENCH {\"name\": \"%s\", \"params\": \"%s\", \"value\": %llu.%02llu, \"unit\": \"%s\"}\n",
	       name, params, value_x100 / 100, value_x100 % 100, unit);
	bench_reports++;
}

/* The smallest of a few tries: an interrupt in one of them does not count. */
u64 bench_empty_region(void)
{
	u64 best = ~0ULL;
	int i;

	for (i = 0; i < 8; i++) {
		u64 t0 = bench_cycles(), t1 = bench_cycles();

		best = min(best, t1 - t0);
	}
	return best;
}

u64 bench_per_call_x100(int (*fn)(void), unsigned int n)
{
	u64 empty = bench_empty_region(), best = ~0ULL;
	int i, j;

	for (j = 0; j < 3; j++) {
		u64 t0 = bench_cycles(), t;

		for (i = 0; i < n; i++)
			fn();
		t = bench_cycles() - t0;
		best = min(best, t > empty ? t - empty : 0);
	}
	return best * 100 / n;
}

static bool bench_selected(const char *glob, const struct bench_case *c)
{
	return glob_match(glob, c->name);
}

int bench_run_all(void)
{
	return bench_run_glob(bench_glob);
}

int bench_run_glob(const char *glob)
{
	const struct bench_case *c;
	int nr = 0, failed = 0;

	for (c = __bench_cases_start; c < __bench_cases_end; c++)
		nr += bench_selected(glob, c);
	if (!nr) {
		printk("KTAP version 1\n1..0\n");
		pr_err("bench: no benchmark matches bench=%s: nothing ran\n",
		       glob);
		return -ENOENT;
	}
	printk("KTAP version 1\n1..1\n");
	printk("    KTAP version 1\n    # Subtest: bench\n    1..%d\n", nr);
	nr = 0;
	for (c = __bench_cases_start; c < __bench_cases_end; c++) {
		unsigned int before = bench_reports;

		if (!bench_selected(glob, c))
			continue;
		c->run();
		if (bench_reports == before) {
			printk("    # %s: reported no figure\n", c->name);
			failed++;
		}
		printk("    %s %d %s\n", bench_reports > before ? "ok" : "not ok",
		       ++nr, c->name);
	}
	printk("%s 1 bench\n", failed ? "not ok" : "ok");
	return failed;
}
