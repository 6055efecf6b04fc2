//go:build !exhaustive

package frontier

// exhaustive is set by the exhaustive build tag (.ci/run): it adds the
// slower cases of some tests.
const exhaustive = false
