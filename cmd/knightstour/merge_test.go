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

// TestIdentityHalved checks that the result of a count that halved (a
// start on a diagonal of a square board) is of another count than one
// that did not, as an older binary's result of the same board is: their
// shards follow other states.
func TestIdentityHalved(t *testing.T) {
	older := &countResult{Kind: "tours", Rows: 5, Cols: 5, Start: "{4,0}", Method: "dp", Sweep: "narrow", Width: 5}
	halved := *older
	halved.Halved = true
	if a, b := (shardResult{tours: older}).identity(), (shardResult{tours: &halved}).identity(); a == b {
		t.Error("a result that halved and one that did not are of one count")
	}
}
