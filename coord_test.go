package knightstour

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCoordinateString(t *testing.T) {
	tests := []struct {
		c    Coordinate
		want string
	}{
		{Coordinate{2, 0}, "{2,0}"},
		{Coordinate{0, 11}, "{0,11}"},
		{Coordinate{0, 1}, "{0,1}"},
		{Coordinate{-1, 2}, "{-1,2}"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestAlgebraic(t *testing.T) {
	tests := []struct {
		rows, cols int
		c          Coordinate
		want       string
		err        error
	}{
		{3, 4, Coordinate{2, 0}, "a1", nil},
		{3, 4, Coordinate{0, 3}, "d3", nil},
		{8, 8, Coordinate{0, 7}, "h8", nil},
		{12, 26, Coordinate{0, 25}, "z12", nil},
		{3, 27, Coordinate{0, 0}, "", ErrBadSize},
		{3, 4, Coordinate{3, 0}, "", ErrOffBoard},
	}
	for _, tt := range tests {
		got, err := tt.c.Algebraic(tt.rows, tt.cols)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("%v.Algebraic(%d, %d) = %q, %v; want %q, %v", tt.c, tt.rows, tt.cols, got, err, tt.want, tt.err)
		}
		if tt.err == nil {
			back, err := ParseCoordinate(got, tt.rows, tt.cols)
			if err != nil || back != tt.c {
				t.Errorf("ParseCoordinate(%q) = %v, %v; want %v", got, back, err, tt.c)
			}
		}
	}
}

func TestParseCoordinate(t *testing.T) {
	tests := []struct {
		in   string
		want Coordinate
		err  error
	}{
		{"{2,0}", Coordinate{2, 0}, nil},
		{" { 1 , 3 } ", Coordinate{1, 3}, nil},
		{"a1", Coordinate{2, 0}, nil},
		{"d3", Coordinate{0, 3}, nil},
		{"b2", Coordinate{1, 1}, nil},
		{"{3,0}", Coordinate{}, ErrOffBoard},
		{"{0,-1}", Coordinate{}, ErrOffBoard},
		{"e1", Coordinate{}, ErrOffBoard},
		{"a4", Coordinate{}, ErrOffBoard},
		{"a0", Coordinate{}, ErrOffBoard},
		{"", Coordinate{}, ErrOffBoard},
		{"a", Coordinate{}, ErrOffBoard},
		{"A1", Coordinate{}, ErrOffBoard},
		{"a1x", Coordinate{}, ErrOffBoard},
		{"a-1", Coordinate{}, ErrOffBoard},
		{"{1,2", Coordinate{}, ErrOffBoard},
		{"{1;2}", Coordinate{}, ErrOffBoard},
		{"{x,2}", Coordinate{}, ErrOffBoard},
		{"(1,2)", Coordinate{}, ErrOffBoard},
		{"1,2", Coordinate{}, ErrOffBoard},
		{"a99999999999999999999", Coordinate{}, ErrOffBoard},
	}
	for _, tt := range tests {
		got, err := ParseCoordinate(tt.in, 3, 4)
		if diff := cmp.Diff(tt.want, got); diff != "" || !errors.Is(err, tt.err) {
			t.Errorf("ParseCoordinate(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func FuzzParseCoordinate(f *testing.F) {
	for _, s := range []string{"{2,0}", "a1", "z26", "{-1,5}", "", "{", "a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCoordinate(s, 8, 8)
		if err == nil && !c.contains(8, 8) {
			t.Errorf("ParseCoordinate(%q) = %v, off the board without error", s, c)
		}
	})
}
