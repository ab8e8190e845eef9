#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs the static key engine's host fuzzer (tests/fuzz/engine/) from DIR,
# where tests/fuzz/engine/Makefile built it: the ThreadSanitizer build,
# then the ASan/UBSan one, on each seed, with what follows passed on
# (--threads N, then --ops N or --seconds S). Prints each run's summary
# line; the first run that is not clean stops it, exit status 1, with its
# last lines and the command that replays it.
#
#   scripts/fuzz_engine.sh DIR [--seeds "1 2 3"] FUZZER-OPTIONS...
#
# First, a run with a write of the patch engine lost on purpose must be
# caught, by the checks or by the engine's own check of a site's old bytes
# (a panic, or an update or queued batch refused with -EINVAL, whichever
# thread meets the site first): a fuzzer whose checks cannot fail proves
# nothing. About one such run in twenty loses a write no check can see
# (its site's module unloaded before any check reads it; the threads'
# order decides), so the lost write is tried at up to three places: checks
# that work miss all three about once in 8,000 runs, broken ones always.
set -u
dir=$1
shift
seeds=$(date +%s)
if [ "${1:-}" = --seeds ]; then
	seeds=$2
	shift 2
fi
planted=$dir/planted-bug.log
caught='^fuzz-engine: FAIL: .* holds |refusing to patch .*: unexpected instruction|^fuzz-engine: FAIL: .* returned -22$'
found=
for drop in 300 500 700; do
	if ! "$dir/fuzz-engine-asan" --ops 20000 --seed 1 --drop-write $drop \
		>"$planted" 2>&1 && grep -Eq "$caught" "$planted"; then
		found=$drop
		break
	fi
done
if [ -z "$found" ]; then
	tail -n 20 "$planted" >&2
	echo "fuzz-engine: a lost write (--drop-write 300, 500 and 700) went unnoticed: the checks are broken ($planted)" >&2
	exit 1
fi
echo "  a write lost on purpose (--drop-write $found): caught: $(grep -Em1 "$caught" "$planted" | cut -c1-90)"
for build in tsan asan; do
	for seed in $seeds; do
		bin=$dir/fuzz-engine-$build
		log=$dir/$build-$seed.log
		"$bin" "$@" --seed "$seed" >"$log" 2>&1
		status=$?
		line=$(grep '^fuzz-engine: seed' "$log" | tail -n 1)
		if [ $status -ne 0 ] || [ -z "$line" ]; then
			tail -n 30 "$log" >&2
			echo "fuzz-engine: the $build build failed (status $status, log $log); replay: $bin $* --seed $seed -v" >&2
			exit 1
		fi
		echo "  $build: ${line#fuzz-engine: }"
	done
done
