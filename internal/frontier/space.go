package frontier

import "sync"

// A space holds the tables of one pass of the lean step. The tables lie
// side by side in large mappings, where huge pages spare the processor a
// miss in its page tables on nearly every probe (as mappings of their
// own, most would be too small for huge pages), and where the kernel's
// limit on a process's mappings (vm.max_map_count, 65530 by default) is
// never near: a pass has up to 2^18 tables, and a mapping cut in two by
// freeing one table in its middle counts as two. A table that grows takes
// new pages from the end of the space; the pages it leaves, and those of
// every table packed, go back to the kernel at once but stay mapped (see
// discardWords), and the pass unmaps the whole space when it is done.
type space struct {
	mem    *memory
	mu     sync.Mutex
	chunks [][]uint64 // the mappings
	rest   []uint64   // the part of the last not carved yet
}

// spaceChunk is the words a space maps at a time for the tables that
// grow: large enough for huge pages, small next to a pass.
const spaceChunk = 64 << 20 / 8

// pageWords is the words of a page of memory: tables take whole pages,
// so that each can give its own back.
const pageWords = 4096 / 8

// newSpace returns a space whose first mapping holds words words, the
// tables the pass starts with.
func newSpace(mem *memory, words int) *space {
	sp := &space{mem: mem}
	if words > 0 {
		// The tables the pass starts with fill their mapping from its
		// first states on: in huge pages at once.
		if w, err := allocHuge(words); err == nil {
			sp.chunks, sp.rest = append(sp.chunks, w), w
		}
	}
	return sp
}

// alloc returns n zeroed words, n a multiple of pageWords, counted as
// used; false if they would pass the memory limit.
func (sp *space) alloc(n int) ([]uint64, bool) {
	if !sp.mem.grab(int64(n) * 8) {
		sp.mem.release(int64(n) * 8)
		return nil, false
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if len(sp.rest) < n {
		w, err := allocWords(max(n, spaceChunk))
		if err != nil {
			sp.mem.release(int64(n) * 8)
			return nil, false
		}
		sp.chunks, sp.rest = append(sp.chunks, w), w
	}
	w := sp.rest[:n:n]
	sp.rest = sp.rest[n:]
	return w, true
}

// give returns words from alloc.
func (sp *space) give(w []uint64) {
	sp.mem.release(int64(cap(w)) * 8)
	sp.mem.discard(w)
}

// free unmaps the whole space, once nothing in it is used.
func (sp *space) free() {
	for _, w := range sp.chunks {
		sp.mem.unmap(w)
	}
	sp.chunks, sp.rest = nil, nil
}
