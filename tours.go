package knightstour

import "iter"

// blockBytes sets the size of the blocks a Tours list grows by: full blocks
// are never copied, so a list needs no more memory than its tours plus one
// block, even while it grows.
const blockBytes = 1 << 20

// Tours is a list of tours of one board, as FindMoves returns it. Each
// square takes two bytes: 6x6's 524,486 tours from a corner take 38 MB.
type Tours struct {
	rows, cols int
	perBlock   int        // tours in each block
	blocks     [][]uint16 // the tours back to back, perBlock to a block
	count      int
	stats      Stats
}

func newTours(rows, cols int) *Tours {
	return &Tours{rows: rows, cols: cols, perBlock: max(1, blockBytes/2/(rows*cols))}
}

func (ts *Tours) add(path []uint16) {
	if ts.count%ts.perBlock == 0 {
		// The first block starts small and grows, for short lists; later
		// ones are allocated whole.
		size := ts.perBlock
		if ts.count == 0 {
			size = min(size, 64)
		}
		ts.blocks = append(ts.blocks, make([]uint16, 0, size*len(path)))
	}
	last := &ts.blocks[len(ts.blocks)-1]
	if len(*last)+len(path) > cap(*last) { // only the first block grows
		grown := make([]uint16, len(*last), min(2*cap(*last), ts.perBlock*len(path)))
		copy(grown, *last)
		*last = grown
	}
	*last = append(*last, path...)
	ts.count++
}

// Len returns the number of tours.
func (ts *Tours) Len() int {
	if ts == nil {
		return 0
	}
	return ts.count
}

// At returns the i-th tour, counting from 0. The Tour shares memory with
// the list, which never changes.
func (ts *Tours) At(i int) Tour {
	n := ts.rows * ts.cols
	b, j := ts.blocks[i/ts.perBlock], i%ts.perBlock
	return Tour{rows: ts.rows, cols: ts.cols, squares: b[j*n : (j+1)*n : (j+1)*n]}
}

// All iterates over the tours with their indices, in order.
func (ts *Tours) All() iter.Seq2[int, Tour] {
	return func(yield func(int, Tour) bool) {
		for i := range ts.Len() {
			if !yield(i, ts.At(i)) {
				return
			}
		}
	}
}

// Bytes returns the memory the tours occupy.
func (ts *Tours) Bytes() int {
	total := 0
	for _, b := range ts.blocks {
		total += 2 * cap(b)
	}
	return total
}

// Stats returns the statistics of the search that found the tours.
func (ts *Tours) Stats() Stats { return ts.stats }
