/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RING_BUFFER_H
#define _LINUX_RING_BUFFER_H

/*
 * The tracer's ring buffer (kernel/trace/ring_buffer.c): one ring of
 * pages per possible CPU. A writer only ever writes its own CPU's ring,
 * with interrupts off between reserve and commit and no lock; when the
 * ring is full it overwrites the oldest page, and the records lost that
 * way are counted (overrun). Readers, serialized among themselves, take
 * records from any CPU's ring while its writer runs; a record they copy
 * is checked not to have been overwritten meanwhile, so they never see a
 * torn one.
 *
 * Every record has a header: its length, the writer CPU's record number
 * (consecutive on that CPU, so a gap is what was overwritten) and a
 * timestamp (ktime_get_ns()).
 */
#include <linux/types.h>

struct trace_buffer;
struct rb_cpu_buffer;

/* The largest payload a record may have. */
#define RING_BUFFER_MAX_EVENT 512

struct ring_buffer_event {
	u16 len;	/* bytes, this header included, a multiple of 8 */
	u16 size;	/* payload bytes, as reserved */
	u32 seq;	/* the writer CPU's record number (low 32 bits) */
	u64 ts;		/* ns since boot */
	u64 data[];
};

/* Between reserve and commit, on the writer's stack. */
struct ring_buffer_handle {
	unsigned long flags;
	struct rb_cpu_buffer *cb;
	struct ring_buffer_event *event;
};

struct ring_buffer_cpu_stats {
	u64 written;	/* records committed */
	u64 read;	/* records consumed by readers */
	u64 overrun;	/* records overwritten before a reader took them */
};

/* size: bytes per CPU, rounded up to pages, at least 2 pages. */
struct trace_buffer *ring_buffer_alloc(unsigned long size);
void ring_buffer_free(struct trace_buffer *buffer);
unsigned int ring_buffer_nr_pages(struct trace_buffer *buffer);

/*
 * A record of len payload bytes on this CPU: the payload to fill, or
 * NULL (recording disabled, len above RING_BUFFER_MAX_EVENT). Interrupts
 * stay off until ring_buffer_unlock_commit(), which must follow.
 */
void *ring_buffer_lock_reserve(struct trace_buffer *buffer, unsigned long len,
			       struct ring_buffer_handle *h);
void ring_buffer_unlock_commit(struct ring_buffer_handle *h);
/* Both at once: 0, or -EBUSY if nothing was written. */
int ring_buffer_write(struct trace_buffer *buffer, unsigned long len,
		      const void *data);

/*
 * Takes the oldest record of cpu's ring: copies its payload into dst and
 * returns its length; 0 if the ring is empty. *ts gets its timestamp,
 * *lost the number of cpu's records overwritten before it since the last
 * one taken. A payload longer than size is consumed and -EMSGSIZE
 * returned. Any context; readers exclude each other with a spinlock.
 */
int ring_buffer_consume(struct trace_buffer *buffer, unsigned int cpu,
			void *dst, unsigned int size, u64 *ts,
			unsigned long *lost);
void ring_buffer_cpu_stats(struct trace_buffer *buffer, unsigned int cpu,
			   struct ring_buffer_cpu_stats *stats);

/* Nesting counter: while above 0, reserve returns NULL. */
void ring_buffer_record_disable(struct trace_buffer *buffer);
void ring_buffer_record_enable(struct trace_buffer *buffer);

#endif /* _LINUX_RING_BUFFER_H */
