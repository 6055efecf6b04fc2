# Sourced by scripts/against.sh and scripts/atonce.sh, which time an
# older commit's binary against the work tree's: builds the knightstour
# binary of commit $1 as $tmp/kt-old and the work tree's as $tmp/kt-new,
# in a new temporary directory tmp, which goes, with the old commit's
# worktree, when the script exits.
tmp=$(mktemp -d)
cleanup() {
	git worktree remove --force "$tmp/old" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
git worktree add --detach "$tmp/old" "$1" >/dev/null 2>&1
(cd "$tmp/old" && go build -o "$tmp/kt-old" ./cmd/knightstour)
go build -o "$tmp/kt-new" ./cmd/knightstour
