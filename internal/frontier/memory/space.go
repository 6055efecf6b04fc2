package memory

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/pool"
)

// A Space holds the tables of a pass of the lean step. The tables lie
// side by side in large mappings, where huge pages spare the processor a
// miss in its page tables on nearly every probe (as mappings of their
// own, most would be too small for huge pages), and where the kernel's
// limit on a process's mappings (vm.max_map_count, 65530 by default) is
// never near: a pass has up to 2^18 tables, and a mapping cut in two by
// freeing one table in its middle counts as two. A table that grows takes
// new pages from the end of the space; the pages it leaves, and those of
// every table packed, go back to the kernel at once but stay mapped (see
// discardWords), unless the space is kept for the next pass (Keep); Free
// unmaps the whole space.
type Space struct {
	mem     *Budget
	workers int
	mu      sync.Mutex
	chunks  [][]uint64 // the mappings
	rest    []uint64   // the part of the last not carved yet
	// carved is the words at the start of the first mapping handed out
	// since the space was last made ready, and dirty, where more, those
	// that may not be zeros all the same (a smaller pass's, past its own
	// tables, where discardWords leaves words as they are): Ready clears
	// them for the next pass. Those past both are zeros, given back to
	// the kernel or never touched.
	carved, dirty int
	// zeroes says that words discardWords gives back read as zeros
	// (discardZeroes; tests set it false to check where they do not).
	zeroes bool
	// counted is the bytes Alloc counted as used that Give has not
	// released; keep makes Give leave them counted and the pages in place.
	counted atomic.Int64
	keep    atomic.Bool
}

// spaceChunk is the words a space maps at a time for the tables that
// grow: large enough for huge pages, small next to a pass. The mapping
// of a pass's first tables is faulted in and cleared a piece of this
// size at a time too.
const spaceChunk = 64 << 20 / 8

// PageWords is the words of a page of memory: tables take whole pages,
// so that each can give its own back.
const PageWords = 4096 / 8

// hugeWords is the size from which memory is mapped in huge pages where
// the kernel has them (AllocWords, allocHuge): 4 MiB.
const hugeWords = 4 << 20 / 8

// NewSpace returns an empty space whose memory counts against mem, which
// workers goroutines make ready for each pass (Ready).
func NewSpace(mem *Budget, workers int) *Space {
	return &Space{mem: mem, workers: max(1, workers), zeroes: discardZeroes}
}

// Ready makes the space ready for a pass whose first tables take words
// words, carved from its start: one mapping, faulted in whole before the
// pass's first state, as the tables fill it from their first states on.
// Where the pass before kept the space (Keep), what it counted is
// released, and its first mapping, if large enough, is cleared in place
// and the others unmapped: a fault costs far more than clearing a page,
// the more so under a hypervisor that takes back the memory its guest
// frees (a virtio balloon that reports free pages), where each fault
// waits for the host to find and clear a page. Otherwise the space is
// mapped anew. Once ctx is done, what is left to fault in faults in at
// its first touch, so that a count that is stopped does not wait
// minutes for it; what is left to clear is cleared all the same.
func (sp *Space) Ready(ctx context.Context, words int) {
	sp.mem.Release(sp.counted.Swap(0))
	sp.keep.Store(false)
	words = (words + PageWords - 1) / PageWords * PageWords // whole pages, as discardWords takes them
	if words == 0 || len(sp.chunks) == 0 || len(sp.chunks[0]) < words {
		sp.unmapAll()
		if words > 0 {
			if w, err := allocHuge(ctx, words, sp.workers); err == nil {
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
	dirty := max(sp.dirty, sp.carved) // the words of first that may not be zeros
	cleared := min(words, dirty)
	_ = pool.Run(context.Background(), sp.workers, pieces(cleared), func(_, i int) error {
		clear(first[i*spaceChunk : min((i+1)*spaceChunk, cleared)])
		return nil
	})
	faultIn(ctx, first[cleared:words], sp.workers) // zeros, given back or never touched
	sp.dirty = 0
	if dirty > words { // not handed out before a pass clears them
		if sp.zeroes {
			discardWords(first[words:dirty])
		} else {
			sp.dirty = dirty
		}
	}
	sp.rest, sp.carved = first[:words:words], 0
}

// pieces returns the pieces of spaceChunk words that words words make.
func pieces(words int) int { return (words + spaceChunk - 1) / spaceChunk }

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
	if len(sp.chunks) == 1 { // carved from the first mapping
		sp.carved += n
	}
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
// used, for the next pass, which Ready clears in place: for a step made
// in passes whose new states go to disk, where the memory the tables of a
// pass leave has nothing else to hold until the next pass takes it.
func (sp *Space) Keep() { sp.keep.Store(true) }

// Counted returns the bytes of the space counted as used: those the next
// pass takes back when Ready reuses the space.
func (sp *Space) Counted() int64 { return sp.counted.Load() }

// Free releases what the space counted and unmaps the whole of it, once
// nothing in it is used.
func (sp *Space) Free() {
	sp.mem.Release(sp.counted.Swap(0))
	sp.unmapAll()
}

func (sp *Space) unmapAll() {
	for _, w := range sp.chunks {
		sp.mem.unmap(w)
	}
	sp.chunks, sp.rest, sp.carved, sp.dirty = nil, nil, 0, 0
}
