/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the end of every event header (in include/trace/events/),
 * outside its guard. In the one file that defined CREATE_TRACE_POINTS
 * before including the event header, it reads that header again with
 * the event macros turned into definitions:
 *
 *   1. every tracepoint of the header (DEFINE_TRACE: the struct, its
 *      name, its __tracepoints_ptrs entry, the iterator);
 *   2. with CONFIG_TRACING, the tracer's part (<trace/trace_events.h>).
 *
 * TRACE_SYSTEM names the header's system; the header is found as
 * <trace/events/TRACE_INCLUDE_FILE.h> (default: TRACE_SYSTEM), or as
 * "TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE.h", relative to this directory,
 * when the header defines TRACE_INCLUDE_PATH (a header beside its code).
 */
#ifdef CREATE_TRACE_POINTS

/* Reading the header again must not come back here for the same file. */
#undef CREATE_TRACE_POINTS

#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print) \
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args) \
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))

#undef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args) \
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)

#ifndef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE TRACE_SYSTEM
#endif

#ifdef TRACE_INCLUDE_PATH
#define __TRACE_INCLUDE(file) __stringify(TRACE_INCLUDE_PATH/file.h)
#else
#define __TRACE_INCLUDE(file) <trace/events/file.h>
#endif
#define TRACE_INCLUDE(file) __TRACE_INCLUDE(file)

/* Pass 1: the tracepoints. */
#define TRACE_HEADER_MULTI_READ
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Pass 2 and on: the records, probes and printers. */
#ifdef CONFIG_TRACING
#include <trace/trace_events.h>
#endif

#undef TRACE_EVENT
#undef DEFINE_EVENT
#undef DECLARE_EVENT_CLASS
#undef DECLARE_TRACE
#undef TRACE_INCLUDE
#undef __TRACE_INCLUDE
#undef TRACE_INCLUDE_FILE
#undef TRACE_INCLUDE_PATH
#undef TRACE_HEADER_MULTI_READ

/* Restore the declaring macros, for headers read after this one. */
#include <linux/tracepoint.h>

/* The next event header included by this file is defined too. */
#define CREATE_TRACE_POINTS

#endif /* CREATE_TRACE_POINTS */
