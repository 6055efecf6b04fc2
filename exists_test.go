package knightstour

import (
	"context"
	"testing"
)

// TestExistsAgainstSearch checks Exists and StartPossible against the
// exhaustive census of every board up to 6x6, open and closed.
func TestExistsAgainstSearch(t *testing.T) {
	t.Parallel()
	for rows := 1; rows <= 6; rows++ {
		for cols := 1; cols <= 6; cols++ {
			for _, closed := range []bool{false, true} {
				c := sharedCensus(t, rows, cols, closed)
				if got, want := Exists(rows, cols, kindOf(closed)), c.Directed.Uint64() > 0; got != want {
					t.Errorf("Exists(%d, %d, closed=%v) = %v, search says %v", rows, cols, closed, got, want)
				}
				for r := range rows {
					for k := range cols {
						sq := Coordinate{r, k}
						if c.At(sq).Sign() > 0 && !StartPossible(rows, cols, sq, kindOf(closed)) {
							t.Errorf("%dx%d closed=%v: StartPossible(%v) = false, but %d tours start there", rows, cols, closed, sq, c.At(sq))
						}
					}
				}
			}
		}
	}
}

// TestExistsLarger spot-checks the theorem beyond 6x6 where a quick
// search can decide: 3 x n and 4 x n boards, and closed 3 x n.
func TestExistsLarger(t *testing.T) {
	for _, b := range [][2]int{{3, 7}, {3, 8}, {3, 9}, {3, 10}, {4, 7}, {4, 8}, {5, 7}, {7, 3}} {
		for _, closed := range []bool{false, true} {
			opts := []SolverOption{WithStart(Coordinate{0, 0})}
			if closed {
				opts = append(opts, WithClosed())
			}
			_, err := mustSolver(t, b[0], b[1], opts...).First(context.Background())
			// From the corner: open tours of these boards all exist from a corner.
			if found := err == nil; found != Exists(b[0], b[1], kindOf(closed)) {
				t.Errorf("%dx%d closed=%v: first tour from the corner found=%v, Exists says %v", b[0], b[1], closed, found, Exists(b[0], b[1], kindOf(closed)))
			}
		}
	}
}
