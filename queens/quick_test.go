//go:build !exhaustive

package queens

// exhaustive is set by the exhaustive build tag (.ci/run): it adds the
// slower cases of some tests.
const exhaustive = false
