// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction trace of a single-stepped session (<linux/bench.h>):
 * bench_step's trap calls bench_trace_step() after every instruction,
 * and the trace records each instruction that ran, in order, as
 *
 *   a header byte   bits 0-2 the kind of control transfer (BT_*), bit 3
 *                   taken (conditional branches), bit 4 a data read
 *                   follows
 *   its ip          zigzag varint, the difference from the previous ip
 *   its length      one byte, calls only (the return address they push)
 *   the read        zigzag varint, the difference from the previous read
 *
 * About 3 bytes an instruction. Data addresses are computed, not observed: the
 * trap sees the registers just before the instruction at regs->ip runs,
 * so decoding its memory operand (ModRM, SIB, displacement, RIP-relative
 * with the decoded length, %gs with the CPU's GS base) gives the address
 * it reads. One read per instruction: the explicit memory operand, unless
 * it is only written (mov/setcc to memory) or only addressed (lea, nop,
 * prefetch); else the implicit one (pop, ret, leave, popf, iret: the
 * stack; lods, movs, cmps: rsi; scas: rdi). Opcodes outside the general
 * purpose set the kernel is built with (-mgeneral-regs-only) are treated
 * as reading nothing.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <asm/bench_step.h>
#include <asm/bench_trace.h>
#include <asm/processor.h>
#include <asm/ptrace.h>

#define BT_LINE_BYTES 72 /* 96 base64 characters a line */

struct bt_insn {
	unsigned long ip;
	unsigned long read; /* the address read, if has_read */
	unsigned int len; /* conditional branches and calls only */
	u8 kind;
	bool has_read;
};

static struct {
	bool active;
	bool overflow;
	u8 *buf;
	size_t len, cap;
	unsigned long prev_ip, prev_read, gs_base;
	struct bt_insn next; /* decoded, about to run */
} btrace;

static void bt_put(u8 b)
{
	if (btrace.len < btrace.cap)
		btrace.buf[btrace.len++] = b;
	else
		btrace.overflow = true;
}

static void bt_varint(long v)
{
	unsigned long z = ((unsigned long)v << 1) ^ (unsigned long)(v >> 63);

	do {
		u8 b = z & 0x7f;

		z >>= 7;
		bt_put(b | (z ? 0x80 : 0));
	} while (z);
}

/* Register n of the ModRM/SIB numbering (rax, rcx, ... r15). */
static unsigned long bt_reg(const struct pt_regs *regs, unsigned int n)
{
	const unsigned long r[16] = {
		regs->rax, regs->rcx, regs->rdx, regs->rbx,
		regs->sp,  regs->rbp, regs->rsi, regs->rdi,
		regs->r8,  regs->r9,  regs->r10, regs->r11,
		regs->r12, regs->r13, regs->r14, regs->r15,
	};

	return r[n & 15];
}

struct bt_prefix {
	unsigned int n; /* bytes of prefixes and REX */
	bool opsize, gs;
	u8 rex;
};

static struct bt_prefix bt_prefixes(const u8 *p)
{
	struct bt_prefix px = { 0 };

	while (px.n < 4 && insn_is_prefix(p[px.n])) {
		px.opsize |= p[px.n] == 0x66;
		px.gs |= p[px.n] == 0x65;
		px.n++;
	}
	if ((p[px.n] & 0xf0) == 0x40)
		px.rex = p[px.n++];
	return px;
}

/* The one-byte opcodes with a ModRM byte. */
static bool bt_modrm1(u8 op)
{
	if (op < 0x40)
		return (op & 7) < 4;
	return op == 0x63 || op == 0x69 || op == 0x6b ||
	       (op >= 0x80 && op <= 0x8f) || op == 0xc0 || op == 0xc1 ||
	       op == 0xc6 || op == 0xc7 || (op >= 0xd0 && op <= 0xd3) ||
	       (op >= 0xd8 && op <= 0xdf) || op == 0xf6 || op == 0xf7 ||
	       op == 0xfe || op == 0xff;
}

/* The two-byte opcodes (0f xx) without one. */
static bool bt_no_modrm2(u8 op)
{
	return (op >= 0x05 && op <= 0x0b && op != 0x0d) || op == 0x0e ||
	       (op >= 0x30 && op <= 0x37) || op == 0x77 ||
	       (op >= 0x80 && op <= 0x8f) || op == 0xa0 || op == 0xa1 ||
	       op == 0xa2 || (op >= 0xa8 && op <= 0xaa) || op >= 0xc8;
}

/* Bytes of immediate after the ModRM operand. */
static unsigned int bt_imm(bool two, u8 op, u8 modrm, bool opsize)
{
	unsigned int z = opsize ? 2 : 4, reg = (modrm >> 3) & 7;

	if (two)
		return (op >= 0x70 && op <= 0x73) || op == 0xa4 || op == 0xac ||
				       op == 0xba || op == 0xc2 ||
				       (op >= 0xc4 && op <= 0xc6) ?
			       1 :
			       0;
	switch (op) {
	case 0x80:
	case 0x83:
	case 0x6b:
	case 0xc0:
	case 0xc1:
	case 0xc6:
		return 1;
	case 0x81:
	case 0x69:
	case 0xc7:
		return z;
	case 0xf6:
		return reg < 2 ? 1 : 0;
	case 0xf7:
		return reg < 2 ? z : 0;
	}
	return 0;
}

/* Does the memory operand of this opcode get read (not only written)? */
static bool bt_operand_read(bool two, u8 op, u8 modrm)
{
	unsigned int reg = (modrm >> 3) & 7;

	if (two)
		return op != 0x1f && !(op >= 0x18 && op <= 0x1e) &&
		       op != 0x0d && !(op >= 0x90 && op <= 0x9f) && op != 0xc3;
	switch (op) {
	case 0x88:
	case 0x89:
	case 0x8c:
	case 0x8d:
	case 0xc6:
	case 0xc7:
		return false;
	case 0x8f: /* pop r/m: the read is the stack's */
		return false;
	case 0xff: /* push r/m, call, jmp, inc, dec all read */
		return reg != 7;
	}
	return true;
}

/*
 * The ModRM operand at p (p[0] the ModRM byte) of an instruction that
 * starts at ip, whose opcode and prefixes took head bytes: its address
 * in *addr (true) or a register (false); *len the instruction's length.
 */
static bool bt_modrm_addr(const u8 *p, unsigned int head, unsigned int imm,
			  const struct bt_prefix *px, unsigned long ip,
			  const struct pt_regs *regs, unsigned long *addr,
			  unsigned int *len)
{
	unsigned int mod = p[0] >> 6, rm = p[0] & 7, n = 1;
	unsigned long ea = 0;
	bool rip = false;
	long disp = 0;

	if (rm == 4) {
		u8 sib = p[n++];
		unsigned int index = ((sib >> 3) & 7) | ((px->rex & 2) << 2);
		unsigned int base = (sib & 7) | ((px->rex & 1) << 3);

		if (index != 4)
			ea += bt_reg(regs, index) << (sib >> 6);
		if ((base & 7) == 5 && mod == 0)
			mod = 2; /* disp32, no base */
		else if (mod != 3)
			ea += bt_reg(regs, base);
	} else if (rm == 5 && mod == 0) {
		rip = true;
		mod = 2;
	} else if (mod != 3) {
		ea += bt_reg(regs, rm | ((px->rex & 1) << 3));
	}
	if (mod == 1) {
		disp = (s8)p[n];
		n += 1;
	} else if (mod == 2) {
		disp = (s32)(p[n] | p[n + 1] << 8 | p[n + 2] << 16 |
			     (u32)p[n + 3] << 24);
		n += 4;
	}
	*len = head + n + imm;
	if ((p[0] >> 6) == 3)
		return false;
	ea += disp;
	if (rip)
		ea += ip + *len;
	if (px->gs)
		ea += btrace.gs_base;
	*addr = ea;
	return true;
}

/* The implicit read of a one-byte opcode without ModRM, if it has one. */
static bool bt_implicit_read(u8 op, const struct pt_regs *regs,
			     unsigned long *addr)
{
	if ((op >= 0x58 && op <= 0x5f) || op == 0x8f || op == 0xc2 ||
	    op == 0xc3 || op == 0x9d || op == 0xca || op == 0xcb ||
	    op == 0xcf) {
		*addr = regs->sp;
		return true;
	}
	if (op == 0xc9) {
		*addr = regs->rbp;
		return true;
	}
	if ((op >= 0xa4 && op <= 0xa7) || op == 0xac || op == 0xad) {
		*addr = regs->rsi;
		return true;
	}
	if (op == 0xae || op == 0xaf) {
		*addr = regs->rdi;
		return true;
	}
	return false;
}

static u8 bt_kind1(u8 op, u8 modrm)
{
	unsigned int reg = (modrm >> 3) & 7;

	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3))
		return BT_COND;
	switch (op) {
	case 0xe9:
	case 0xeb:
		return BT_JMP;
	case 0xe8:
		return BT_CALL;
	case 0xc2:
	case 0xc3:
		return BT_RET;
	case 0x9a:
	case 0xea:
	case 0xca:
	case 0xcb:
	case 0xcc:
	case 0xcd:
	case 0xcf:
		return BT_OTHER;
	case 0xff:
		if (reg == 2)
			return BT_CALL_IND;
		if (reg == 4)
			return BT_JMP_IND;
		if (reg == 3 || reg == 5)
			return BT_OTHER;
	}
	return BT_PLAIN;
}

/* Decodes the instruction at ip, about to run in regs. */
static void bt_decode(struct bt_insn *in, unsigned long ip,
		      const struct pt_regs *regs)
{
	const u8 *p = (const u8 *)ip;
	struct bt_prefix px = bt_prefixes(p);
	unsigned int head = px.n + 1, len;
	u8 op = p[px.n];

	*in = (struct bt_insn){ .ip = ip };
	if (op == 0x0f) {
		op = p[px.n + 1];
		head++;
		if (op == 0x38 || op == 0x3a)
			head++; /* three-byte maps: ModRM, imm8 for 3a */
		if ((op & 0xf0) == 0x80) {
			in->kind = BT_COND;
			in->len = px.n + 6;
			return;
		}
		if (op == 0x05 || op == 0x07)
			in->kind = BT_OTHER;
		if (bt_no_modrm2(op))
			return;
		if (bt_modrm_addr(p + head, head,
				  op == 0x3a ?
					  1 :
					  bt_imm(true, op, p[head], px.opsize),
				  &px, ip, regs, &in->read, &len))
			in->has_read = bt_operand_read(true, op, p[head]);
		return;
	}
	in->kind = bt_kind1(op, p[head]);
	if (in->kind == BT_COND)
		in->len = px.n + 2;
	else if (in->kind == BT_CALL)
		in->len = px.n + 5;
	if (bt_modrm1(op)) {
		bool mem = bt_modrm_addr(p + head, head,
					 bt_imm(false, op, p[head], px.opsize),
					 &px, ip, regs, &in->read, &len);

		if (in->kind == BT_CALL_IND)
			in->len = len;
		if (mem && bt_operand_read(false, op, p[head])) {
			in->has_read = true;
			return;
		}
	}
	in->has_read = bt_implicit_read(op, regs, &in->read);
}

static void bt_emit(const struct bt_insn *in, unsigned long next_ip)
{
	u8 h = in->kind;

	if (in->kind == BT_COND && next_ip != in->ip + in->len)
		h |= BT_TAKEN;
	if (in->has_read)
		h |= BT_READ;
	bt_put(h);
	bt_varint((long)(in->ip - btrace.prev_ip));
	btrace.prev_ip = in->ip;
	if (in->kind == BT_CALL || in->kind == BT_CALL_IND)
		bt_put(in->len);
	if (in->has_read) {
		bt_varint((long)(in->read - btrace.prev_read));
		btrace.prev_read = in->read;
	}
}

void bench_trace_step(unsigned long prev_ip, const struct pt_regs *regs)
{
	if (!READ_ONCE(btrace.active))
		return;
	if (prev_ip && btrace.next.ip == prev_ip)
		bt_emit(&btrace.next, regs->ip);
	bt_decode(&btrace.next, regs->ip, regs);
}

int bench_trace_start(size_t bytes)
{
	bench_trace_free();
	btrace.buf = kmalloc(bytes, GFP_KERNEL);
	if (!btrace.buf)
		return -ENOMEM;
	btrace.cap = bytes;
	btrace.len = 0;
	btrace.overflow = false;
	btrace.prev_ip = 0;
	btrace.prev_read = 0;
	btrace.next.ip = 0;
	btrace.gs_base = rdmsr(MSR_GS_BASE);
	WRITE_ONCE(btrace.active, true);
	return 0;
}

void bench_trace_stop(void)
{
	WRITE_ONCE(btrace.active, false);
}

const u8 *bench_trace_bytes(size_t *len)
{
	*len = btrace.len;
	return btrace.buf;
}

bool bench_trace_overflowed(void)
{
	return btrace.overflow;
}

void bench_trace_free(void)
{
	bench_trace_stop();
	kfree(btrace.buf);
	btrace.buf = NULL;
	btrace.cap = 0;
	btrace.len = 0;
}

static const char bt_b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* One line of base64: n (at most BT_LINE_BYTES) bytes of p. */
static void bt_dump_line(const u8 *p, size_t n)
{
	char out[BT_LINE_BYTES / 3 * 4 + 1];
	size_t i, o = 0;

	for (i = 0; i < n; i += 3) {
		u32 v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) |
			(i + 2 < n ? p[i + 2] : 0);

		out[o++] = bt_b64[v >> 18 & 63];
		out[o++] = bt_b64[v >> 12 & 63];
		out[o++] = i + 1 < n ? bt_b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? bt_b64[v & 63] : '=';
	}
	out[o] = '\0';
	printk("FOOTPRINT data %s\n", out);
}

/*
 * Prints the trace for the host (scripts/bench_footprint.py): a begin
 * line with its name, length and FNV-1a hash, the bytes in base64 lines,
 * an end line. A trace that overflowed its buffer is printed as such
 * (overflow 1) with no data: the host refuses it.
 */
void bench_trace_dump(const char *name)
{
	u32 fnv = 0x811c9dc5;
	size_t i;

	bench_trace_stop();
	for (i = 0; i < btrace.len; i++)
		fnv = (fnv ^ btrace.buf[i]) * 0x01000193;
	printk("FOOTPRINT begin {\"name\": \"%s\", \"bytes\": %zu, \"fnv\": %u, \"overflow\": %d}\n",
	       name, btrace.overflow ? 0 : btrace.len, fnv, btrace.overflow);
	for (i = 0; !btrace.overflow && i < btrace.len; i += BT_LINE_BYTES)
		bt_dump_line(btrace.buf + i,
			     min_t(size_t, BT_LINE_BYTES, btrace.len - i));
	printk("FOOTPRINT end %s\n", name);
}
