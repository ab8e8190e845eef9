// SPDX-License-Identifier: GPL-2.0
/*
 * bench_jl: a Linux module (built against Debian's linux-headers-amd64)
 * that times the flip of its own static keys, of 1, 4, 56, 256 and 1,024
 * sites, as this project's bench=flip does (kernel/bench/jump_label_bench.c):
 * rdtsc around static_branch_enable() then static_branch_disable(), less
 * an empty timed region, halved: instructions per flip under -icount.
 * Each key is flipped BJL_ROUNDS times; /proc/bench_jl holds one line a
 * key:
 *
 *     flip sites=N first=F mean=M min=L
 *
 * and "error ..." lines if a site did not follow its key.
 */
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <asm/msr.h>

#define BJL_ROUNDS 4

#define BJL_S1(k) n += static_branch_unlikely(&k);
#define BJL_S4(k) BJL_S1(k) BJL_S1(k) BJL_S1(k) BJL_S1(k)
#define BJL_S8(k) BJL_S4(k) BJL_S4(k)
#define BJL_S56(k) BJL_S8(k) BJL_S8(k) BJL_S8(k) BJL_S8(k) \
		   BJL_S8(k) BJL_S8(k) BJL_S8(k)
#define BJL_S64(k) BJL_S56(k) BJL_S8(k)
#define BJL_S256(k) BJL_S64(k) BJL_S64(k) BJL_S64(k) BJL_S64(k)
#define BJL_KEY(nr, body)                      \
	static DEFINE_STATIC_KEY_FALSE(bjl_k##nr); \
	static noinline int bjl_fn##nr(void)       \
	{                                          \
		int n = 0;                         \
		body                               \
		return n;                          \
	}

BJL_KEY(1, BJL_S1(bjl_k1))
BJL_KEY(4, BJL_S4(bjl_k4))
BJL_KEY(56, BJL_S56(bjl_k56))
BJL_KEY(256, BJL_S256(bjl_k256))
BJL_KEY(1024, BJL_S256(bjl_k1024) BJL_S256(bjl_k1024)
	      BJL_S256(bjl_k1024) BJL_S256(bjl_k1024))

static const struct {
	struct static_key_false *key;
	int (*fn)(void);
	int sites;
} bjl_keys[] = {
	{ &bjl_k1, bjl_fn1, 1 },       { &bjl_k4, bjl_fn4, 4 },
	{ &bjl_k56, bjl_fn56, 56 },    { &bjl_k256, bjl_fn256, 256 },
	{ &bjl_k1024, bjl_fn1024, 1024 },
};

static char bjl_out[1024];
static size_t bjl_len;

static __printf(1, 2) void bjl_line(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	bjl_len += vscnprintf(bjl_out + bjl_len, sizeof(bjl_out) - bjl_len,
			      fmt, args);
	va_end(args);
}

static u64 bjl_empty(void)
{
	u64 t0 = rdtsc_ordered();

	return rdtsc_ordered() - t0;
}

static void bjl_flip(unsigned int i)
{
	u64 first = 0, sum = 0, min = U64_MAX, t0, t;
	int r, on, off;

	for (r = 0; r < BJL_ROUNDS; r++) {
		u64 empty = bjl_empty();

		t0 = rdtsc_ordered();
		static_branch_enable(bjl_keys[i].key);
		on = bjl_keys[i].fn();
		static_branch_disable(bjl_keys[i].key);
		t = rdtsc_ordered() - t0 - empty;
		off = bjl_keys[i].fn();
		if (on != bjl_keys[i].sites || off)
			bjl_line("error sites=%d on=%d off=%d\n",
				 bjl_keys[i].sites, on, off);
		t /= 2;
		if (!r)
			first = t;
		sum += t;
		min = min(min, t);
	}
	bjl_line("flip sites=%d first=%llu mean=%llu min=%llu\n",
		 bjl_keys[i].sites, first, sum / BJL_ROUNDS, min);
}

static int bjl_show(struct seq_file *m, void *v)
{
	seq_write(m, bjl_out, bjl_len);
	return 0;
}

static int __init bjl_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bjl_keys); i++)
		bjl_flip(i);
	if (!proc_create_single("bench_jl", 0444, NULL, bjl_show))
		return -ENOMEM;
	return 0;
}

static void __exit bjl_exit(void)
{
	remove_proc_entry("bench_jl", NULL);
}

module_init(bjl_init);
module_exit(bjl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("static key flip cost, for the hobby kernel's make bench");
