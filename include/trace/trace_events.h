/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer's part of trace events, read by <trace/define_trace.h> in the
 * file that defined CREATE_TRACE_POINTS. Each pass below gives the event
 * macros one meaning and reads the event header again:
 *
 *   1. struct trace_event_raw_<class>: struct trace_entry, then the
 *      fields of TP_STRUCT__entry() (__field(type, item),
 *      __array(type, item, len));
 *   2. trace_event_fields_<class>(): the field table (type, name,
 *      offset, size, signedness), for the event's format;
 *   3. trace_event_raw_event_<class>(call, proto): the probe: reserves a
 *      record, runs TP_fast_assign() on it (__entry is the record),
 *      commits it;
 *   4. trace_raw_output_<class>(buf, size, record): TP_printk() with
 *      __entry pointing at the record;
 *   5. struct trace_event_class event_class_<class>, and for each event a
 *      struct trace_event_call with a pointer in _ftrace_events, whose
 *      probe is checked against the tracepoint's prototype.
 *
 * TRACE_EVENT(name, ...) is DECLARE_EVENT_CLASS(name, ...) plus
 * DEFINE_EVENT(name, name, ...).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)      \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),      \
			    PARAMS(tstruct), PARAMS(assign),        \
			    PARAMS(print))                          \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))

#define TP_STRUCT__entry(args...) args
#define TP_fast_assign(args...) args

/* True for a signed integer type; false for the rest (pointers, bool). */
#define __trace_is_signed(type)                                      \
	_Generic((type)0, char: (char)-1 < 0, signed char: 1, short: 1, \
		 int: 1, long: 1, long long: 1, default: 0)

/* Pass 1: the records. */
#undef __field
#define __field(type, item) type item;
#undef __array
#define __array(type, item, len) type item[len];
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)  \
	struct trace_event_raw_##name {                                 \
		struct trace_entry ent;                                 \
		tstruct                                                 \
	};                                                              \
	_Static_assert(sizeof(struct trace_event_raw_##name) <=         \
			       RING_BUFFER_MAX_EVENT,                   \
		       "event record too large for the ring buffer");
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Pass 2: the field tables (parameter names must not be designators). */
#undef __field
#define __field(_type, _item)                                         \
	{ .type = #_type, .name = #_item,                             \
	  .offset = __builtin_offsetof(__trace_raw_t, _item),         \
	  .size = sizeof(_type), .is_signed = __trace_is_signed(_type) },
#undef __array
#define __array(_type, _item, _len)                                   \
	{ .type = #_type, .name = #_item,                             \
	  .offset = __builtin_offsetof(__trace_raw_t, _item),         \
	  .size = sizeof(_type) * (_len),                             \
	  .is_signed = __trace_is_signed(_type), .count = (_len) },
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)  \
	static const struct trace_event_field *                         \
	trace_event_fields_##name(void)                                 \
	{                                                               \
		typedef struct trace_event_raw_##name __trace_raw_t;    \
		static const struct trace_event_field fields[] = {      \
			tstruct {}                                      \
		};                                                      \
		return fields;                                          \
	}
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Pass 3: the probes. */
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)  \
	static void trace_event_raw_event_##name(void *__data, proto)   \
	{                                                               \
		struct trace_event_raw_##name *__entry;                 \
		struct trace_event_buffer __fbuffer;                    \
                                                                        \
		__entry = trace_event_buffer_reserve(&__fbuffer, __data, \
						     sizeof(*__entry));  \
		if (!__entry)                                           \
			return;                                         \
		{ assign }                                              \
		trace_event_buffer_commit(&__fbuffer);                  \
	}
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Pass 4: the printers. */
#define TP_printk(fmt, args...) fmt, ##args
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)  \
	static int trace_raw_output_##name(char *__buf, size_t __size,  \
					   const void *__rec)           \
	{                                                               \
		const struct trace_event_raw_##name *__entry            \
			__maybe_unused = __rec;                         \
                                                                        \
		return scnprintf(__buf, __size, print);                 \
	}
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Pass 5: the classes and the events. */
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)  \
	static struct trace_event_class event_class_##name __used = {   \
		.system = __stringify(TRACE_SYSTEM),                    \
		.probe = (void *)trace_event_raw_event_##name,          \
		.fields = trace_event_fields_##name,                    \
		.size = sizeof(struct trace_event_raw_##name),          \
		.output = trace_raw_output_##name,                      \
		.print_fmt = __stringify(print),                        \
	};
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, _name, proto, args)                       \
	static inline void __trace_check_probe_##_name(void)             \
	{                                                                \
		check_trace_callback_type_##_name(                       \
			trace_event_raw_event_##template);               \
	}                                                                \
	static struct trace_event_call event_##_name __used = {          \
		.name = #_name,                                          \
		.class = &event_class_##template,                        \
		.tp = &__tracepoint_##_name,                             \
	};                                                               \
	static struct trace_event_call *const __event_##_name __used     \
		__section("_ftrace_events") __aligned(8) = &event_##_name;
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#undef __field
#undef __array
#undef __trace_is_signed
