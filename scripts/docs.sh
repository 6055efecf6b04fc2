#!/usr/bin/env bash
# Regenerates the pictures in docs/ that the README shows, with the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./cmd/knightstour tour -closed -numbers -svg docs/tour-8x8.svg 8x8 >/dev/null
go run ./cmd/knightstour tour -method construct -closed -svg docs/tour-40x40.svg 40x40 >/dev/null
echo "docs/tour-8x8.svg docs/tour-40x40.svg"
