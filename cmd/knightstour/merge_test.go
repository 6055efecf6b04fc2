package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIdentityWidth checks that results of frontier counts differ by the
// frontier's width, and that a result written before the width was
// recorded is one of a count along the board.
func TestIdentityWidth(t *testing.T) {
	along := &countResult{Kind: "tours", Rows: 5, Cols: 6, Method: "dp", Sweep: "narrow", Width: 5}
	across := *along
	across.Width = 6
	older := *along
	older.Width = 0
	got := []bool{
		shardResult{tours: along}.identity() == shardResult{tours: &across}.identity(),
		shardResult{tours: along}.identity() == shardResult{tours: &older}.identity(),
	}
	if diff := cmp.Diff([]bool{false, true}, got); diff != "" {
		t.Errorf("along and across the same count, along and a result without width (-want +got):\n%s", diff)
	}
}
