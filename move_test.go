package knightstour

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseOrder(t *testing.T) {
	tests := []struct {
		in   string
		want []Move
		err  error
	}{
		{"seed", SeedOrder(), nil},
		{"WIRTH", WirthOrder(), nil},
		{"(2,1) (1,2) (-2,1) (-1,2) (2,-1) (1,-2) (-2,-1) (-1,-2)", SeedOrder(), nil},
		{"(2,1),(1,2),(-1,2),(-2,1),(-2,-1),(-1,-2),(1,-2),(2,-1)", WirthOrder(), nil},
		{"(2,1)/(1,2)/(-1,2)/(-2,1)/(-2,-1)/(-1,-2)/(1,-2)/(2,-1)", WirthOrder(), nil},
		{"", nil, ErrBadOption},
		{"(2,1)", nil, ErrBadOption},
		{"(2,1) (1,2) (-2,1) (-1,2) (2,-1) (1,-2) (-2,-1) (-1,-3)", nil, ErrBadOption},
		{"(2,1) (2,1) (-2,1) (-1,2) (2,-1) (1,-2) (-2,-1) (-1,-2)", nil, ErrBadOption},
		{"(2,1) (1,2) (-2,1) (-1,2) (2,-1) (1,-2) (-2,-1) (-1,-2) (1,2)", nil, ErrBadOption},
		{"(2;1)", nil, ErrBadOption},
		{"x(2,1)", nil, ErrBadOption},
		{"(a,b)", nil, ErrBadOption},
		{"spiral", nil, ErrBadOption},
	}
	for _, tt := range tests {
		got, err := ParseOrder(tt.in)
		if diff := cmp.Diff(tt.want, got); diff != "" || !errors.Is(err, tt.err) {
			t.Errorf("ParseOrder(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestOrdersAreValid(t *testing.T) {
	for _, o := range [][]Move{SeedOrder(), WirthOrder()} {
		if err := validateOrder(o); err != nil {
			t.Errorf("ValidateOrder(%v) = %v", o, err)
		}
	}
	if got := (Move{-2, 1}).String(); got != "(-2,1)" {
		t.Errorf("String = %q", got)
	}
}
