package knightstour

import "iter"

// listChunkBytes sets the size of the chunks a Tours list grows by: full chunks
// are never copied, so a list needs no more memory than its tours plus one
// chunk, even while it grows.
const listChunkBytes = 1 << 20

// Tours is a list of tours of one board, as FindMoves returns it. Each
// square takes two bytes: 6x6's 524,486 tours from a corner take 38 MB.
type Tours struct {
	rows, cols int
	perChunk   int        // tours in each chunk
	chunks     [][]uint16 // the tours back to back, perChunk to a chunk
	count      int
	stats      Stats
}

func newTours(rows, cols int) *Tours {
	return &Tours{rows: rows, cols: cols, perChunk: max(1, listChunkBytes/2/(rows*cols))}
}

func (ts *Tours) add(path []uint16) {
	if ts.count%ts.perChunk == 0 {
		// The first chunk starts small and grows, for short lists; later
		// ones are allocated whole.
		size := ts.perChunk
		if ts.count == 0 {
			size = min(size, 64)
		}
		ts.chunks = append(ts.chunks, make([]uint16, 0, size*len(path)))
	}
	last := &ts.chunks[len(ts.chunks)-1]
	if len(*last)+len(path) > cap(*last) { // only the first chunk grows
		grown := make([]uint16, len(*last), min(2*cap(*last), ts.perChunk*len(path)))
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

// At returns the i-th tour, counting from 0, or the zero Tour if i is out
// of range. The Tour shares memory with the list, which never changes.
func (ts *Tours) At(i int) Tour {
	if i < 0 || i >= ts.Len() {
		return Tour{}
	}
	n := ts.rows * ts.cols
	b, j := ts.chunks[i/ts.perChunk], i%ts.perChunk
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

// size returns the memory the tours occupy.
func (ts *Tours) size() int {
	if ts == nil {
		return 0
	}
	total := 0
	for _, b := range ts.chunks {
		total += 2 * cap(b)
	}
	return total
}

// Stats returns the statistics of the search that found the tours.
func (ts *Tours) Stats() Stats {
	if ts == nil {
		return Stats{}
	}
	return ts.stats
}
