#!/usr/bin/env bash
# Regenerates cmd/knightstour/default.pgo, the profile that Go's
# profile-guided optimisation uses for the knightstour binary (go build and
# go run pick it up by themselves). The profile comes from the benchmarks of
# the knight's tour search and the frontier counter. Rerun it after changing
# either, or the profile goes stale and can cost speed.
#
# The N-Queens search is left out: with its profile in, queens -workers 1
# 17 took 6.33 s of user time against 6.05 s without (2026-11-26; the
# search is one recursive function, and what PGO does to it costs).
#
#   scripts/pgo.sh                  # the benchmarks' profiles
#   scripts/pgo.sh count89.prof     # and profiles of real runs, merged in
#                                   # (knightstour count -cpuprofile F ...)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -run '^$' -bench 'Count6x6Seq|Count5x8Seq|DP6x7Par2' -benchtime 3x -cpuprofile "$tmp/tours.prof" -o "$tmp/kt.test" . > /dev/null
go tool pprof -proto "$tmp/tours.prof" "$@" > "$tmp/default.pgo"
mv "$tmp/default.pgo" cmd/knightstour/default.pgo
echo "wrote cmd/knightstour/default.pgo" >&2
