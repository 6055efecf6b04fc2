#!/usr/bin/env bash
# Runs the benchmarks of bench_test.go and writes BENCHMARKS.md from the
# results: the machine, the Go version, the command, a table of the targets
# against the medians, and benchstat's summary.
#
#   scripts/bench.sh            # 6 runs of each benchmark (about 15 minutes)
#   COUNT=10 scripts/bench.sh   # more runs, tighter intervals
#   NQUEENSFAF=DIR scripts/bench.sh  # also N-Queens side by side with
#                                    # NQueensFAF (scripts/queens-anchors.sh)
#   DP8=1 scripts/bench.sh      # also 8x8 closed by frontier, layers on
#                               # disk (about 10 more minutes)
#   CORNER8=1 scripts/bench.sh  # also 8x8 from the corner by frontier
#                               # within -memory 18G, layers on disk
#                               # (about 35 more minutes; needs 20 GB
#                               # of memory and as much free disk)
#   SCALING=1 scripts/bench.sh  # also the frontier count on 1 and on 2
#                               # workers (scripts/scaling.sh on 7x7 and
#                               # 8x8 closed: about 25 more minutes)
#   BEFORE=373d245 scripts/bench.sh  # also the frontier's benchmarks by
#                               # that commit and by this tree, in turn
#                               # (scripts/benchcmp.sh: about 10 more
#                               # minutes)
#   AGAINST=b467975 scripts/bench.sh  # also the frontier count by that
#                               # commit's binary and this one's: on the
#                               # clock (scripts/against.sh, 7x7 from the
#                               # corner AGAINST_ROUNDS times, default 6,
#                               # and 8x8 closed once) and in processor
#                               # time (scripts/atonce.sh, 7x7, 4 rounds):
#                               # about 20 more minutes
#   AGAINST=b467975 ONLY=against scripts/bench.sh  # only that: rewrites
#                               # the section "Against b467975" in place,
#                               # naming its own machine and tree, and
#                               # leaves the rest of the file as it was
#
# Run it on an otherwise idle machine: anything else running (even a pipe
# into another program) takes a core from the parallel benchmarks.
# To compare two versions, keep the raw files and run
#   go run golang.org/x/perf/cmd/benchstat@$BENCHSTAT old.txt new.txt
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-6}
# The tree measured, named in the file: taken now, as the binaries are
# built from it now.
tree=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	tree="$tree with changes not committed"
fi
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)
mem=$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo unknown)

# The frontier count by the binary of AGAINST and by this tree's: on the
# clock (7x7 in rounds, 8x8 closed once) and in processor time.
against_rounds=${AGAINST_ROUNDS:-6}
time_against() {
	echo "timing the frontier count against $AGAINST" >&2
	against=$(ROUNDS=$against_rounds BOARDS=7x7 scripts/against.sh "$AGAINST")
	against88=$(BOARDS="-closed 8x8" scripts/against.sh "$AGAINST")
	atonce=$(ROUNDS=4 scripts/atonce.sh "$AGAINST")
}
# against_section prints the section of those timings; given "alone", it
# names the machine and tree it was timed on, which the file's top names
# for the rest.
against_section() {
	echo "## Against $AGAINST"
	echo
	if [ "${1:-}" = alone ]; then
		echo "Rewritten alone by \`AGAINST=$AGAINST ONLY=against scripts/bench.sh\` on $(date -u +%Y-%m-%d) at $tree, on $cpu, $(nproc) cores, $mem; the rest of this file is from the run named at its top."
		echo
	fi
	echo "The frontier count by the binary of $AGAINST and by this one, the measure of the step made faster; the goals are 7x7 from the corner in at most 0.5 of $AGAINST's time and 8x8 closed in at most 0.4. Closed tours and free ends keep a state and its reflection as one wherever the rows added of a column are their own reflection (docs/counting.md, \"A state and its reflection\"), and so do counts from a start on odd widths until the start's column, counting the tours from the start and its reflection together, and counts from the corner of a square board follow the tours of half its first moves (docs/counting.md, \"Half the tours from a diagonal\"): \"states a second\" counts each binary's own states."
	echo
	echo "On the clock, 2 workers each, one binary after the other (\`ROUNDS=$against_rounds BOARDS=7x7 scripts/against.sh $AGAINST\`, then \`BOARDS=\"-closed 8x8\" scripts/against.sh $AGAINST\`). Runs of one binary differ by up to a third on a shared virtual machine, so 7x7 is timed in rounds and read by its median:"
	echo
	echo "$against"
	echo
	echo "8x8 closed, once:"
	echo
	echo "$against88"
	echo
	echo "In processor time, one worker each, the two binaries at once on their own cores, swapped each round (\`ROUNDS=4 scripts/atonce.sh $AGAINST\`, 7x7 from the corner): both see the same machine, where runs one after the other may not."
	echo
	echo "$atonce"
	echo
}
if [ "${ONLY:-}" = against ]; then
	: "${AGAINST:?ONLY=against needs AGAINST=COMMIT}"
	grep -q "^## Against $AGAINST\$" BENCHMARKS.md || { echo "BENCHMARKS.md has no section \"Against $AGAINST\" to rewrite: run bench.sh whole" >&2; exit 1; }
	time_against
	section=$(mktemp)
	against_section alone > "$section"
	# The section runs to the next heading of its level.
	awk -v head="## Against $AGAINST" -v file="$section" '
		$0 == head { while ((getline line < file) > 0) print line; skip = 1; next }
		skip && /^## / { skip = 0 }
		!skip' BENCHMARKS.md > BENCHMARKS.md.new
	mv BENCHMARKS.md.new BENCHMARKS.md
	rm "$section"
	echo "rewrote the section \"Against $AGAINST\" of BENCHMARKS.md" >&2
	exit 0
fi

BENCHSTAT=${BENCHSTAT:-v0.0.0-20260908200009-22c9c6c9d4da}
raw=bench/latest.txt
mkdir -p bench
cmd="go test -run '^\$' -bench . -benchmem -count $COUNT . ./queens"
echo "running: $cmd" >&2
eval "$cmd" > "$raw"
# The frontier's operations on one state of 8 rows (17 squares a key, in
# base 11), which the counts of 8 rows make billions of times a square.
frontier="go test -run '^\$' -bench 'EncodeKey|DecodeKey|Far|Unmix|Class|Encode\$|DecodeBlock' -count $COUNT ./internal/frontier/..."
echo "running: $frontier" >&2
eval "$frontier" >> "$raw"

# The shipped binary is built with profile-guided optimisation
# (cmd/knightstour/default.pgo, from scripts/pgo.sh); time it too, on n = 17.
bin=$(mktemp -d)/knightstour
go build -o "$bin" ./cmd/knightstour
cli() { # workers n: the time of the binary's count, checked against OEIS
	local json want
	json=$("$bin" queens -quiet -json -workers "$1" "$2")
	want=$(awk -v n="$2" '$1 == n { print $2 }' queens/testdata/oeis.txt)
	echo "$json" | grep -q "\"total\":$want," || { echo "queens $2: wrong total: $json" >&2; exit 1; }
	echo "$json" | awk -F'"elapsed_ms":' '{ split($2, a, "[,}]"); printf "%.2f s", a[1] / 1000 }'
}
echo "timing the binary on n = 17, 18 and 19" >&2
cli1=$(cli 1 17)
cli2=$(cli 2 17)
q18=$(cli 2 18)
q19=$(cli 2 19)
anchors=""
if [ -n "${NQUEENSFAF:-}" ]; then
	echo "timing n = 17 side by side with NQueensFAF" >&2
	anchors=$(scripts/queens-anchors.sh "$NQUEENSFAF" 17 3)
fi

# The peak memory of a whole process building a 10,000 x 10,000 tour.
echo "measuring tour 10000x10000" >&2
if [ -x /usr/bin/time ]; then
	rss=$(/usr/bin/time -f '%M' "$bin" tour -method construct 10000x10000 2>&1 >/dev/null | tail -1 | awk '{ printf "%.0f MB", $1 / 1024 }')
else
	rss="n/a (no /usr/bin/time)"
fi

# Whole frontier counts: 7x7 from the corner, in memory and with the
# layers on disk, and with DP8 set 8x8 closed.
dprow() { # target, then the count's arguments
	local target=$1 json rss
	shift
	json=$(/usr/bin/time -f '%M' -o "$bin.rss" "$bin" count -method dp -quiet -json "$@")
	rss=$(awk '{ printf "%.2f GB", $1 / 1048576 }' "$bin.rss")
	echo "$json" | awk -v cmd="$(echo "knightstour count -method dp $*" | sed "s|$spill|DIR|")" -v target="$target" -v rss="$rss" -F'[:,]' '{
		for (i = 1; i < NF; i++) { gsub(/[" {}]/, "", $i); v[$i] = $(i+1) }
		printf "| `%s` | %s | %.1f s | %d | %.2f GB | %s |\n", cmd, target, v["elapsed_ms"] / 1000, v["peak_states"], v["peak_bytes"] / 2^30, rss }'
}
echo "timing count -method dp 7x7" >&2
if [ -x /usr/bin/time ]; then
	spill=$(mktemp -d)
	dp77=$(dprow "<= 20 s" 7x7)
	dp77spill=$(dprow "" -spill "$spill" 7x7)
	if [ -n "${DP8:-}" ]; then
		echo "timing count -method dp -closed 8x8" >&2
		dp88=$(dprow "<= 8 min, <= 6 GB resident" -closed -memory 5G -spill "$spill" 8x8)
	fi
	if [ -n "${CORNER8:-}" ]; then
		echo "timing count -method dp 8x8 from the corner" >&2
		corner88=$(dprow "<= 40 min" -memory 18G -spill "$spill" 8x8)
	fi
	rmdir "$spill"
else
	dp77="| (no /usr/bin/time) |"
fi

against="" against88="" atonce=""
if [ -n "${AGAINST:-}" ]; then
	time_against
fi

# The frontier's benchmarks by an older commit and by this tree, in turn:
# the check that a change to the engine slowed nothing down.
before_bench='DP|Viability|Class$|DecodeKey$|EncodeKey$|Far$|CountInPasses'
before=""
if [ -n "${BEFORE:-}" ]; then
	echo "the frontier's benchmarks by $BEFORE and by this tree" >&2
	before=$(COUNT=$COUNT BENCH="$before_bench" scripts/benchcmp.sh "$BEFORE")
fi

scaling=""
if [ -n "${SCALING:-}" ]; then
	echo "timing the frontier count on 1 and 2 workers" >&2
	scaling=$(BOARDS="7x7;-closed 8x8" scripts/scaling.sh 1 2)
fi

# median VALUE of UNIT over the runs of benchmark NAME
median() {
	awk -v name="$1" -v unit="$2" '
		$1 ~ "^Benchmark" name "(-[0-9]+)?$" { for (i = 3; i < NF; i++) if ($(i+1) == unit) v[n++] = $i }
		END {
			if (n == 0) { print "n/a"; exit }
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			print (n % 2) ? v[(n-1)/2] : (v[n/2-1] + v[n/2]) / 2
		}' "$raw"
}
ms() { awk -v ns="$(median "$1" ns/op)" 'BEGIN { printf "%.2f ms", ns / 1e6 }'; }

speedup=$(awk -v a="$(median Count5x8Seq ns/op)" -v b="$(median Count5x8Par2 ns/op)" 'BEGIN { printf "%.2fx", a / b }')
seed=$(awk -v ns="$(median Find4x7Seq ns/op)" 'BEGIN { printf "%.0fx", 1010e6 / ns }')

{
	echo "# Benchmarks"
	echo
	echo "Written by \`scripts/bench.sh\` on $(date -u +%Y-%m-%d) at $tree; rerun it to refresh this file, which it writes whole (with \`ONLY=against\`, only the section \"Against\", which then names its own machine). The measurements behind the frontier step's design are in [docs/performance.md](docs/performance.md)."
	echo
	echo "- Machine: $cpu, $(nproc) cores, $mem"
	echo "- Go: $(go version | awk '{ print $3, $4 }')"
	echo "- Command: \`$cmd\` (raw output in \`bench/latest.txt\`)"
	echo
	echo "Boards start in the lower-left corner. \"Seq\" is one goroutine, \"Par2\" two workers."
	echo
	echo "## Targets (medians of $COUNT runs)"
	echo
	echo "| what | target | measured |"
	echo "|---|---|---|"
	echo "| 4x7, all 1,682 tours stored, sequential (\`Find4x7Seq\`) | <= 2 ms | $(ms Find4x7Seq) ($seed faster than the seed's C++, 1010 ms on this kind of machine) |"
	echo "| 5x6, count 4,542, sequential (\`Count5x6Seq\`) | <= 2 ms | $(ms Count5x6Seq) |"
	echo "| 6x6, count 524,486, sequential (\`Count6x6Seq\`) | <= 250 ms | $(ms Count6x6Seq) |"
	echo "| 6x6, count 524,486, 2 workers (\`Count6x6Par2\`) | <= 130 ms | $(ms Count6x6Par2) |"
	echo "| speed-up on a job over a second: 5x8, 3,742,739 tours (\`Count5x8Seq\` / \`Count5x8Par2\`) | >= 1.8x | $speedup ($(ms Count5x8Seq) / $(ms Count5x8Par2)) |"
	echo "| 6x6, all tours stored, memory (\`Find6x6Par2\`) | well under 100 MB | $(median Find6x6Par2 MB-stored) MB |"
	echo "| return after cancel, 8x8 on 2 workers (\`CancelLatency\`) | <= 100 ms | $(median CancelLatency ms-to-return) ms |"
	echo
	echo "## Closed tours and censuses"
	echo
	echo "| what | target | measured | without the reduction | gain |"
	echo "|---|---|---|---|---|"
	echo "| 6x6 closed tours from the corner, 19,724 directed, 2 workers (\`Closed6x6Par2\`; seed 004's reduction: first jump fixed, last square reserved) | | $(ms Closed6x6Par2) | $(ms Closed6x6NoReducePar2) | $(awk -v a="$(median Closed6x6NoReducePar2 ns/op)" -v b="$(median Closed6x6Par2 ns/op)" 'BEGIN { printf "%.1fx", a / b }') |"
	echo "| 6x6 open census, 6,637,920 directed, 2 workers (\`Census6x6Par2\`; one square per symmetry class) | <= 3 s | $(ms Census6x6Par2) | $(ms Census6x6AllSquaresPar2) (all 36 squares) | $(awk -v a="$(median Census6x6AllSquaresPar2 ns/op)" -v b="$(median Census6x6Par2 ns/op)" 'BEGIN { printf "%.1fx", a / b }') |"
	echo
	echo "The exact pruning itself (dead squares, forced ends, parity, outer rows) is always on: 6x6 from the corner needs 11.2 M nodes (\`Count6x6Seq\`), against about 1.9e10 for the unpruned search (FACTS.md), about 1,700x fewer."
	echo
	echo "## N-Queens"
	echo
	echo "Well-known C solvers on this kind of machine (FACTS.md): bitmask with mirror symmetry 4.03 s (n = 16) and 28.7 s (n = 17); bitmask with full 8-fold symmetry 1.71 s and 11.3 s."
	echo
	echo "| n | solutions | constellations, 1 worker | 2 workers | classic, 1 worker | 2 workers |"
	echo "|---|---|---|---|---|---|"
	for n in 14 15 16 17; do
		echo "| $n | $(awk -v n="$n" '$1 ~ "^[0-9]+$" && $1 == n { print $2 }' queens/testdata/oeis.txt) | $(ms "Count/n=$n/constellations/workers=1") | $(ms "Count/n=$n/constellations/workers=2") | $(ms "Count/n=$n/classic/workers=1") | $(ms "Count/n=$n/classic/workers=2") |"
	done
	echo
	echo "The constellation method's search alone, over the work units of n = 15 set up once (\`Fill\`): $(ms Fill), $(median Fill allocs/op) allocations."
	echo
	echo "The shipped binary (\`knightstour queens -workers N n\`, built with \`cmd/knightstour/default.pgo\`; \`auto\` is constellations from n = 15 on):"
	echo
	echo "| n | solutions | 1 worker | 2 workers |"
	echo "|---|---|---|---|"
	echo "| 17 | 95,815,104 | $cli1 | $cli2 |"
	echo "| 18 | 666,090,624 | | $q18 |"
	echo "| 19 | 4,968,057,848 | | $q19 |"
	echo
	if [ -n "$anchors" ]; then
		echo "Side by side with NQueensFAF's CPU solver (\`NQUEENSFAF=DIR scripts/bench.sh\`, which runs \`scripts/queens-anchors.sh DIR 17 3\`; its solver time excludes the JVM's start):"
		echo
		echo "$anchors"
		echo
	fi
	echo "## Counting by frontier dynamic programming"
	echo
	echo "\`CountDP\` adds one square at a time and keeps one count per distinct frontier state; its cost follows the states, not the tours. The counts it reaches (Figure 2 extended, rows of 3 to 6 x n) are in COUNTS.md (\`go run ./scripts/countsmd\`)."
	echo
	echo "| what | target | measured | states per second | peak states | state memory | bytes a state at the peak |"
	echo "|---|---|---|---|---|---|---|"
	for b in DP5x8Par2 DP6x6Seq DP6x6Par2 DP6x7Par2 DP6x7LeanPar2 DP6x7SpillPar2 DP6x8ClosedPar2 DP5x8FreePar2; do
		target=""
		[ "$b" = DP6x7Par2 ] && target="<= 0.5 s"
		echo "| \`$b\` | $target | $(ms $b) | $(awk -v v="$(median $b states/s)" 'BEGIN { printf "%.1f M", v / 1e6 }') | $(median $b peak-states) | $(median $b MB-states) MB | $(median $b bytes/state) |"
	done
	echo
	echo "\`DP6x7LeanPar2\` takes the lean step, which the counter takes when the buffered one would pass the memory limit: tables of one word a state beside the layer being expanded; \`DP6x7SpillPar2\` the same with the layers on disk, as the counts of 8 rows run. On boards this small the fixed costs (the demand filters, slabs of 256 KiB, a page a table) weigh on their bytes a state. Whole processes, one run each (\`/usr/bin/time\`):"
	echo
	echo "| command | target | time | peak states | state memory | peak resident memory |"
	echo "|---|---|---|---|---|---|"
	echo "$dp77"
	echo "$dp77spill"
	if [ -n "${dp88:-}" ]; then echo "$dp88"; fi
	if [ -n "${corner88:-}" ]; then echo "$corner88"; fi
	echo
	echo "The operations on one state of 8 rows (\`$frontier\`), made billions of times a square on 8x8:"
	echo
	echo "| what | ns a state |"
	echo "|---|---|"
	echo "| a key from a window of 17 squares, labels renamed (\`EncodeKey\`) | $(median EncodeKey ns/key) |"
	echo "| a window from a key (\`DecodeKey\`) | $(median DecodeKey ns/key) |"
	echo "| the other end of a piece of path, for an edge (\`Far\`) | $(median Far ns/end) |"
	echo "| a key from its place in a lean layer's order (\`Unmix\`) | $(median Unmix ns/key) |"
	echo "| the class of a key, for a pass (\`Class\`) | $(median Class ns/key) |"
	echo "| a layer's group packed for disk, in Rice codes (\`Encode/rice\`; varints: $(median Encode/varints ns/state)) | $(median Encode/rice ns/state) |"
	echo "| a state read back from a layer on disk (\`DecodeBlock/rice\`; varints: $(median DecodeBlock/varints ns/state)) | $(median DecodeBlock/rice ns/state) |"
	echo
	if [ -n "$against" ]; then
		against_section
	fi
	if [ -n "$before" ]; then
		echo "## Before and after $BEFORE"
		echo
		echo "The frontier's benchmarks by $BEFORE and by this tree, one run of each in turn, $COUNT times (\`COUNT=$COUNT BENCH='$before_bench' scripts/benchcmp.sh $BEFORE\`): benchstat's comparison, where ~ is a difference it cannot tell from the noise."
		echo
		echo '```'
		echo "$before"
		echo '```'
		echo
	fi
	if [ -n "$scaling" ]; then
		echo "## Across cores"
		echo
		echo "The frontier count on 1 and on 2 workers, one run each (\`BOARDS=\"7x7;-closed 8x8\" scripts/scaling.sh 1 2\`). Where the processor time grows with the workers, they contend for something they share; a single pair can mislead on a shared machine by a fifth either way."
		echo
		echo "$scaling"
		echo
		echo "What would limit the step on 16 or 64 cores, in the order a large machine would meet them (docs/counting.md, \"On many cores\", says more):"
		echo
		echo "- the end of each square, where every worker waits for the last piece of the layer: short on wide squares, most of the time on a column's first and last;"
		echo "- the lean step's hash tables, far larger than the caches, under a lock per bucket of groups: memory latency, and locks taken more often with more workers (the buffered step writes bins of each worker's own and scales until the memory bus is full: give a large machine memory enough that steps stay buffered);"
		echo "- the disk, with the layers on it: every pass reads its share of a layer and writes the next, tens of gigabytes a square near the widest on 8 rows;"
		echo "- the demand passes before the count, which fill each square's demands in 16 parts and so use at most 16 workers;"
		echo "- shared cache lines and locks held across system calls, which the step avoids (each worker's structs end in padding; the arena maps and unmaps outside its lock) and \`count -trace\` would show."
		echo
	fi
	echo "## One tour on any board"
	echo
	echo "The construction (\`MethodConstruct\`) joins blocks' cycles through their ports (and searches strips 3 or 4 wide along a frontier); time and memory grow linearly with the squares."
	echo
	echo "| what | target | measured | ns per square | allocated |"
	echo "|---|---|---|---|---|"
	for b in Construct1000Closed Construct1001Open Construct10000Closed ConstructStrip4x100000; do
		target=""
		[ "$b" = Construct1000Closed ] && target="<= 100 ms"
		[ "$b" = Construct10000Closed ] && target="<= 15 s, <= 2 GB"
		echo "| \`$b\` | $target | $(ms $b) | $(median $b ns/square) | $(awk -v v="$(median $b B/op)" 'BEGIN { printf "%.0f MB", v / 1e6 }') |"
	done
	echo
	echo "Peak resident memory of the whole process for \`knightstour tour -method construct 10000x10000\`: $rss."
	echo
	echo "One tour by Warnsdorff's rule on 255x256, near the largest board the solvers take (\`Warnsdorff255x256\`): $(ms Warnsdorff255x256), $(median Warnsdorff255x256 ns/square) ns per square."
	echo
	echo "Search speed: $(awk -v x="$(median Count6x6Seq nodes/s)" 'BEGIN { printf "%.1f", x / 1e6 }') M nodes/s and $(awk -v x="$(median Count6x6Seq tours/s)" 'BEGIN { printf "%.2f", x / 1e6 }') M tours/s on one core (6x6)."
	echo
	echo "## All benchmarks (benchstat)"
	echo
	echo '```'
	go run "golang.org/x/perf/cmd/benchstat@$BENCHSTAT" "$raw"
	echo '```'
} > BENCHMARKS.md
echo "wrote BENCHMARKS.md" >&2
