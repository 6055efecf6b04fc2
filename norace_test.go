//go:build !race

package knightstour

// raceEnabled is true when the tests run under the race detector, which
// makes the search about ten times slower: the longest scans shrink.
const raceEnabled = false
