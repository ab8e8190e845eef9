// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU ring buffers of variable-length records (<linux/ring_buffer.h>).
 *
 * Each CPU's ring is nr_pages pages, written in order. Pages are numbered
 * by the writer as it enters them (seq 1, 2, ...); page seq lives in slot
 * seq % nr_pages. Records never straddle pages. A page's state word holds
 * its seq and the number of its records readers have taken:
 *
 *   state = seq << RB_SEQ_SHIFT | consumed,   RB_BUSY while it is reset
 *
 * The writer (its CPU, interrupts off, no lock):
 *   1. reserve: if the record does not fit in the page, enter the next
 *      slot: xchg its state to RB_BUSY (the records of its old life that
 *      no reader took, entries - consumed, are counted as overrun), reset
 *      commit and entries, publish the new state, then head_seq;
 *   2. write the record after the page's committed bytes;
 *   3. commit: publish the new end of the page (commit, release).
 *
 * A reader (under reader_lock) copies the record at its offset in page
 * read_seq, then claims it with a cmpxchg of the state it read before
 * the copy, adding 1 to consumed. Any reuse of the page in between
 * changed the state (RB_BUSY, then a later seq), so the cmpxchg fails and
 * the copy, possibly torn, is dropped: those records were counted as
 * overrun by the writer, never as read. A page whose state is a later
 * seq than read_seq was lapped: the reader goes on at the oldest page
 * still whole, head_seq - nr_pages + 1. Hence, for every CPU,
 *
 *   written = read + overrun + records still unread
 *
 * exactly, and a reader learns what it lost from gaps in the records'
 * own numbers.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/mm.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#define RB_PAGE_SIZE PAGE_SIZE
#define RB_SEQ_SHIFT 16
#define RB_CONSUMED_MASK ((1ULL << RB_SEQ_SHIFT) - 1)
#define RB_BUSY (~0ULL)
#define RB_HDR sizeof(struct ring_buffer_event)

struct rb_page {
	u64 state; /* see above; 0: never written */
	u32 commit; /* bytes of whole records (release by the writer) */
	u32 entries; /* records in those bytes (writer only) */
	u8 data[];
};

#define RB_DATA_SIZE (RB_PAGE_SIZE - sizeof(struct rb_page))

struct rb_cpu_buffer {
	/* The writer's, on its CPU with interrupts off. */
	u64 head_seq; /* the page being written (release) */
	u32 tail; /* write offset in it */
	u64 written; /* records committed */
	u64 overrun; /* records overwritten before read */
	/* The readers', under reader_lock. */
	u64 read_seq; /* the page being read */
	u32 read_off; /* offset of the next record in it */
	u32 next_seq; /* record number expected next */
	u64 read; /* records taken */
	unsigned int nr_pages;
	u8 *pages;
};

struct trace_buffer {
	unsigned int nr_pages;
	atomic_t record_disabled;
	spinlock_t reader_lock;
	struct rb_cpu_buffer *cpus[NR_CPUS];
};

static struct rb_page *rb_page(struct rb_cpu_buffer *cb, u64 seq)
{
	return (struct rb_page *)(cb->pages +
				  (seq % cb->nr_pages) * RB_PAGE_SIZE);
}

static struct rb_cpu_buffer *rb_alloc_cpu(unsigned int nr_pages)
{
	struct rb_cpu_buffer *cb = kzalloc(sizeof(*cb), GFP_KERNEL);

	if (!cb)
		return NULL;
	cb->pages = kzalloc((size_t)nr_pages * RB_PAGE_SIZE, GFP_KERNEL);
	if (!cb->pages) {
		kfree(cb);
		return NULL;
	}
	cb->nr_pages = nr_pages;
	cb->head_seq = cb->read_seq = 1;
	rb_page(cb, 1)->state = 1ULL << RB_SEQ_SHIFT;
	return cb;
}

static void rb_free_cpu(struct rb_cpu_buffer *cb)
{
	if (cb) {
		kfree(cb->pages);
		kfree(cb);
	}
}

void ring_buffer_free(struct trace_buffer *buffer)
{
	unsigned int cpu;

	if (!buffer)
		return;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		rb_free_cpu(buffer->cpus[cpu]);
	kfree(buffer);
}

struct trace_buffer *ring_buffer_alloc(unsigned long size)
{
	struct trace_buffer *buffer = kzalloc(sizeof(*buffer), GFP_KERNEL);
	unsigned int cpu;

	if (!buffer)
		return NULL;
	buffer->nr_pages = max(DIV_ROUND_UP(size, RB_PAGE_SIZE), 2UL);
	spin_lock_init(&buffer->reader_lock);
	for_each_possible_cpu(cpu) {
		buffer->cpus[cpu] = rb_alloc_cpu(buffer->nr_pages);
		if (!buffer->cpus[cpu]) {
			ring_buffer_free(buffer);
			return NULL;
		}
	}
	return buffer;
}

unsigned int ring_buffer_nr_pages(struct trace_buffer *buffer)
{
	return buffer->nr_pages;
}

/* Step 1: the writer enters the next slot, overwriting its old records. */
static void rb_next_page(struct rb_cpu_buffer *cb)
{
	u64 next = cb->head_seq + 1;
	struct rb_page *p = rb_page(cb, next);
	u64 old = __atomic_exchange_n(&p->state, RB_BUSY, __ATOMIC_SEQ_CST);

	if (old)
		cb->overrun += p->entries - (old & RB_CONSUMED_MASK);
	p->entries = 0;
	WRITE_ONCE(p->commit, 0);
	__atomic_store_n(&p->state, next << RB_SEQ_SHIFT, __ATOMIC_RELEASE);
	__atomic_store_n(&cb->head_seq, next, __ATOMIC_RELEASE);
	cb->tail = 0;
}

void *ring_buffer_lock_reserve(struct trace_buffer *buffer, unsigned long len,
			       struct ring_buffer_handle *h)
{
	unsigned int need = ALIGN(RB_HDR + len, 8);
	struct ring_buffer_event *ev;
	struct rb_cpu_buffer *cb;

	if (len > RING_BUFFER_MAX_EVENT)
		return NULL;
	local_irq_save(h->flags);
	if (atomic_read(&buffer->record_disabled)) {
		local_irq_restore(h->flags);
		return NULL;
	}
	cb = buffer->cpus[smp_processor_id()];
	if (cb->tail + need > RB_DATA_SIZE)
		rb_next_page(cb);
	ev = (void *)(rb_page(cb, cb->head_seq)->data + cb->tail);
	ev->len = need;
	ev->size = len;
	ev->seq = (u32)cb->written;
	ev->ts = ktime_get_ns();
	h->cb = cb;
	h->event = ev;
	return ev->data;
}

/* Step 3: the record becomes visible to readers. */
void ring_buffer_unlock_commit(struct ring_buffer_handle *h)
{
	struct rb_cpu_buffer *cb = h->cb;
	struct rb_page *p = rb_page(cb, cb->head_seq);

	cb->tail += h->event->len;
	p->entries++;
	__atomic_store_n(&p->commit, cb->tail, __ATOMIC_RELEASE);
	WRITE_ONCE(cb->written, cb->written + 1);
	local_irq_restore(h->flags);
}

int ring_buffer_write(struct trace_buffer *buffer, unsigned long len,
		      const void *data)
{
	struct ring_buffer_handle h;
	void *dst = ring_buffer_lock_reserve(buffer, len, &h);

	if (!dst)
		return -EBUSY;
	memcpy(dst, data, len);
	ring_buffer_unlock_commit(&h);
	return 0;
}

/* Lapped: go on at the oldest page the writer has not reused. */
static void rb_reader_catch_up(struct rb_cpu_buffer *cb, u64 head)
{
	u64 oldest = head >= cb->nr_pages ? head - cb->nr_pages + 1 : 1;

	cb->read_seq = max(cb->read_seq + 1, oldest);
	cb->read_off = 0;
}

/* What one attempt at the reader's page found. */
enum rb_try {
	RB_TAKEN, /* the record is copied and claimed */
	RB_EMPTY, /* nothing to read */
	RB_AGAIN, /* moved on or lost a race: look again */
};

/*
 * Copies the record at the reader's offset into ev/dst and claims it.
 * st is the page state loaded before; commit the page's committed end.
 */
static enum rb_try rb_copy_claim(struct rb_page *p, u64 st, u32 off, u32 commit,
				 struct ring_buffer_event *ev, void *dst,
				 unsigned int size)
{
	const struct ring_buffer_event *src = (void *)(p->data + off);
	unsigned int len = READ_ONCE(src->len);

	/* A length that makes no sense: the page is being reused. */
	if (len < RB_HDR || off + len > commit)
		return RB_AGAIN;
	memcpy(ev, src, RB_HDR);
	ev->len = len;
	if (ev->size > len - RB_HDR)
		return RB_AGAIN;
	if (ev->size <= size)
		memcpy(dst, src->data, ev->size);
	if (!__atomic_compare_exchange_n(&p->state, &st, st + 1, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return RB_AGAIN;
	return RB_TAKEN;
}

/* One look at the reader's page; see the comment at the top. */
static enum rb_try rb_try_read(struct rb_cpu_buffer *cb,
			       struct ring_buffer_event *ev, void *dst,
			       unsigned int size)
{
	struct rb_page *p = rb_page(cb, cb->read_seq);
	u64 st = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
	u64 head = __atomic_load_n(&cb->head_seq, __ATOMIC_ACQUIRE);
	u32 commit;

	if (st == RB_BUSY || (st >> RB_SEQ_SHIFT) > cb->read_seq) {
		rb_reader_catch_up(cb, head);
		return RB_AGAIN;
	}
	if ((st >> RB_SEQ_SHIFT) < cb->read_seq)
		return RB_EMPTY; /* the writer has not reached it */
	/* Loaded after head: if the writer left the page, this is final. */
	commit = __atomic_load_n(&p->commit, __ATOMIC_ACQUIRE);
	if (cb->read_off >= commit) {
		if (cb->read_seq >= head)
			return RB_EMPTY;
		cb->read_seq++;
		cb->read_off = 0;
		return RB_AGAIN;
	}
	if (rb_copy_claim(p, st, cb->read_off, commit, ev, dst, size) !=
	    RB_TAKEN)
		return RB_AGAIN;
	cb->read_off += ev->len;
	return RB_TAKEN;
}

int ring_buffer_consume(struct trace_buffer *buffer, unsigned int cpu,
			void *dst, unsigned int size, u64 *ts,
			unsigned long *lost)
{
	struct rb_cpu_buffer *cb = cpu < NR_CPUS ? buffer->cpus[cpu] : NULL;
	struct ring_buffer_event ev;
	enum rb_try r = RB_AGAIN;
	unsigned long flags;
	int len = 0;

	if (!cb)
		return 0;
	spin_lock_irqsave(&buffer->reader_lock, flags);
	while (r == RB_AGAIN)
		r = rb_try_read(cb, &ev, dst, size);
	if (r == RB_TAKEN) {
		len = ev.size;
		if (lost)
			*lost = (u32)(ev.seq - cb->next_seq);
		if (ts)
			*ts = ev.ts;
		cb->next_seq = ev.seq + 1;
		cb->read++;
	}
	spin_unlock_irqrestore(&buffer->reader_lock, flags);
	return len > size ? -EMSGSIZE : len;
}

void ring_buffer_cpu_stats(struct trace_buffer *buffer, unsigned int cpu,
			   struct ring_buffer_cpu_stats *stats)
{
	struct rb_cpu_buffer *cb = buffer->cpus[cpu];
	unsigned long flags;

	memset(stats, 0, sizeof(*stats));
	if (!cb)
		return;
	spin_lock_irqsave(&buffer->reader_lock, flags);
	stats->read = cb->read;
	spin_unlock_irqrestore(&buffer->reader_lock, flags);
	stats->written = READ_ONCE(cb->written);
	stats->overrun = READ_ONCE(cb->overrun);
}

void ring_buffer_record_disable(struct trace_buffer *buffer)
{
	atomic_inc(&buffer->record_disabled);
}

void ring_buffer_record_enable(struct trace_buffer *buffer)
{
	atomic_dec(&buffer->record_disabled);
}
