//go:build exhaustive

package queens

import (
	"context"
	"testing"
)

// exhaustive is set by the exhaustive build tag (.ci/run): it adds the
// slower cases of some tests.
const exhaustive = true

// TestCountOEISLong counts n = 17 both ways and n = 18 by constellations
// (minutes on two cores; .ci/run sets the build tag exhaustive) against
// OEIS A000170 and A002562.
func TestCountOEISLong(t *testing.T) {
	table := oeis(t)
	for _, c := range []struct {
		n int
		m Method
	}{{17, Constellations}, {17, Classic}, {18, Constellations}} {
		r, err := Count(context.Background(), c.n, WithMethod(c.m))
		if err != nil {
			t.Fatal(err)
		}
		if got := (known{r.Total, r.Unique}); got != table[c.n] {
			t.Errorf("n=%d by %v: %+v, want %+v", c.n, c.m, got, table[c.n])
		}
		t.Logf("n=%d by %v: %v", c.n, c.m, r.Elapsed)
	}
}
