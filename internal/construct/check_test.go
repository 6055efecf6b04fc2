package construct

import (
	"context"
	"testing"
)

// TestCheck checks the check that the strips' tours and the block table
// rely on: a tour passes, and each kind of fault is found.
func TestCheck(t *testing.T) {
	// The first tour of 3x4 from {2,0}, row*4+col each.
	tour := []uint32{8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 2, 4}
	if err := check(3, 4, tour, false); err != nil {
		t.Fatalf("a tour of 3x4: %v", err)
	}
	for name, bad := range map[string][]uint32{
		"short":         tour[:11],
		"repeated":      append(append([]uint32{}, tour[:11]...), 8),
		"off the board": append(append([]uint32{}, tour[:11]...), 12),
		"not a jump":    {8, 6, 0, 9, 7, 1, 10, 3, 5, 11, 4, 2},
	} {
		if check(3, 4, bad, false) == nil {
			t.Errorf("%s: passed", name)
		}
	}
	if check(3, 4, tour, true) == nil {
		t.Error("an open tour passed as closed")
	}
}

// TestTour builds tours through the package's entry point on blocks, on
// strips and on one square, and checks them.
func TestTour(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		start      Square
		closed     bool
	}{{1, 1, Square{0, 0}, false}, {3, 10, Square{2, 0}, false}, {4, 9, Square{0, 0}, false}, {8, 8, Square{7, 0}, true}, {11, 13, Square{10, 0}, false}, {40, 41, Square{0, 1}, true}} {
		tour, err := Tour(context.Background(), c.rows, c.cols, c.start, c.closed, 2)
		if err != nil {
			t.Errorf("%dx%d from %v: %v", c.rows, c.cols, c.start, err)
			continue
		}
		if err := check(c.rows, c.cols, tour, c.closed); err != nil || tour[0] != uint32(c.start.Row*c.cols+c.start.Col) {
			t.Errorf("%dx%d from %v: %v, starts on %d", c.rows, c.cols, c.start, err, tour[0])
		}
	}
}
