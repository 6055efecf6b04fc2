package construct

import (
	"math/rand/v2"
	"slices"
)

// A block is a small rectangle of the board, at most maxBlockSide squares a
// side, on which Construct needs a tour with some jumps fixed in advance:
// the ports through which it is joined to its neighbours. blockSearch finds
// such tours by Warnsdorff's rule with backtracking and exact pruning.
const maxBlockSide = 12

// blockSearch looks for a Hamiltonian cycle, or a path from a given square,
// on an h x w board that uses every pinned jump.
type blockSearch struct {
	h, w   int
	nb     [][]int32  // each square's knight neighbours
	pin    [][2]int32 // each square's pinned partners, -1 for none
	seen   []bool
	deg    []int32 // unvisited neighbours, plus the closing jump in a cycle
	path   []int32
	zeros  int // unvisited squares with deg 0
	ones   int // unvisited squares with deg 1
	cycle  bool
	nodes  int
	budget int
	tie    []int32 // among candidates with equal deg, the larger goes first
}

// blockResult says how a block search ended.
type blockResult int

const (
	blockFound     blockResult = iota
	blockNone                  // the search space was exhausted: no such tour
	blockOverspent             // the budget ran out first
)

// jumps are the eight knight jumps in the order the block search tries
// them (the root package's default move order): the table of block tours
// was found in this order, and a change would find others.
var jumps = [8][2]int{{2, 1}, {1, 2}, {-2, 1}, {-1, 2}, {2, -1}, {1, -2}, {-2, -1}, {-1, -2}}

func newBlockSearch(h, w int) *blockSearch {
	n := h * w
	b := &blockSearch{h: h, w: w, nb: make([][]int32, n), pin: make([][2]int32, n),
		seen: make([]bool, n), deg: make([]int32, n), tie: make([]int32, n)}
	for s := range n {
		r, c := s/w, s%w
		for _, m := range jumps {
			if rr, cc := r+m[0], c+m[1]; rr >= 0 && rr < h && cc >= 0 && cc < w {
				b.nb[s] = append(b.nb[s], int32(rr*w+cc))
			}
		}
	}
	return b
}

// find looks for a tour with every jump in pins: a cycle when start < 0,
// else a path from start. Variant v > 0 shuffles Warnsdorff's ties, so
// that a caller can retry a search that overspent. The tour's squares are
// returned in order.
func (b *blockSearch) find(start int, pins [][2]int, v int, budget int) ([]int32, blockResult) {
	n := b.h * b.w
	for s := range n {
		b.pin[s] = [2]int32{-1, -1}
		b.seen[s] = false
	}
	for _, p := range pins {
		for _, e := range [][2]int{{p[0], p[1]}, {p[1], p[0]}} {
			switch {
			case b.pin[e[0]][0] < 0:
				b.pin[e[0]][0] = int32(e[1])
			case b.pin[e[0]][1] < 0:
				b.pin[e[0]][1] = int32(e[1])
			default:
				return nil, blockNone // three jumps pinned at one square
			}
		}
	}
	b.cycle = start < 0
	if b.cycle {
		// A cycle may start anywhere: on a pinned square, leaving by its pin.
		start = 0
		if len(pins) > 0 {
			start = pins[0][0]
		}
	}
	rng := rand.New(rand.NewPCG(uint64(b.h*100+b.w), uint64(v)))
	for s := range n {
		r, c := 2*(s/b.w)-(b.h-1), 2*(s%b.w)-(b.w-1)
		b.tie[s] = int32(r*r + c*c) // Roth: farther from the centre first
		if v > 0 {
			b.tie[s] = rng.Int32N(1 << 20)
		}
	}
	b.zeros, b.ones = 0, 0
	for s := range n {
		b.deg[s] = int32(len(b.nb[s]))
		b.count(s, 1)
	}
	b.path = b.path[:0]
	b.nodes, b.budget = 0, budget
	b.visit(start)
	// A cycle's start leaves by its first pin and is entered by its
	// second, as if from there.
	from := int32(-1)
	if b.cycle {
		from = b.pin[start][1]
	}
	switch {
	case b.dfs(start, from):
		return slices.Clone(b.path), blockFound
	case b.nodes >= b.budget:
		return nil, blockOverspent
	}
	return nil, blockNone
}

// count adds d to the tallies of low-degree squares for unvisited square s.
func (b *blockSearch) count(s int, d int) {
	switch b.deg[s] {
	case 0:
		b.zeros += d
	case 1:
		b.ones += d
	}
}

func (b *blockSearch) visit(s int) {
	b.count(s, -1)
	b.seen[s] = true
	b.path = append(b.path, int32(s))
	if b.cycle && len(b.path) == 1 {
		return // the start stays a neighbour of its neighbours: the closing jump
	}
	for _, t := range b.nb[s] {
		if !b.seen[t] {
			b.count(int(t), -1)
			b.deg[t]--
			b.count(int(t), 1)
		}
	}
}

func (b *blockSearch) leave(s int) {
	for _, t := range b.nb[s] {
		if !b.seen[t] {
			b.count(int(t), -1)
			b.deg[t]++
			b.count(int(t), 1)
		}
	}
	b.seen[s] = false
	b.path = b.path[:len(b.path)-1]
	b.count(s, 1)
}

// fits reports whether the tour may jump from u to t as far as t's pins go:
// a square with two pins takes no other jump.
func (b *blockSearch) fits(u int, t int32) bool {
	p := b.pin[t]
	return p[1] < 0 || p[0] == int32(u) || p[1] == int32(u)
}

// dfs extends the path from u, entered from prev, to a whole tour.
func (b *blockSearch) dfs(u int, prev int32) bool {
	b.nodes++
	if b.nodes >= b.budget {
		return false
	}
	n := b.h * b.w
	first := int(b.path[0])
	left := n - len(b.path) // squares still to visit
	if left == 0 {
		for _, p := range b.pin[u] {
			if p >= 0 && p != prev && !(b.cycle && p == int32(first)) {
				return false
			}
		}
		if !b.cycle {
			return true
		}
		if !isJump(u, first, b.w) {
			return false
		}
		// The start's pins must be its first jump and the closing one.
		for _, p := range b.pin[first] {
			if p >= 0 && p != b.path[1] && p != int32(u) {
				return false
			}
		}
		return true
	}
	// The next square, if a pin names it.
	next := int32(-1)
	for _, p := range b.pin[u] {
		if p >= 0 && p != prev {
			if b.seen[p] || next >= 0 {
				return false
			}
			next = p
		}
	}
	// Exact pruning: an unvisited square that only u can still reach must
	// come next, and be last; one that nothing can reach kills the branch.
	zeros, ones := b.zeros, b.ones
	var cand [8]int32
	k := 0
	for _, t := range b.nb[u] {
		if b.seen[t] {
			continue
		}
		switch b.deg[t] {
		case 0:
			zeros--
			if left > 1 || next >= 0 && next != t {
				return false
			}
			next = t
		case 1:
			ones--
		}
		cand[k] = t
		k++
	}
	if zeros > 0 || b.cycle && ones > 0 || ones > 1 {
		return false
	}
	if next >= 0 {
		cand[0], k = next, 1
		if b.cycle && next == int32(first) { // the closing jump comes last
			return false
		}
	}
	c := cand[:k]
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && b.before(c[j], c[j-1]); j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
	for _, t := range c {
		if !b.fits(u, t) {
			continue
		}
		b.visit(int(t))
		if b.dfs(int(t), int32(u)) {
			return true
		}
		b.leave(int(t))
		if b.nodes >= b.budget {
			return false
		}
	}
	return false
}

func (b *blockSearch) before(x, y int32) bool {
	if b.deg[x] != b.deg[y] {
		return b.deg[x] < b.deg[y]
	}
	return b.tie[x] > b.tie[y]
}

// isJump reports whether squares a and b of a board w wide are a knight's
// jump apart.
func isJump(a, b, w int) bool {
	return jump(a, b, w)
}

// resize makes b a search of an h x w block.
func (b *blockSearch) resize(h, w int) {
	if b.h != h || b.w != w {
		*b = *newBlockSearch(h, w)
	}
}
