#!/usr/bin/env bash
# Times a frontier count with the binary of an older commit and with the
# work tree's at the same time, one worker each, each pinned to its own
# core and the cores swapped every round, and prints each round's
# processor time (user and system) and the new binary's share of the old
# one's, then their geometric mean. On a machine whose speed drifts from
# minute to minute (runs of one binary a third apart), two binaries that
# run together see the same machine, where runs one after the other
# (scripts/against.sh) do not. It needs two cores and taskset.
#
#   scripts/atonce.sh OLD                          # 7x7 from the corner, 4 rounds
#   ROUNDS=6 scripts/atonce.sh c87ce89 -free -across 8x5
#   SPILL=1 scripts/atonce.sh HEAD~1 -free -all-lengths -memory 600M 8x7
#
# With SPILL=1 each binary keeps its layers on disk in a directory of its
# own (-spill), so that a tight -memory makes the steps in passes, as the
# wide squares of 8 rows are made.
# Both counts must agree; the script stops if they do not.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: scripts/atonce.sh OLD [COUNT ARGS]}
shift
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
	args=(7x7)
fi
ROUNDS=${ROUNDS:-4}
# shellcheck source=scripts/twobinaries.sh
. scripts/twobinaries.sh "$old"

# count_of FILE prints the count of a count's -json output: the text each
# binary prints may differ in form from one commit to another.
count_of() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["count"])' "$1"
}

echo "| round | $old, s | new, s | new / $old |"
echo "|---|---|---|---|"
spill_old=() spill_new=()
if [ -n "${SPILL:-}" ]; then
	mkdir -p "$tmp/spill-old" "$tmp/spill-new"
	spill_old=(-spill "$tmp/spill-old") spill_new=(-spill "$tmp/spill-new")
fi
for round in $(seq "$ROUNDS"); do
	a=$((round % 2)) b=$((1 - round % 2))
	/usr/bin/time -f "%U %S" -o "$tmp/time-old" taskset -c "$a" "$tmp/kt-old" count -method dp -json -quiet -workers 1 "${spill_old[@]}" "${args[@]}" > "$tmp/out-old" &
	/usr/bin/time -f "%U %S" -o "$tmp/time-new" taskset -c "$b" "$tmp/kt-new" count -method dp -json -quiet -workers 1 "${spill_new[@]}" "${args[@]}" > "$tmp/out-new" &
	wait
	c0=$(count_of "$tmp/out-old") c1=$(count_of "$tmp/out-new")
	if [ "$c0" != "$c1" ]; then
		echo "${args[*]}: $old counts $c0, the work tree $c1" >&2
		exit 1
	fi
	read -r u0 s0 < "$tmp/time-old"
	read -r u1 s1 < "$tmp/time-new"
	echo "$round $u0 $s0 $u1 $s1"
done | python3 -c '
import math, sys
ratios = []
for line in sys.stdin:
    r, u0, s0, u1, s1 = line.split()
    t0, t1 = float(u0) + float(s0), float(u1) + float(s1)
    ratios.append(t1 / t0)
    print(f"| {r} | {t0:.2f} | {t1:.2f} | {t1 / t0:.3f} |", flush=True)
if not ratios:
    sys.exit(1)
g = math.exp(sum(map(math.log, ratios)) / len(ratios))
print(f"\ngeometric mean of new / old: {g:.3f} over {len(ratios)} rounds ({min(ratios):.3f} to {max(ratios):.3f})")
'
