/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TEXT_PATCHING_H
#define _ASM_X86_TEXT_PATCHING_H

#include <linux/init.h>
#include <linux/memory.h>
#include <linux/types.h>
#include <asm/jump_label_insn.h>

/* A batch entry holds an instruction of at most this many bytes. */
#define POKE_MAX_OPCODE_SIZE 5

/*
 * The instructions the patcher writes and emulates, encoded, decoded and
 * compared here only: the jump-label sites (a NOP or a jmp of 2 or 5
 * bytes, the bytes in <asm/jump_label_insn.h>, which the host tools share)
 * and the int3 of the batch protocol. Fixed-size copies and compares:
 * these run for every site of every flip.
 */

/* The NOP of size (2 or 5) bytes into insn. */
static __always_inline void text_gen_nop(u8 *insn, int size)
{
	static const u8 nop2[] = { JUMP_LABEL_NOP2_BYTES };
	static const u8 nop5[] = { JUMP_LABEL_NOP5_BYTES };

	if (size == JUMP_LABEL_SHORT_SIZE)
		__builtin_memcpy(insn, nop2, JUMP_LABEL_SHORT_SIZE);
	else
		__builtin_memcpy(insn, nop5, JUMP_LABEL_LONG_SIZE);
}

/* The jmp of size (2 or 5) bytes at addr to dest into insn. */
static __always_inline void text_gen_jmp(u8 *insn, int size,
					 unsigned long addr,
					 unsigned long dest)
{
	long disp = (long)dest - (long)(addr + size);
	s32 rel32 = disp;

	if (size == JUMP_LABEL_SHORT_SIZE) {
		insn[0] = JMP8_INSN_OPCODE;
		insn[1] = (s8)disp;
	} else {
		insn[0] = JMP32_INSN_OPCODE;
		__builtin_memcpy(insn + 1, &rel32, sizeof(rel32));
	}
}

/* True if the first byte of a site is its short (2-byte) form. */
static __always_inline bool text_insn_is_short(u8 op)
{
	static const u8 nop2[] = { JUMP_LABEL_NOP2_BYTES };

	return op == JMP8_INSN_OPCODE || op == nop2[0];
}

/* Where the instruction insn (len bytes, at addr) sends the CPU. */
static __always_inline unsigned long
text_insn_dest(const u8 *insn, unsigned int len, unsigned long addr)
{
	unsigned long next = addr + len;
	s32 rel32;

	switch (insn[0]) {
	case JMP8_INSN_OPCODE:
		return next + (s8)insn[1];
	case JMP32_INSN_OPCODE:
		__builtin_memcpy(&rel32, insn + 1, sizeof(rel32));
		return next + rel32;
	default: /* a NOP */
		return next;
	}
}

/* len (1 to POKE_MAX_OPCODE_SIZE) bytes from src to dst. */
static __always_inline void text_insn_copy(u8 *dst, const u8 *src,
					   unsigned int len)
{
	switch (len) {
	case 1:
		*dst = *src;
		break;
	case 2:
		__builtin_memcpy(dst, src, 2);
		break;
	case 4:
		__builtin_memcpy(dst, src, 4);
		break;
	case 5:
		__builtin_memcpy(dst, src, 4);
		dst[4] = src[4];
		break;
	default:
		__builtin_memcpy(dst, src, 3);
		break;
	}
}

/* True if the len (1 to POKE_MAX_OPCODE_SIZE) bytes at a and b match. */
static __always_inline bool text_insn_same(const u8 *a, const u8 *b,
					   unsigned int len)
{
	u32 x, y;
	u16 p, q;

	switch (len) {
	case 1:
		return *a == *b;
	case 2:
		__builtin_memcpy(&p, a, 2);
		__builtin_memcpy(&q, b, 2);
		return p == q;
	case 3:
		__builtin_memcpy(&p, a, 2);
		__builtin_memcpy(&q, b, 2);
		return p == q && a[2] == b[2];
	default:
		__builtin_memcpy(&x, a, 4);
		__builtin_memcpy(&y, b, 4);
		return x == y && (len == 4 || a[4] == b[4]);
	}
}

/*
 * text_mutex (<linux/memory.h>) serializes every write of kernel text (the
 * alias mapping is one per system). Every function below must be called
 * with it held, and asserts so with lockdep_assert_held().
 */

/*
 * Writes len (<= PAGE_SIZE) bytes of kernel text at addr through a
 * temporary writable alias of its page(s) (the text mapping itself stays
 * read-only), serializes this CPU and reads the bytes back through the text
 * mapping: any mismatch is a panic. For text no other CPU is running.
 */
void text_poke(void *addr, const void *opcode, size_t len);

/*
 * Batches: text_poke_queue() records a change of at most
 * POKE_MAX_OPCODE_SIZE bytes, text_poke_finish() writes all recorded
 * changes with the int3 protocol (see text_patch.c), safely for other CPUs
 * executing them. The queue never refuses a change: it grows, and when
 * memory runs out it applies what it holds and starts over. May sleep.
 */
void text_poke_queue(void *addr, const void *opcode, size_t len);
void text_poke_finish(void);

/*
 * text_poke_finish_nx() writes a queue of sites in text mapped
 * non-executable (a module's before its final protections): one pass, no
 * int3, no sync round; a batch as text_poke_finish() if any site is
 * executable.
 */
void text_poke_finish_nx(void);

/*
 * The queue itself, for encoders that write a change's bytes in place
 * (arch_jump_label_transform_queue()): tp_vec[0..tp_nr) of tp_cap, and
 * whether a change was queued below the one before it (the batch then
 * sorts). Under text_mutex.
 */
struct text_poke_loc {
	void *addr;
	u8 len;
	u8 opcode[POKE_MAX_OPCODE_SIZE];
};

extern struct text_poke_loc *tp_vec;
extern unsigned int tp_nr, tp_cap;
extern bool tp_unsorted;

/* Grows the full queue, or applies what it holds if memory runs out. */
void text_poke_make_room(void);

/* Returns true if the queue has no room left (text_poke_make_room()). */
static __always_inline bool text_poke_queue_full(void)
{
	return tp_nr == tp_cap;
}

/* Returns the next slot of a queue that has room; it is not queued yet. */
static __always_inline struct text_poke_loc *text_poke_queue_next(void)
{
	return &tp_vec[tp_nr];
}

/*
 * Returns the queue's next slot, with room made for it (which may apply
 * what the queue held), not queued yet; text_poke_queue_commit() queues
 * it. As text_poke_queue() without the call, for a caller that holds
 * text_mutex (the text batch checks it once a batch) and writes the
 * opcode itself.
 */
static __always_inline struct text_poke_loc *text_poke_queue_reserve(void)
{
	if (unlikely(text_poke_queue_full()))
		text_poke_make_room();
	return text_poke_queue_next();
}

/* Queues the reserved slot tp: a change of len bytes at addr. */
static __always_inline void text_poke_queue_commit(struct text_poke_loc *tp,
						   void *addr, u8 len)
{
	if (tp_nr && addr <= tp[-1].addr)
		tp_unsorted = true;
	tp_nr++;
	tp->addr = addr;
	tp->len = len;
}

/* Registers the int3 handler of the batches; once, during boot. */
void __init text_poke_init(void);

#endif /* _ASM_X86_TEXT_PATCHING_H */
