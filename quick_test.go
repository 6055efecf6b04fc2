//go:build !exhaustive

package knightstour

// exhaustive is true under the build tag exhaustive, which .ci/run sets:
// the scans over every board up to 30 on a side, which take minutes, run
// in full; the default go test runs them on the smaller boards.
const exhaustive = false
