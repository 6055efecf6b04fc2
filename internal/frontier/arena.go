package frontier

import (
	"sync"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/frontier/memory"
)

// An arena hands out the dense groups of the layers from large slabs of
// mapped memory, so that a step with tens of thousands of groups makes a
// few dozen system calls instead of one per group, and a slab goes back to
// the kernel as soon as the last of its groups is freed. Groups are carved
// in the order the step packs them and freed in about the same order by
// the next step, so slabs empty one after another.
//
// No system call is made under mu: the kernel takes a millisecond or more
// to map and fill a slab of 8 MiB, or to unmap one, and every other
// worker that carves or frees a group would wait for it: on 7x7 from the
// corner, 0.23 s over the count (count -trace, then go tool trace
// -pprof=sync), and on many cores every worker at each slab.
type arena struct {
	mem *memory.Budget
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
	words  []uint64 // from AllocWords
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
	// blocks, for a compact group on disk (package compact), holds where each
	// block of chunkStates states begins in the file, and where the last
	// one ends.
	blocks []int64
	// kinds is what its states hold at each window position, on packed
	// boards (kindSet), for the passes of the next step to skip the group
	// where it holds none of their classes; zero where not known.
	kinds kindSet
	// crc is the CRC-32C of the group's bytes on disk, where summed says
	// it is known (as it is of a group written by this count): a group
	// whose disk a step gives back changes its file's CRC by it
	// (giveback.go).
	crc    uint32
	summed bool
}

// alloc returns a group of n words, not zeroed where the slab is a spare
// one (see memory.Budget.StartRecycling); false if it would pass the memory limit. A
// group larger than a quarter slab gets a slab of its own.
func (a *arena) alloc(n int) (group, bool) {
	if n == 0 {
		return group{}, true
	}
	a.mu.Lock()
	if a.slabWords == 0 {
		a.slabWords = minSlabWords
	}
	if n > a.slabWords/4 {
		room := a.room
		a.mu.Unlock()
		s, ok := a.newSlab(n, n, room)
		if !ok {
			return group{}, false
		}
		s.sealed = true
		s.used = n
		s.live.Store(1)
		return group{entries: s.words[:n:n], slab: s, words: n}, true
	}
	return a.cut(sharedSlab, n)
}

// sharedSlab names, for cut, the slab that alloc carves from, which all
// workers share; a worker's number names the slab carve carves for it.
const sharedSlab = -1

// slot returns where the slab that cut carves for wi is held; under a.mu,
// as carve may move a.carving.
func (a *arena) slot(wi int) **slab {
	if wi == sharedSlab {
		return &a.cur
	}
	return &a.carving[wi]
}

// cut carves a group of n words from the slab of wi (slot), which a new
// slab replaces, the old one sealed, where it lacks the room. It is
// called under a.mu and lets go of it, also while it maps the new slab.
func (a *arena) cut(wi, n int) (group, bool) {
	if a.slabWords == 0 {
		a.slabWords = minSlabWords
	}
	s := *a.slot(wi)
	var empty []uint64
	if s == nil || s.used+n > len(s.words) {
		words, room := a.slabWords, a.room
		a.mu.Unlock()
		ns, ok := a.newSlab(words, n, room)
		a.mu.Lock()
		if !ok {
			a.mu.Unlock()
			return group{}, false
		}
		cur := a.slot(wi)
		if s = *cur; s != nil && s.used+n <= len(s.words) {
			// Another worker put a slab of its own in the shared one's
			// place meanwhile: this one is not needed.
			empty = ns.words
		} else {
			empty = a.seal(s)
			s, *cur = ns, ns
		}
	}
	g := group{entries: s.words[s.used : s.used+n : s.used+n], slab: s, words: n}
	s.used += n
	s.live.Add(1)
	a.mu.Unlock()
	a.giveBack(empty)
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
	for len(a.carving) <= wi {
		a.carving = append(a.carving, nil)
	}
	return a.cut(wi, n)
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

// seal marks a slab that no more groups will be carved from and, if none
// of its groups is left, returns its words for giveBack; under a.mu.
func (a *arena) seal(s *slab) []uint64 {
	if s == nil {
		return nil
	}
	s.sealed = true
	if s.live.Load() == 0 {
		return a.empty(s)
	}
	return nil
}

// newSlab returns a slab of the given size, or a spare one of at least
// least words (see memory.Budget.StartRecycling), that leaves room bytes below the
// memory limit; not under a.mu.
func (a *arena) newSlab(words, least int, room int64) (*slab, bool) {
	if w := a.mem.Reuse(least); w != nil {
		return &slab{words: w[:cap(w)]}, true
	}
	w, ok := a.mem.AllocLeaving(words, room)
	if !ok {
		return nil, false
	}
	return &slab{words: w}, true
}

// dropEmptyCur returns the slab being carved if none of its groups is
// left: a slab is otherwise returned only once sealed.
func (a *arena) dropEmptyCur() {
	a.mu.Lock()
	var w []uint64
	if s := a.cur; s != nil && s.live.Load() == 0 {
		s.sealed = true
		w = a.empty(s)
		a.cur = nil
	}
	a.mu.Unlock()
	a.giveBack(w)
}

// empty marks a sealed slab with no group left as freed and returns its
// words for giveBack, once; under a.mu.
func (a *arena) empty(s *slab) []uint64 {
	if s.freed {
		return nil
	}
	s.freed = true
	w := s.words
	s.words = nil
	return w
}

// giveBack hands the words of slabs no group holds to the memory
// accountant, to keep as spare or give back to the kernel; not under
// a.mu.
func (a *arena) giveBack(w ...[]uint64) {
	for _, w := range w {
		if w != nil {
			a.mem.Keep(w)
		}
	}
}

// free gives a group back; its slab goes when it is sealed and empty.
func (a *arena) free(g group) {
	s := g.slab
	if s == nil || s.live.Add(-1) != 0 {
		return
	}
	a.mu.Lock()
	var w []uint64
	if s.sealed && s.live.Load() == 0 {
		w = a.empty(s)
	}
	a.mu.Unlock()
	a.giveBack(w)
}

// release unmaps the slabs being carved, once no layer holds groups of
// them: at the end of a count.
func (a *arena) release() {
	a.mu.Lock()
	empty := [][]uint64{a.seal(a.cur)}
	a.cur = nil
	for i, s := range a.carving {
		empty = append(empty, a.seal(s))
		a.carving[i] = nil
	}
	a.mu.Unlock()
	a.giveBack(empty...)
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
