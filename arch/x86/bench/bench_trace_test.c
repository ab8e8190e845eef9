// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "bench_trace": the instruction trace of a single-stepped
 * session (arch/x86/bench/bench_trace.c) holds what ran. The body below
 * is assembly, so that every instruction, its length and what it reads
 * are known; the assembler writes the offset of each instruction into
 * btt_offsets[], and the case decodes the trace and compares.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/preempt.h>
#include <asm/bench_trace.h>
#include <kunit/test.h>

void bench_trace_test_body(u64 *p, unsigned long i);

u64 bench_trace_test_var = 0x1234;
extern const u32 bench_trace_test_offsets[];

/*
 * Called with p = btt_arr (p[1] == 0) and i = 2. It runs the labels 0-5,
 * 7 (the jz skips 6), the leaf's 11 and 12, then 8-10; the offsets of
 * those instructions, in that order, then the call's length.
 */
asm(".pushsection .text\n"
    ".globl bench_trace_test_body\n"
    "bench_trace_test_body:\n"
    "0:	movq bench_trace_test_var(%rip), %rax\n" /* reads var */
    "1:	movq 8(%rdi), %rcx\n" /* reads p + 8 */
    "2:	movq %rax, 16(%rdi)\n" /* writes only */
    "3:	leaq 24(%rdi), %rdx\n" /* reads nothing */
    "4:	testq %rcx, %rcx\n"
    "5:	jz 7f\n" /* taken */
    "6:	nop\n" /* skipped */
    "7:	call bench_trace_test_leaf\n"
    "8:	pushq %rdi\n" /* writes only */
    "9:	popq %rdi\n" /* reads the stack */
    "10:	ret\n"
    "bench_trace_test_leaf:\n"
    "11:	movl (%rdi,%rsi,8), %eax\n" /* reads p + 16 */
    "12:	ret\n"
    ".popsection\n"
    ".pushsection .rodata\n"
    ".balign 4\n"
    "bench_trace_test_offsets:\n"
    ".long 0b - 0b, 1b - 0b, 2b - 0b, 3b - 0b, 4b - 0b, 5b - 0b\n"
    ".long 7b - 0b, 11b - 0b, 12b - 0b, 8b - 0b, 9b - 0b, 10b - 0b\n"
    ".long 8b - 7b\n"
    ".popsection");

static u64 btt_arr[4];

struct btt_rec {
	unsigned long ip, read;
	u8 head, call_len;
};

static unsigned long btt_varint(const u8 *p, size_t len, size_t *pos)
{
	unsigned long z = 0;
	unsigned int shift = 0;

	while (*pos < len) {
		u8 b = p[(*pos)++];

		z |= (unsigned long)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return (z >> 1) ^ -(z & 1);
}

/* Decodes the trace into recs; returns how many (at most max). */
static unsigned int btt_decode(struct btt_rec *recs, unsigned int max)
{
	size_t len, pos = 0;
	const u8 *p = bench_trace_bytes(&len);
	unsigned long ip = 0, read = 0;
	unsigned int n = 0;

	while (p && pos < len && n < max) {
		struct btt_rec *r = &recs[n++];

		r->head = p[pos++];
		ip += btt_varint(p, len, &pos);
		r->ip = ip;
		r->call_len = 0;
		if ((r->head & BT_KIND) == BT_CALL ||
		    (r->head & BT_KIND) == BT_CALL_IND)
			r->call_len = p[pos++];
		r->read = 0;
		if (r->head & BT_READ) {
			read += btt_varint(p, len, &pos);
			r->read = read;
		}
	}
	return n;
}

#define BTT_RECS 512

static void btt_test_known_body(struct kunit *test)
{
	static const struct {
		u8 head;
		unsigned long read; /* 1: the stack, checked apart */
	} want[] = {
		{ BT_PLAIN | BT_READ, (unsigned long)&bench_trace_test_var },
		{ BT_PLAIN | BT_READ, (unsigned long)&btt_arr[1] },
		{ BT_PLAIN, 0 },
		{ BT_PLAIN, 0 },
		{ BT_PLAIN, 0 },
		{ BT_COND | BT_TAKEN, 0 },
		{ BT_CALL, 0 },
		{ BT_PLAIN | BT_READ, (unsigned long)&btt_arr[2] },
		{ BT_RET | BT_READ, 1 },
		{ BT_PLAIN, 0 },
		{ BT_PLAIN | BT_READ, 1 },
		{ BT_RET | BT_READ, 1 },
	};
	unsigned long body = (unsigned long)bench_trace_test_body;
	unsigned long stack = (unsigned long)&body;
	struct btt_rec *recs;
	struct bench_step_counts c;
	unsigned int n, i, at;

	recs = kunit_kzalloc(test, BTT_RECS * sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_EQ(test, bench_trace_start(BTT_RECS * 4), 0);
	preempt_disable();
	if (bench_step_start()) {
		preempt_enable();
		bench_trace_free();
		KUNIT_FAIL(test, "bench_step_start() failed");
		return;
	}
	bench_trace_test_body(btt_arr, 2);
	bench_step_stop(&c);
	bench_trace_stop();
	preempt_enable();
	n = btt_decode(recs, BTT_RECS);
	bench_trace_free();

	for (at = 0; at < n && recs[at].ip != body; at++)
		;
	KUNIT_ASSERT_LE(test, at + ARRAY_SIZE(want), n);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct btt_rec *r = &recs[at + i];

		KUNIT_EXPECT_EQ(test, r->ip,
				body + bench_trace_test_offsets[i]);
		KUNIT_EXPECT_EQ(test, r->head, want[i].head);
		if (want[i].read == 1) /* within this stack's 16 KiB */
			KUNIT_EXPECT_LT(test, r->read - stack + 0x4000, 0x8000);
		else
			KUNIT_EXPECT_EQ(test, r->read, want[i].read);
	}
	KUNIT_EXPECT_EQ(test, recs[at + 6].call_len,
			bench_trace_test_offsets[12]);
}

/* The buffer full: the trace says so and the dump gives no data. */
static void btt_test_overflow(struct kunit *test)
{
	size_t len;
	u64 log;

	KUNIT_ASSERT_EQ(test, bench_trace_start(8), 0);
	preempt_disable();
	if (!bench_step_start()) {
		bench_trace_test_body(btt_arr, 2);
		bench_step_stop(&(struct bench_step_counts){ 0 });
	}
	preempt_enable();
	KUNIT_EXPECT_NOT_NULL(test, bench_trace_bytes(&len));
	KUNIT_EXPECT_EQ(test, len, 8);
	KUNIT_EXPECT_TRUE(test, bench_trace_overflowed());
	/* The dump says so and gives no data. */
	log = printk_log_end();
	bench_trace_dump("btt_overflow");
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(log, "FOOTPRINT begin {\"name\": "
					 "\"btt_overflow\", \"bytes\": 0,"));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, "\"overflow\": 1}"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, "FOOTPRINT end btt_overflow"));
	bench_trace_free();
	KUNIT_EXPECT_NULL(test, bench_trace_bytes(&len));
	KUNIT_EXPECT_EQ(test, len, 0);
}

static struct kunit_case btt_cases[] = { KUNIT_CASE(btt_test_known_body),
					 KUNIT_CASE(btt_test_overflow),
					 {} };

static struct kunit_suite btt_suite = {
	.name = "bench_trace",
	.test_cases = btt_cases,
};
kunit_test_suite(btt_suite);
