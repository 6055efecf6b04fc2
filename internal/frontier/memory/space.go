package memory

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/pool"
)

// A Space holds the tables of one pass of the lean step. The tables lie
// side by side in large mappings, where huge pages spare the processor a
// miss in its page tables on nearly every probe (as mappings of their
// own, most would be too small for huge pages), and where the kernel's
// limit on a process's mappings (vm.max_map_count, 65530 by default) is
// never near: a pass has up to 2^18 tables, and a mapping cut in two by
// freeing one table in its middle counts as two. A table that grows takes
// new pages from the end of the space; the pages it leaves, and those of
// every table packed, go back to the kernel at once but stay mapped (see
// discardWords), and the pass unmaps the whole space when it is done,
// unless a pass after it reuses the space (Keep, Reuse).
type Space struct {
	mem    *Budget
	mu     sync.Mutex
	chunks [][]uint64 // the mappings
	rest   []uint64   // the part of the last not carved yet
	// counted is the bytes Alloc counted as used that Give has not
	// released; keep makes Give leave them counted and the pages in place.
	counted atomic.Int64
	keep    atomic.Bool
}

// spaceChunk is the words a space maps at a time for the tables that
// grow: large enough for huge pages, small next to a pass.
const spaceChunk = 64 << 20 / 8

// PageWords is the words of a page of memory: tables take whole pages,
// so that each can give its own back.
const PageWords = 4096 / 8

// hugeWords is the size from which memory is mapped in huge pages where
// the kernel has them (AllocWords, allocHuge): 4 MiB.
const hugeWords = 4 << 20 / 8

// NewSpace returns a space whose first mapping holds words words, the
// tables the pass starts with.
func NewSpace(mem *Budget, words int) *Space {
	sp := &Space{mem: mem}
	if words > 0 {
		// The tables the pass starts with fill their mapping from its
		// first states on: in huge pages at once.
		if w, err := allocHuge(words); err == nil {
			sp.chunks, sp.rest = append(sp.chunks, w), w
		}
	}
	return sp
}

// Alloc returns n zeroed words, n a multiple of PageWords, counted as
// used; false if they would pass the memory limit.
func (sp *Space) Alloc(n int) ([]uint64, bool) {
	if !sp.mem.Grab(int64(n) * 8) {
		sp.mem.Release(int64(n) * 8)
		return nil, false
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if len(sp.rest) < n {
		w, err := AllocWords(max(n, spaceChunk))
		if err != nil {
			sp.mem.Release(int64(n) * 8)
			return nil, false
		}
		sp.chunks, sp.rest = append(sp.chunks, w), w
	}
	w := sp.rest[:n:n]
	sp.rest = sp.rest[n:]
	sp.counted.Add(int64(n) * 8)
	return w, true
}

// Give returns words from Alloc: to the kernel and the limit at once,
// or, once the space is kept (Keep), to the space's next pass.
func (sp *Space) Give(w []uint64) {
	if sp.keep.Load() {
		return
	}
	sp.counted.Add(-int64(cap(w)) * 8)
	sp.mem.Release(int64(cap(w)) * 8)
	sp.mem.discard(w)
}

// Keep makes Give leave the words it is given in place, still counted as
// used, for the pass after this one to Reuse. Pages given back to the
// kernel cost the pass that takes them again a fault each, and under a
// hypervisor that takes back the memory its guest frees (a virtio balloon
// that reports free pages) each fault waits for the host to find and
// clear a page: a pass of 8x12 with free ends waited 71 s for 12 GiB of
// tables, where clearing them in place takes a few seconds.
func (sp *Space) Keep() { sp.keep.Store(true) }

// Counted returns the bytes of the space counted as used: those a pass
// after this one takes back when it reuses the space.
func (sp *Space) Counted() int64 { return sp.counted.Load() }

// Reuse makes the space, kept by the pass before (Keep), ready for a new
// pass whose first tables take words words: its bytes no longer counted,
// the first mapping cleared, on workers goroutines, and carved again from
// its start, the others unmapped. A first mapping too small for words
// is unmapped too, and a new one mapped as by NewSpace.
func (sp *Space) Reuse(words, workers int) {
	sp.mem.Release(sp.counted.Swap(0))
	sp.keep.Store(false)
	if len(sp.chunks) == 0 || len(sp.chunks[0]) < words || words == 0 {
		sp.Free()
		if words > 0 {
			if w, err := allocHuge(words); err == nil {
				sp.chunks, sp.rest = append(sp.chunks, w), w
			}
		}
		return
	}
	first := sp.chunks[0]
	for _, w := range sp.chunks[1:] {
		sp.mem.unmap(w)
	}
	sp.chunks = sp.chunks[:1]
	// The part past words is not handed out again before a Reuse clears
	// it: its pages go back to the kernel.
	if past := (words + PageWords - 1) / PageWords * PageWords; past < len(first) {
		sp.mem.discard(first[past:])
	}
	sp.rest = first[:words:words]
	const piece = spaceChunk // a piece of clearing for a worker
	pieces := (words + piece - 1) / piece
	_ = pool.Run(context.Background(), workers, pieces, func(_, i int) error {
		clear(first[i*piece : min((i+1)*piece, words)])
		return nil
	})
}

// Free unmaps the whole space, once nothing in it is used, and releases
// what the pass before kept counted (Keep).
func (sp *Space) Free() {
	sp.mem.Release(sp.counted.Swap(0))
	for _, w := range sp.chunks {
		sp.mem.unmap(w)
	}
	sp.chunks, sp.rest = nil, nil
}
