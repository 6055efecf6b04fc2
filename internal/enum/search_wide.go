package enum

import (
	"math/bits"
	"sync/atomic"
)

// wideSearch is the search for boards of more than 64 squares. It keeps
// each square's number of unvisited neighbours up to date as the knight
// moves, and the set of unvisited squares with at most one, from which it
// applies the same pruning as graph.moves. It is slower than bitSearch but
// has no size limit, and since it derives the rules a second way the tests
// run it on small boards too, as a cross-check.
type wideSearch struct {
	g        *Graph
	stop     *atomic.Bool
	visited  []bool
	degree   []int8   // unvisited neighbours of every square
	low      []uint64 // unvisited squares with degree <= 1
	lowCount int
	outer    int // unvisited outer squares, on boards with 4 rows or columns
	path     []uint16
	left     []uint8  // neighbour slots still to try from path[d]
	ends     []uint16 // squares a tour may end on; nil: any
	endOK    []bool
}

func newWideSearch(g *Graph, stop *atomic.Bool, ends []uint16) *wideSearch {
	s := &wideSearch{
		g:       g,
		stop:    stop,
		visited: make([]bool, g.n),
		degree:  make([]int8, g.n),
		low:     make([]uint64, (g.n+63)/64),
		path:    make([]uint16, g.n),
		left:    make([]uint8, g.n),
		ends:    ends,
		endOK:   make([]bool, g.n),
	}
	for sq := range s.endOK {
		s.endOK[sq] = ends == nil
	}
	for _, sq := range ends {
		s.endOK[sq] = true
	}
	return s
}

func (s *wideSearch) reset(prefix []uint16) {
	clear(s.visited)
	clear(s.low)
	s.lowCount = 0
	s.outer = 0
	for _, out := range s.g.isOuter {
		if out {
			s.outer++
		}
	}
	for sq := range s.g.n {
		s.degree[sq] = int8(s.g.next[sq].n)
	}
	for sq := range s.g.n {
		if s.degree[sq] <= 1 {
			s.addLow(uint16(sq))
		}
	}
	for _, sq := range prefix {
		s.enter(sq)
	}
	copy(s.path, prefix)
}

func (s *wideSearch) addLow(sq uint16) {
	s.low[sq/64] |= 1 << (sq % 64)
	s.lowCount++
}

func (s *wideSearch) dropLow(sq uint16) {
	s.low[sq/64] &^= 1 << (sq % 64)
	s.lowCount--
}

func (s *wideSearch) enter(t uint16) {
	s.visited[t] = true
	if s.g.isOuter != nil && s.g.isOuter[t] {
		s.outer--
	}
	if s.degree[t] <= 1 {
		s.dropLow(t)
	}
	nb := &s.g.next[t]
	for _, v := range nb.sq[:nb.n] {
		s.degree[v]--
		if !s.visited[v] && s.degree[v] == 1 {
			s.addLow(v)
		}
	}
}

func (s *wideSearch) leave(t uint16) {
	nb := &s.g.next[t]
	for _, v := range nb.sq[:nb.n] {
		if !s.visited[v] && s.degree[v] == 1 {
			s.dropLow(v)
		}
		s.degree[v]++
	}
	s.visited[t] = false
	if s.g.isOuter != nil && s.g.isOuter[t] {
		s.outer++
	}
	if s.degree[t] <= 1 {
		s.addLow(t)
	}
}

// moves returns the neighbour slots of cur worth trying when k >= 1 squares
// are unvisited; see graph.moves for the rules.
func (s *wideSearch) moves(cur uint16, k int) uint8 {
	nb := &s.g.next[cur]
	endColour := s.g.colour[cur] ^ uint8(k&1)
	canEnd := func(v uint16) bool { return s.endOK[v] && s.g.colour[v] == endColour }
	var adj uint8
	for i, v := range nb.sq[:nb.n] {
		if !s.visited[v] && (k > 1 || canEnd(v)) {
			adj |= 1 << i
		}
	}
	if k == 1 || adj == 0 {
		return adj
	}
	if s.g.isOuter != nil { // the outer rows must alternate with the inner ones; see graph.moves
		in := k - s.outer
		switch {
		case s.g.isOuter[cur] && s.outer > in, s.outer > in+1:
			return 0
		case s.outer > in: // the next square must be an outer one
			for i, v := range nb.sq[:nb.n] {
				if !s.g.isOuter[v] {
					adj &^= 1 << i
				}
			}
			if adj == 0 {
				return 0
			}
		}
	}
	if s.ends != nil {
		open := false
		for _, v := range s.ends {
			open = open || !s.visited[v]
		}
		if !open {
			return 0
		}
	}
	if s.lowCount == 0 {
		return adj
	}
	if s.lowCount > 3 { // at most u1, a second square next to cur, and uk
		return 0
	}
	var first, must uint8 // low squares next to cur; those of them that cannot end
	var firstCount, mustCount, lastCount int
	seen := 0
	for w := 0; seen < s.lowCount; w++ {
		for word := s.low[w]; word != 0; word &= word - 1 {
			v := uint16(w*64 + bits.TrailingZeros64(word))
			seen++
			if s.degree[v] == 0 {
				return 0
			}
			slot := -1 // v's position among the jumps cur may take, if any
			for i, u := range nb.sq[:nb.n] {
				if u == v && adj&(1<<i) != 0 {
					slot = i
				}
			}
			switch {
			case slot < 0:
				lastCount++
				if lastCount > 1 || !canEnd(v) {
					return 0
				}
			case !canEnd(v):
				first |= 1 << slot
				must |= 1 << slot
				firstCount++
				mustCount++
			default:
				first |= 1 << slot
				firstCount++
			}
		}
	}
	switch {
	case lastCount == 1:
		if firstCount > 1 {
			return 0
		}
		if firstCount == 1 {
			return first
		}
		return adj
	case mustCount > 1 || mustCount == 1 && firstCount > 2:
		return 0
	case mustCount == 1:
		return must
	case firstCount == 1:
		return adj
	case firstCount == 2:
		return first
	}
	return 0
}

func (s *wideSearch) next(dst, prefix []uint16) []uint16 {
	k := s.g.n - len(prefix)
	if k == 0 || len(prefix) == 1 && !s.g.balanced(prefix) {
		return dst
	}
	s.reset(prefix)
	cur := prefix[len(prefix)-1]
	m := s.moves(cur, k)
	nb := &s.g.next[cur]
	for i, t := range nb.sq[:nb.n] {
		if m&(1<<i) != 0 {
			dst = append(dst, t)
		}
	}
	return dst
}

func (s *wideSearch) search(prefix []uint16, emit func([]uint16) bool, budget uint64) (tours, nodes uint64, ok bool) {
	n := s.g.n
	base := len(prefix) - 1
	nodes = 1
	if base == 0 && base < n-1 && !s.g.balanced(prefix) {
		return 0, 1, true
	}
	s.reset(prefix)
	if base == n-1 {
		return 1, 1, emit == nil || emit(s.path)
	}
	d := base
	s.left[d] = s.moves(s.path[d], n-1-d)
	for {
		left := s.left[d]
		if left == 0 {
			if d == base {
				return tours, nodes, true
			}
			s.leave(s.path[d])
			d--
			continue
		}
		i := bits.TrailingZeros8(left)
		s.left[d] = left &^ (1 << i)
		t := s.g.next[s.path[d]].sq[i]

		d++
		s.path[d] = t
		s.enter(t)
		nodes++
		if nodes%stopEvery == 0 && (s.stop.Load() || nodes >= budget) {
			return tours, nodes, false
		}
		if k := n - 1 - d; k > 0 {
			s.left[d] = s.moves(t, k)
			continue
		}
		tours++
		if emit != nil && !emit(s.path) {
			return tours, nodes, false
		}
		s.leave(t)
		d--
	}
}
