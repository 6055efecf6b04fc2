// Package shard checks that the results of a search split into shards
// (shard i of n, for i = 0..n-1) can be added up: every shard of the same
// split there, and each once.
package shard

import "fmt"

// ID names one shard: Index of Count.
type ID struct{ Index, Count int }

func (id ID) String() string { return fmt.Sprintf("%d/%d", id.Index, id.Count) }

// Complete reports an error unless ids are the shards 0..n-1 of one split
// into n, each exactly once, in any order.
func Complete(ids []ID) error {
	if len(ids) == 0 {
		return fmt.Errorf("no results")
	}
	n := ids[0].Count
	// The shards seen, by index: a set the size of the results, never of
	// the split, which a forged result can make as large as it likes.
	seen := make(map[int]bool, len(ids))
	for _, id := range ids {
		switch {
		case id.Count != n:
			return fmt.Errorf("shard %v is from another split than shard %v", id, ids[0])
		case id.Index < 0 || id.Index >= n:
			return fmt.Errorf("shard %v is out of range", id)
		case seen[id.Index]:
			return fmt.Errorf("shard %v is given twice", id)
		}
		seen[id.Index] = true
	}
	for i := 0; i < n; i++ { // stops at the first missing one, within len(ids)+1
		if !seen[i] {
			return fmt.Errorf("shard %v is missing", ID{i, n})
		}
	}
	return nil
}
