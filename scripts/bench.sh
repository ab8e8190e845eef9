#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench: static keys y vs n (scripts/bench.py builds and boots
# build/bench/{y,n,y-smp}, prints a table, writes build/bench/results.json
# and a gnuplot plot); then the Linux column (scripts/bench_linux.py:
# Debian's kernel, fetched once into build/bench/linux), which a missing
# package only skips; last, the tables of that one run
# (scripts/bench_readme.py): build/bench/README-table.md, README.md's, and
# build/bench/table.md, every figure (Documentation/performance.rst).
# make bench-linux: the Linux column alone (bench.sh linux).
# Before anything is fetched or installed it says what and how big (here
# for gnuplot, in bench_linux.py for Debian's kernel, 70 MB).
PYTHON=${PYTHON:-/usr/bin/python3}
cd "$(dirname "$0")/.."

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "bench: installing gnuplot-nox (Debian's package, about 5 MB) for the plot"
fi
scripts/install-deps.sh --bench || exit 2
if [ "$1" = linux ]; then
	exec $PYTHON scripts/bench_linux.py
fi
status=0
$PYTHON scripts/bench.py || status=1
$PYTHON scripts/bench_linux.py || status=1
$PYTHON scripts/bench_readme.py --out build/bench/table.md \
	--readme build/bench/README-table.md || status=1
exit $status
