//go:build !linux

package memory

import "context"

// AllocWords returns n zeroed words; where memory cannot be mapped, from
// the Go heap.
func AllocWords(n int) ([]uint64, error) { return make([]uint64, n), nil }

// FreeWords leaves w to the garbage collector.
func FreeWords(w []uint64) error { return nil }

// discardZeroes says that words discardWords gives back read as zeros:
// here they stay as they were.
const discardZeroes = false

// discardWords leaves w as it is: the garbage collector frees the whole.
func discardWords(w []uint64) {}

// allocHuge is AllocWords: memory that is not mapped asks for no page size.
func allocHuge(_ context.Context, n, _ int) ([]uint64, error) { return AllocWords(n) }

// faultIn leaves w to fault in at its first touch.
func faultIn(context.Context, []uint64, int) {}
