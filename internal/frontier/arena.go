package frontier

import (
	"sync"
	"sync/atomic"
)

// An arena hands out the dense groups of the layers from large slabs of
// mapped memory, so that a step with tens of thousands of groups makes a
// few dozen system calls instead of one per group, and a slab goes back to
// the kernel as soon as the last of its groups is freed. Groups are carved
// in the order the step packs them and freed in about the same order by
// the next step, so slabs empty one after another.
type arena struct {
	mem *memory
	mu  sync.Mutex
	cur *slab // the slab being carved; nil before the first group
	// slabWords is the size of the next slabs: at most 8 MiB, and less
	// for small layers, so that the slabs left partly filled at the end
	// of each layer do not weigh on it.
	slabWords int
	// room is what the arena's slabs leave below the memory limit: the
	// bin pool's leave room for the merge buffers (see binPool.leave).
	room int64
	// carving holds each worker's own slab being carved (carve).
	carving []*slab
}

// maxSlabWords and minSlabWords bound the size of a slab: 8 MiB and 256
// KiB.
const (
	maxSlabWords = 1 << 20
	minSlabWords = 1 << 15
)

// sizeFor sets the size of the slabs for a layer of about this many words.
func (a *arena) sizeFor(words int) {
	a.mu.Lock()
	a.slabWords = min(maxSlabWords, max(minSlabWords, words/32))
	a.mu.Unlock()
}

type slab struct {
	words  []uint64 // from allocWords
	used   int      // words carved
	live   atomic.Int32
	sealed bool // no more groups will be carved from it (under arena.mu)
	freed  bool // (under arena.mu)
}

// A group is a run of dense entries of a layer: in memory, in a slab, or
// on disk, in a layer file (disk.go).
type group struct {
	entries []uint64 // in memory
	slab    *slab
	file    *layerFile // on disk, from byte off
	off     int64
	words   int // the group's size, in memory or on disk
	// blocks, for a compact group on disk (compact.go), holds where each
	// block of chunkStates states begins in the file, and where the last
	// one ends.
	blocks []int64
	// kinds is what its states hold at each window position, on packed
	// boards (kindSet), for the passes of the next step to skip the group
	// where it holds none of their classes; zero where not known.
	kinds kindSet
}

// alloc returns a group of n words, not zeroed where the slab is a spare
// one (see memory.recycle); false if it would pass the memory limit. A
// group larger than a quarter slab gets a slab of its own.
func (a *arena) alloc(n int) (group, bool) {
	if n == 0 {
		return group{}, true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.slabWords == 0 {
		a.slabWords = minSlabWords
	}
	if n > a.slabWords/4 {
		s, ok := a.newSlab(n, n)
		if !ok {
			return group{}, false
		}
		s.sealed = true
		s.used = n
		s.live.Store(1)
		return group{entries: s.words[:n:n], slab: s, words: n}, true
	}
	return a.cut(&a.cur, n)
}

// cut carves a group of n words from the slab *cur, which a new slab
// replaces, the old one sealed, where it lacks the room; under a.mu.
func (a *arena) cut(cur **slab, n int) (group, bool) {
	if a.slabWords == 0 {
		a.slabWords = minSlabWords
	}
	s := *cur
	if s == nil || s.used+n > len(s.words) {
		ns, ok := a.newSlab(a.slabWords, n)
		if !ok {
			return group{}, false
		}
		a.seal(s)
		s, *cur = ns, ns
	}
	g := group{entries: s.words[s.used : s.used+n : s.used+n], slab: s, words: n}
	s.used += n
	s.live.Add(1)
	return g, true
}

// carve returns a group of n words for worker wi, from a slab of the
// worker's own, which the worker may then trim: a buffered step merges
// each group of the next layer into a group carved as large as its
// unmerged states, and gives back what the merge did not fill, instead of
// merging into a buffer and copying (7x7 from the corner on one worker:
// 2 to 4% less time, four runs each). false if it would pass the memory
// limit; n is at most carvable().
func (a *arena) carve(wi, n int) (group, bool) {
	if n == 0 {
		return group{}, true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for len(a.carving) <= wi {
		a.carving = append(a.carving, nil)
	}
	return a.cut(&a.carving[wi], n)
}

// carvable returns the largest group carve hands out: a quarter slab, as
// alloc carves no larger from a shared one.
func (a *arena) carvable() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return max(a.slabWords, minSlabWords) / 4
}

// trim shrinks g, the group worker wi carved last, to its first n words,
// and gives the rest back to the worker's slab.
func (a *arena) trim(wi int, g *group, n int) {
	if n == g.words {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.carving[wi]
	s.used -= g.words - n
	if n == 0 {
		s.live.Add(-1)
		*g = group{}
		return
	}
	g.entries, g.words = g.entries[:n:n], n
}

// seal marks a slab that no more groups will be carved from, and returns
// it if none of its groups is left; under a.mu.
func (a *arena) seal(s *slab) {
	if s == nil {
		return
	}
	s.sealed = true
	if s.live.Load() == 0 {
		a.unmap(s)
	}
}

// newSlab returns a slab of the given size, or a spare one of at least
// least words (see memory.recycle).
func (a *arena) newSlab(words, least int) (*slab, bool) {
	if w := a.mem.reuse(least); w != nil {
		return &slab{words: w[:cap(w)]}, true
	}
	w, ok := a.mem.allocLeaving(words, a.room)
	if !ok {
		return nil, false
	}
	return &slab{words: w}, true
}

// dropEmptyCur returns the slab being carved if none of its groups is
// left: a slab is otherwise returned only once sealed.
func (a *arena) dropEmptyCur() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.cur; s != nil && s.live.Load() == 0 {
		s.sealed = true
		a.unmap(s)
		a.cur = nil
	}
}

// unmap returns a sealed, empty slab's memory; under a.mu.
func (a *arena) unmap(s *slab) {
	if s.freed {
		return
	}
	s.freed = true
	a.mem.keep(s.words)
	s.words = nil
}

// free gives a group back; its slab goes when it is sealed and empty.
func (a *arena) free(g group) {
	s := g.slab
	if s == nil || s.live.Add(-1) != 0 {
		return
	}
	a.mu.Lock()
	if s.sealed && s.live.Load() == 0 {
		a.unmap(s)
	}
	a.mu.Unlock()
}

// release unmaps the slabs being carved, once no layer holds groups of
// them: at the end of a count.
func (a *arena) release() {
	a.mu.Lock()
	a.seal(a.cur)
	a.cur = nil
	for i, s := range a.carving {
		a.seal(s)
		a.carving[i] = nil
	}
	a.mu.Unlock()
}

// A kindSet tells which kinds (see kind) the states of a group hold at
// each window position: bit 4p+k (3p+k where keys are digits, see
// board.kindBits) is set where some state has kind k at position p. A group of a buffered step holds the states
// of a few demands (grouping), which share their kinds, so most groups
// hold only a few classes of the next step's passes, and a pass skips the
// groups that hold none of its own without reading them. Without it a
// pass read and decoded most of the layer from disk (12 GB at the widest
// square of 8x10 from the corner, about 30 s), whatever its share: 7x7
// from the corner by the narrow sweep, in passes of a tenth of a layer,
// skipped 46% of the pieces of the layers it read by classParts alone,
// and skips 81% with the kinds. The zero kindSet is unknown: a group held
// in memory, or one of a checkpoint from before kinds were recorded.
type kindSet uint64
