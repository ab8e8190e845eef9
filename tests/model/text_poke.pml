/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * A SPIN model of the int3 batch of arch/x86/kernel/text_patch.c
 * (text_poke_bp_batch() and poke_int3_handler()), with the per-CPU batch
 * references, CPU hotplug and the parked last write. Documentation/
 * static-keys.rst ("The batch, model-checked") says what it covers and
 * what it assumes; scripts/check_model.py runs it, its mutants included.
 *
 * CPU 0 patches; CPUs 1..NCPU-1 run the sites; CPU NCPU-1 also goes
 * offline and comes back (the hotplug process). The patcher flips two
 * sites from version A to B, then back, forever. A site is its first byte
 * (A, B or INT3) and its tail (A or B). A CPU fetches a site byte by byte:
 * each byte may come out as any value it held since the CPU last
 * serialized (an IPI's sync_core(), or coming online), as the SDM allows
 * for cross-modified code. With TCG=1 a fetch is also QEMU's translation:
 * it is cached, a write to the site drops the cached copies, but a fetch
 * in progress during the write is cached anyway, stale.
 *
 * The CPUs that run the sites also leave the kernel (ENTRY=1): they go
 * idle or to user mode (ct[c]: CT_USER/CT_IDLE) and come back, as
 * arch/x86/kernel/text_sync.c has it. A sync round bumps the generation
 * (stale[c] for every CPU: the generation moved since c last serialized)
 * and interrupts only the CPUs in the kernel; an entering CPU marks itself
 * in the kernel, then reads its stale bit and, if set, serializes and
 * resets it (after waiting at the fence, as __text_sync_enter() writes the
 * generation it saw only then). The park raises a fence (the odd generation): an entering CPU
 * waits at it, parking itself if the patcher expects it (slot[c]). With
 * NMI=1 an NMI can come on any CPU between any two of its steps (the
 * interrupted CPU does nothing meanwhile, SPIN's provided clause): its
 * entry marks the CPU, compares the generation whatever the state was,
 * waits at the fence except on the patcher's CPU, runs a site, and puts
 * the state back. CPU ECPU (1) is the one that leaves and comes back, and
 * NMIs come on it and on the patcher's CPU: every kind of CPU is there.
 *
 * Configuration (spin -D...): NCPU (3 or 4), TCG (0: the SDM's rules only,
 * 1: and QEMU's translation cache), PARK (1: the other CPUs are parked for
 * the last write, as text_poke.park=on; 0: a plain sync round), HOTPLUG
 * (1: the hotplug process runs), ENTRY (1: the readers leave and enter),
 * NMI (1: NMIs on every CPU), STALE (1, with TCG=1 PARK=1: once, after a
 * batch retired, QEMU's translations of a site it wrote hold its int3
 * again; the handler runs it again, tp_int3_stale()). Mutants, each a change the protocol must
 * not survive: M_NO_SYNC1, M_NO_SYNC2, M_NO_SYNC3 (drop that sync round;
 * the third is the park when PARK=1), M_RELEASE_EARLY (retire the batch
 * before its last sync round), M_ARM_LATE (arm the references after the
 * first int3 is written), M_UNSORTED (publish the batch in queue order,
 * unsorted), M_NO_HOTPLUG_LOCK (flip without cpus_read_lock()),
 * M_NO_ENTRY_SYNC (an entering CPU does not serialize), M_IDLE_EARLY (a
 * CPU counts as idle while it still runs a site), M_NO_FENCE (entering
 * CPUs do not wait at the park's fence), M_NMI_UNSAFE (the int3 handler
 * keeps the trapping ip in a per-CPU variable: an NMI's trap on top of it
 * overwrites it), M_NO_PARK_IPI_WAIT (the park ends without waiting for
its IPIs: an NMI parks a CPU that has hit an int3 and holds no reference
yet), M_NO_STALE (a stale int3 is a stray one), M_STALE_NO_REWRITE (run
again without the rewrite that drops the translation); the skipped park
is TCG=1 PARK=0. Two it survives, as
 * the model shows: M_NO_SYNC2 with PARK=1, and M_NO_WAIT (retire without
 * waiting for CPUs still in the handler: the handler runs with interrupts
 * off and the last sync round waited for every CPU in the kernel; an NMI
 * holds that round's IPI off on its CPU, which counts as in the kernel
 * while in it, and one that comes after the round serializes on entry).
 */

#ifndef NCPU
#define NCPU 3
#endif
#ifndef TCG
#define TCG 1
#endif
#ifndef PARK
#define PARK 1
#endif
#ifndef HOTPLUG
#define HOTPLUG 1
#endif
#ifndef ENTRY
#define ENTRY 0
#endif
#ifndef NMI
#define NMI 0
#endif
#ifndef STALE
#define STALE 0
#endif
#if STALE && !(TCG && PARK)
#error "STALE is QEMU's translation cache with the park: TCG=1 PARK=1"
#endif

#define NSITE 2
#define HCPU (NCPU - 1) /* the CPU that goes offline and comes back */
#define ECPU 1 /* the CPU that leaves the kernel and comes back (ENTRY) */

/* Byte values: a site's version A or B, or int3 (first byte only). */
#define V_A 0
#define V_B 1
#define V_INT3 2
#define BIT(v) (1 << (v))

/* IPIs: the sync round's sync_core(), or the park. */
#define IPI_NONE 0
#define IPI_SYNC 1
#define IPI_PARK 2

/* Where a CPU is (<asm/text-sync.h>), and a park's slot (text_sync.c). */
#define CT_KERNEL 0
#define CT_IDLE 1
#define CT_USER 2
#define SLOT_FREE 0
#define SLOT_WANTED 1
#define SLOT_PARKED 2

/* Memory: the site's bytes as written. */
byte mem_first[NSITE];
bit mem_tail[NSITE];

/*
 * What CPU c may fetch for site s (index c * NSITE + s): the values each
 * byte held since c last serialized, as bit masks.
 */
byte fmask[NCPU * NSITE];
byte tmask[NCPU * NSITE];

#if TCG
/* QEMU's translation of site s on CPU c: valid, and what it holds. */
bit tb_valid[NCPU * NSITE];
byte tb_first[NCPU * NSITE];
bit tb_tail[NCPU * NSITE];
#endif

/* The batch as the int3 handler sees it: bp_desc, and bp_refs. */
byte desc_nr;
byte desc_vec[NSITE]; /* site numbers; site s sits at address s */
byte desc_new;        /* the version the batch writes */
byte refs[NCPU];

bit online[NCPU];
bit ipi_sync[NCPU]; /* a sync IPI pending (the patcher waits for it) */
bit ipi_park[NCPU]; /* a park IPI pending */
bit park_ipi[NCPU]; /* a park IPI not yet run to its end (text_sync_ipi) */
bit down_req[NCPU];

/* text_sync.c: states, the generation (as stale bits), the park. */
byte ct[NCPU];
bit stale[NCPU];
bit fence;
byte slot[NCPU];
bit in_nmi[NCPU];
bit fetching[NCPU]; /* between an instruction's first byte and its tail */
byte hsite[NCPU]; /* M_NMI_UNSAFE's per-CPU trap */

/* cpu_hotplug_lock: readers (flips) or one writer (hotplug). */
byte hp_readers;
bit hp_writer;

/* Observers for the properties. */
bit in_batch;

#if STALE
/*
 * QEMU's stale translation (STALE=1): once, after a batch retired, every
 * reader's translation of a site it wrote holds the int3 again, though
 * memory holds the new byte. tp_int3_stale() runs it again, rewriting the
 * byte as it is (which drops every translation of the site); the same
 * int3 on the same CPU again within one batch is a death (stale_seen[c]:
 * site + 1, reset by each batch).
 */
bit stale_left = 1;
byte stale_seen[NCPU];
#endif

/* CPU c serializes: from now on it fetches what memory holds. */
inline serialize(c)
{
	k = 0;
	do
	:: k < NSITE ->
		fmask[c * NSITE + k] = BIT(mem_first[k]);
		tmask[c * NSITE + k] = BIT(mem_tail[k]);
		k++
	:: else -> k = 0; break
	od
}

/* The patcher writes the first byte of site s, or its tail. */
inline write_first(s, v)
{
	d_step {
		mem_first[s] = v;
		k = 0;
		do
		:: k < NCPU ->
			fmask[k * NSITE + s] = fmask[k * NSITE + s] | BIT(v);
#if TCG
			tb_valid[k * NSITE + s] = 0;
			tb_first[k * NSITE + s] = 0;
			tb_tail[k * NSITE + s] = 0;
#endif
			k++
		:: else -> k = 0; break
		od
	}
}

inline write_tail(s, v)
{
	d_step {
		mem_tail[s] = v;
		k = 0;
		do
		:: k < NCPU ->
			tmask[k * NSITE + s] = tmask[k * NSITE + s] | BIT(v);
#if TCG
			tb_valid[k * NSITE + s] = 0;
			tb_first[k * NSITE + s] = 0;
			tb_tail[k * NSITE + s] = 0;
#endif
			k++
		:: else -> k = 0; break
		od
	}
}

/*
 * poke_int3_handler() on CPU c for an int3 at site s: bp_get(), bp_find()
 * (binary search of desc_vec), emulate, bp_put(). A trap it does not
 * handle is the kernel's die("int3"). It searches for the ip of its own
 * frame (s); M_NMI_UNSAFE keeps it in a per-CPU variable instead (as a
 * handler with one "current trap" per CPU would), which an NMI's trap on
 * top of it overwrites.
 */
#ifdef M_NMI_UNSAFE
#define TRAP_IP(c, s) hsite[c]
#else
#define TRAP_IP(c, s) s
#endif

inline int3_handler(c, s)
{
#ifdef M_NMI_UNSAFE
	hsite[c] = s;
#endif
#if STALE && !defined(M_NO_STALE)
	/*
	 * No batch, and the byte is no int3: tp_int3_stale(), once per
	 * site and batch on this CPU; the ip backs up over the int3.
	 */
	if
	:: atomic { refs[c] == 0 && mem_first[s] != V_INT3 &&
		    stale_seen[c] != s + 1 -> stale_seen[c] = s + 1;
#ifndef M_STALE_NO_REWRITE
		k = 0;
		do
		:: k < NCPU -> tb_valid[k * NSITE + s] = 0; k++
		:: else -> k = 0; break
		od
#else
		skip
#endif
		}
	:: else ->
#endif
	atomic {
		/* Else a stray int3: no batch to find it in. */
		assert(refs[c] > 0);
		refs[c]++
	}
	d_step {
		/* A reference is only ever had on a live batch. */
		assert(in_batch);
		lo = 0;
		hi = desc_nr; /* hi is one past the end */
		found = 0;
		do
		:: lo < hi && !found ->
			mid = lo + (hi - lo) / 2;
			if
			:: desc_vec[mid] == TRAP_IP(c, s) -> found = 1
			:: desc_vec[mid] < TRAP_IP(c, s) -> lo = mid + 1
			:: else -> hi = mid
			fi
		:: else -> break
		od;
		/* What it emulates is the trapping site's instruction. */
		assert(!found || desc_vec[mid] == s);
		lo = 0;
		hi = 0;
		mid = 0
	}
	/* Every trap during a batch is found and emulated. */
	assert(found);
	found = 0;
	refs[c]--
#if STALE && !defined(M_NO_STALE)
	fi
#endif
}

/*
 * A park's fence, met on CPU c's way in: wait until it is down, parking
 * on the way if the patcher expects c (ts_fence_wait()). M_NO_FENCE: an
 * entering CPU does not see it.
 */
#ifdef M_NO_FENCE
#define FENCE_UP 0
#else
#define FENCE_UP fence
#endif

inline fence_wait(c)
{
	do
	:: !fence -> break
	:: atomic { fence && slot[c] == SLOT_WANTED -> slot[c] = SLOT_PARKED };
		(!fence);
		d_step { serialize(c); slot[c] = SLOT_FREE };
		skip
	od;
	skip
}

/*
 * The generation read (__text_sync_enter()): with the fence up, wait
 * (nmi: unless on the patcher's CPU) and read again; down, serialize and
 * remember it, in one step with the read. A later round sets the bit again.
 */
#ifdef M_NO_ENTRY_SYNC
#define ENTRY_SERIALIZE(c) skip
#else
#define ENTRY_SERIALIZE(c) serialize(c)
#endif

inline sync_generation(c, nmi)
{
	do
	:: atomic { !(FENCE_UP && !(nmi && c == 0)) ->
			stale[c] = 0; ENTRY_SERIALIZE(c) };
		break
	:: FENCE_UP && !(nmi && c == 0) -> fence_wait(c)
	od;
	skip
}

/*
 * CPU c enters the kernel (TEXT_SYNC_ENTER, __text_sync_enter()): marked
 * in the kernel first, then the generation: a CPU that comes back
 * meanwhile in the fence's window waits.
 */
inline enter_kernel(c)
{
	ct[c] = CT_KERNEL;
	if
	:: stale[c] -> sync_generation(c, 0)
	:: else -> skip
	fi
}

/*
 * CPU c fetches and runs a site (as the reader's loop does): byte by
 * byte, under TCG through its translation, trapping on an int3.
 */
inline run_site(c)
{
	atomic {
		fetching[c] = 1;
		if
		:: s = 0
		:: s = 1
		fi;
#if TCG
		if
		:: tb_valid[c * NSITE + s] ->
			f = tb_first[c * NSITE + s];
			t = tb_tail[c * NSITE + s];
			cached = 1
		:: else ->
#endif
			if
			:: fmask[c * NSITE + s] & BIT(V_A) -> f = V_A
			:: fmask[c * NSITE + s] & BIT(V_B) -> f = V_B
			:: fmask[c * NSITE + s] & BIT(V_INT3) -> f = V_INT3
			fi
#if TCG
		fi
#endif
	}
	/*
	 * Then the tail, unless the first byte is an int3. Under TCG the
	 * translation is cached, even if a write came meanwhile.
	 */
	atomic {
		if
		:: !cached && f != V_INT3 ->
			if
			:: tmask[c * NSITE + s] & BIT(V_A) -> t = V_A
			:: tmask[c * NSITE + s] & BIT(V_B) -> t = V_B
			fi
		:: else -> skip
		fi;
#if TCG
		if
		:: !cached ->
			tb_valid[c * NSITE + s] = 1;
			tb_first[c * NSITE + s] = f;
			tb_tail[c * NSITE + s] = t
		:: else -> cached = 0
		fi;
#endif
		fetching[c] = 0;
		/* No CPU executes a torn instruction. */
		if
		:: f != V_INT3 -> assert(t == f); s = 0; f = 0; t = 0
		:: else -> t = 0
		fi
	}
	if
	:: f == V_INT3 -> int3_handler(c, s); s = 0; f = 0
	:: else -> skip
	fi
}

/* The patcher takes an interrupt that runs a site (it reads memory as is). */
inline patcher_irq()
{
	if
	:: skip
	:: s = 0; do :: s < NSITE - 1 -> s++ :: break od;
		if
		:: mem_first[s] == V_INT3 -> int3_handler(0, s)
		:: else -> assert(mem_first[s] == mem_tail[s])
		fi;
		s = 0
	fi
}

/*
 * A round: the generation moves (every CPU's stale bit), then the CPUs
 * read in the kernel get the IPI of kind (text_sync_targets(); the
 * patcher serialized after its pass).
 */
inline send_ipis(kind)
{
	d_step {
		k = 0;
		do
		:: k < NCPU -> stale[k] = 1; k++
		:: else -> k = 0; break
		od
	}
	d_step {
		others = 0;
		k = 1;
		do
		:: k < NCPU ->
			if
			:: online[k] && ct[k] == CT_KERNEL ->
				if
				:: kind == IPI_SYNC -> ipi_sync[k] = 1
				:: else -> ipi_park[k] = 1; park_ipi[k] = 1;
					slot[k] = SLOT_WANTED
				fi;
				others++
			:: else -> skip
			fi;
			k++
		:: else -> k = 0; break
		od
	}
}

inline wait_ipis()
{
	k = 1;
	do
	:: k < NCPU -> (ipi_sync[k] == 0); k++
	:: else -> k = 0; break
	od
}

inline text_poke_sync()
{
	send_ipis(IPI_SYNC);
	wait_ipis();
	others = 0
}

/* bp_arm(): a reference for every online CPU, then the batch. */
inline bp_arm()
{
	d_step {
		k = 0;
		do
		:: k < NCPU ->
			if
			:: online[k] -> refs[k] = 1
			:: else -> skip
			fi;
			k++
		:: else -> k = 0; break
		od;
		k = 0;
		do
		:: k < NSITE -> desc_vec[k] = vec[k]; k++
		:: else -> k = 0; break
		od;
		desc_new = target;
		desc_nr = NSITE;
#if STALE
		k = 0;
		do
		:: k < NCPU -> stale_seen[k] = 0; k++
		:: else -> k = 0; break
		od;
#endif
		in_batch = 1
	}
}

/* bp_retire(): drop each online CPU's reference, wait for it to be 0. */
inline bp_retire()
{
	k = 0;
	do
	:: k < NCPU ->
		if
		:: online[k] ->
			refs[k]--;
#ifndef M_NO_WAIT
			(refs[k] == 0);
#endif
		:: else -> skip
		fi;
		k++
	:: else -> k = 0; break
	od;
	skip;
	d_step {
		desc_nr = 0;
		desc_vec[0] = 0;
		desc_vec[1] = 0;
		desc_new = 0;
		in_batch = 0
	}
}

/* One pass: the first bytes (int3 or new), or the tails. */
inline pass_int3()
{
	i = 0;
	do
	:: i < NSITE ->
		write_first(vec[i], V_INT3);
#ifdef M_ARM_LATE
		if
		:: i == 0 -> bp_arm()
		:: else -> skip
		fi;
#endif
		i++
	:: else -> i = 0; break
	od
}

inline pass_tails()
{
	i = 0;
	do
	:: i < NSITE -> write_tail(vec[i], target); i++
	:: else -> i = 0; break
	od
}

inline pass_first()
{
	i = 0;
	do
	:: i < NSITE -> write_first(vec[i], target); i++
	:: else -> i = 0; break
	od
}

/*
 * text_poke_sync_parked(): the fence up, the CPUs in the kernel sent the
 * park IPI and waited for (each parked by its IPI or at the fence), the
 * first bytes written, the fence down, every parked CPU gone, and every
 * park IPI run (text_sync_park_end()). A CPU parked at the fence by an
 * NMI may have been interrupted between an int3 and the handler's
 * bp_get(): its IPI, taken only once that handler is done, is what says
 * no such trap is left. M_NO_PARK_IPI_WAIT: the park does not wait for
 * its IPIs (the engine as it was).
 */
inline sync_parked()
{
	fence = 1;
	send_ipis(IPI_PARK);
	k = 1;
	do
	:: k < NCPU -> (slot[k] != SLOT_WANTED); k++
	:: else -> k = 0; break
	od;
	pass_first();
	fence = 0;
	k = 1;
	do
	:: k < NCPU -> (slot[k] == SLOT_FREE); k++
	:: else -> k = 0; break
	od;
#ifndef M_NO_PARK_IPI_WAIT
	k = 1;
	do
	:: k < NCPU -> (park_ipi[k] == 0); k++
	:: else -> k = 0; break
	od;
#endif
	others = 0
}

proctype patcher() provided (!in_nmi[0])
{
	byte vec[NSITE];
	byte target, i, k, s, others, lo, hi, mid;
	bit cur, found;

	do
	:: /* A flip: cpus_read_lock(), text_mutex, queue the two sites. */
#ifndef M_NO_HOTPLUG_LOCK
		atomic { !hp_writer -> hp_readers++ };
#endif
		target = 1 - cur;
		/* Queued in descending address order: the batch must sort. */
		vec[0] = 1;
		vec[1] = 0;
#ifndef M_UNSORTED
		vec[0] = 0;
		vec[1] = 1;
#endif
		/* Step 1: publish and arm. */
#ifndef M_ARM_LATE
		bp_arm();
#endif
		/* Step 2: int3 on every site; sync. */
		pass_int3();
#ifndef M_NO_SYNC1
		text_poke_sync();
#endif
		patcher_irq();
		/* Step 3: the tails; sync. */
		pass_tails();
#ifndef M_NO_SYNC2
		text_poke_sync();
#endif
		patcher_irq();
#ifdef M_RELEASE_EARLY
		bp_retire();
#endif
		/* Step 4: the first bytes; sync (parked). */
#if PARK && !defined(M_NO_SYNC3)
		sync_parked();
#else
		pass_first();
#ifndef M_NO_SYNC3
		text_poke_sync();
#endif
#endif
		patcher_irq();
		skip;
		/* Step 5: drop the references, retire the batch. */
#ifndef M_RELEASE_EARLY
		bp_retire();
#endif
		skip;
		/* No reference outlives the batch. */
		d_step {
			k = 0;
			do
			:: k < NCPU -> assert(refs[k] == 0); k++
			:: else -> k = 0; break
			od
		}
#if STALE
		/* QEMU keeps (once) the int3 of the batch's first site. */
		if
		:: stale_left ->
			d_step {
				stale_left = 0;
				k = 1;
				do
				:: k < NCPU ->
					tb_valid[k * NSITE + vec[0]] = 1;
					tb_first[k * NSITE + vec[0]] = V_INT3;
					tb_tail[k * NSITE + vec[0]] = 0;
					k++
				:: else -> k = 0; break
				od
			}
		:: skip
		fi;
#endif
		cur = target;
		target = 0;
		vec[0] = 0;
		vec[1] = 0;
#ifndef M_NO_HOTPLUG_LOCK
		hp_readers--;
#endif
progress_batch:
		skip
	od
}

/*
 * A CPU running the sites: in the kernel, it fetches a site byte by byte
 * and executes it, or traps on an int3; it takes IPIs between
 * instructions, goes offline when asked (between instructions too), and
 * (ENTRY=1) leaves for idle or user mode. Out of the kernel it runs no
 * kernel text; an interrupt (a pending IPI) or its own will brings it
 * back in through enter_kernel().
 */
proctype reader(byte c) provided (!in_nmi[c])
{
	byte s, f, k, lo, hi, mid;
	bit t, found, cached;

	do
	:: online[c] && ct[c] == CT_KERNEL && !ipi_sync[c] && !ipi_park[c] &&
	   !down_req[c] ->
		run_site(c)
	:: online[c] && ct[c] == CT_KERNEL && ipi_sync[c] ->
		d_step { serialize(c); ipi_sync[c] = 0 }
	:: online[c] && ct[c] == CT_KERNEL && ipi_park[c] ->
		/* text_sync_park_here(): parked here, or at the fence before. */
		ipi_park[c] = 0;
		if
		:: atomic { slot[c] == SLOT_WANTED -> slot[c] = SLOT_PARKED };
			(!fence);
			d_step { serialize(c); slot[c] = SLOT_FREE };
			skip
		:: else -> d_step { serialize(c) };
			skip
		fi;
		park_ipi[c] = 0
	:: online[c] && ct[c] == CT_KERNEL && down_req[c] && !ipi_sync[c] &&
	   !ipi_park[c] ->
		d_step {
			online[c] = 0;
			down_req[c] = 0
		}
#if ENTRY
	:: c == ECPU && online[c] && ct[c] == CT_KERNEL && !down_req[c] &&
	   !ipi_sync[c] && !ipi_park[c] ->
		/*
		 * TEXT_SYNC_LEAVE: the last kernel instruction is behind. An
		 * IPI pending now is taken as soon as the CPU is out (sysretq,
		 * iretq, sti; hlt enable interrupts): as if before it left.
		 */
		if
		:: ct[c] = CT_IDLE
		:: ct[c] = CT_USER
		fi;
#ifdef M_IDLE_EARLY
		/* ... but it is not: one more site after counting as gone. */
		run_site(c);
#endif
		skip
	:: online[c] && ct[c] != CT_KERNEL ->
		/* An interrupt, a system call, a wake-up. */
		enter_kernel(c)
#endif
	od
}

#if NMI
/*
 * NMIs on CPU c, one at a time (the CPU blocks them until the NMI's
 * iretq; an int3 inside returns without one): nmi_entry, then a handler
 * that runs a site, then the state put back. Between any two steps of
 * the CPU, but not inside an instruction's fetch.
 */
proctype nmi(byte c)
{
	byte s, f, k, lo, hi, mid, old;
	bit t, found, cached;

	do
	:: atomic { online[c] && !fetching[c] && !in_nmi[c] ->
			in_nmi[c] = 1; old = ct[c]; ct[c] = CT_KERNEL };
		if
		:: stale[c] -> sync_generation(c, 1)
		:: else -> skip
		fi;
		if
		:: c == 0 ->
			/* On the patcher's CPU: memory as it is. */
			if
			:: s = 0
			:: s = 1
			fi;
			if
			:: mem_first[s] == V_INT3 -> int3_handler(0, s)
			:: else -> assert(mem_first[s] == mem_tail[s])
			fi;
			s = 0
		:: else -> run_site(c)
		fi;
		atomic { ct[c] = old; old = 0; in_nmi[c] = 0 }
	od
}
#endif

/*
 * CPU hotplug of CPU HCPU under cpu_hotplug_lock held for writing: down
 * (the CPU stops between instructions; text_poke_dead_cpu()), or up
 * (text_poke_prepare_cpu(); the CPU starts serialized, with no
 * translations).
 */
proctype hotplug()
{
	byte k;

	do
	:: atomic { hp_readers == 0 && !hp_writer -> hp_writer = 1 };
		if
		:: online[HCPU] ->
			down_req[HCPU] = 1;
			(!online[HCPU]);
			/* WARN: died holding a reference. */
			assert(refs[HCPU] == 0);
			refs[HCPU] = 0
		:: else ->
			/* WARN_ON_ONCE(bp_desc.nr) */
			assert(desc_nr == 0);
			d_step {
				refs[HCPU] = 0;
				serialize(HCPU);
#if TCG
				k = 0;
				do
				:: k < NSITE ->
					tb_valid[HCPU * NSITE + k] = 0;
					tb_first[HCPU * NSITE + k] = 0;
					tb_tail[HCPU * NSITE + k] = 0;
					k++
				:: else -> k = 0; break
				od;
#endif
				stale[HCPU] = 0;
				online[HCPU] = 1
			}
		fi;
		hp_writer = 0;
progress_hotplug:
		skip
	od
}

init
{
	byte c, k;

	atomic {
		c = 0;
		do
		:: c < NCPU ->
			online[c] = 1;
			serialize(c);
			c++
		:: else -> break
		od;
		c = 1;
		do
		:: c < NCPU -> run reader(c); c++
		:: else -> break
		od;
		run patcher();
#if NMI
		run nmi(0);
		run nmi(ECPU);
#endif
#if HOTPLUG
		run hotplug()
#endif
	}
}
