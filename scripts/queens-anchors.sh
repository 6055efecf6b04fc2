#!/usr/bin/env bash
# Times 'knightstour queens' side by side with NQueensFAF's CPU solver, the
# fastest public N-Queens counter on CPUs, on one and two threads, one run
# after the other in rounds, so that both meet the same machine; prints a
# Markdown table of the best and the median of each.
#
#   scripts/queens-anchors.sh FAF_DIR [N] [ROUNDS]
#
# FAF_DIR is a folder with NQueensFAF's sources and its run.sh driver (run.sh
# N THREADS prints "total=... solver_ms=..."); nothing of it is copied here.
# Needs a JDK. N defaults to 17, ROUNDS to 3. Run it on an idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
faf=${1:?usage: scripts/queens-anchors.sh FAF_DIR [N] [ROUNDS]}
n=${2:-17}
rounds=${3:-3}
[ -x "$faf/run.sh" ] || { echo "no run.sh in $faf" >&2; exit 2; }

# Ours as go build makes it (for any x86-64, GOAMD64=v1), and built for
# this processor (scripts/goamd64.sh), as the JVM compiles NQueensFAF.
tmp=$(mktemp -d)
bin=$tmp/knightstour
go build -o "$bin" ./cmd/knightstour
level=$(scripts/goamd64.sh)
GOAMD64=$level go build -o "$tmp/knightstour-$level" ./cmd/knightstour
want=$(awk -v n="$n" '$1 == n { print $2 }' queens/testdata/oeis.txt)

ours() { # workers method [binary] -> seconds
	local json
	json=$("${3:-$bin}" queens -quiet -json -workers "$1" -method "$2" "$n")
	echo "$json" | grep -q "\"total\":$want," || { echo "knightstour: wrong total: $json" >&2; exit 1; }
	echo "$json" | awk -F'"elapsed_ms":' '{ split($2, a, "[,}]"); printf "%.3f\n", a[1] / 1000 }'
}
theirs() { # threads -> seconds
	local line
	line=$("$faf/run.sh" "$n" "$1")
	echo "$line" | grep -q "total=$want " || { echo "NQueensFAF: wrong total: $line" >&2; exit 1; }
	echo "$line" | sed 's/.*solver_ms=\([0-9]*\).*/\1/' | awk '{ printf "%.3f\n", $1 / 1000 }'
}
"$faf/run.sh" 8 1 > /dev/null # build it once, outside the timing

declare -A times
for r in $(seq "$rounds"); do
	echo "round $r of $rounds" >&2
	for threads in 1 2; do
		times[faf$threads]+="$(theirs "$threads") "
		times[const$threads]+="$(ours "$threads" constellations) "
		times[native$threads]+="$(ours "$threads" constellations "$tmp/knightstour-$level") "
		times[classic$threads]+="$(ours "$threads" classic) "
	done
done

stats() { # "t1 t2 ..." -> "best / median"
	echo "$1" | tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%.2f s / %.2f s", v[1], m }'
}
ratio() { # ours theirs -> ratio of the best times
	awk -v a="$(echo "$1" | tr ' ' '\n' | grep . | sort -g | head -1)" -v b="$(echo "$2" | tr ' ' '\n' | grep . | sort -g | head -1)" 'BEGIN { printf "%.2fx", a / b }'
}
echo "| n = $n, $rounds rounds, best / median | 1 thread | 2 threads |"
echo "|---|---|---|"
echo "| NQueensFAF CpuSolver (\`run.sh $n T\`, its own solver time) | $(stats "${times[faf1]}") | $(stats "${times[faf2]}") |"
echo "| knightstour, constellations (\`queens -method constellations -workers T $n\`) | $(stats "${times[const1]}") | $(stats "${times[const2]}") |"
echo "| knightstour built with GOAMD64=$level, constellations | $(stats "${times[native1]}") | $(stats "${times[native2]}") |"
echo "| knightstour, classic (\`queens -method classic -workers T $n\`) | $(stats "${times[classic1]}") | $(stats "${times[classic2]}") |"
echo "| constellations / NQueensFAF, best times | $(ratio "${times[const1]}" "${times[faf1]}") | $(ratio "${times[const2]}" "${times[faf2]}") |"
echo "| constellations with GOAMD64=$level / NQueensFAF, best times | $(ratio "${times[native1]}" "${times[faf1]}") | $(ratio "${times[native2]}" "${times[faf2]}") |"
