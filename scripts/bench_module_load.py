"""The module load figures of make bench (Documentation/modules.rst).

kernel/bench/jump_label_module_bench.c (bench=modules, in the y run) loads and
unloads jlm_keysK, a module with K = 1, 16, 64 keys of its own (a site on
each, one on a kernel key, a static call site per key), and prints what
each costs; this file only groups them in the table:

    module_load_sync_rounds     sync rounds of the load (goal: the same
                                few for every K; it was 6: a batch for
                                the jump labels, one for the calls)
    module_load_batches         int3 batches of the load
    module_load_sites           sites the load wrote
    module_load_keys_insns      instructions of the whole load
    module_unload_*             the same for its unload
"""

# What the y run must report (bench.py warns otherwise).
EXPECTED = ('module_load_sync_rounds', 'module_load_batches',
            'module_load_sites', 'module_load_keys_insns',
            'module_unload_sync_rounds')

GROUPS = (
    ('module load with K keys (kernel/bench/jump_label_module_bench.c)', (
        'module_load_sync_rounds', 'module_load_batches', 'module_load_sites',
        'module_load_keys_insns', 'module_unload_sync_rounds',
        'module_unload_batches', 'module_unload_sites',
        'module_unload_keys_insns')),
)
