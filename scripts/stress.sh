#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the long stresses, each in a build directory of its own.
#  1. build/stress: the int3 protocol, STRESS_FLIPS (100,000) flips of four
#     keys with readers on every other CPU (make test runs 2,000); the same
#     with readers that enter and leave idle, user mode and NMIs, and a
#     periodic NMI on every CPU (nmi_watchdog=1) besides;
#  2. build/stress-hotplug: STRESS_CYCLES (1,000) offline/online cycles of
#     CPUs 1..3 with a key flipping, readers, timers and delayed work (make
#     test runs 50);
#  3. build/stress-ufuzz: the system-call fuzzer (user/fuzz/ufuzz.c),
#     STRESS_FUZZ_SEEDS (16) seeds of STRESS_FUZZ_CALLS (20,000) calls
#     (make test runs 4 of 2,000);
#  4. the int3 stress once more with text_poke.park=off
#     (tests/stress_park_off.json), which must die of a stray int3 under
#     multi-threaded TCG.
# A new stress is one more kunit.py line here (Documentation/testing.rst).
set -e
PYTHON=${PYTHON:-/usr/bin/python3}
CPUS=${CPUS:-4}
cd "$(dirname "$0")/.."

$PYTHON scripts/kunit.py run --build_dir build/stress \
	--cpus "$CPUS" --timeout 5400 --filter 'text_patch.tpt_test_stress' \
	--kernel_args "text_patch_test.flips=${STRESS_FLIPS:-100000} text_patch_test.budget=5000 kunit.timeout=0"
$PYTHON scripts/kunit.py run --build_dir build/stress \
	--cpus "$CPUS" --timeout 5400 --filter 'text_patch.tpt_test_stress_entry' \
	--kernel_args "nmi_watchdog=1 text_patch_test.entry_flips=${STRESS_FLIPS:-100000} text_patch_test.budget=5000 kunit.timeout=0"
$PYTHON scripts/kunit.py run --build_dir build/stress-hotplug \
	--cpus "$CPUS" --timeout 3600 --filter 'cpu_hotplug.cht_test_stress' \
	--kernel_args "cpu_hotplug_test.cycles=${STRESS_CYCLES:-1000} kunit.timeout=0"
$PYTHON scripts/kunit.py run --build_dir build/stress-ufuzz \
	--cpus "$CPUS" --timeout 5400 --filter 'userspace.ust_fuzz' \
	--kernel_args "userspace_test.fuzz_seeds=${STRESS_FUZZ_SEEDS:-16} userspace_test.fuzz_calls=${STRESS_FUZZ_CALLS:-20000} kunit.timeout=0"
echo "The int3 stress with text_poke.park=off, expected to die of a stray int3 (the park's reason):"
$PYTHON scripts/kunit.py plan tests/stress_park_off.json --cpus "$CPUS"
