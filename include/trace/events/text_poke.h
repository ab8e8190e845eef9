/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The patch engine's events (arch/x86/kernel/text_patch.c): a batch of the
 * int3 protocol from its start to its end, its sites, each of its three
 * passes, each sync round sent and each CPU's sync done in it, a CPU
 * parked for the last write, and every int3 a CPU hit at a site of the
 * batch in flight.
 *
 * Numbers tie the records of one batch together across CPUs: batch is
 * the batch's number (text_poke_stats.batches + 1 while it runs), round
 * the sync round's (text_poke_stats.sync_rounds + 1 while it runs), so a
 * CPU's text_poke_sync_done names the round its IPI was for, and
 * text_poke_batch_begin names the batch's first round.
 *
 * Slices: the tracer's exports pair an event whose name ends in _begin
 * with the next one of the same name ending in _end on that CPU
 * (Documentation/tracepoints.rst, Exporting).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM text_poke

#if !defined(_TRACE_TEXT_POKE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TEXT_POKE_H

#include <linux/string.h>
#include <linux/tracepoint.h>

/* The passes of a batch (steps 2, 3 and 4 of the protocol). */
#define TEXT_POKE_PASS_NAME(pass) \
	((pass) == 0 ? "int3" : (pass) == 1 ? "tails" : "first")

TRACE_EVENT(text_poke_batch_begin,
	TP_PROTO(unsigned long batch, unsigned int nr, void *first,
		 void *last, unsigned long round),
	TP_ARGS(batch, nr, first, last, round),
	TP_STRUCT__entry(
		__field(unsigned long, batch)
		__field(unsigned int, nr)
		__field(void *, first)
		__field(void *, last)
		__field(unsigned long, round)
	),
	TP_fast_assign(
		__entry->batch = batch;
		__entry->nr = nr;
		__entry->first = first;
		__entry->last = last;
		__entry->round = round;
	),
	TP_printk("batch=%lu sites=%u first=%pS last=%pS round=%lu",
		  __entry->batch, __entry->nr, __entry->first, __entry->last,
		  __entry->round)
);

TRACE_EVENT(text_poke_batch_end,
	TP_PROTO(unsigned long batch, unsigned int nr),
	TP_ARGS(batch, nr),
	TP_STRUCT__entry(
		__field(unsigned long, batch)
		__field(unsigned int, nr)
	),
	TP_fast_assign(
		__entry->batch = batch;
		__entry->nr = nr;
	),
	TP_printk("batch=%lu sites=%u", __entry->batch, __entry->nr)
);

/* One per site, as the batch starts: where, and what it will hold. */
TRACE_EVENT(text_poke_site,
	TP_PROTO(unsigned long batch, void *addr, unsigned int len,
		 const u8 *insn),
	TP_ARGS(batch, addr, len, insn),
	TP_STRUCT__entry(
		__field(unsigned long, batch)
		__field(void *, addr)
		__field(unsigned int, len)
		__array(u8, insn, 8)
	),
	TP_fast_assign(
		__entry->batch = batch;
		__entry->addr = addr;
		__entry->len = len < 8 ? len : 8;
		memset(__entry->insn, 0, sizeof(__entry->insn));
		memcpy(__entry->insn, insn, __entry->len);
	),
	TP_printk("batch=%lu addr=%pS len=%u insn=%*ph", __entry->batch,
		  __entry->addr, __entry->len, (int)__entry->len,
		  __entry->insn)
);

DECLARE_EVENT_CLASS(text_poke_pass,
	TP_PROTO(unsigned long batch, int pass, unsigned int nr),
	TP_ARGS(batch, pass, nr),
	TP_STRUCT__entry(
		__field(unsigned long, batch)
		__field(int, pass)
		__field(unsigned int, nr)
	),
	TP_fast_assign(
		__entry->batch = batch;
		__entry->pass = pass;
		__entry->nr = nr;
	),
	TP_printk("batch=%lu pass=%s sites=%u", __entry->batch,
		  TEXT_POKE_PASS_NAME(__entry->pass), __entry->nr)
);

/* Around the writes of one pass on the patching CPU (its sync follows). */
DEFINE_EVENT(text_poke_pass, text_poke_pass_begin,
	TP_PROTO(unsigned long batch, int pass, unsigned int nr),
	TP_ARGS(batch, pass, nr)
);

DEFINE_EVENT(text_poke_pass, text_poke_pass_end,
	TP_PROTO(unsigned long batch, int pass, unsigned int nr),
	TP_ARGS(batch, pass, nr)
);

DECLARE_EVENT_CLASS(text_poke_round,
	TP_PROTO(unsigned long round, int parked),
	TP_ARGS(round, parked),
	TP_STRUCT__entry(
		__field(unsigned long, round)
		__field(int, parked)
	),
	TP_fast_assign(
		__entry->round = round;
		__entry->parked = parked;
	),
	TP_printk("round=%lu%s", __entry->round,
		  __entry->parked ? " parked" : "")
);

/* On the patching CPU: from the IPIs sent until every CPU answered. */
DEFINE_EVENT(text_poke_round, text_poke_sync_begin,
	TP_PROTO(unsigned long round, int parked),
	TP_ARGS(round, parked)
);

DEFINE_EVENT(text_poke_round, text_poke_sync_end,
	TP_PROTO(unsigned long round, int parked),
	TP_ARGS(round, parked)
);

/* On each CPU that took the round: it has serialized. */
DEFINE_EVENT(text_poke_round, text_poke_sync_done,
	TP_PROTO(unsigned long round, int parked),
	TP_ARGS(round, parked)
);

/* A CPU parked in the last round, from its arrival to its release. */
DEFINE_EVENT(text_poke_round, text_poke_park_begin,
	TP_PROTO(unsigned long round, int parked),
	TP_ARGS(round, parked)
);

DEFINE_EVENT(text_poke_round, text_poke_park_end,
	TP_PROTO(unsigned long round, int parked),
	TP_ARGS(round, parked)
);

/* A CPU ran into the int3 at a site of the batch: emulated, going on at to. */
TRACE_EVENT(text_poke_int3,
	TP_PROTO(void *site, unsigned long to),
	TP_ARGS(site, to),
	TP_STRUCT__entry(
		__field(void *, site)
		__field(unsigned long, to)
	),
	TP_fast_assign(
		__entry->site = site;
		__entry->to = to;
	),
	TP_printk("site=%pS to=%pS", __entry->site, (void *)__entry->to)
);

#endif /* _TRACE_TEXT_POKE_H */

#include <trace/define_trace.h>
