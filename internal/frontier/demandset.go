package frontier

import (
	"context"
	"math/bits"
)

// A demandSet is the set of a square's demands in the demand passes: the
// demands seen so far going forward, or those viable after the square
// going back. Where the bits of every demand the board could have fit
// the memory limit at ease (4 z-states, times 2 with a pair of starts,
// times 3 needs for each square of the window: 21.5 MB on 8 rows, 194 or
// 387 MB on 9), it is a bit for each, by the demand's number in base 3
// (demandSet.code): a look-up is three reads of a small table and one of
// the bits, where a hash set hashes the demand and reads a slot of a
// table far larger than the processor's caches. Elsewhere it is a
// keyShards.
//
// Either way the set is in keyParts parts that workers fill at once, each
// its own: by hash in a keyShards, by range of codes in the bits, so
// that no two workers write the same word.
type demandSet struct {
	f *board
	// bits holds a bit for each demand code, where dense; stale says they
	// are still those of the square before, cleared part by part as fill
	// writes the part. dirty says which blocks of bits hold some: clearing
	// only those, small boards do not clear megabytes at every square.
	bits       []uint64
	dirty      []bool
	stale      bool
	zPlace     uint64 // 3^slots, the place of the z-state in a code
	partShift  uint   // a code shifted by it is its part
	blockShift uint   // a code shifted by it is its block: a part holds whole blocks
	sparse     keyShards
}

// denseShare is the most of the memory limit a dense demandSet takes, a
// sixteenth: the passes hold the lists of a square's demands and, going
// back, the filters beside it. A keyShards' size follows the demands that
// occur, which on small boards are far fewer than the bits.
const denseShare = 16

// newDemandSet returns an empty set for the demands of the count's board,
// with the pair bit (counter.pairBit) among them where it has a pair.
func (r *counter) newDemandSet() *demandSet {
	f := r.f
	s := &demandSet{f: f, zPlace: 1}
	for range f.slots {
		s.zPlace *= 3
	}
	zStates := uint64(4)
	if r.paired {
		zStates = 8 // the pair bit is the z-state's third
	}
	if n := zStates * s.zPlace; int64(n/8) <= r.mem.Limit()/denseShare && !r.cfg.sparseDemands {
		s.bits = make([]uint64, (n+63)/64)
		s.partShift = uint(max(6, bits.Len64(n-1)-keyPartBits))
		s.blockShift = min(s.partShift, 6+9) // blocks of up to 512 words
		s.dirty = make([]bool, n>>s.blockShift+1)
	}
	return s
}

// code returns the number of demand d among all of the board's: its
// squares' needs (0, 1 or 2 more edges) as base-3 digits, the first
// square the lowest, below its z-state (with the pair bit).
func (s *demandSet) code(d uint64) uint64 {
	one, two, z := s.f.unpackDemand(d)
	return uint64(z)*s.zPlace + needsCode(one, two)
}

// part returns the part of the set that holds d.
func (s *demandSet) part(d uint64) int {
	if s.bits == nil {
		return s.sparse.part(d)
	}
	return int(s.code(d) >> s.partShift)
}

// appendByPart appends d to parts[i], where i is d's part of the set:
// parts are the lists a chunk of work hands to fill.
func (s *demandSet) appendByPart(parts [][]uint64, d uint64) {
	i := s.part(d)
	parts[i] = append(parts[i], d)
}

// reset empties the set and sizes it for about n demands.
func (s *demandSet) reset(n int) {
	if s.bits == nil {
		s.sparse.reset(n)
		return
	}
	s.stale = true
}

// has reports whether d is in the set.
func (s *demandSet) has(d uint64) bool {
	if s.bits == nil {
		return s.sparse.has(d)
	}
	c := s.code(d)
	return !s.stale && s.bits[c>>6]>>(c&63)&1 != 0
}

// add inserts d and reports whether it was new: one demand, where fill
// takes many on many workers.
func (s *demandSet) add(d uint64) bool {
	if s.bits == nil {
		return s.sparse.add(d)
	}
	if s.stale {
		s.clearBlocks(0, len(s.dirty))
		s.stale = false
	}
	return s.set(s.code(d))
}

// set adds the demand of code c and reports whether it was new.
func (s *demandSet) set(c uint64) bool {
	w, bit := &s.bits[c>>6], uint64(1)<<(c&63)
	if *w&bit != 0 {
		return false
	}
	*w |= bit
	s.dirty[c>>s.blockShift] = true
	return true
}

// clearBlocks empties the blocks lo to hi-1 that hold some demand.
func (s *demandSet) clearBlocks(lo, hi int) {
	words := 1 << (s.blockShift - 6)
	for b := lo; b < hi; b++ {
		if s.dirty[b] {
			clear(s.bits[b*words : min(len(s.bits), (b+1)*words)])
			s.dirty[b] = false
		}
	}
}

// fill adds the demands of lists to the set, where lists[j] holds demands
// of part j%keyParts only (appendByPart), a part on each of up to workers
// workers (the worker pool). Unless fresh is nil, it sets fresh[i] to the
// demands new to part i, in the order of lists, reusing its array: the
// same whatever the number of workers. It stops early if ctx is done.
func (s *demandSet) fill(ctx context.Context, workers int, lists [][]uint64, fresh *[keyParts][]uint64) error {
	if s.bits == nil {
		return s.sparse.fill(ctx, workers, lists, fresh)
	}
	err := fillParts(ctx, workers, lists, fresh, func(i int) {
		if s.stale {
			per := 1 << (s.partShift - s.blockShift) // blocks a part
			s.clearBlocks(min(len(s.dirty), i*per), min(len(s.dirty), (i+1)*per))
		}
	}, func(_ int, piece, out []uint64, keep bool) []uint64 {
		for _, d := range piece {
			if s.set(s.code(d)) && keep {
				out = append(out, d)
			}
		}
		return out
	})
	if err == nil {
		s.stale = false
	}
	return err
}
