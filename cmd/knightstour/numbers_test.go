package main

import (
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGrouped(t *testing.T) {
	big20, _ := new(big.Int).SetString("132421898551931552795928481", 10)
	tests := []struct {
		n    any
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {-1682, "-1,682"}, {-999, "-999"},
		{uint64(19023006776), "19,023,006,776"}, {big20, "132,421,898,551,931,552,795,928,481"},
	}
	var got, want []string
	for _, tt := range tests {
		got, want = append(got, grouped(tt.n)), append(want, tt.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("grouped (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"1 worker", "2 workers", "0 tours", "1,682 tours"},
		[]string{count(1, "worker", "workers"), count(2, "worker", "workers"), count(0, "tour", "tours"), count(uint64(1682), "tour", "tours")}); diff != "" {
		t.Errorf("count (-want +got):\n%s", diff)
	}
}
