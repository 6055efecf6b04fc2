#!/usr/bin/env bash
# Prints the highest GOAMD64 level (v1 to v4) that this machine's processor
# runs. Go builds for v1 by default, any x86-64 processor. A build for a
# higher level uses newer instructions (BMI's andn, blsr, tzcnt, POPCNT)
# where the code asks for them through math/bits, which the hot loops here
# do: the renaming of labels a frontier count makes for every state took
# about 14 ns a word for v3 against 20 for v1 (BenchmarkRelabel), and the
# N-Queens search 10% less time (BenchmarkFill), each beside a long count.
#
# The level is found by Go itself: a program built for a level checks at
# start that the processor has every feature of it and stops with an error
# if not, so the script builds an empty program for v4, v3 and v2 in turn
# and prints the first that runs. (The flags in /proc/cpuinfo are not
# enough: a virtual machine may hide one, as "abm" is hidden on some AMD
# EPYC machines that run LZCNT.) On another architecture it prints v1.
#
#   GOAMD64=$(scripts/goamd64.sh) go build ./cmd/knightstour
set -euo pipefail
if [ "$(go env GOARCH)" != amd64 ]; then
	echo v1
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'package main\n\nfunc main() {}\n' > "$tmp/main.go"
printf 'module probe\n\ngo 1.22\n' > "$tmp/go.mod"
for level in v4 v3 v2; do
	if (cd "$tmp" && GOAMD64=$level go build -o "probe-$level" . 2> /dev/null) &&
		"$tmp/probe-$level" 2> /dev/null; then
		echo "$level"
		exit 0
	fi
done
echo v1
