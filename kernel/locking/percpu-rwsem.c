// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU reader/writer semaphores: see <linux/percpu-rwsem.h> for the
 * rules.
 *
 * Ordering. The reader writes its CPU's count, then reads block; the
 * writer writes block, then reads every count. Each side has a full
 * barrier (smp_mb(), which on x86 orders the one thing TSO does not: a
 * load after a store) between its write and its read:
 *
 *   reader: count += 1; smp_mb(); read block
 *   writer: block = 1;  smp_mb(); read the counts, sum them
 *
 * so at least one sees the other's write: either the reader sees block
 * and backs off (count -= 1, then it sleeps), or the writer counts it.
 * Hence every reader that got in is counted by every sum the writer takes
 * until its count -= 1 (on whatever CPU it leaves on), and a sum of 0
 * means no reader is inside. An exit seen without its entry cannot fake
 * that 0: the entries of readers that got in are all seen, and a reader
 * that backs off does it with preemption off, on the count of its entry,
 * where its exit cannot be seen before its entry. (Nested read holds are
 * the user's business: the CPU hotplug lock counts them per task and
 * takes a single hold here.) Leaving is the same pattern turned round:
 *
 *   reader: smp_mb(); count -= 1; smp_mb(); read block -> wake the writer
 *   writer: block = 1; smp_mb(); queued on writer_wq; read the counts
 *
 * either the writer's sum sees the decrement, or the reader sees block and
 * wakes it (wake_up() and the wait queue's lock close the rest of the
 * window: no lost wake-up). The first barrier keeps the reader's critical
 * section before its decrement, and the writer's smp_mb() after a sum of
 * 0 keeps its own section after it. The writer clears block with a
 * release, and readers read it with an acquire, so a reader that gets in
 * after a writer sees everything that writer did.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/percpu-rwsem.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <asm/barrier.h>

/*
 * The fast path: true if in. On false, the count is back as it was, on the
 * same CPU (preemption is off from the increment to the decrement).
 */
static bool percpu_read_try(struct percpu_rw_semaphore *sem)
{
	preempt_disable();
	this_cpu_inc(*sem->read_count);
	smp_mb(); /* the count before block: see the top of the file */
	if (likely(!smp_load_acquire(&sem->block))) {
		preempt_enable();
		return true;
	}
	this_cpu_dec(*sem->read_count);
	preempt_enable();
	/* The writer may have counted us and gone to sleep on the sum. */
	wake_up(&sem->writer_wq);
	return false;
}

/* Sleeps until no writer wants the lock, then tries again; in on return. */
static noinline void percpu_down_read_slow(struct percpu_rw_semaphore *sem)
{
	__atomic_fetch_add(&sem->slow_reads, 1, __ATOMIC_RELAXED);
	do {
		wait_event(sem->readers_wq, !READ_ONCE(sem->block));
	} while (!percpu_read_try(sem));
}

void __percpu_down_read(struct percpu_rw_semaphore *sem)
{
	if (likely(percpu_read_try(sem)))
		return;
	percpu_down_read_slow(sem);
}

bool percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
{
	return percpu_read_try(sem);
}

void percpu_up_read(struct percpu_rw_semaphore *sem)
{
	smp_mb(); /* the critical section before the decrement */
	this_cpu_dec(*sem->read_count);
	smp_mb(); /* the decrement before block: see the top of the file */
	if (unlikely(READ_ONCE(sem->block)))
		wake_up(&sem->writer_wq);
}

int percpu_rwsem_readers(struct percpu_rw_semaphore *sem)
{
	unsigned int cpu;
	int sum = 0;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(sem->read_count, cpu));
	return sum;
}

static bool percpu_readers_gone(struct percpu_rw_semaphore *sem)
{
	return percpu_rwsem_readers(sem) == 0;
}

/*
 * 1. take writer_mutex (other writers sleep there); 2. set block: readers
 * arriving from now on back off and sleep; 3. sleep until the readers
 * inside are gone (sum 0); 4. record the holder.
 */
void __percpu_down_write(struct percpu_rw_semaphore *sem)
{
	mutex_lock(&sem->writer_mutex);
	WRITE_ONCE(sem->block, 1);
	smp_mb(); /* block before the counts: see the top of the file */
	wait_event(sem->writer_wq, percpu_readers_gone(sem));
	smp_mb(); /* the readers' sections before ours */
	WRITE_ONCE(sem->writer, current);
}

/*
 * 1. forget the holder; 2. clear block (a release); 3. wake the readers;
 * 4. let the next writer in.
 */
void percpu_up_write(struct percpu_rw_semaphore *sem)
{
	if (WARN_ONCE(!percpu_rwsem_is_write_owner(sem),
		      "percpu_rwsem %s: percpu_up_write() from %pS by %s/%d, which does not hold it\n",
		      sem->name, (void *)_RET_IP_, current->comm, current->pid))
		return;
	WRITE_ONCE(sem->writer, NULL);
	smp_store_release(&sem->block, 0); /* our section before the readers' */
	wake_up(&sem->readers_wq);
	mutex_unlock(&sem->writer_mutex);
}
