#!/usr/bin/env bash
# Times frontier counts on 1 and on 2 (or more) workers, one after the
# other, and prints the speed-up: how the step scales across cores.
#
#   scripts/scaling.sh [WORKERS...]   # default: 1 2
#   BOARDS="7x7 -closed 8x8" scripts/scaling.sh 1 2
#
# Each board is counted with -method dp -json; the times are the wall time
# and the processor time (user and system) /usr/bin/time reports. Where
# the processor time grows with the workers, each does its share more
# slowly when the others run: they contend for something they share (the
# memory, the caches, a lock), not for work. Run it on an idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
workers=("$@")
[ ${#workers[@]} -gt 0 ] || workers=(1 2)
bin=$(mktemp -d)/knightstour
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/knightstour
IFS=';' read -ra boards <<< "${BOARDS:-7x7}"
echo "| board | workers | seconds | processor seconds | states a second | speed-up |"
echo "|---|---|---|---|---|---|"
for board in "${boards[@]}"; do
	first=""
	for w in "${workers[@]}"; do
		# shellcheck disable=SC2086 # board holds flags
		out=$( { /usr/bin/time -f "%e %U %S" "$bin" count -method dp -json -quiet -workers "$w" $board > "$bin.json"; } 2>&1 )
		read -r secs user sys <<< "$(echo "$out" | tail -1)"
		cpu=$(python3 -c "print(f'{$user+$sys:.2f}')")
		states=$(python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["states"]))' "$bin.json")
		rate=$(python3 -c "print(f'{$states/$secs/1e6:.1f} M')")
		[ -n "$first" ] || first=$secs
		speed=$(python3 -c "print(f'{$first/$secs:.2f}x')")
		echo "| $board | $w | $secs | $cpu | $rate | $speed |"
	done
done
