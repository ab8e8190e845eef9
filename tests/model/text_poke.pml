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
 * Configuration (spin -D...): NCPU (3 or 4), TCG (0: the SDM's rules only,
 * 1: and QEMU's translation cache), PARK (1: the other CPUs are parked for
 * the last write, as text_poke.park=on; 0: a plain sync round), HOTPLUG
 * (1: the hotplug process runs). Mutants, each a change the protocol must
 * not survive: M_NO_SYNC1, M_NO_SYNC2, M_NO_SYNC3 (drop that sync round;
 * the third is the park when PARK=1), M_RELEASE_EARLY (retire the batch
 * before its last sync round), M_ARM_LATE (arm the references after the
 * first int3 is written), M_UNSORTED (publish the batch in queue order,
 * unsorted), M_NO_HOTPLUG_LOCK (flip without cpus_read_lock()); the
 * skipped park is TCG=1 PARK=0. Two it survives, as the model shows:
 * M_NO_SYNC2 with PARK=1, and M_NO_WAIT (retire without waiting for CPUs
 * still in the handler: none can be, the handler runs with interrupts
 * off and the last sync round waited for every CPU).
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

#define NSITE 2
#define HCPU (NCPU - 1) /* the CPU that goes offline and comes back */

/* Byte values: a site's version A or B, or int3 (first byte only). */
#define V_A 0
#define V_B 1
#define V_INT3 2
#define BIT(v) (1 << (v))

/* IPIs: the sync round's sync_core(), or the park. */
#define IPI_NONE 0
#define IPI_SYNC 1
#define IPI_PARK 2

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
byte ipi[NCPU];
bit down_req[NCPU];

/* The park (struct tp_park). */
byte park_arrived;
byte park_left;
bit park_released;

/* cpu_hotplug_lock: readers (flips) or one writer (hotplug). */
byte hp_readers;
bit hp_writer;

/* Observers for the properties. */
bit in_batch;

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
 * handle is the kernel's die("int3").
 */
inline int3_handler(c, s)
{
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
			:: desc_vec[mid] == s -> found = 1
			:: desc_vec[mid] < s -> lo = mid + 1
			:: else -> hi = mid
			fi
		:: else -> break
		od;
		lo = 0;
		hi = 0;
		mid = 0
	}
	/* Every trap during a batch is found and emulated. */
	assert(found);
	found = 0;
	refs[c]--
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

/* Send an IPI of kind to every other online CPU; wait unless parking. */
inline send_ipis(kind)
{
	d_step {
		others = 0;
		k = 1;
		do
		:: k < NCPU ->
			if
			:: online[k] -> ipi[k] = kind; others++
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
	:: k < NCPU -> (ipi[k] == IPI_NONE); k++
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

/* text_poke_sync_parked(): park the others, write the first bytes, release. */
inline sync_parked()
{
	send_ipis(IPI_PARK);
	(park_arrived == others);
	pass_first();
	park_released = 1;
	(park_left == others);
	wait_ipis();
	skip;
	d_step {
		park_arrived = 0;
		park_left = 0;
		park_released = 0;
		others = 0
	}
}

proctype patcher()
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
 * A CPU running the sites: it fetches a site byte by byte and executes
 * it, or traps on an int3; it takes IPIs between instructions, and goes
 * offline when asked (between instructions too).
 */
proctype reader(byte c)
{
	byte s, f, k, lo, hi, mid;
	bit t, found, cached;

	do
	:: online[c] && ipi[c] == IPI_NONE && !down_req[c] ->
		/* The first byte of either site (or QEMU's translation of it). */
		atomic {
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
		 * Then the tail, unless the first byte is an int3. Under TCG
		 * the translation is cached, even if a write came meanwhile.
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
	:: online[c] && ipi[c] == IPI_SYNC ->
		d_step { serialize(c); ipi[c] = IPI_NONE }
	:: online[c] && ipi[c] == IPI_PARK ->
		park_arrived++;
		(park_released);
		d_step { serialize(c); park_left++; ipi[c] = IPI_NONE }
	:: online[c] && down_req[c] && ipi[c] == IPI_NONE ->
		d_step {
			online[c] = 0;
			down_req[c] = 0
		}
	od
}

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
#if HOTPLUG
		run hotplug()
#endif
	}
}
