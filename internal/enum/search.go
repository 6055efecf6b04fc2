package enum

import (
	"math/bits"
	"sync/atomic"
)

// searcher walks the tours that extend one prefix, depth first in move
// order. Each worker owns one, so its state is never shared.
type searcher interface {
	// search calls emit (when not nil) with every tour that starts with
	// prefix, in order. It returns the tours found and the nodes entered
	// (the prefix's last square counts as one), and ok = false if it
	// stopped early: emit returned false, stop was set, or it entered about
	// budget nodes.
	search(prefix []uint16, emit func([]uint16) bool, budget uint64) (tours, nodes uint64, ok bool)
	// next appends to dst the squares the search would try after prefix,
	// in order, with the same pruning; nothing when the prefix is dead.
	next(dst, prefix []uint16) []uint16
}

// stopEvery is how many nodes a search enters between looks at its stop
// flag: often enough to stop within microseconds, rarely enough to cost
// nothing.
const stopEvery = 1 << 12

// newSearcher returns the fastest searcher for g. Tours must end on one of
// ends (nil: anywhere).
func newSearcher(g *Graph, stop *atomic.Bool, ends []uint16) searcher {
	if g.adj != nil { // the bitboard tables exist for boards of up to 64 squares
		s := &bitSearch{g: g, stop: stop, ends: g.full}
		if ends != nil {
			s.ends = 0
			for _, sq := range ends {
				s.ends |= 1 << sq
			}
		}
		return s
	}
	return newWideSearch(g, stop, ends)
}

// bitSearch is the search for boards of at most 64 squares: the unvisited
// squares are one uint64 and each node's pruning is a few dozen bitwise
// operations, with no allocation.
type bitSearch struct {
	g    *Graph
	stop *atomic.Bool
	ends uint64 // squares a tour may end on
	path [64]uint16
	low  [64]uint64 // unvisited squares with at most one unvisited neighbour
	left [64]uint8  // positions in path[d]'s neighbour list still to try
}

func (s *bitSearch) freeAfter(prefix []uint16) uint64 {
	free := s.g.full
	for _, sq := range prefix {
		free &^= 1 << sq
	}
	return free
}

func (s *bitSearch) next(dst, prefix []uint16) []uint16 {
	g := s.g
	cur := int(prefix[len(prefix)-1])
	k := g.n - len(prefix)
	if k == 0 || len(prefix) == 1 && !g.balanced(prefix) {
		return dst
	}
	free := s.freeAfter(prefix)
	low, isolated := g.low(free)
	if isolated && k > 1 {
		return dst
	}
	m := g.moves(cur, free, low, s.ends, k)
	for _, t := range g.next[cur].sq[:g.next[cur].n] {
		if m&(1<<t) != 0 {
			dst = append(dst, t)
		}
	}
	return dst
}

// begin readies s to search below prefix and returns the squares left
// free. done reports a prefix that is a whole tour or can become none,
// with the tours it holds and whether emit let the search go on.
func (s *bitSearch) begin(prefix []uint16, emit func([]uint16) bool) (free uint64, done bool, tours uint64, ok bool) {
	g := s.g
	n := g.n
	free = s.freeAfter(prefix)
	base := len(prefix) - 1
	copy(s.path[:], prefix)
	if base == n-1 {
		return free, true, 1, emit == nil || emit(s.path[:n])
	}
	if base == 0 && !g.balanced(prefix) {
		return free, true, 0, true
	}
	low, isolated := g.low(free)
	s.low[base] = low
	s.left[base] = 0
	if !isolated || n-1-base == 1 {
		cur := int(prefix[base])
		s.left[base] = g.slots(cur, g.moves(cur, free, low, s.ends, n-1-base))
	}
	return free, false, 0, true
}

func (s *bitSearch) search(prefix []uint16, emit func([]uint16) bool, budget uint64) (tours, nodes uint64, ok bool) {
	g := s.g
	n := g.n
	free, done, tours, ok := s.begin(prefix, emit)
	if done {
		return tours, 1, ok
	}
	nodes = 1
	base := len(prefix) - 1
	d := base
	for {
		left := s.left[d]
		if left == 0 {
			if d == base {
				return tours, nodes, true
			}
			free |= 1 << s.path[d]
			d--
			continue
		}
		t := g.next[s.path[d]].sq[bits.TrailingZeros8(left)&7]
		s.left[d] = left & (left - 1)

		d++
		s.path[d&63] = t
		free &^= 1 << t
		nodes++
		if nodes%stopEvery == 0 && (s.stop.Load() || nodes >= budget) {
			return tours, nodes, false
		}
		if k := n - 1 - d; k > 0 {
			// Only t's free neighbours lost a neighbour: update low from them.
			low := s.low[(d-1)&63] &^ (1 << t)
			isolated := false
			if k == 1 {
				// The last square: the tour is complete if it is one jump away.
				last := g.adj[t&63] & free & s.ends
				if last == 0 {
					free |= 1 << t
					d--
					continue
				}
				nodes++
				tours++
				s.path[(d+1)&63] = uint16(bits.TrailingZeros64(last))
				if emit != nil && !emit(s.path[:n]) {
					return tours, nodes, false
				}
				free |= 1 << t
				d--
				continue
			}
			if k == 2 {
				// Two squares left: they must be a jump apart, by colour at
				// most one of them is a jump from t, and the other must be
				// allowed to end the tour. Counts the two nodes the full
				// search would enter.
				a := bits.TrailingZeros64(free)
				if x := g.adj[t&63] & free; x != 0 && g.adj[a&63]&free != 0 && (free&^x)&s.ends != 0 {
					nodes += 2
					tours++
					s.path[(d+1)&63] = uint16(bits.TrailingZeros64(x))
					s.path[(d+2)&63] = uint16(bits.TrailingZeros64(free &^ x))
					if emit != nil && !emit(s.path[:n]) {
						return tours, nodes, false
					}
				}
				free |= 1 << t
				d--
				continue
			}
			for nb := g.adj[t&63] & free; nb != 0; nb &= nb - 1 {
				v := bits.TrailingZeros64(nb)
				if x := g.adj[v&63] & free; x&(x-1) == 0 { // at most one neighbour
					low |= 1 << v
					isolated = isolated || x == 0
				}
			}
			s.low[d&63] = low
			if isolated && k > 1 {
				s.left[d&63] = 0
			} else {
				s.left[d&63] = g.slots(int(t), g.moves(int(t), free, low, s.ends, k))
			}
			continue
		}
		tours++
		if emit != nil && !emit(s.path[:n]) {
			return tours, nodes, false
		}
		free |= 1 << t
		d--
	}
}
