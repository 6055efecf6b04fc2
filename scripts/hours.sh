#!/usr/bin/env bash
# Runs the counts of hours on 8 rows (COUNTS.md, "Counts of hours") one
# after the other, each by two computations whose states differ: the narrow
# sweep and the narrow-down sweep. Each count keeps, in DIR:
#
#   NAME.json   its result (knightstour count -json), once it has finished
#   NAME.err    its progress, then /usr/bin/time -v's report (max RSS),
#               for each run of it: a resumed count appends to it, after a
#               line that says when the run began
#   NAME/       its checkpoint and layers while it runs
#
# Rerun it after any stop (a machine restarted, a session over, Ctrl-C): a
# count whose result is there is skipped, and one with a checkpoint resumes
# from it, losing at most the pass it was in.
#
#   scripts/hours.sh DIR [MEMORY] [NAME...]   # MEMORY: 17G unless given;
#                                             # NAME: some of the counts only
#
# The layers of 8x10 took about 9 GB of disk at the widest square (12
# bytes a state as varints; Rice codes take a seventh less), and a column
# more adds about a fifth to the widest layer (0.92 billion states on 8x9,
# 1.14 on 8x10). 8x12-free keeps about three times the states, with counts
# that grow by 9 bits a column: its layers take 25 to 40 GB each from its
# seventh column on, and a step made in passes gives back the groups of
# the layer it reads as its passes are done with them, so that it holds
# much less than two whole layers at once (docs/counting.md, "Memory,
# disk and passes"); still, clear the Go build cache and /tmp before it
# gets there. Nothing else heavy should run beside a count: it
# holds MEMORY, and a machine that runs out stops it (the checkpoint
# stays).
set -euo pipefail
# All of it in braces, which bash reads whole before it runs them: bash
# reads a script as it goes, and one edited while a count of days runs
# (a git checkout, a pull) would go on from the middle of a line of the
# new text once the count ended.
{
dir=${1:?usage: scripts/hours.sh DIR [MEMORY] [NAME...]}
memory=${2:-17G}
shift $(( $# < 2 ? $# : 2 ))
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.."
bin="$dir/knightstour"
level=$(scripts/goamd64.sh) # built for this processor: hours are at stake
GOAMD64=$level go build -o "$bin" ./cmd/knightstour
echo "knightstour built for GOAMD64=$level" >&2

# name: arguments of knightstour count
# Each board is counted alone, but for 8x12-free (Knuth's table with free
# ends, A389760, 8x1 to 8x12 in one pass): -all-lengths gives the shorter
# ones too, but at more than their cost (7x9 with every length took 232 s and
# 83 million states at the widest, against 186 s for 7x7, 7x8 and 7x9 one
# by one and 36 million for 7x9 alone).
counts=(
	"8x10:8x10"
	"8x10-down:-sweep narrow-down 8x10"
	"8x11:8x11"
	"8x11-down:-sweep narrow-down 8x11"
	"8x12:8x12"
	"8x12-down:-sweep narrow-down 8x12"
	"8x8-free:-free 8x8"
	"8x12-free:-free -all-lengths 8x12"
)
for entry in "${counts[@]}"; do
	name=${entry%%:*}
	args=${entry#*:}
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
		continue
	fi
	if [ -s "$dir/$name.json" ]; then
		echo "$name: done ($dir/$name.json)" >&2
		continue
	fi
	mkdir -p "$dir/$name"
	echo "$name: knightstour count -method dp -json -memory $memory -checkpoint $dir/$name/ckpt $args" >&2
	echo "== $(date -u +%FT%TZ) knightstour count -method dp -json -memory $memory -checkpoint $dir/$name/ckpt $args" >> "$dir/$name.err"
	# shellcheck disable=SC2086 # args holds several flags
	if /usr/bin/time -v "$bin" count -method dp -json -memory "$memory" -checkpoint "$dir/$name/ckpt" $args \
		> "$dir/$name.json.part" 2>> "$dir/$name.err"; then
		mv "$dir/$name.json.part" "$dir/$name.json"
		rmdir "$dir/$name" 2> /dev/null || true
	else
		echo "$name: stopped; see $dir/$name.err, and rerun to resume" >&2
		exit 1
	fi
done
exit
}
