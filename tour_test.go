package knightstour

import (
	"errors"
	"testing"
)

func TestValidate(t *testing.T) {
	open := []Coordinate{{2, 0}, {1, 2}, {0, 0}, {2, 1}, {1, 3}, {0, 1}, {2, 2}, {0, 3}, {1, 1}, {2, 3}, {0, 2}, {1, 0}}
	// The first closed tour of 5x6 from {0,0} in the seed's order.
	closed := []Coordinate{
		{0, 0}, {2, 1}, {4, 0}, {3, 2}, {4, 4}, {2, 5}, {0, 4}, {2, 3}, {1, 5}, {0, 3},
		{1, 1}, {3, 0}, {4, 2}, {3, 4}, {1, 3}, {0, 5}, {2, 4}, {4, 5}, {3, 3}, {4, 1},
		{2, 0}, {0, 1}, {2, 2}, {4, 3}, {3, 5}, {1, 4}, {0, 2}, {1, 0}, {3, 1}, {1, 2},
	}
	tests := []struct {
		name       string
		rows, cols int
		path       []Coordinate
		closed     bool
		err        error
	}{
		{"seed tour", 3, 4, open, false, nil},
		{"one square", 1, 1, []Coordinate{{0, 0}}, false, nil},
		{"too short", 3, 4, open[:11], false, errTour},
		{"off board", 3, 4, append(append([]Coordinate{}, open[:11]...), Coordinate{3, 0}), false, errTour},
		{"repeat", 3, 4, append(append([]Coordinate{}, open[:11]...), open[9]), false, errTour},
		{"not a jump", 3, 4, append(append([]Coordinate{}, open[:10]...), open[11], open[10]), false, errTour},
		{"bad size", 0, 4, nil, false, ErrBadSize},
		{"closed", 5, 6, closed, true, nil},
		{"closed, reversed", 5, 6, reversed(closed), true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			closed, err := validate(tt.rows, tt.cols, tt.path)
			if closed != tt.closed || !isErr(err, tt.err) {
				t.Errorf("Validate = %v, %v; want %v, %v", closed, err, tt.closed, tt.err)
			}
			var te *TourError
			if tt.err == errTour && !errors.As(err, &te) {
				t.Errorf("error %v is not a *TourError", err)
			}
		})
	}
}

func reversed(path []Coordinate) []Coordinate {
	out := make([]Coordinate, len(path))
	for i, c := range path {
		out[len(path)-1-i] = c
	}
	return out
}

func TestTourAccessors(t *testing.T) {
	s := mustSolver(t, 3, 4)
	tour, err := s.First(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if tour.Len() != 12 || tour.Rows() != 3 || tour.Cols() != 4 || tour.At(0) != (Coordinate{2, 0}) ||
		tour.At(tour.Len()-1) != (Coordinate{1, 0}) || tour.closed() {
		t.Errorf("accessors wrong for %v", tour)
	}
	if _, err := NewTour(3, 4, tour.coordinates()); err != nil {
		t.Errorf("NewTour of a found tour: %v", err)
	}
	clone := tour.Clone()
	if clone.String() != tour.String() || &clone.squares[0] == &tour.squares[0] {
		t.Errorf("Clone shares memory or differs")
	}
}

// errTour stands in the tests' tables for any *TourError, which has no
// sentinel of its own.
var errTour = errors.New("a *TourError")

// isErr is errors.Is, but errTour matches any *TourError.
func isErr(err, want error) bool {
	if want == errTour {
		var te *TourError
		return errors.As(err, &te)
	}
	return errors.Is(err, want)
}
