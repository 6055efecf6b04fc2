package knightstour

import (
	"testing"
)

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
