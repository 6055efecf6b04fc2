package construct

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/euler1758/knightstour/internal/pool"
)

// The sides of a block, in the order of blockTour.fwd.
const (
	portLeft = iota
	portRight
	portTop
	portBottom
)

// ports returns, for an h x w block, the jump near the middle of each side
// that joins it to the block beyond that side, as two block-local squares.
// Facing ports of two neighbours, with the two jumps across the border
// between them, make a ring of four jumps: for blocks side by side, with x
// the column from the border and y the row from r,
//
//	left block:  (x=-1, y=0) - (x=-2, y=2)   its right port
//	right block: (x=0, y=3)  - (x=1, y=1)    its left port
//	across:      (x=-1, y=0) - (x=1, y=1) and (x=-2, y=2) - (x=0, y=3)
//
// and the same turned a quarter for blocks one above the other. Blocks side
// by side have the same height, so they agree on r; likewise on c.
func ports(h, w int) [4][2]int {
	r, c := (h-4)/2, (w-4)/2
	at := func(row, col int) int { return row*w + col }
	return [4][2]int{
		portLeft:   {at(r+3, 0), at(r+1, 1)},
		portRight:  {at(r, w-1), at(r+2, w-2)},
		portTop:    {at(0, c+3), at(1, c+1)},
		portBottom: {at(h-1, c), at(h-2, c+2)},
	}
}

// blockTour is a block's cycle through its ports (all four, except on
// 5x6 and 6x5 blocks), or the start block's path from the start through
// the ports it needs.
type blockTour struct {
	h, w int
	seq  []int32 // the block's squares in order
	path bool
	fwd  [4]bool // the port's first square comes just before its second in seq
	off  []int   // each block square's index on the board, less the block's
}

func newBlockTour(h, w int, seq []int32, path bool, cols int) *blockTour {
	bt := &blockTour{h: h, w: w, seq: seq, path: path, off: make([]int, h*w)}
	pos := make([]int, h*w)
	for i, s := range seq {
		pos[s] = i
	}
	for k, p := range ports(h, w) {
		bt.fwd[k] = pos[p[1]] == (pos[p[0]]+1)%len(seq)
	}
	for k := range bt.off {
		bt.off[k] = k/w*cols + k%w
	}
	return bt
}

// blockPlan is the cut of a board into blocks, with a tour for each.
type blockPlan struct {
	rows, cols int
	rowParts   []int // heights of the bands of blocks, top to bottom
	colParts   []int // widths of the columns of blocks, left to right
	root       [2]int
	startTour  *blockTour            // the root's path, on a board with an odd number of squares
	tours      [][]*blockTour        // each block's tour
	cycles     map[[3]int]*blockTour // by height, width and set of ports
	needed     map[[3]int]*blockTour // the cycle chosen for a height, width and set of ports needed
}

// Budgets of the block searches: a cycle through four ports on up to 11x11
// squares takes a few thousand nodes; a path from a given start a few
// hundred thousand at most.
const (
	cycleBudget = 2_000_000
	pathBudget  = 400_000
	variants    = 8
)

// planBlocks cuts the board into blocks and finds their tours. It returns
// nil if the board is a single block with no path from start.
func planBlocks(ctx context.Context, rows, cols int, start Square) (*blockPlan, error) {
	p := &blockPlan{rows: rows, cols: cols, cycles: map[[3]int]*blockTour{}, needed: map[[3]int]*blockTour{}}
	search := newBlockSearch(maxBlockSide, maxBlockSide)
	if rows*cols%2 == 0 {
		// Blocks of even area have closed tours when both sides are at
		// least 5: make all the widths even, or all the heights.
		if cols%2 == 0 {
			p.rowParts, p.colParts = anyParts(rows), evenParts(cols)
		} else {
			p.rowParts, p.colParts = evenParts(rows), anyParts(cols)
		}
	} else {
		found, err := p.planStart(search, start)
		if err != nil || !found {
			return nil, err
		}
	}
	p.tours = make([][]*blockTour, len(p.rowParts))
	for i, h := range p.rowParts {
		if err := ctx.Err(); err != nil { // a band: thousands of blocks on a large board
			return nil, err
		}
		p.tours[i] = make([]*blockTour, len(p.colParts))
		for j, w := range p.colParts {
			if [2]int{i, j} == p.root && p.startTour != nil {
				p.tours[i][j] = p.startTour
				continue
			}
			t, err := p.cycle(search, h, w, p.needs(i, j))
			if err != nil {
				return nil, err
			}
			p.tours[i][j] = t
		}
	}
	return p, nil
}

// allPorts is the set of the four sides.
const allPorts = 1<<portLeft | 1<<portRight | 1<<portTop | 1<<portBottom

// needs returns the set of sides across which block (i, j) is joined:
// left and right along its band, up and down in the root's column.
func (p *blockPlan) needs(i, j int) int {
	set := 0
	if j > 0 {
		set |= 1 << portLeft
	}
	if j < len(p.colParts)-1 {
		set |= 1 << portRight
	}
	if j == p.root[1] && i > 0 {
		set |= 1 << portTop
	}
	if j == p.root[1] && i < len(p.rowParts)-1 {
		set |= 1 << portBottom
	}
	return set
}

// cycle returns a closed tour of an h x w block through the ports in set
// (and maybe more): from blockTable, or, for a size the table lacks, from
// a search, once for each size and set.
func (p *blockPlan) cycle(b *blockSearch, h, w, set int) (*blockTour, error) {
	need := [3]int{h, w, set}
	if t := p.needed[need]; t != nil {
		return t, nil // a board has a million blocks but few kinds
	}
	t, err := p.findCycle(b, h, w, set)
	p.needed[need] = t
	return t, err
}

// findCycle is cycle without the memory of what each kind of block got.
func (p *blockPlan) findCycle(b *blockSearch, h, w, set int) (*blockTour, error) {
	for _, e := range blockTable {
		if e.h == h && e.w == w && set&^e.set == 0 {
			key := [3]int{h, w, e.set}
			if p.cycles[key] == nil {
				seq := make([]int32, len(e.seq))
				for i := range len(e.seq) {
					seq[i] = int32(e.seq[i])
				}
				p.cycles[key] = newBlockTour(h, w, seq, false, p.cols)
			}
			return p.cycles[key], nil
		}
	}
	key := [3]int{h, w, set}
	if t := p.cycles[key]; t != nil {
		return t, nil
	}
	seq, err := blockCycle(b, h, w, set)
	if err != nil {
		return nil, err
	}
	p.cycles[key] = newBlockTour(h, w, seq, false, p.cols)
	return p.cycles[key], nil
}

// errNoBlockTour reports a block size and set of ports with no cycle.
var errNoBlockTour = errors.New("construct: internal error: a block has no closed tour through its ports")

// blockCycle finds a closed tour of an h x w block through the ports in set.
func blockCycle(b *blockSearch, h, w, set int) ([]int32, error) {
	b.resize(h, w)
	pr := ports(h, w)
	var pins [][2]int
	for k, p := range pr {
		if set&(1<<k) != 0 {
			pins = append(pins, p)
		}
	}
	for v := range variants {
		seq, res := b.find(-1, pins, v, cycleBudget)
		if res == blockFound {
			return seq, nil
		}
		if res == blockNone {
			break
		}
	}
	return nil, fmt.Errorf("%w (%dx%d, ports %04b)", errNoBlockTour, h, w, set)
}

// planStart cuts a board with an odd number of squares so that the start
// lies in the one block of odd height and width, and finds that block's
// path from the start through the ports it needs. Several cuts are tried,
// smallest start block first: on a 5x5 block some squares start no tour.
// It reports false if no cut works and the board is a single block, whose
// search was exhaustive: then there is no tour.
func (p *blockPlan) planStart(search *blockSearch, start Square) (bool, error) {
	// A start block 5 wide would put 6x5 blocks above and below it, which
	// have no cycle through all four ports: allow it on 5-square sides,
	// and on boards 5 squares high, which have one band of blocks.
	rowCuts := oddCuts(p.rows, start.Row, p.cols == 5)
	colCuts := oddCuts(p.cols, start.Col, p.rows == 5)
	for _, rc := range rowCuts {
		for _, cc := range colCuts {
			rowParts, i := rc.parts(p.rows)
			colParts, j := cc.parts(p.cols)
			h, w := rc.size, cc.size
			search.resize(h, w)
			pr := ports(h, w)
			var pins [][2]int
			if j > 0 {
				pins = append(pins, pr[portLeft])
			}
			if j < len(colParts)-1 {
				pins = append(pins, pr[portRight])
			}
			if i > 0 {
				pins = append(pins, pr[portTop])
			}
			if i < len(rowParts)-1 {
				pins = append(pins, pr[portBottom])
			}
			local := (start.Row-rc.at)*w + start.Col - cc.at
			for v := range variants {
				seq, res := search.find(local, pins, v, pathBudget)
				if res == blockFound {
					p.rowParts, p.colParts, p.root = rowParts, colParts, [2]int{i, j}
					p.startTour = newBlockTour(h, w, seq, true, p.cols)
					return true, nil
				}
				if res == blockNone {
					if len(rowParts) == 1 && len(colParts) == 1 {
						return false, nil
					}
					break
				}
			}
		}
	}
	return false, fmt.Errorf("%w: no cut of %dx%d into blocks gave a path from %v", ErrGaveUp, p.rows, p.cols, start)
}

// oddCut places the odd part of a side: size squares from at, with parts
// of even size (6, 8 or 10, or none) before and after it.
type oddCut struct{ at, size int }

// parts returns the sizes of all the parts of a side n long, and the index
// of the odd one.
func (c oddCut) parts(n int) ([]int, int) {
	before := evenParts(c.at)
	return slices.Concat(before, []int{c.size}, evenParts(n-c.at-c.size)), len(before)
}

// oddCuts lists the ways to cut an odd side n so that x lies in its odd
// part, the odd part 7 to 11 long (or 5, if five or n is 5), smaller
// first, then with x nearer its middle.
func oddCuts(n, x int, five bool) []oddCut {
	evenOK := func(k int) bool { return k == 0 || k >= 6 && k%2 == 0 }
	var cuts []oddCut
	first := 7
	if five || n == 5 {
		first = 5
	}
	for size := first; size <= 11 && size <= n; size += 2 {
		for at := max(0, x-size+1); at <= x; at++ {
			if evenOK(at) && evenOK(n-at-size) {
				cuts = append(cuts, oddCut{at, size})
			}
		}
	}
	slices.SortStableFunc(cuts, func(a, b oddCut) int {
		off := func(c oddCut) int { return abs(2*(x-c.at) - (c.size - 1)) }
		return cmp.Or(cmp.Compare(a.size, b.size), cmp.Compare(off(a), off(b)))
	})
	return cuts
}

// evenParts cuts an even length into parts of 6, 8 and 10, mostly 8: none
// for 0, and any even length from 6 on.
func evenParts(n int) []int {
	if n == 0 {
		return nil
	}
	k, rest := n/8, n%8
	parts := slices.Repeat([]int{8}, k)
	switch rest {
	case 2: // 8+2 = 10
		parts[k-1] = 10
	case 4: // 8+4 = 6+6
		parts[k-1] = 6
		parts = append(parts, 6)
	case 6:
		parts = append(parts, 6)
	}
	return parts
}

// anyParts cuts a length of at least 5 into parts of 6 to 11, mostly 8,
// or just 5: a 5x6 block has no cycle through all four ports.
func anyParts(n int) []int {
	if n < 12 {
		return []int{n}
	}
	k, rest := n/8, n%8
	parts := slices.Repeat([]int{8}, k)
	switch {
	case rest >= 6:
		parts = append(parts, rest)
	case rest == 4 || rest == 5: // 8+4 = 6+6, 8+5 = 6+7
		parts[k-1] = 6
		parts = append(parts, rest+2)
	case rest > 0: // 9, 10 or 11
		parts[k-1] += rest
	}
	return parts
}

// links writes the tour as a table of links, next[square] being the square
// after it (noLink after the end of a path): each block's tour, turned the
// way the joins need, then the joins.
func (p *blockPlan) links(ctx context.Context, workers int) ([]uint32, error) {
	rowAt, colAt := offsets(p.rowParts), offsets(p.colParts)
	tour := func(i, j int) *blockTour { return p.tours[i][j] }
	// The joins form a tree: along every band of blocks, and down the
	// column of the root. Each join fixes whether its second block runs
	// the same way as its first, so walking the tree from the root decides
	// every block's direction.
	nr, nc := len(p.rowParts), len(p.colParts)
	flip := make([][]bool, nr)
	for i := range flip {
		flip[i] = make([]bool, nc)
	}
	i0, jv := p.root[0], p.root[1]
	for i := i0 - 1; i >= 0; i-- {
		flip[i][jv] = tour(i, jv).fwd[portBottom] != (flip[i+1][jv] != tour(i+1, jv).fwd[portTop])
	}
	for i := i0 + 1; i < nr; i++ {
		flip[i][jv] = tour(i-1, jv).fwd[portBottom] != (flip[i-1][jv] != tour(i, jv).fwd[portTop])
	}
	for i := range nr {
		for j := jv - 1; j >= 0; j-- {
			flip[i][j] = tour(i, j).fwd[portRight] != (flip[i][j+1] != tour(i, j+1).fwd[portLeft])
		}
		for j := jv + 1; j < nc; j++ {
			flip[i][j] = tour(i, j-1).fwd[portRight] != (flip[i][j-1] != tour(i, j).fwd[portLeft])
		}
	}

	next, err := makeWords(ctx, p.rows*p.cols)
	if err != nil {
		return nil, err
	}
	err = pool.Run(ctx, workers, nr, func(_, i int) error {
		for j := range nc {
			tour(i, j).write(next, rowAt[i]*p.cols+colAt[j], flip[i][j])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	join := func(a, b *blockTour, baseA, baseB int, pa, pb int, flipA bool) {
		pra, prb := ports(a.h, a.w), ports(b.h, b.w)
		a1, a2 := baseA+a.off[pra[pa][0]], baseA+a.off[pra[pa][1]]
		b2, b1 := baseB+b.off[prb[pb][0]], baseB+b.off[prb[pb][1]]
		if a.fwd[pa] != flipA { // a1 -> a2, and so b2 -> b1
			next[a1], next[b2] = uint32(b1), uint32(a2)
		} else { // a2 -> a1 and b1 -> b2
			next[a2], next[b1] = uint32(b2), uint32(a1)
		}
	}
	for i := 0; i+1 < nr; i++ {
		join(tour(i, jv), tour(i+1, jv), rowAt[i]*p.cols+colAt[jv], rowAt[i+1]*p.cols+colAt[jv], portBottom, portTop, flip[i][jv])
	}
	for i := range nr {
		if err := ctx.Err(); err != nil { // a band of joins, each a few loads from far apart
			return nil, err
		}
		for j := 0; j+1 < nc; j++ {
			join(tour(i, j), tour(i, j+1), rowAt[i]*p.cols+colAt[j], rowAt[i]*p.cols+colAt[j+1], portRight, portLeft, flip[i][j])
		}
	}
	return next, nil
}

// write links the block's squares in next, the block's top-left square
// being base on the board, backwards if flip.
func (bt *blockTour) write(next []uint32, base int, flip bool) {
	seq, n := bt.seq, len(bt.seq)
	sq := func(k int) uint32 { return uint32(base + bt.off[seq[k]]) }
	for k := 0; k+1 < n; k++ {
		if flip {
			next[sq(k+1)] = sq(k)
		} else {
			next[sq(k)] = sq(k + 1)
		}
	}
	switch {
	case bt.path:
		next[sq(n-1)] = noLink // the root is never flipped
	case flip:
		next[sq(0)] = sq(n - 1)
	default:
		next[sq(n-1)] = sq(0)
	}
}

// offsets returns where each part starts.
func offsets(parts []int) []int {
	at := make([]int, len(parts))
	for i := 1; i < len(parts); i++ {
		at[i] = at[i-1] + parts[i-1]
	}
	return at
}
