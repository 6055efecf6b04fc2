//go:build exhaustive

package frontier

// exhaustive is set by the exhaustive build tag (.ci/run): it adds the
// slower cases of some tests.
const exhaustive = true

// middle is the board of the tests that count one in full in several ways:
// 6x6 here, 5x7 in a quick run.
func middle() (rows, cols int) { return 6, 6 }
