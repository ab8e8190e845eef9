#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Model-checks the int3 batch (tests/model/text_poke.pml) with SPIN.

Each run compiles one configuration of the model (spin -a, then gcc for
pan) and checks what it must: the protocol as arch/x86/kernel/text_patch.c
implements it holds every property (exhaustively for 3 CPUs, for as long as
--minutes or --seconds allow for 4), and each mutant breaks the property it is meant to
break, which SPIN must report as a violation. One line per run, then a
summary; the exit status is 0 only when every run gave what it expects.
Documentation/static-keys.rst ("The batch, model-checked") describes the
model.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import time

SRCTREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(SRCTREE, "tests", "model", "text_poke.pml")

# What an assertion of the model, as pan prints it, says was broken.
PROPERTIES = [
    (r"\(t==f\)", "a CPU executed a torn instruction"),
    (r"\(refs\[.*\]>0\)", "a trap found no batch (stray int3)"),
    (r"violated found", "a trap was not found in the batch"),
    (r"in_batch", "a reference on a retired batch"),
    (r"\(refs\[k\]==0\)", "a reference outlived the batch"),
    (r"\(refs\[\(\d+-1\)\]==0\)", "a CPU died holding a reference"),
    (r"\(desc_nr==0\)", "a CPU came up during a batch"),
    (r"desc_vec\[mid\]==s", "a trap emulated another site's instruction"),
    (r"non-progress cycle", "a batch that never ends"),
    (r"invalid end state", "a batch that never ends (deadlock)"),
]

# Hardware (the SDM's rules), park off: what text_poke.park=auto does
# outside QEMU's TCG. Under TCG, with the park: what auto does there.
SDM = ["-DTCG=0", "-DPARK=0"]
TCG = ["-DTCG=1", "-DPARK=1"]
# A CPU that goes idle or to user mode and comes back (arch/x86/kernel/
# text_sync.c); NMIs on it and on the patcher's CPU. Without the hotplug
# process, which the runs above cover, to keep them exhaustive.
ENTRY = ["-DENTRY=1", "-DHOTPLUG=0"]
NMI = ["-DNMI=1", "-DHOTPLUG=0"]
# QEMU's stale translation of an int3 (tp_int3_stale()).
STALE = ["-DSTALE=1"]


# The mutants whose violation lies a million states deep in pan's fixed
# order, and those searched in a random order instead (check_model.py's
# run_one()).
BIG_MUTANTS = ("-DM_NO_PARK_IPI_WAIT",)
RANDOM_ORDER = ("-DM_NO_FENCE",)


def run_list(full):
    """(name, defines, kind, expected) for every run: kind is safety,
    liveness or bounded; expected is None (holds) or a PROPERTIES text."""
    torn, stray = PROPERTIES[0][1], PROPERTIES[1][1]
    runs = [
        ("sdm 3 CPUs", SDM, "safety", None),
        ("sdm 3 CPUs, every batch ends", SDM, "liveness", None),
        ("tcg+park 3 CPUs", TCG, "safety", None),
        ("park 3 CPUs, every batch ends", ["-DTCG=0", "-DPARK=1"],
         "liveness", None),
    ]
    if full:
        runs.append(("tcg+park 3 CPUs, every batch ends", TCG, "liveness",
                     None))
    runs += [
        ("sdm 3 CPUs, one idle or in user mode", SDM + ENTRY, "safety",
         None),
        ("tcg+park 3 CPUs, one idle or in user mode", TCG + ENTRY, "safety",
         None),
        ("sdm 3 CPUs, idle or user, every batch ends", SDM + ENTRY,
         "liveness", None),
        # Too many states to finish in minutes: as long as --minutes
        # allows, as the 4-CPU run.
        ("sdm 3 CPUs with NMIs", SDM + NMI, "bounded", None),
        ("tcg+park 3 CPUs with NMIs", TCG + NMI, "bounded", None),
        # Two CPUs (the patcher's and one reader, NMIs on both) finish:
        # every NMI case of the park, exhaustively.
        ("tcg+park 2 CPUs with NMIs", TCG + NMI + ["-DNCPU=2"], "safety",
         None),
    ]
    runs.append(("tcg+park 4 CPUs", TCG + ["-DNCPU=4"], "bounded", None))
    # QEMU keeps an int3's translation after the batch retired (once):
    # tp_int3_stale() runs it again. Two CPUs finish in a second, three
    # (with hotplug) in about 11 s.
    runs.append(("tcg+park 2 CPUs, a stale int3", TCG + STALE +
                 ["-DNCPU=2"], "safety", None))
    if full:
        runs.append(("tcg+park 3 CPUs, a stale int3", TCG + STALE,
                     "safety", None))
    mutants = [
        ("no_sync1", SDM, torn), ("no_sync2", SDM, torn),
        ("no_sync3", SDM, stray), ("release_early", SDM, stray),
        ("arm_late", SDM, stray), ("unsorted", SDM, PROPERTIES[2][1]),
        ("no_hotplug_lock", SDM, (PROPERTIES[5][1], PROPERTIES[6][1])),
        ("no_sync1", TCG, torn), ("no_sync3", TCG, stray),
        ("release_early", TCG, stray), ("arm_late", TCG, stray),
        ("unsorted", TCG, PROPERTIES[2][1]),
    ]
    for m, cfg, prop in mutants:
        what = "sdm" if cfg is SDM else "tcg+park"
        runs.append(("mutant %s (%s)" % (m, what),
                     cfg + ["-DM_%s" % m.upper()], "safety", prop))
    # An entering CPU that does not serialize, one that counts as idle
    # while it still runs a site, one that does not wait at the park's
    # fence; an int3 handler that is not NMI-safe.
    for m, cfg, prop, what in (
            ("no_entry_sync", SDM + ENTRY, torn, "sdm, entry"),
            ("idle_early", SDM + ENTRY, torn, "sdm, entry"),
            ("no_entry_sync", TCG + ENTRY, (torn, stray), "tcg+park, entry"),
            ("no_fence", TCG + ENTRY, stray, "tcg+park, entry"),
            ("nmi_unsafe", SDM + NMI, PROPERTIES[7][1], "sdm, NMIs"),
            # The park ends without waiting for its IPIs: an NMI parks a
            # CPU that hit an int3 and has no reference yet (stray int3).
            ("no_park_ipi_wait", TCG + NMI + ["-DNCPU=2"], stray,
             "tcg+park, NMIs, 2 CPUs")):
        runs.append(("mutant %s (%s)" % (m, what),
                     cfg + ["-DM_%s" % m.upper()], "safety", prop))
    # A stale int3 met as a stray one (the handler without
    # tp_int3_stale()), and run again without the rewrite that drops the
    # translation: the CPU traps on it again and dies.
    for m in ("no_stale", "stale_no_rewrite"):
        runs.append(("mutant %s (tcg+park, stale int3, 2 CPUs)" % m,
                     TCG + STALE + ["-DNCPU=2", "-DM_%s" % m.upper()],
                     "safety", stray))
    # The park skipped (text_poke.park=off) under TCG: Linux's oops.
    runs.append(("mutant skip park (tcg)", ["-DTCG=1", "-DPARK=0"],
                 "safety", stray))
    # Changes the model shows to be harmless, kept as facts to recheck:
    # with the park, the park's serialization covers the second sync; and
    # with the handler under an interrupt gate, no CPU is inside it once
    # the last sync round is done, so the retire's wait never waits.
    runs.append(("no_sync2 with the park holds", ["-DTCG=0", "-DPARK=1",
                 "-DM_NO_SYNC2"], "safety", None))
    runs.append(("no_wait holds (sdm)", SDM + ["-DM_NO_WAIT"], "safety",
                 None))
    # Also with NMIs: an NMI holds off the last round's IPI on its CPU,
    # and one that comes after it serializes on entry (bounded).
    runs.append(("no_wait holds (sdm, NMIs)", SDM + NMI + ["-DM_NO_WAIT"],
                 "bounded", None))
    return runs


def classify(out):
    for pattern, what in PROPERTIES:
        if re.search(pattern, out):
            return what
    return None


def check_reached(out, defines):
    """In a run that holds, the readers must have trapped and executed
    the sites (else the model checks nothing): their handler and their
    torn check must not be in pan's list of unreached statements."""
    m = re.search(r"unreached in proctype reader\n(.*?)\n\t\(\d+ of",
                  out, re.S)
    if not m:
        return "pan listed no unreached statements for the readers"
    for line in m.group(1).splitlines():
        if "assert" in line or "refs[c]" in line:
            return "readers never reach: " + line.strip()
    return None


def run_pan(args, cwd, seconds):
    """pan's output; after seconds (if set) it is interrupted, as -Q does
    after minutes: it then prints what it explored."""
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate()
    return out


def run_one(build, name, defines, kind, expected, minutes, seconds=None):
    d = os.path.join(build, re.sub(r"[^a-z0-9]+", "_", name.lower()))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    shutil.copy(MODEL, d)
    ncpu = [x for x in defines if x.startswith("-DNCPU")] or ["-DNCPU=3"]
    defs = ncpu + [x for x in defines if not x.startswith("-DNCPU")]
    t0 = time.time()
    r = subprocess.run(["spin", "-a"] + defs + ["text_poke.pml"], cwd=d,
                       capture_output=True, text=True)
    if r.returncode:
        return False, "spin -a failed: " + (r.stdout + r.stderr).strip()
    # pan.c compiles in a seventh of the CPU time at -O0 (0.4 s against
    # 2.6), and runs at a quarter of the speed: the runs that search
    # millions of states (bounded, liveness, the holds of the park, of idle
    # or user mode and of NMIs, the mutants in BIG_MUTANTS) gain by
    # optimising, the mutants that fail in a second do not.
    slow = (kind != "safety" or expected is None and (
        "-DENTRY=1" in defines or "-DNMI=1" in defines or
        "-DTCG=1" in defines) or any(m in defines for m in BIG_MUTANTS))
    cflags = ["-w", "-O2" if slow else "-O0"]
    cflags += ["-DNP"] if kind == "liveness" else ["-DSAFETY"]
    # A mutant's search stops at its first violation, so the order it
    # takes the transitions in only says how soon and which violation
    # comes first: pan's random order, from a fixed seed (-RS1, so every
    # run is the same), meets no_fence's in some 400 states where the
    # fixed order needs 8 million (RANDOM_ORDER).
    shuffle = expected is not None and any(m in defines
                                           for m in RANDOM_ORDER)
    if shuffle:
        cflags += ["-DT_RAND", "-DP_RAND"]
    # Safety searches cycle their stack to disk past -m (pan's SC): the
    # depth has no limit, so no search is cut short at -m.
    cflags += ["-DCOLLAPSE"] + ([] if kind == "liveness" else ["-DSC"])
    r = subprocess.run(["gcc"] + cflags + ["-o", "pan", "pan.c"], cwd=d,
                       capture_output=True, text=True)
    if r.returncode:
        return False, "gcc of pan failed: " + r.stderr.strip()[-300:]
    # The depth kept in memory (SC: the rest goes to disk).
    args = ["./pan", "-m2000000"] + (["-RS1"] if shuffle else [])
    if kind == "liveness":
        args += ["-l", "-f"]
    budget = None
    if kind == "bounded" and seconds:
        budget = seconds
    elif kind == "bounded":
        args += ["-Q%d" % minutes]
    out = run_pan(args, d, budget)
    secs = time.time() - t0
    with open(os.path.join(d, "pan.out"), "w") as f:
        f.write(out)
    m = re.search(r"errors: (\d+)", out)
    states = re.search(r"(\d+) states, stored", out)
    depth = re.search(r"depth reached (\d+)", out)
    if not m or not states:
        return False, "pan gave no result (see %s/pan.out)" % d
    errors, states = int(m.group(1)), int(states.group(1))
    what = classify(out) if errors else None
    stats = "%d states, depth %s, %.1f s" % (states, depth.group(1), secs)
    # A search cut at -m skipped every state past it: a hold means nothing
    # then, and a violation is found in a truncated search (still real:
    # its trail replays).
    cut = "max search depth too small" in out
    if expected is not None:
        if not errors:
            return False, "SPIN found no violation (%s); expected: %s" % (
                stats, " or ".join(expected) if isinstance(expected, tuple)
                else expected)
        if what not in (expected if isinstance(expected, tuple)
                        else (expected,)):
            return False, "violation %r, expected %r (see %s/pan.out)" % (
                what, expected, d)
        return True, "violates as expected: %s (%s)" % (what, stats)
    if errors:
        return False, "violation: %s (%s%s; trail in %s; spin -t -p %s " \
            "text_poke.pml replays it)" % (
                what or "?", stats, ", the search cut at -m" if cut else "",
                d, " ".join(defs))
    if cut:
        return False, "the search was cut at the depth limit -m (%s): " \
            "the property was not checked past it" % stats
    if kind == "bounded":
        spent = "%d s" % seconds if seconds else "%d min" % minutes
        if states < 100000:
            return False, "only %d states in %s: too few" % (states, spent)
        return True, "holds in the %d states explored in %s " \
            "(bounded; depth %s)" % (states, spent, depth.group(1))
    if "Search not completed" in out:
        return False, "the search did not complete (%s)" % stats
    if kind == "safety":
        why = check_reached(out, defines)
        if why:
            return False, why
    return True, "holds, exhaustively (%s)" % stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default="build/model",
                    help="where each run's pan is built (default %(default)s)")
    ap.add_argument("--minutes", type=int, default=1,
                    help="time for each bounded run (default 1)")
    ap.add_argument("--seconds", type=int, default=0,
                    help="the same in seconds, instead (make test: 10)")
    ap.add_argument("--full", action="store_true",
                    help="also check that every batch ends under TCG")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="runs at a time (default 2)")
    ap.add_argument("--filter", default="",
                    help="only the runs whose name contains this")
    a = ap.parse_args()
    for tool in ("spin", "gcc"):
        if not shutil.which(tool):
            print("check_model: %s is missing: run scripts/install-deps.sh"
                  % tool, file=sys.stderr)
            return 2
    runs = [r for r in run_list(a.full) if a.filter in r[0]]
    if not runs:
        print("check_model: no run matches --filter=%s" % a.filter,
              file=sys.stderr)
        return 2
    # Two at a time (the bounded run first, on its own core meanwhile),
    # each printed in the list's order as soon as it and those before are in.
    build = os.path.abspath(a.build_dir)
    runs.sort(key=lambda r: r[2] != "bounded")
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futs = [pool.submit(run_one, build, *r, a.minutes, a.seconds)
                for r in runs]
        for (name, _, _, _), fut in zip(runs, futs):
            ok, msg = fut.result()
            failed += not ok
            print("  %-4s %-36s %s" % ("ok" if ok else "FAIL", name, msg),
                  flush=True)
    print("%d passed, %d failed" % (len(runs) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
