/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PERCPU_RWSEM_H
#define _LINUX_PERCPU_RWSEM_H

#include <linux/compiler.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/wait.h>

/*
 * A per-CPU reader/writer semaphore (kernel/locking/percpu-rwsem.c,
 * Documentation/sched.rst), for locks that are read all the time and
 * written almost never, like the CPU hotplug lock.
 *
 * A reader adds 1 to its CPU's read_count and, finding no writer (block
 * is 0), is in: it writes no shared cache line. It subtracts 1 from the
 * count of the CPU it leaves on, which may be another one, so a single
 * count means nothing: only their sum over the possible CPUs is the
 * number of readers inside (plus readers backing off, for an instant).
 *
 * A writer takes writer_mutex (one writer at a time), sets block, so that
 * new readers back off and sleep on readers_wq, then sleeps on writer_wq
 * until the sum is 0. It holds the lock from then until percpu_up_write()
 * clears block and wakes the readers. Readers are never granted the lock
 * while block is set; the owner of writer_mutex is the writer that set it.
 *
 * Both sides may sleep, so both start with might_sleep(). No task owns a
 * read hold: this lock does not know which tasks are readers (the CPU
 * hotplug lock keeps that per task on top of it).
 */
struct percpu_rw_semaphore {
	int *read_count; /* per-CPU variable (&template): readers in - out */
	int block; /* a writer wants the lock or holds it */
	struct task_struct *writer; /* the holder for writing, or NULL */
	struct mutex writer_mutex;
	struct wait_queue_head readers_wq; /* readers waiting for !block */
	struct wait_queue_head writer_wq; /* the writer waiting for sum 0 */
	unsigned long slow_reads; /* readers that found block set (stats) */
	const char *name;
};

#define __DEFINE_PERCPU_RWSEM(sname, storage)                               \
	static DEFINE_PER_CPU(int, __percpu_rwsem_rc_##sname);              \
	storage struct percpu_rw_semaphore sname = {                        \
		.read_count = &__percpu_rwsem_rc_##sname,                   \
		.writer_mutex = __MUTEX_INITIALIZER(sname.writer_mutex),    \
		.readers_wq = __WAIT_QUEUE_HEAD_INITIALIZER(sname.readers_wq), \
		.writer_wq = __WAIT_QUEUE_HEAD_INITIALIZER(sname.writer_wq), \
		.name = #sname,                                             \
	}
#define DEFINE_PERCPU_RWSEM(name) __DEFINE_PERCPU_RWSEM(name, )
#define DEFINE_STATIC_PERCPU_RWSEM(name) __DEFINE_PERCPU_RWSEM(name, static)

/*
 * The workers, without might_sleep(): for a wrapper that checks on its own
 * (cpus_read_lock()), so that a misuse is reported once, with the caller.
 */
void __percpu_down_read(struct percpu_rw_semaphore *sem);
void __percpu_down_write(struct percpu_rw_semaphore *sem);

/* Sleeps while a writer wants or holds the lock. */
static inline void percpu_down_read(struct percpu_rw_semaphore *sem)
{
	might_sleep();
	__percpu_down_read(sem);
}

/* A read hold if no writer wants the lock: true if taken. Never sleeps. */
bool percpu_down_read_trylock(struct percpu_rw_semaphore *sem);

/* Drops a read hold, on any CPU; wakes a waiting writer. */
void percpu_up_read(struct percpu_rw_semaphore *sem);

/* Sleeps until no other writer and no reader holds the lock. */
static inline void percpu_down_write(struct percpu_rw_semaphore *sem)
{
	might_sleep();
	__percpu_down_write(sem);
}

/* Only by the holder: WARNs once and does nothing otherwise. */
void percpu_up_write(struct percpu_rw_semaphore *sem);

/* The sum of the read counts: readers inside, plus any backing off. */
int percpu_rwsem_readers(struct percpu_rw_semaphore *sem);

/* The task that wants or holds the lock for writing, or NULL. */
static inline struct task_struct *
percpu_rwsem_writer(struct percpu_rw_semaphore *sem)
{
	return mutex_owner(&sem->writer_mutex);
}

/* True if the current task holds sem for writing. */
static inline bool percpu_rwsem_is_write_owner(struct percpu_rw_semaphore *sem)
{
	return READ_ONCE(sem->writer) == current;
}

/*
 * WARNs once per call site unless the current task holds sem for writing
 * or some task holds it for reading (readers are not known by task).
 */
#define percpu_rwsem_assert_held(sem)                                       \
	WARN_ONCE(!percpu_rwsem_is_write_owner(sem) &&                      \
			  percpu_rwsem_readers(sem) <= 0,                   \
		  "percpu_rwsem %s: not held, in %pS by %s/%d\n", (sem)->name, \
		  (void *)_THIS_IP_, current->comm, current->pid)

#endif /* _LINUX_PERCPU_RWSEM_H */
