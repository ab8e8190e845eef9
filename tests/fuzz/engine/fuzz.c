// SPDX-License-Identifier: GPL-2.0
/*
 * The static key engine on the host, driven by threads: the engine's own
 * files (kernel/jump_label/, kernel/static_call/, kernel/module/text_sites.c
 * and x86's site encoders) over the kernel of kernel.c, built under
 * ThreadSanitizer or under ASan and UBSan.
 *
 * The world, made from the seed before boot, as the build makes the image:
 *   - kernel keys of every kind (FALSE and TRUE arrays counted by inc/dec,
 *     booleans flipped by enable/disable, deferred keys, a key for each
 *     misuse a case does on purpose), each with 1 to 4 sites of 2 or 5
 *     bytes in fake text, likely or unlikely, some in init text, holding
 *     their initial instruction (as scripts/jump_label_fixup writes it), in
 *     a jump table left unsorted for the boot sort;
 *   - static calls with sites that call their trampoline, and trampolines
 *     that jump to their first target (two calls may be NULL);
 *   - module slots in one pool: a load makes a module with its own keys
 *     (one deferred), sites on its keys and the kernel's, some in its init
 *     text, and static call sites; loads can be made to run out of memory,
 *     and their init to fail.
 *
 * Then boot (jump_label_init(), static_call_init(), init text freed), and
 * N workers doing random operations: inc/dec, fast inc, the _cpuslocked
 * calls with and without the lock, enable/disable, deferred inc/dec,
 * static call updates, queued batches of keys and calls (applied or
 * dropped), "CPU hotplug" callbacks flipping keys under the write lock,
 * module loads and unloads. Meanwhile the main thread checks, with every
 * lock of a flip held, that every live site holds the instruction of its
 * key's state (or its call's target), that freed init text and free module
 * slots hold their poison (nothing wrote there), and every count is sane.
 * At the end: each counted key's count is what the workers did to it, the
 * WARNs are exactly those of the misuses done on purpose, and once all is
 * undone every site is back in its initial state, no work is pending and
 * no allocation is left.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/jump_label.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/jump_label_table.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/static_call_arch.h>
#include <linux/string.h>
#include <asm/static_call.h>
#include <asm/text-patching.h>
#include "kernel/module/internal.h"
#include "kernel/static_call/internal.h"
#include "host.h"
#include "fuzz.h"

#define POISON_INIT 0xcc /* freed init text */
#define POISON_FREE 0xdd /* a module slot nothing may write */

/* ---- keys ---------------------------------------------------------------- */

#define NR_REF 8 /* each of the two arrays counted by inc/dec */
#define NR_BOOL 4 /* each of the two arrays of booleans */

DEFINE_STATIC_KEY_ARRAY_FALSE(ref_false, NR_REF);
DEFINE_STATIC_KEY_ARRAY_TRUE(ref_true, NR_REF);
DEFINE_STATIC_KEY_ARRAY_FALSE(bool_false, NR_BOOL);
DEFINE_STATIC_KEY_ARRAY_TRUE(bool_true, NR_BOOL);
DEFINE_STATIC_KEY_DEFERRED_FALSE(def_false0, 1);
DEFINE_STATIC_KEY_DEFERRED_FALSE(def_false1, 3);
DEFINE_STATIC_KEY_DEFERRED_TRUE(def_true0, 2);
DEFINE_STATIC_KEY_DEFERRED_TRUE(def_true1, 1);
DEFINE_STATIC_KEY_FALSE(mis_underflow); /* decremented at 0, never inc'd */
DEFINE_STATIC_KEY_FALSE(mis_mixed); /* at 2 by incs; enabled, disabled */
DEFINE_STATIC_KEY_FALSE(mis_unlocked); /* _cpuslocked calls without it */
DEFINE_STATIC_KEY_FALSE(pad_key); /* the table's remaining sites */

enum key_kind { K_REF, K_BOOL, K_DEF, K_UNDERFLOW, K_MIXED, K_UNLOCKED, K_PAD };

struct fkey {
	struct static_key *key;
	struct static_key_deferred *dk; /* K_DEF */
	enum key_kind kind;
	char name[24];
};

static struct fkey keys[2 * NR_REF + 2 * NR_BOOL + 4 + 4];
static unsigned int nr_keys;

static void key_add(struct static_key *key, struct static_key_deferred *dk,
		    enum key_kind kind, const char *name, int i)
{
	struct fkey *k = &keys[nr_keys++];

	k->key = key;
	k->dk = dk;
	k->kind = kind;
	if (i >= 0)
		snprintf(k->name, sizeof(k->name), "%s[%d]", name, i);
	else
		snprintf(k->name, sizeof(k->name), "%s", name);
}

static void keys_init(void)
{
	int i;

	for (i = 0; i < NR_REF; i++) {
		key_add(&ref_false[i].key, NULL, K_REF, "ref_false", i);
		key_add(&ref_true[i].key, NULL, K_REF, "ref_true", i);
	}
	for (i = 0; i < NR_BOOL; i++) {
		key_add(&bool_false[i].key, NULL, K_BOOL, "bool_false", i);
		key_add(&bool_true[i].key, NULL, K_BOOL, "bool_true", i);
	}
	key_add(&def_false0.key.key, (void *)&def_false0, K_DEF, "def_false0",
		-1);
	key_add(&def_false1.key.key, (void *)&def_false1, K_DEF, "def_false1",
		-1);
	key_add(&def_true0.key.key, (void *)&def_true0, K_DEF, "def_true0", -1);
	key_add(&def_true1.key.key, (void *)&def_true1, K_DEF, "def_true1", -1);
	key_add(&mis_underflow.key, NULL, K_UNDERFLOW, "mis_underflow", -1);
	key_add(&mis_mixed.key, NULL, K_MIXED, "mis_mixed", -1);
	key_add(&mis_unlocked.key, NULL, K_UNLOCKED, "mis_unlocked", -1);
	key_add(&pad_key.key, NULL, K_PAD, "pad_key", -1);
}

/* Counted keys: the workers' inc/dec are summed against the count. */
static bool key_counted(const struct fkey *k)
{
	return k->kind == K_REF || k->kind == K_DEF || k->kind == K_UNLOCKED;
}

static bool key_default(const struct static_key *key)
{
	return key->type & JUMP_TYPE_TRUE;
}

/* ---- fake text and the kernel's tables ---------------------------------- */

#define TEXT_SIZE 65536
#define INIT_OFF 49152 /* the last quarter is init text */
#define NR_KENTRIES 160
#define NR_SC 6
#define NR_KSC_SITES 20

u8 fuzz_text[TEXT_SIZE] __aligned(4096);
struct jump_entry __start___jump_table[NR_KENTRIES];
struct static_call_site __start_static_call_sites[NR_KSC_SITES];
struct static_call_tramp_key __start_static_call_tramp_key[NR_SC];
bool init_mem_available = true;
/* No __ro_after_init keys: the region is empty. */
char fuzz_ro_after_init[1];

#define __S(x) #x
#define S(x) __S(x)
asm(".globl __stop___jump_table\n\t"
    ".set __stop___jump_table, __start___jump_table + " S(
	    NR_KENTRIES) " * 12\n\t"
			 ".globl __stop_static_call_sites\n\t"
			 ".set __stop_static_call_sites, __start_static_call_sites + " S(
				 NR_KSC_SITES) " * 8\n\t"
					       ".globl __stop_static_call_tramp_key\n\t"
					       ".set __stop_static_call_tramp_key, __start_static_call_tramp_key + " S(
						       NR_SC) " * 8\n\t"
							      ".globl __init_text_begin\n\t"
							      ".set __init_text_begin, fuzz_text + " S(
								      INIT_OFF) "\n\t"
										".globl __init_text_end\n\t"
										".set __init_text_end, fuzz_text + " S(
											TEXT_SIZE) "\n\t"
												   ".globl __start_ro_after_init\n\t"
												   ".set __start_ro_after_init, fuzz_ro_after_init\n\t"
												   ".globl __end_ro_after_init\n\t"
												   ".set __end_ro_after_init, fuzz_ro_after_init\n\t");

/* A jump label site, as the fuzzer knows it (not as the table says). */
struct fsite {
	u8 *code;
	unsigned long target;
	struct static_key *key;
	u8 size;
	bool branch;
	bool init;
};

static struct fsite ksites[NR_KENTRIES];

/* The instruction a site must hold when its key is (or is not) enabled. */
static void site_insn(const struct fsite *s, bool enabled, u8 *insn)
{
	if (enabled ^ s->branch)
		text_gen_jmp(insn, s->size, (unsigned long)s->code, s->target);
	else
		text_gen_nop(insn, s->size);
}

static void entry_set(struct jump_entry *e, const struct fsite *s)
{
	e->code = (long)s->code - (long)&e->code;
	e->target = (long)s->target - (long)&e->target;
	e->key = ((long)s->key - (long)&e->key) |
		 (s->branch ? JUMP_ENTRY_BRANCH : 0);
}

/* Static calls: keys made as DEFINE_STATIC_CALL() would, in fake text. */
struct fsc {
	struct static_call_key key;
	char name[8];
	unsigned int nr; /* kernel sites */
};
static struct fsc calls[NR_SC];
static struct {
	u8 *addr;
	struct static_call_key *key;
	bool tail;
	bool init;
} ksc_sites[NR_KSC_SITES];

/* Targets a call may take: never run, only pointed at. */
static long fuzz_target_a(void)
{
	return 1;
}
static long fuzz_target_b(void)
{
	return 2;
}
static long fuzz_target_c(void)
{
	return 3;
}
static void *const targets[] = {
	fuzz_target_a,	       fuzz_target_b, fuzz_target_c,
	__static_call_return0, NULL,
};

/* ---- the random numbers -------------------------------------------------- */

static u64 rnd(u64 *s)
{
	u64 x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static unsigned int rnd_below(u64 *s, unsigned int n)
{
	return (rnd(s) >> 16) % n;
}

/* ---- building the image -------------------------------------------------- */

static unsigned int text_used; /* next free byte of the live text */
static unsigned int init_used = INIT_OFF;

/* Room for len bytes of text plus a gap, in init text or not. */
static u8 *text_alloc(unsigned int len, bool init)
{
	unsigned int *used = init ? &init_used : &text_used;
	unsigned int end = init ? TEXT_SIZE : INIT_OFF;
	u8 *p;

	if (*used + len + 16 > end)
		panic("fuzz: fake text full");
	p = fuzz_text + *used;
	*used += len + 8;
	return p;
}

/* A site of key in [text), its target just past it, holding its state. */
static void site_make(struct fsite *s, struct static_key *key, u64 *r,
		      u8 *(*alloc)(unsigned int len, bool init, void *arg),
		      void *arg, bool may_init, bool born_jmp)
{
	u8 insn[JUMP_LABEL_MAX_SIZE];

	s->key = key;
	s->size = rnd_below(r, 2) ? JUMP_LABEL_SHORT_SIZE :
				    JUMP_LABEL_LONG_SIZE;
	s->branch = rnd_below(r, 2);
	s->init = may_init && !rnd_below(r, 6);
	s->code = alloc(s->size + 8, s->init, arg);
	s->target = (unsigned long)s->code + s->size + rnd_below(r, 8);
	if (born_jmp)
		text_gen_jmp(insn, s->size, (unsigned long)s->code, s->target);
	else
		site_insn(s, key_default(key), insn);
	memcpy(s->code, insn, s->size);
}

static u8 *kernel_alloc(unsigned int len, bool init, void *unused)
{
	return text_alloc(len, init);
}

static void build_jump_table(u64 *r)
{
	unsigned int i, j, n = 0, order[NR_KENTRIES];
	struct jump_entry tmp;

	for (i = 0; i < nr_keys; i++) {
		unsigned int sites =
			keys[i].kind == K_PAD ? 0 : 1 + rnd_below(r, 4);

		for (j = 0; j < sites && n < NR_KENTRIES; j++)
			site_make(&ksites[n++], keys[i].key, r, kernel_alloc,
				  NULL, true, false);
	}
	while (n < NR_KENTRIES)
		site_make(&ksites[n++], &pad_key.key, r, kernel_alloc, NULL,
			  true, false);
	/* The entries in a random order: jump_label_init() sorts them. */
	for (i = 0; i < NR_KENTRIES; i++)
		order[i] = i;
	for (i = NR_KENTRIES - 1; i > 0; i--) {
		j = rnd_below(r, i + 1);
		n = order[i];
		order[i] = order[j];
		order[j] = n;
	}
	for (i = 0; i < NR_KENTRIES; i++) {
		entry_set(&tmp, &ksites[order[i]]);
		entry_set(&__start___jump_table[i], &ksites[order[i]]);
	}
}

static void sc_site_set(struct static_call_site *s, void *addr, void *tramp,
			bool tail)
{
	s->addr = (long)addr - (long)&s->addr;
	s->tramp = ((long)tramp | (tail ? STATIC_CALL_SITE_TAIL : 0)) -
		   (long)&s->tramp;
}

/* A static call site as the compiler leaves it: a call (or a tail jmp) to
 * tramp. */
static void sc_born(u8 *addr, void *tramp, bool tail)
{
	s32 rel32 = (long)tramp - (long)(addr + STATIC_CALL_INSN_SIZE);

	addr[0] = tail ? JMP32_INSN_OPCODE : CALL_INSN_OPCODE;
	memcpy(addr + 1, &rel32, sizeof(rel32));
}

/* Trampolines in address order, then each call's sites, sorted as the build
 * does. */
static void build_static_calls(u64 *r)
{
	unsigned int i, j, n;
	u8 insn[STATIC_CALL_INSN_SIZE];

	for (i = 0; i < NR_SC; i++) {
		struct fsc *c = &calls[i];
		u8 *tramp = text_alloc(8, false);

		tramp = (u8 *)(((unsigned long)tramp + 7) & ~7UL);
		snprintf(c->name, sizeof(c->name), "sc%u", i);
		c->key.name = c->name;
		c->key.tramp = tramp;
		c->key.nullable = i >= NR_SC - 2;
		c->key.func = c->key.nullable && rnd_below(r, 2) ?
				      NULL :
				      targets[rnd_below(r, 3)];
		arch_static_call_insn(insn, tramp, c->key.func, true);
		memcpy(tramp, insn, STATIC_CALL_INSN_SIZE);
		memset(tramp + STATIC_CALL_INSN_SIZE, 0xcc, 3);
		__start_static_call_tramp_key[i].tramp =
			(long)tramp -
			(long)&__start_static_call_tramp_key[i].tramp;
		__start_static_call_tramp_key[i].key =
			(long)&c->key -
			(long)&__start_static_call_tramp_key[i].key;
	}
	for (n = 0; n < NR_KSC_SITES; n++) {
		struct fsc *c = &calls[n < NR_SC ? n : rnd_below(r, NR_SC)];
		bool init = !rnd_below(r, 6);
		bool tail = !rnd_below(r, 4);
		u8 *addr = text_alloc(STATIC_CALL_INSN_SIZE, init);

		/* Born calling (or jumping to) the trampoline. */
		sc_born(addr, c->key.tramp, tail);
		ksc_sites[n].addr = addr;
		ksc_sites[n].key = &c->key;
		ksc_sites[n].tail = tail;
		ksc_sites[n].init = init;
		c->nr++;
	}
	/* Sorted by trampoline, then address: the table's order. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			typeof(ksc_sites[0]) t = ksc_sites[j];

			if (ksc_sites[j - 1].key->tramp < t.key->tramp ||
			    (ksc_sites[j - 1].key->tramp == t.key->tramp &&
			     ksc_sites[j - 1].addr < t.addr))
				break;
			ksc_sites[j] = ksc_sites[j - 1];
			ksc_sites[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		sc_site_set(&__start_static_call_sites[i], ksc_sites[i].addr,
			    ksc_sites[i].key->tramp, ksc_sites[i].tail);
}

/* ---- modules --------------------------------------------------------------
 */

#define NR_SLOTS 6
#define SLOT_SIZE 16384
#define SLOT_TEXT 0 /* text: 6 KiB */
#define SLOT_INIT 6144 /* init text: 2 KiB */
#define SLOT_DATA 8192 /* data: keys and the jump table */
#define SLOT_RODATA 12288 /* rodata: the key definitions */
#define MOD_MAX_SITES 12
#define MOD_MAX_SC 3

/* Mapped apart from the kernel's data: module memory is not the kernel's. */
static u8 (*module_pool)[SLOT_SIZE];

struct mod_keys {
	struct static_key_false own_false;
	struct static_key_true own_true;
	struct static_key_false_deferred own_def;
};

struct fslot {
	struct module *mod; /* NULL: free */
	struct mod_keys *keys;
	struct jump_entry *entries;
	struct fsite sites[MOD_MAX_SITES];
	unsigned int nr_sites;
	struct {
		u8 *addr;
		struct static_call_key *key;
		bool init;
	} sc[MOD_MAX_SC];
	unsigned int nr_sc;
	unsigned int text_used, init_used;
	long own_nets[3]; /* the owner's incs of its keys */
	bool init_freed;
};
static struct fslot slots[NR_SLOTS];

static u8 *slot_alloc(unsigned int len, bool init, void *arg)
{
	struct fslot *f = arg;
	unsigned int *used = init ? &f->init_used : &f->text_used;
	unsigned int end = init ? SLOT_DATA : SLOT_INIT;
	u8 *p = f->mod->mem[init ? MOD_INIT_TEXT : MOD_TEXT].base;

	if ((init ? SLOT_INIT : 0) + *used + len > end)
		panic("fuzz: module text full");
	p += *used;
	*used += len;
	return p;
}

static bool slot_poisoned(const u8 *base, unsigned int off, unsigned int end,
			  u8 poison)
{
	unsigned int i;

	for (i = off; i < end; i++)
		if (base[i] != poison)
			return false;
	return true;
}

bool fuzz_in_text(const void *addr, unsigned long len)
{
	const u8 *p = addr;
	unsigned int i;

	if (p >= fuzz_text && p + len <= fuzz_text + TEXT_SIZE)
		return true;
	for (i = 0; i < NR_SLOTS; i++)
		if (p >= module_pool[i] &&
		    p + len <= module_pool[i] + SLOT_DATA)
			return true;
	return false;
}

const char *fuzz_lookup(unsigned long addr, unsigned long *base,
			unsigned long *size)
{
	unsigned int i;

	for (i = 0; i < nr_keys; i++) {
		unsigned long k = (unsigned long)keys[i].key;

		if (addr - k < sizeof(struct static_key)) {
			*base = k;
			*size = sizeof(struct static_key);
			return keys[i].name;
		}
	}
	for (i = 0; i < NR_SC; i++) {
		unsigned long k = (unsigned long)&calls[i].key;

		if (addr - k < sizeof(calls[i].key)) {
			*base = k;
			*size = sizeof(calls[i].key);
			return calls[i].name;
		}
	}
	if (addr - (unsigned long)fuzz_text < TEXT_SIZE) {
		*base = (unsigned long)fuzz_text;
		*size = TEXT_SIZE;
		return "fuzz_text";
	}
	for (i = 0; i < NR_SLOTS; i++)
		if (addr - (unsigned long)module_pool[i] < SLOT_SIZE) {
			static const char *const names[NR_SLOTS] = {
				"slot0", "slot1", "slot2",
				"slot3", "slot4", "slot5",
			};
			*base = (unsigned long)module_pool[i];
			*size = SLOT_SIZE;
			return names[i];
		}
	return NULL;
}

/*
 * Makes the module of slot f as the loader's steps 3 to 6 would leave it:
 * its memory laid out, its own keys initialized and listed, its jump
 * entries and static call sites as the assembler and the relocations left
 * them. Under module_mutex. 0, or -ENOMEM if kmalloc() failed (f->mod is
 * set either way).
 */
static int module_make(struct fslot *f, unsigned int idx, u64 *r)
{
	u8 *base = module_pool[idx];
	struct static_key_def *defs;
	struct static_call_msite *ms;
	struct module *mod;
	struct mod_keys *mk;
	unsigned int i, n;

	mod = host_malloc(sizeof(*mod));
	if (!mod)
		panic("fuzz: out of host memory");
	memset(mod, 0, sizeof(*mod));
	memset(f, 0, sizeof(*f));
	f->mod = mod;
	snprintf(mod->name, sizeof(mod->name), "fuzzmod%u", idx);
	INIT_LIST_HEAD(&mod->source_list);
	INIT_LIST_HEAD(&mod->target_list);
	atomic_set(&mod->refcnt, 1);
	mod->state = MODULE_STATE_UNFORMED;
	mod->mem[MOD_TEXT] =
		(struct module_memory){ base + SLOT_TEXT, SLOT_INIT };
	mod->mem[MOD_INIT_TEXT] =
		(struct module_memory){ base + SLOT_INIT,
					SLOT_DATA - SLOT_INIT };
	mod->mem[MOD_DATA] = (struct module_memory){ base + SLOT_DATA,
						     SLOT_RODATA - SLOT_DATA };
	mod->mem[MOD_RODATA] =
		(struct module_memory){ base + SLOT_RODATA,
					SLOT_SIZE - SLOT_RODATA };
	memset(base, 0, SLOT_SIZE);

	mk = (struct mod_keys *)(base + SLOT_DATA);
	f->keys = mk;
	mk->own_false = STATIC_KEY_FALSE_INIT;
	mk->own_true = STATIC_KEY_TRUE_INIT;
	mk->own_def.key = STATIC_KEY_FALSE_INIT;
	mk->own_def.timeout = 1 + rnd_below(r, 2);
	INIT_DELAYED_WORK(&mk->own_def.work, jump_label_update_timeout);
	defs = (struct static_key_def *)(base + SLOT_RODATA);
	defs[0] = (struct static_key_def){ &mk->own_false.key, 1, 0 };
	defs[1] = (struct static_key_def){ &mk->own_true.key, 1, 0 };
	defs[2] = (struct static_key_def){ &mk->own_def.key.key, 1,
					   STATIC_KEY_DEF_DEFERRED };
	mod->static_keys = defs;
	mod->num_static_keys = 3;

	n = 2 + rnd_below(r, MOD_MAX_SITES - 1);
	f->entries = (struct jump_entry *)(base + SLOT_DATA + 512);
	for (i = 0; i < n; i++) {
		struct static_key *key;
		unsigned int pick = rnd_below(r, nr_keys + 3);

		if (pick < nr_keys)
			key = keys[pick].key;
		else if (pick == nr_keys)
			key = &mk->own_false.key;
		else if (pick == nr_keys + 1)
			key = &mk->own_true.key;
		else
			key = &mk->own_def.key.key;
		site_make(&f->sites[i], key, r, slot_alloc, f, true, true);
		entry_set(&f->entries[i], &f->sites[i]);
	}
	f->nr_sites = n;
	mod->jump_entries = f->entries;
	mod->num_jump_entries = n;

	f->nr_sc = rnd_below(r, MOD_MAX_SC + 1);
	ms = NULL;
	if (f->nr_sc) {
		ms = kcalloc(f->nr_sc, sizeof(*ms), GFP_KERNEL);
		if (!ms)
			return -ENOMEM;
	}
	for (i = 0; i < f->nr_sc; i++) {
		struct fsc *c = &calls[rnd_below(r, NR_SC)];
		bool init = !rnd_below(r, 4);
		u8 *addr = slot_alloc(STATIC_CALL_INSN_SIZE + 3, init, f);

		sc_born(addr, c->key.tramp, false);
		ms[i].addr = addr;
		ms[i].tramp = c->key.tramp;
		ms[i].init = init;
		f->sc[i].addr = addr;
		f->sc[i].key = &c->key;
		f->sc[i].init = init;
	}
	mod->static_call_sites = ms;
	mod->num_static_call_sites = f->nr_sc;
	return 0;
}

/*
 * free_module_memory(): what the engine left of the module's static call
 * sites freed, the slot given back, its memory poisoned.
 */
static void module_free(struct fslot *f, unsigned int idx)
{
	static_call_module_free(f->mod);
	host_free(f->mod);
	f->mod = NULL;
	memset(module_pool[idx], POISON_FREE, SLOT_SIZE);
}

/* ---- the checks ---------------------------------------------------------- */

static atomic_t failures = ATOMIC_INIT(0);

#define fail(fmt, ...)                                                     \
	do {                                                               \
		atomic_inc(&failures);                                     \
		fuzz_print("fuzz-engine: FAIL: " fmt "\n", ##__VA_ARGS__); \
	} while (0)

static void check_site(const struct fsite *s, bool dead, const char *where)
{
	struct static_key *key = s->key;
	u8 want[JUMP_LABEL_MAX_SIZE];
	int v = atomic_read(&key->enabled);

	if (dead) {
		if (!slot_poisoned(s->code, 0, s->size, POISON_INIT))
			fail("%s: site %pS of key %pS in freed init text was written: %*ph",
			     where, s->code, key, s->size, s->code);
		return;
	}
	site_insn(s, v > 0, want);
	if (memcmp(s->code, want, s->size))
		fail("%s: site %pS of key %pS (count %d, %s) holds %*ph, expected %*ph",
		     where, s->code, key, v, s->branch ? "likely" : "unlikely",
		     s->size, s->code, s->size, want);
}

static void check_sc_site(u8 *addr, struct static_call_key *key, bool tail,
			  bool dead, const char *where)
{
	u8 want[STATIC_CALL_INSN_SIZE];

	if (dead) {
		if (!slot_poisoned(addr, 0, STATIC_CALL_INSN_SIZE, POISON_INIT))
			fail("%s: static call site %pS in freed init text was written",
			     where, addr);
		return;
	}
	arch_static_call_insn(want, addr, key->func, tail);
	if (memcmp(addr, want, STATIC_CALL_INSN_SIZE))
		fail("%s: static call site %pS of %s holds %*ph, expected %*ph (target %pS)",
		     where, addr, key->name, STATIC_CALL_INSN_SIZE, addr,
		     STATIC_CALL_INSN_SIZE, want, key->func);
}

static bool mixed_held; /* mis_mixed holds its two incs (from boot on) */

static void check_keys(void)
{
	unsigned int i;
	int v;

	for (i = 0; i < nr_keys; i++) {
		v = atomic_read(&keys[i].key->enabled);
		if (v < 0)
			fail("key %s has count %d with jump_label_mutex held",
			     keys[i].name, v);
		if ((keys[i].kind == K_BOOL || keys[i].kind == K_PAD) && v > 1)
			fail("boolean key %s has count %d", keys[i].name, v);
		if (keys[i].kind == K_UNDERFLOW && v)
			fail("key %s, only ever decremented, has count %d",
			     keys[i].name, v);
		if (keys[i].kind == K_MIXED && mixed_held && v != 2)
			fail("key %s, held by 2 incs and misused by enable/disable, has count %d",
			     keys[i].name, v);
	}
}

/* Every invariant that holds whenever no flip is in flight. */
static void check_all(const char *where)
{
	unsigned int i, j;
	struct fslot *f;

	mutex_lock(&module_mutex);
	cpus_read_lock();
	jump_label_lock();
	mutex_lock(&static_call_mutex);
	mutex_lock(&text_mutex);
	check_keys();
	for (i = 0; i < NR_KENTRIES; i++)
		check_site(&ksites[i], ksites[i].init && !init_mem_available,
			   where);
	for (i = 0; i < NR_KSC_SITES; i++)
		check_sc_site(ksc_sites[i].addr, ksc_sites[i].key,
			      ksc_sites[i].tail,
			      ksc_sites[i].init && !init_mem_available, where);
	for (i = 0; i < NR_SC; i++)
		check_sc_site(calls[i].key.tramp, &calls[i].key, true, false,
			      where);
	for (i = 0; i < NR_SLOTS; i++) {
		f = &slots[i];
		if (!f->mod) {
			if (!slot_poisoned(module_pool[i], 0, SLOT_SIZE,
					   POISON_FREE))
				fail("%s: free module slot %u was written",
				     where, i);
			continue;
		}
		for (j = 0; j < f->nr_sites; j++)
			check_site(&f->sites[j],
				   f->sites[j].init && f->init_freed, where);
		for (j = 0; j < f->nr_sc; j++)
			check_sc_site(f->sc[j].addr, f->sc[j].key, false,
				      f->sc[j].init && f->init_freed, where);
	}
	mutex_unlock(&text_mutex);
	mutex_unlock(&static_call_mutex);
	jump_label_unlock();
	cpus_read_unlock();
	mutex_unlock(&module_mutex);
}

/* ---- the workers --------------------------------------------------------- */

enum misuse { MIS_UNDERFLOW, MIS_MIXED, MIS_UNLOCKED, MIS_SC_NULL, NR_MISUSES };
static atomic_t misuses_done[NR_MISUSES];

struct worker {
	unsigned int id;
	u64 rnd;
	long nets[ARRAY_SIZE(keys)];
	int slot; /* the module it owns, or -1 */
	void *thread;
	unsigned long ops;
	unsigned long loads, failed_loads, batches, hotplugs;
};

static atomic_t ops_left;
static unsigned long long deadline_ns;
static bool workers_stop;

static struct fkey *pick_key(struct worker *w, enum key_kind kind)
{
	unsigned int i, n = 0, want;

	for (i = 0; i < nr_keys; i++)
		n += keys[i].kind == kind;
	want = rnd_below(&w->rnd, n);
	for (i = 0; i < nr_keys; i++)
		if (keys[i].kind == kind && !want--)
			break;
	return &keys[i];
}

static void op_ref(struct worker *w, bool cpuslocked)
{
	struct fkey *k = pick_key(w, K_REF);
	long *net = &w->nets[k - keys];
	bool inc = !*net || rnd_below(&w->rnd, 2);

	if (cpuslocked)
		cpus_read_lock();
	if (inc) {
		if (cpuslocked ? static_key_slow_inc_cpuslocked(k->key) :
				 static_key_slow_inc(k->key))
			(*net)++;
		else
			fail("inc of %s refused", k->name);
	} else if (cpuslocked) {
		static_key_slow_dec_cpuslocked(k->key);
		(*net)--;
	} else {
		static_key_slow_dec(k->key);
		(*net)--;
	}
	if (cpuslocked)
		cpus_read_unlock();
}

static void op_fast_inc(struct worker *w)
{
	struct fkey *k = pick_key(w, K_REF);

	if (static_key_fast_inc_not_disabled(k->key))
		w->nets[k - keys]++;
}

static void op_bool(struct worker *w)
{
	struct fkey *k = pick_key(w, K_BOOL);
	bool on = rnd_below(&w->rnd, 2);

	switch (rnd_below(&w->rnd, 2)) {
	case 0:
		on ? static_key_enable(k->key) : static_key_disable(k->key);
		break;
	default:
		cpus_read_lock();
		on ? static_key_enable_cpuslocked(k->key) :
		     static_key_disable_cpuslocked(k->key);
		cpus_read_unlock();
		break;
	}
}

static void op_deferred(struct worker *w)
{
	struct fkey *k = pick_key(w, K_DEF);
	long *net = &w->nets[k - keys];

	if (!*net || rnd_below(&w->rnd, 2)) {
		static_key_slow_inc(k->key);
		(*net)++;
	} else if (rnd_below(&w->rnd, 8)) {
		__static_key_slow_dec_deferred(k->key, &k->dk->work,
					       k->dk->timeout);
		(*net)--;
	} else {
		static_key_deferred_flush(k->dk);
	}
}

static void *pick_target(struct worker *w, struct fsc *c)
{
	return targets[rnd_below(&w->rnd, c->key.nullable ? 5 : 4)];
}

static void op_static_call(struct worker *w)
{
	struct fsc *c = &calls[rnd_below(&w->rnd, NR_SC)];
	void *func = pick_target(w, c);
	int ret;

	if (c == &calls[0] && !rnd_below(&w->rnd, 64)) {
		/* On purpose: NULL for a call that is not _NULL. */
		atomic_set(&misuses_done[MIS_SC_NULL], 1);
		ret = __static_call_update(&c->key, c->key.tramp, NULL);
		if (ret != -EINVAL)
			fail("NULL for %s returned %d, not -EINVAL", c->name,
			     ret);
		return;
	}
	ret = __static_call_update(&c->key, c->key.tramp, func);
	if (ret)
		fail("update of %s to %pS returned %d", c->name, func, ret);
}

static void op_queued(struct worker *w)
{
	unsigned int i, n = 1 + rnd_below(&w->rnd, 8);
	int ret;

	for (i = 0; i < n; i++) {
		if (rnd_below(&w->rnd, 3)) {
			struct fkey *k = pick_key(w, K_BOOL);

			rnd_below(&w->rnd, 2) ?
				static_key_enable_queued(k->key) :
				static_key_disable_queued(k->key);
		} else {
			struct fsc *c =
				&calls[1 + rnd_below(&w->rnd, NR_SC - 1)];

			__static_call_update_queued(&c->key, pick_target(w, c));
		}
	}
	if (!rnd_below(&w->rnd, 8)) {
		static_key_drop_queued();
		return;
	}
	ret = static_key_apply_queued();
	if (ret)
		fail("a queued batch of %u changes returned %d", n, ret);
	w->batches++;
}

/* A CPU hotplug callback: keys flipped under the hotplug lock's writer. */
static void op_hotplug(struct worker *w)
{
	struct fkey *b = pick_key(w, K_BOOL), *k = pick_key(w, K_REF);
	long *net = &w->nets[k - keys];

	cpus_write_lock();
	rnd_below(&w->rnd, 2) ? static_key_enable_cpuslocked(b->key) :
				static_key_disable_cpuslocked(b->key);
	if (*net && rnd_below(&w->rnd, 2)) {
		static_key_slow_dec_cpuslocked(k->key);
		(*net)--;
	} else {
		static_key_slow_inc_cpuslocked(k->key);
		(*net)++;
	}
	cpus_write_unlock();
	w->hotplugs++;
}

static void op_misuse(struct worker *w)
{
	long *net;

	switch (rnd_below(&w->rnd, 3)) {
	case 0:
		atomic_set(&misuses_done[MIS_UNDERFLOW], 1);
		static_key_slow_dec(&mis_underflow.key);
		break;
	case 1:
		atomic_set(&misuses_done[MIS_MIXED], 1);
		rnd_below(&w->rnd, 2) ? static_key_enable(&mis_mixed.key) :
					static_key_disable(&mis_mixed.key);
		break;
	default:
		/* _cpuslocked without the lock: WARNs, then does its work. */
		atomic_set(&misuses_done[MIS_UNLOCKED], 1);
		net = &w->nets[pick_key(w, K_UNLOCKED) - keys];
		if (*net && rnd_below(&w->rnd, 2)) {
			static_key_slow_dec_cpuslocked(&mis_unlocked.key);
			(*net)--;
		} else {
			static_key_slow_inc_cpuslocked(&mis_unlocked.key);
			(*net)++;
		}
		break;
	}
}

/* Steps 8 and 10 of a load, or its failure, as kernel/module/main.c. */
static void module_load(struct worker *w)
{
	unsigned int i, idx = NR_SLOTS;
	struct module *mod;
	struct fslot *f;
	int ret;

	mutex_lock(&module_mutex);
	for (i = 0; i < NR_SLOTS && idx == NR_SLOTS; i++)
		if (!slots[(w->id + i) % NR_SLOTS].mod)
			idx = (w->id + i) % NR_SLOTS;
	if (idx == NR_SLOTS) {
		mutex_unlock(&module_mutex);
		return;
	}
	f = &slots[idx];
	if (!slot_poisoned(module_pool[idx], 0, SLOT_SIZE, POISON_FREE))
		fail("module slot %u was written while free", idx);
	/* Sometimes memory runs out during the load. */
	if (!rnd_below(&w->rnd, 6))
		fuzz_fail_alloc_after = 1 + rnd_below(&w->rnd, 4);
	ret = module_make(f, idx, &w->rnd);
	mod = f->mod;
	if (!ret) {
		mod->state = MODULE_STATE_COMING;
		list_add_tail(&mod->list, &modules);
		ret = module_set_text_sites(mod);
		if (ret)
			list_del_init(&mod->list);
	}
	fuzz_fail_alloc_after = 0;
	w->loads++;
	if (ret) {
		/* Nothing is linked: the engine must never write there again.
		 */
		if (ret != -ENOMEM)
			fail("a load of %s failed with %d", mod->name, ret);
		module_free(f, idx);
		w->failed_loads++;
		mutex_unlock(&module_mutex);
		return;
	}
	w->slot = idx;
	mutex_unlock(&module_mutex);
}

/* Init's end (finish_init()), or a failed init, then init text freed. */
static void module_init_end(struct worker *w, bool failed)
{
	struct fslot *f = &slots[w->slot];
	struct module *mod = f->mod;
	unsigned int i;

	if (failed) {
		/* do_init_module() after a failing init. */
		for (i = 0; i < 3; i++)
			if (f->own_nets[i])
				fail("a failed init left counts");
		jump_label_module_flush(mod);
		mutex_lock(&module_mutex);
		mod->state = MODULE_STATE_GOING;
		static_call_module_del(mod);
		jump_label_module_del(mod);
		list_del_init(&mod->list);
		module_free(f, w->slot);
		mutex_unlock(&module_mutex);
		w->slot = -1;
		return;
	}
	mutex_lock(&module_mutex);
	jump_label_module_init_done(mod);
	static_call_module_init_done(mod);
	memset(mod->mem[MOD_INIT_TEXT].base, POISON_INIT,
	       mod->mem[MOD_INIT_TEXT].size);
	f->init_freed = true;
	mod->state = MODULE_STATE_LIVE;
	mutex_unlock(&module_mutex);
}

static void module_own_op(struct worker *w)
{
	struct fslot *f = &slots[w->slot];
	unsigned int i = rnd_below(&w->rnd, 3);
	struct static_key *key = i == 0 ? &f->keys->own_false.key :
				 i == 1 ? &f->keys->own_true.key :
					  &f->keys->own_def.key.key;
	long *net = &f->own_nets[i];

	if (!*net || rnd_below(&w->rnd, 2)) {
		static_key_slow_inc(key);
		(*net)++;
	} else if (i == 2) {
		static_branch_slow_dec_deferred(&f->keys->own_def);
		(*net)--;
	} else {
		static_key_slow_dec(key);
		(*net)--;
	}
}

/* delete_module(): exit, the pending deferred dec run, then unlinked. */
static void module_unload(struct worker *w)
{
	struct fslot *f = &slots[w->slot];
	struct module *mod = f->mod;
	unsigned int i;
	int v;

	/* Its exit: the keys it counted go back (the deferred one waits). */
	for (i = 0; i < 3; i++) {
		while (f->own_nets[i]) {
			if (i == 2)
				static_branch_slow_dec_deferred(
					&f->keys->own_def);
			else
				static_key_slow_dec(
					i ? &f->keys->own_true.key :
					    &f->keys->own_false.key);
			f->own_nets[i]--;
		}
	}
	jump_label_module_flush(mod);
	v = atomic_read(&f->keys->own_def.key.key.enabled);
	if (v)
		fail("%s: its deferred key has count %d after its decs and the flush",
		     mod->name, v);
	if (atomic_read(&f->keys->own_false.key.enabled) ||
	    atomic_read(&f->keys->own_true.key.enabled) != 1)
		fail("%s: its keys have counts %d and %d after its decs",
		     mod->name, atomic_read(&f->keys->own_false.key.enabled),
		     atomic_read(&f->keys->own_true.key.enabled));
	mutex_lock(&module_mutex);
	mod->state = MODULE_STATE_GOING;
	static_call_module_del(mod);
	jump_label_module_del(mod);
	list_del_init(&mod->list);
	module_free(f, w->slot);
	mutex_unlock(&module_mutex);
	w->slot = -1;
}

static void op_module(struct worker *w)
{
	if (w->slot < 0) {
		module_load(w);
		if (w->slot >= 0 && !rnd_below(&w->rnd, 3))
			module_own_op(w);
		if (w->slot >= 0)
			module_init_end(w,
					!rnd_below(&w->rnd, 10) &&
						!slots[w->slot].own_nets[0] &&
						!slots[w->slot].own_nets[1] &&
						!slots[w->slot].own_nets[2]);
		return;
	}
	if (rnd_below(&w->rnd, 4))
		module_own_op(w);
	else
		module_unload(w);
}

static void worker_op(struct worker *w)
{
	unsigned int r = rnd_below(&w->rnd, 100);

	if (r < 22)
		op_ref(w, false);
	else if (r < 30)
		op_ref(w, true);
	else if (r < 34)
		op_fast_inc(w);
	else if (r < 46)
		op_bool(w);
	else if (r < 56)
		op_deferred(w);
	else if (r < 66)
		op_static_call(w);
	else if (r < 74)
		op_queued(w);
	else if (r < 78)
		op_hotplug(w);
	else if (r < 81)
		op_misuse(w);
	else
		op_module(w);
}

static void worker_main(void *arg)
{
	struct worker *w = arg;

	while (!READ_ONCE(workers_stop)) {
		if (atomic_add_return(-1, &ops_left) < 0 ||
		    (deadline_ns && host_now_ns() > deadline_ns))
			break;
		worker_op(w);
		w->ops++;
	}
	if (w->slot >= 0)
		module_unload(w);
}

/* ---- boot, run, verdict -------------------------------------------------- */

static void boot(u64 seed)
{
	u64 r = seed * 0x9E3779B97F4A7C15ULL + 1;
	unsigned int i;

	keys_init();
	memset(fuzz_text, 0xcc, sizeof(fuzz_text));
	build_jump_table(&r);
	build_static_calls(&r);
	module_pool = host_map_low(NR_SLOTS * SLOT_SIZE);
	if ((unsigned long)module_pool + NR_SLOTS * SLOT_SIZE -
		    (unsigned long)fuzz_text >
	    0x7fffffffUL)
		panic("fuzz: the module area %p is out of 32-bit reach of the kernel's text",
		      module_pool);
	for (i = 0; i < NR_SLOTS; i++)
		memset(module_pool[i], POISON_FREE, SLOT_SIZE);
	jump_label_init();
	static_call_init();
	check_all("after jump_label_init()");
	/* free_initmem(): init text gone, its sites skipped from now on. */
	jump_label_init_ro();
	init_mem_available = false;
	memset(fuzz_text + INIT_OFF, POISON_INIT, TEXT_SIZE - INIT_OFF);
	/* mis_mixed is held by two incs for good. */
	static_key_slow_inc(&mis_mixed.key);
	static_key_slow_inc(&mis_mixed.key);
	mixed_held = true;
	/*
	 * The queued batch keeps its array for the next one (queued.c): one
	 * batch now, so that the allocations counted after boot include it.
	 */
	static_key_enable_queued(&bool_false[0].key);
	static_key_disable_queued(&bool_false[0].key);
	if (static_key_apply_queued())
		fail("a queued batch at boot failed");
	check_all("after boot");
}

/* The sum of the workers' incs of each counted key against its count. */
static void check_counts(struct worker *ws, unsigned int nr)
{
	unsigned int i, t;
	long sum;

	for (i = 0; i < nr_keys; i++) {
		if (!key_counted(&keys[i]))
			continue;
		if (keys[i].dk)
			static_key_deferred_flush(keys[i].dk);
		for (sum = 0, t = 0; t < nr; t++)
			sum += ws[t].nets[i];
		if (atomic_read(&keys[i].key->enabled) !=
		    sum + key_default(keys[i].key))
			fail("key %s has count %d, the workers' incs and decs make %ld",
			     keys[i].name, atomic_read(&keys[i].key->enabled),
			     sum + key_default(keys[i].key));
	}
}

/* Undoes what the workers left: every key back to its default. */
static void undo_all(struct worker *ws, unsigned int nr)
{
	unsigned int i, t;

	for (t = 0; t < nr; t++)
		for (i = 0; i < nr_keys; i++)
			for (; ws[t].nets[i] > 0; ws[t].nets[i]--)
				static_key_slow_dec(keys[i].key);
	for (i = 0; i < nr_keys; i++) {
		if (keys[i].dk)
			static_key_deferred_flush(keys[i].dk);
		if (keys[i].kind == K_BOOL)
			key_default(keys[i].key) ?
				static_key_enable(keys[i].key) :
				static_key_disable(keys[i].key);
	}
	for (i = 1; i < NR_SC; i++)
		__static_call_update(&calls[i].key, calls[i].key.tramp,
				     fuzz_target_a);
}

static void check_defaults(void)
{
	unsigned int i;

	for (i = 0; i < nr_keys; i++) {
		int want = keys[i].kind == K_MIXED ? 2 :
						     key_default(keys[i].key);

		if (atomic_read(&keys[i].key->enabled) != want)
			fail("key %s ends with count %d, not %d", keys[i].name,
			     atomic_read(&keys[i].key->enabled), want);
	}
}

int fuzz_main(const struct host_args *args)
{
	unsigned int i, nr = args->threads, expected = 0;
	unsigned long long t0, t;
	struct worker *ws;
	unsigned long ops = 0, loads = 0, failed = 0, batches = 0, hp = 0;
	int live_at_boot;

	fuzz_quiet = !args->verbose;
	fuzz_drop_write = args->drop_write;
	fuzz_kernel_init();
	host_set_gs(fuzz_thread_gs(0, "init"));
	boot(args->seed);
	live_at_boot = atomic_read(&fuzz_live_allocs);
	if (atomic_read(&fuzz_warnings))
		fail("%d WARNs during boot", atomic_read(&fuzz_warnings));

	ws = host_malloc(nr * sizeof(*ws));
	if (!ws)
		panic("fuzz: out of host memory");
	memset(ws, 0, nr * sizeof(*ws));
	atomic_set(&ops_left,
		   args->ops ? (int)min(args->ops, 0x7fffffffULL) : 0x7fffffff);
	t0 = host_now_ns();
	deadline_ns = args->seconds ? t0 + args->seconds * 1000000000ull : 0;
	for (i = 0; i < nr; i++) {
		char name[16];

		snprintf(name, sizeof(name), "worker/%u", i);
		ws[i].id = i;
		ws[i].slot = -1;
		ws[i].rnd = (args->seed + 1) * 0x100000001B3ULL + i * 7919 + 1;
		ws[i].thread = host_thread_start(
			worker_main, &ws[i], fuzz_thread_gs(1 + i % 7, name));
	}
	/*
	 * The checker: every invariant, with every lock of a flip held. It
	 * then sleeps as long as the check took, so that it holds the locks
	 * half the time at most: the mutexes are not fair, and a checker that
	 * took them back at once (a slow check under TSan on a loaded host)
	 * starved the workers until no operation was left to end the run.
	 */
	while (!workers_stop) {
		unsigned long long c0 = host_now_ns();

		check_all("during the run");
		if (atomic_read(&ops_left) <= 0 ||
		    (deadline_ns && host_now_ns() > deadline_ns) ||
		    atomic_read(&failures))
			WRITE_ONCE(workers_stop, true);
		host_sleep_ns(host_now_ns() - c0);
	}
	for (i = 0; i < nr; i++)
		host_thread_join(ws[i].thread);
	t = host_now_ns() - t0;
	check_all("after the run");
	check_counts(ws, nr);
	undo_all(ws, nr);
	check_all("after undoing");
	check_defaults();
	for (i = 0; i < NR_MISUSES; i++)
		expected += atomic_read(&misuses_done[i]);
	if (atomic_read(&fuzz_warnings) != (int)expected)
		fail("%d WARNs, %u expected (one per misuse done on purpose)",
		     atomic_read(&fuzz_warnings), expected);
	fuzz_kernel_exit();
	if (fuzz_work_pending())
		fail("%u delayed work items still pending",
		     fuzz_work_pending());
	if (atomic_read(&fuzz_live_allocs) != live_at_boot)
		fail("%d allocations live, %d after boot",
		     atomic_read(&fuzz_live_allocs), live_at_boot);
	for (i = 0; i < nr; i++) {
		ops += ws[i].ops;
		loads += ws[i].loads;
		failed += ws[i].failed_loads;
		batches += ws[i].batches;
		hp += ws[i].hotplugs;
	}
	fuzz_print(
		"fuzz-engine: seed %llu, %u threads: %lu operations in %llu ms (%llu/s): %lu module loads (%lu refused for memory), %lu queued batches, %lu hotplug callbacks, %lu patch batches of %lu sites, %u WARNs as expected: %s\n",
		args->seed, nr, ops, t / 1000000,
		t ? ops * 1000000000ull / t : 0, loads, failed, batches, hp,
		fuzz_batches, fuzz_poked_sites, expected,
		atomic_read(&failures) ? "FAILED" : "clean");
	host_free(ws);
	return atomic_read(&failures) ? 1 : 0;
}
