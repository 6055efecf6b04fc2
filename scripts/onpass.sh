#!/usr/bin/env bash
# Times binaries on the same pass of a long count: each resumes from a
# copy of the count's checkpoint and is stopped once the pass under way
# reaches PCT percent; it prints the seconds from the pass's start (the
# first progress line after the checkpoint's files are checked) to then.
# A change to the step of an 8-row square is measured on the square
# itself, in minutes, rather than on a smaller board whose keys, memos
# and passes differ.
#
#   ARGS="-free -all-lengths -memory 16G 8x12" \
#     scripts/onpass.sh /work/long/h/8x12-free/ckpt OLD NEW OLD NEW
#   PCT=60 ARGS=... scripts/onpass.sh CKPT BIN...
#
# The copy is made of hard links beside the checkpoint, so it takes no
# room. That is safe because a count writes in place only the layer files
# of the pass under way, which the checkpoint does not hold yet, and
# replaces its manifest by renaming a new one. The count writing that
# checkpoint must be stopped first (its lock is held).
# Progress lines come every 5 seconds, so each time is within 5 s. Run it
# on an idle machine, alternating the binaries.
set -euo pipefail
ckpt=${1:?usage: ARGS="COUNT ARGS" scripts/onpass.sh CHECKPOINT BIN...}
shift
: "${ARGS:?ARGS holds the flags and board the count was started with}"
PCT=${PCT:-80}
dir=$(dirname "$ckpt")
copy=$(mktemp -d "$dir.onpass.XXXXXX")
trap 'rm -rf "$copy" "$copy.err"' EXIT
printf '%-40s %s\n' binary "seconds to $PCT% of the pass"
for bin in "$@"; do
	rm -rf "$copy"
	cp -al "$dir" "$copy"
	rm -f "$copy/$(basename "$ckpt").lock"
	log=$copy.err
	: > "$log" # made before the count starts, which opens it in the background
	# shellcheck disable=SC2086 # ARGS holds flags
	"$bin" count -method dp -checkpoint "$copy/$(basename "$ckpt")" $ARGS > /dev/null 2> "$log" &
	pid=$!
	start='' took=''
	while kill -0 "$pid" 2>/dev/null; do
		pct=$(tail -1 "$log" | sed -n 's/.*: \([0-9]*\)% of pass.*/\1/p')
		now=$(date +%s.%N)
		if [ -n "$pct" ] && [ -z "$start" ]; then
			start=$now
		fi
		if [ -n "$pct" ] && [ "$pct" -ge "$PCT" ]; then
			took=$(awk -v a="$start" -v b="$now" 'BEGIN { printf "%.0f", b - a }')
			break
		fi
		sleep 1
	done
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" || true
	rm -f "$log"
	printf '%-40s %s\n' "$bin" "${took:-the count ended first}"
done
