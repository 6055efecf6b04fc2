#!/usr/bin/env bash
# Regenerates cmd/knightstour/default.pgo, the profile that Go's
# profile-guided optimisation uses for the knightstour binary (go build and
# go run pick it up by themselves). The profile comes from the benchmarks of
# both hot loops: the knight's tour search and the N-Queens search. Rerun it
# after changing either, or the profile goes stale and can cost speed.
#
#   scripts/pgo.sh                  # the benchmarks' profiles
#   scripts/pgo.sh count89.prof     # and profiles of real runs, merged in
#                                   # (knightstour count -cpuprofile F ...)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -run '^$' -bench 'Count6x6Seq|Count5x8Seq|DP6x7Par2' -benchtime 3x -cpuprofile "$tmp/tours.prof" -o "$tmp/kt.test" . > /dev/null
go test -run '^$' -bench 'Count/n=16/.*/workers=1' -benchtime 3x -cpuprofile "$tmp/queens.prof" -o "$tmp/q.test" ./queens > /dev/null
go tool pprof -proto "$tmp/tours.prof" "$tmp/queens.prof" "$@" > "$tmp/default.pgo"
mv "$tmp/default.pgo" cmd/knightstour/default.pgo
echo "wrote cmd/knightstour/default.pgo" >&2
