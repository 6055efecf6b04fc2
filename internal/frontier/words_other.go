//go:build !linux

package frontier

// allocWords returns n zeroed words; where memory cannot be mapped, from
// the Go heap.
func allocWords(n int) ([]uint64, error) { return make([]uint64, n), nil }

// freeWords leaves w to the garbage collector.
func freeWords(w []uint64) error { return nil }

// discardWords leaves w as it is: the garbage collector frees the whole.
func discardWords(w []uint64) {}

// allocHuge is allocWords: memory that is not mapped asks for no page size.
func allocHuge(n int) ([]uint64, error) { return allocWords(n) }
