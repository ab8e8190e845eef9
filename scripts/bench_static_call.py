"""The static call figures of make bench (Documentation/static-calls.rst).

kernel/bench/static_call_bench.c (bench=static_call, in the y and n runs)
prints them; this file only groups them in the table:

    static_call_insns               a call through a static call, a direct
                                    call, an indirect call (goal: static =
                                    direct)
    static_call_update_insns,       retargeting a call of 1, 56 and 1,024
    static_call_update_sync_rounds  sites (goal: 3 rounds at any size)
    trace_on_sync_rounds            every sched event on at once; every
    trace_off_sync_rounds           event of the kernel (all,events=N), and
    trace_on_events                 that N (goal: 3 rounds for any N)
"""

GROUPS = (
    ('static calls (kernel/bench/static_call_bench.c)', (
        'static_call_insns', 'static_call_update_insns',
        'static_call_update_sync_rounds', 'trace_on_sync_rounds',
        'trace_off_sync_rounds', 'trace_on_events')),
)
