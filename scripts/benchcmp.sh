#!/usr/bin/env bash
# Runs the same benchmarks on two commits, one run of each in turn so that
# a drift of the machine falls on both alike, and prints benchstat's
# comparison: the old commit's figures beside the new one's.
#
#   scripts/benchcmp.sh OLD [NEW]        # NEW defaults to the work tree
#   COUNT=10 scripts/benchcmp.sh b467975 # more runs, tighter intervals
#   BENCH='Count|Construct' PKGS='.' scripts/benchcmp.sh OLD
#
# Each commit is checked out into a temporary work tree (git worktree), so
# the benchmarks of each are its own. A benchmark that one of them lacks is
# listed by benchstat without a comparison. Run it on an otherwise idle
# machine.
set -euo pipefail
cd "$(dirname "$0")/.."

old=${1:?usage: scripts/benchcmp.sh OLD [NEW]}
new=${2:-}
COUNT=${COUNT:-5}
BENCH=${BENCH:-.}
PKGS=${PKGS:-. ./internal/frontier}
BENCHSTAT=${BENCHSTAT:-v0.0.0-20260908200009-22c9c6c9d4da}

tmp=$(mktemp -d)
cleanup() {
	git worktree remove --force "$tmp/old" >/dev/null 2>&1 || true
	[ -z "$new" ] || git worktree remove --force "$tmp/new" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
git worktree add --detach "$tmp/old" "$old" >/dev/null 2>&1
newdir=$PWD
if [ -n "$new" ]; then
	git worktree add --detach "$tmp/new" "$new" >/dev/null 2>&1
	newdir=$tmp/new
fi

# The test binaries are built once, then run in turn.
for side in old new; do
	dir=$tmp/old
	[ "$side" = new ] && dir=$newdir
	for pkg in $PKGS; do
		name=$(echo "$pkg" | tr './' '_-')
		(cd "$dir" && go test -c -o "$tmp/$side$name.test" "$pkg")
	done
done
for i in $(seq "$COUNT"); do
	echo "run $i of $COUNT" >&2
	for side in old new; do
		dir=$tmp/old
		[ "$side" = new ] && dir=$newdir
		for pkg in $PKGS; do
			name=$(echo "$pkg" | tr './' '_-')
			(cd "$dir/$pkg" && "$tmp/$side$name.test" -test.run '^$' -test.bench "$BENCH" -test.benchmem -test.count 1) >> "$tmp/$side.txt"
		done
	done
done
mkdir -p bench
cp "$tmp/old.txt" bench/old.txt
cp "$tmp/new.txt" bench/new.txt
go run "golang.org/x/perf/cmd/benchstat@$BENCHSTAT" old="$tmp/old.txt" new="$tmp/new.txt"
