//go:build !exhaustive

package frontier

// exhaustive is set by the exhaustive build tag (.ci/run): it adds the
// slower cases of some tests.
const exhaustive = false

// middle is the board of the tests that count one in full in several ways:
// 5x7 here, 6x6 with -tags exhaustive. Both are at least 5 squares wide,
// where every sweep differs.
func middle() (rows, cols int) { return 5, 7 }
