package main

import (
	"testing"

	"github.com/euler1758/knightstour"
	"github.com/google/go-cmp/cmp"
)

func TestParseOrder(t *testing.T) {
	tests := []struct {
		in   string
		want []knightstour.Move // nil: refused
	}{
		{"seed", knightstour.SeedOrder()},
		{"WIRTH", knightstour.WirthOrder()},
		{"(2,1) (1,2) (-2,1) (-1,2) (2,-1) (1,-2) (-2,-1) (-1,-2)", knightstour.SeedOrder()},
		{"(2,1),(1,2),(-1,2),(-2,1),(-2,-1),(-1,-2),(1,-2),(2,-1)", knightstour.WirthOrder()},
		{"(2,1)/(1,2)/(-1,2)/(-2,1)/(-2,-1)/(-1,-2)/(1,-2)/(2,-1)", knightstour.WirthOrder()},
		{"(2,1)", []knightstour.Move{{DRow: 2, DCol: 1}}}, // read; the library refuses it
		{"", nil},
		{"(2;1)", nil},
		{"x(2,1)", nil},
		{"(a,b)", nil},
		{"spiral", nil},
	}
	for _, tt := range tests {
		got, err := parseOrder(tt.in)
		if diff := cmp.Diff(tt.want, got); diff != "" || (err == nil) != (tt.want != nil) {
			t.Errorf("parseOrder(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseOrder(f *testing.F) {
	for _, s := range []string{"seed", "wirth", "(2,1) (1,2) (-2,1) (-1,2) (2,-1) (1,-2) (-2,-1) (-1,-2)", "(2,1)", "((", "(2,1)/(1,2)", " Seed "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		order, err := parseOrder(s)
		if err == nil && len(order) == 0 {
			t.Errorf("parseOrder(%q) accepted no jumps", s)
		}
	})
}
