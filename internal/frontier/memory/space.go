package memory

import "sync"

// A Space holds the tables of one pass of the lean step. The tables lie
// side by side in large mappings, where huge pages spare the processor a
// miss in its page tables on nearly every probe (as mappings of their
// own, most would be too small for huge pages), and where the kernel's
// limit on a process's mappings (vm.max_map_count, 65530 by default) is
// never near: a pass has up to 2^18 tables, and a mapping cut in two by
// freeing one table in its middle counts as two. A table that grows takes
// new pages from the end of the space; the pages it leaves, and those of
// every table packed, go back to the kernel at once but stay mapped (see
// discardWords), and the pass unmaps the whole space when it is done.
type Space struct {
	mem    *Budget
	mu     sync.Mutex
	chunks [][]uint64 // the mappings
	rest   []uint64   // the part of the last not carved yet
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
	return w, true
}

// Give returns words from Alloc.
func (sp *Space) Give(w []uint64) {
	sp.mem.Release(int64(cap(w)) * 8)
	sp.mem.discard(w)
}

// Free unmaps the whole space, once nothing in it is used.
func (sp *Space) Free() {
	for _, w := range sp.chunks {
		sp.mem.unmap(w)
	}
	sp.chunks, sp.rest = nil, nil
}
