package knightstour

import (
	"errors"
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
	big, err := NewBoard(100, 101)
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Set(Coordinate{0, 0}, 10100); err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(big.String(), "\n", 2)[0]
	if !strings.HasPrefix(first, "10100     0 ") {
		t.Errorf("wide board starts %q; columns must widen to fit 5 digits", first[:20])
	}
}

func TestBoardAccess(t *testing.T) {
	b, err := NewBoard(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set(Coordinate{1, 3}, 7); err != nil {
		t.Fatal(err)
	}
	if got := b.At(Coordinate{1, 3}); got != 7 {
		t.Errorf("At = %d, want 7", got)
	}
	if got := b.At(Coordinate{5, 5}); got != 0 {
		t.Errorf("At off the board = %d, want 0", got)
	}
	if err := b.Set(Coordinate{3, 0}, 1); !errors.Is(err, ErrOffBoard) {
		t.Errorf("Set off the board: %v, want ErrOffBoard", err)
	}
	b.Clear()
	if got := b.At(Coordinate{1, 3}); got != 0 || b.Rows() != 3 || b.Cols() != 4 {
		t.Errorf("after Clear At = %d, size %dx%d", got, b.Rows(), b.Cols())
	}
	for _, size := range [][2]int{{0, 1}, {1, -1}, {1 << 20, 1 << 20}, {1 << 62, 4}} {
		if _, err := NewBoard(size[0], size[1]); err == nil {
			t.Errorf("NewBoard(%d, %d) succeeded", size[0], size[1])
		}
	}
}
