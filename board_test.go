package knightstour

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBoardString(t *testing.T) {
	tour, err := NewTour(3, 4, []Coordinate{{2, 0}, {1, 2}, {0, 0}, {2, 1}, {1, 3}, {0, 1}, {2, 2}, {0, 3}, {1, 1}, {2, 3}, {0, 2}, {1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"   3    6   11    8\n" +
		"  12    9    2    5\n" +
		"   1    4    7   10\n"
	if diff := cmp.Diff(want, tour.Board().String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	big := &Board{rows: 100, cols: 101, cells: make([]int, 100*101)}
	big.cells[0] = 10100
	first := strings.SplitN(big.String(), "\n", 2)[0]
	if !strings.HasPrefix(first, "10100     0 ") {
		t.Errorf("wide board starts %q; columns must widen to fit 5 digits", first[:20])
	}
}

func TestBoardAccess(t *testing.T) {
	tour, err := NewTour(3, 4, []Coordinate{{2, 0}, {1, 2}, {0, 0}, {2, 1}, {1, 3}, {0, 1}, {2, 2}, {0, 3}, {1, 1}, {2, 3}, {0, 2}, {1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	b := tour.Board()
	tests := []struct {
		c    Coordinate
		want int
	}{
		{Coordinate{2, 0}, 1},
		{Coordinate{1, 2}, 2},
		{Coordinate{1, 0}, 12},
		{Coordinate{5, 5}, 0},
		{Coordinate{-1, 0}, 0},
	}
	for _, tt := range tests {
		if got := b.At(tt.c); got != tt.want {
			t.Errorf("At(%v) = %d, want %d", tt.c, got, tt.want)
		}
	}
}
