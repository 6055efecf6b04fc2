#!/usr/bin/env bash
# Times frontier counts with the binary of an older commit and with the
# work tree's, one after the other on the same machine, and prints each
# time, the states a second and the new time as a share of the old: the
# measure of "the step N times faster". Each run's count is checked to be
# the same in both.
#
#   scripts/against.sh OLD                       # 7x7 from the corner
#   BOARDS="7x7;-closed 8x8" scripts/against.sh b467975
#   ROUNDS=3 scripts/against.sh b467975          # each board 3 times each
#
# With more than one round, a line after the table gives each board's
# median share: one round can land a fifth either side of it here.
#
# Run it on an idle machine: the two binaries must see the same one.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: scripts/against.sh OLD}
ROUNDS=${ROUNDS:-1}
# shellcheck source=scripts/twobinaries.sh
. scripts/twobinaries.sh "$old"

# run BIN BOARD: prints "seconds count states" of one count.
run() {
	# shellcheck disable=SC2086 # the board holds flags
	"$1" count -method dp -json -quiet $2 > "$tmp/out.json"
	python3 - "$tmp/out.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(r["elapsed_ms"] / 1000, r["count"], sum(r["states"]))
PY
}

IFS=';' read -ra boards <<< "${BOARDS:-7x7}"
declare -A shares # board: the rounds' new / old, space-separated
echo "| board | $old, s | new, s | states a second, $old | new | new / $old |"
echo "|---|---|---|---|---|---|"
for board in "${boards[@]}"; do
	for round in $(seq "$ROUNDS"); do
		# Every other round runs the new binary first, so that neither
		# binary always runs straight after the other.
		if ((round % 2 == 1)); then
			read -r t0 c0 s0 < <(run "$tmp/kt-old" "$board")
			read -r t1 c1 s1 < <(run "$tmp/kt-new" "$board")
		else
			read -r t1 c1 s1 < <(run "$tmp/kt-new" "$board")
			read -r t0 c0 s0 < <(run "$tmp/kt-old" "$board")
		fi
		if [ "$c0" != "$c1" ]; then
			echo "$board: $old counts $c0, the work tree $c1" >&2
			exit 1
		fi
		python3 -c "print(f'| $board | {$t0:.1f} | {$t1:.1f} | {$s0/$t0/1e6:.2f} M | {$s1/$t1/1e6:.2f} M | {$t1/$t0:.2f} |')"
		shares[$board]+="$(python3 -c "print($t1/$t0)") "
	done
done
if ((ROUNDS > 1)); then
	echo
	for board in "${boards[@]}"; do
		python3 -c '
import statistics, sys
r = sorted(map(float, sys.argv[2].split()))
print(f"{sys.argv[1]}: new / old, median {statistics.median(r):.3f} over {len(r)} rounds ({r[0]:.2f} to {r[-1]:.2f})")
' "$board" "${shares[$board]}"
	done
fi
