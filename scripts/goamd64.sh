#!/usr/bin/env bash
# Prints the highest GOAMD64 level (v1 to v4) that this machine's processor
# runs, from the flags Linux lists in /proc/cpuinfo; v1 where it cannot
# tell. Go builds for v1 by default, any x86-64 processor. A build for a
# higher level uses newer instructions (BMI's andn, blsr, tzcnt, POPCNT)
# where the code asks for them through math/bits, which the hot loops here
# do: the renaming of labels a frontier count makes for every state took
# about 14 ns a word for v3 against 20 for v1 (BenchmarkRelabel), and the
# N-Queens search 10% less time (BenchmarkFill), each beside a long count. A binary built for a level
# the processor lacks stops at once with an error, never miscounts.
#
#   GOAMD64=$(scripts/goamd64.sh) go build ./cmd/knightstour
set -euo pipefail
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2> /dev/null | cut -d: -f2) "
has() {
	local f
	for f; do
		[[ $flags == *" $f "* ]] || return 1
	done
}
level=v1
if has cx16 lahf_lm popcnt pni sse4_1 sse4_2 ssse3; then
	level=v2
	if has avx avx2 bmi1 bmi2 f16c fma abm movbe xsave; then
		level=v3
		if has avx512f avx512bw avx512cd avx512dq avx512vl; then
			level=v4
		fi
	fi
fi
echo "$level"
