package enum

import "math/bits"

// Graph is the knight graph of one board under one move order, built once
// per search so that the search only looks things up.
type Graph struct {
	rows, cols, n int
	next          []neighbours // jumps from each square, in move order
	colour        []uint8      // (row+col) % 2: the knight graph is bipartite
	isOuter       []bool       // on 4-row (or 4-column) boards the two outer rows; else nil

	// Bitboard tables, filled only when n <= 64.
	full    uint64          // all squares
	adj     *[64]uint64     // neighbours of each square
	colours [2]uint64       // squares of colour 0 and 1
	shifts  [8]shift        // one per jump, to count neighbours of all squares at once
	outer   uint64          // on 4-row (or 4-column) boards the two outer rows, else 0
	slotOf  *[64 * 64]uint8 // slotOf[s*64+t]: position of t in s's neighbour list
}

// neighbours lists the squares one jump away from a square, in move order.
type neighbours struct {
	sq [8]uint16
	n  uint8
}

// shift moves a whole bitboard by one knight jump: bit s of
// (board >> by) & from (or << -by) is set when square s can jump, in this
// direction, onto a square of the board.
type shift struct {
	by   int
	from uint64
}

// Jump is one knight move: DRow rows down and DCol columns right.
type Jump struct{ DRow, DCol int }

// jumps are the knight's eight moves, in no order that matters: the
// bitboard shifts need one each.
var jumps = [8]Jump{{-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}}

// on reports whether square (r, c) lies on the board.
func (g *Graph) on(r, c int) bool { return r >= 0 && r < g.rows && c >= 0 && c < g.cols }

// NewGraph returns the knight graph of a rows x cols board whose square s
// is row s/cols, column s%cols, with each square's jumps in order (the
// caller's move order: eight distinct knight moves).
func NewGraph(rows, cols int, order []Jump) *Graph {
	n := rows * cols
	g := &Graph{rows: rows, cols: cols, n: n, next: make([]neighbours, n), colour: make([]uint8, n)}
	for s := range n {
		r, c := s/cols, s%cols
		g.colour[s] = uint8((r + c) & 1)
		for _, m := range order {
			if g.on(r+m.DRow, c+m.DCol) {
				g.next[s].sq[g.next[s].n] = uint16((r+m.DRow)*cols + c + m.DCol)
				g.next[s].n++
			}
		}
	}
	if rows == 4 || cols == 4 {
		g.isOuter = make([]bool, n)
		for s := range n {
			r, c := s/cols, s%cols
			g.isOuter[s] = rows == 4 && (r == 0 || r == 3) || rows != 4 && (c == 0 || c == 3)
		}
	}
	if n > 64 {
		return g
	}
	g.full = ^uint64(0) >> (64 - n)
	g.adj = new([64]uint64)
	g.slotOf = new([64 * 64]uint8)
	for s := range n {
		for i, t := range g.next[s].sq[:g.next[s].n] {
			g.adj[s] |= 1 << t
			g.slotOf[s*64+int(t)] = uint8(i)
		}
		g.colours[g.colour[s]] |= 1 << s
	}
	for s, out := range g.isOuter {
		if out {
			g.outer |= 1 << s
		}
	}
	for i, m := range jumps {
		g.shifts[i].by = m.DRow*cols + m.DCol
		for s := range n {
			if g.on(s/cols+m.DRow, s%cols+m.DCol) {
				g.shifts[i].from |= 1 << s
			}
		}
	}
	return g
}

// Squares returns the number of squares of the board.
func (g *Graph) Squares() int { return g.n }

// Jumps returns the squares one jump from square s, in move order. The
// slice is the graph's: do not change it.
func (g *Graph) Jumps(s uint16) []uint16 { return g.next[s].sq[:g.next[s].n] }

// WideOnly returns a copy of g without the bitboard tables, so that the
// wide engine searches it whatever its size: for tests that hold the two
// engines against each other.
func (g *Graph) WideOnly() *Graph {
	return &Graph{rows: g.rows, cols: g.cols, n: g.n, next: g.next, colour: g.colour, isOuter: g.isOuter}
}

// balanced reports whether the unvisited squares can be walked as one path
// starting next to cur: the path alternates colours and begins on the colour
// opposite to cur, so that colour must hold ceil(k/2) of the k squares. The
// count never changes along a path, so the search tests it once, at its root.
func (g *Graph) balanced(path []uint16) bool {
	var count [2]int
	seen := make([]bool, g.n)
	for _, s := range path {
		seen[s] = true
	}
	for s := range g.n {
		if !seen[s] {
			count[g.colour[s]]++
		}
	}
	k := count[0] + count[1]
	opposite := g.colour[path[len(path)-1]] ^ 1
	return count[opposite] == (k+1)/2
}

// degrees returns the squares of free that have at least one and at least
// two neighbours in free, counting all eight jumps at once with a bitwise
// adder.
func (g *Graph) degrees(free uint64) (atLeast1, atLeast2 uint64) {
	for _, sh := range &g.shifts {
		var x uint64
		if sh.by > 0 {
			x = free >> uint(sh.by)
		} else {
			x = free << uint(-sh.by)
		}
		x &= sh.from
		atLeast2 |= atLeast1 & x
		atLeast1 |= x
	}
	return atLeast1 & free, atLeast2 & free
}

// low returns the squares of free with at most one neighbour in free, and
// whether some square of free has none, from scratch; the search keeps the
// same set up to date as it goes.
func (g *Graph) low(free uint64) (low uint64, isolated bool) {
	atLeast1, atLeast2 := g.degrees(free)
	return free &^ atLeast2, atLeast1 != free
}

// moves returns the squares the knight on cur may jump to next when free
// holds the k >= 1 unvisited squares, low those of them with at most one
// neighbour in free (none with no neighbour, unless k = 1), and ends the
// squares allowed to be the last (all for open tours, the start's
// neighbours for closed ones). It leaves out only jumps after which no tour
// can be completed. The remaining path cur, u1, ..., uk must use every free
// square; in it each square except uk has two path neighbours and only u1
// may have cur as one, so:
//
//   - a free square with no free neighbour kills the branch (k > 1);
//   - a free square with one free neighbour must be uk, or u1 if it is next
//     to cur; there is only one uk, it must be in ends, and its colour is
//     fixed by parity (the knight graph is bipartite);
//   - when the end is taken, a low square next to cur must be u1: the jump
//     is forced;
//   - on boards with 4 rows (or columns) the outer two rows hold half the
//     squares and never touch each other, so no two outer squares follow
//     each other: that bounds how many can be left, and when the bound is
//     tight the next square must be an outer one.
//
// Every rule removes only subtrees without tours, so the order in which
// tours are found, and their number, do not change.
func (g *Graph) moves(cur int, free, low, ends uint64, k int) uint64 {
	adj := g.adj[cur&63] & free
	end := ends & free & g.colours[g.colour[cur]^uint8(k&1)] // candidates for uk
	if k == 1 {
		return adj & end
	}
	if adj == 0 || end == 0 {
		return 0
	}
	if g.outer != 0 {
		o := bits.OnesCount64(free & g.outer)
		in := k - o
		if g.outer&(1<<cur) != 0 {
			if o > in {
				return 0
			}
		} else if o > in {
			if o > in+1 {
				return 0
			}
			adj &= g.outer
		}
	}
	if low == 0 {
		return adj
	}
	// Low squares that may be u1 (first) and those that can only be uk (last).
	first, last := low&adj, low&^adj
	if last != 0 {
		if last&(last-1) != 0 || last&^end != 0 || first&(first-1) != 0 {
			return 0
		}
		if first != 0 {
			return first
		}
		return adj
	}
	// Low squares next to cur that cannot be the end must be u1; the others
	// share the one end.
	if must := first &^ end; must != 0 {
		if rest := first &^ must; must&(must-1) != 0 || rest&(rest-1) != 0 {
			return 0
		}
		return must
	}
	switch bits.OnesCount64(first) {
	case 1:
		return adj
	case 2:
		return first
	}
	return 0
}

// slots turns a set of squares next to cur into the set of their positions
// in cur's neighbour list, so that the search can take them in move order
// by counting trailing zeros.
func (g *Graph) slots(cur int, squares uint64) uint8 {
	var m uint8
	base := (cur & 63) * 64
	for ; squares != 0; squares &= squares - 1 {
		m |= 1 << (g.slotOf[base+bits.TrailingZeros64(squares)] & 7)
	}
	return m
}
