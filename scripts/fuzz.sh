#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fuzzers' runs (scripts/Makefile.fuzz builds them with clang, ASan and
# UBSan):
#   fuzz.sh run BINARY CORPUS SECONDS SEED...   make fuzz, make fuzz-shell:
#       SECONDS on CORPUS (kept), after copying each SEED file into it;
#   fuzz.sh pass BINARY CORPUS RUNS WHAT SEED...   make test's bounded pass:
#       RUNS inputs from a fresh CORPUS of the SEED files, seed 1; prints
#       the executed units and the rate, or the log's tail and "fuzz: WHAT
#       failed" (exit 1) on a crash or a sanitizer report.
# Crash inputs go to the directory of BINARY.
set -u
mode=$1 bin=$2 corpus=$3 count=$4
shift 4
out=$(dirname "$bin")/
if [ "$mode" = pass ]; then
	what=$1
	shift
	rm -rf "$corpus"
fi
mkdir -p "$corpus"
for seed in "$@"; do
	[ -f "$seed" ] && cp -f "$seed" "$corpus/"
done
if [ "$mode" = run ]; then
	exec "$bin" -max_total_time="$count" -print_final_stats=1 \
		-artifact_prefix="$out" "$corpus"
fi
if ! "$bin" -runs="$count" -seed=1 -print_final_stats=1 \
	-artifact_prefix="$out" "$corpus" >"$corpus.log" 2>&1; then
	tail -40 "$corpus.log"
	echo "fuzz: $what failed, see $corpus.log" >&2
	exit 1
fi
grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$corpus.log" |
	tr '\n' ' '
echo
