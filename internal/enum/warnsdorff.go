package enum

import "sync/atomic"

// Warnsdorff searches for one tour that starts with root and ends on one
// of ends (nil: anywhere) by Warnsdorff's rule: the candidates of each
// node are the jumps the pruning allows, fewest onward jumps first, ties
// broken by tieBreak and then by move order. It backtracks when stuck,
// within budget nodes, and stops soon after stop is set. It returns the
// tour's squares, or nil when there is none, the budget is spent or it was
// stopped; with the nodes it entered and the backtracks it made.
func Warnsdorff(g *Graph, root, ends []uint16, budget uint64, stop *atomic.Bool) (path []uint16, nodes, backtracks uint64) {
	if root == nil {
		return nil, 0, 0
	}
	w := &warnsdorff{
		wideSearch: newWideSearch(g, stop, ends),
		order:      make([][8]uint16, g.n),
		next:       make([]uint8, g.n),
		count:      make([]uint8, g.n),
	}
	w.setTieBreak(int(root[0]))
	return w.find(root, budget)
}

// warnsdorff is the search: the wide engine's state and pruning, with the
// candidates of each node sorted by Warnsdorff's rule.
type warnsdorff struct {
	*wideSearch
	tie   []int32 // among squares with as many onward jumps, the higher goes first
	order [][8]uint16
	next  []uint8 // position in order[d] of the next candidate
	count []uint8 // candidates in order[d]
}

// setTieBreak fills tie. On a strip 3 or 4 squares wide it is the nearer
// to the start along the strip, so that the knight sweeps away from where
// it began, finishing what lies behind; elsewhere Roth's rule, farther
// from the centre first (four times the squared distance), which keeps
// the knight off the middle until the edges are done.
func (w *warnsdorff) setTieBreak(start int) {
	rows, cols := w.g.rows, w.g.cols
	startRow, startCol := start/cols, start%cols
	w.tie = make([]int32, w.g.n)
	for s := range w.tie {
		r, c := s/cols, s%cols
		switch {
		case rows <= 4 && cols > rows:
			w.tie[s] = -int32(abs(c - startCol))
		case cols <= 4 && rows > cols:
			w.tie[s] = -int32(abs(r - startRow))
		default:
			dr, dc := 2*r-(rows-1), 2*c-(cols-1)
			w.tie[s] = int32(dr*dr + dc*dc)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// candidates fills order[d] with the jumps from path[d] that the pruning
// allows, in Warnsdorff's order.
func (w *warnsdorff) candidates(d, k int) {
	cur := w.path[d]
	slots := w.moves(cur, k)
	nb := &w.g.next[cur]
	c := w.order[d][:0]
	for i, t := range nb.sq[:nb.n] {
		if slots&(1<<i) != 0 {
			c = append(c, t)
		}
	}
	// Insertion sort: at most 8 candidates, kept stable (ties keep move
	// order) and free of the allocations of the sort package.
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && w.before(c[j], c[j-1]); j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
	w.count[d], w.next[d] = uint8(len(c)), 0
}

// before reports whether Warnsdorff's rule tries a before b: fewer onward
// jumps first, then the tie-break (see setTieBreak).
func (w *warnsdorff) before(a, b uint16) bool {
	if da, db := w.degree[a], w.degree[b]; da != db {
		return da < db
	}
	return w.tie[a] > w.tie[b]
}

// find runs the search from prefix; it returns the tour's squares, or nil.
func (w *warnsdorff) find(prefix []uint16, budget uint64) (path []uint16, nodes, backtracks uint64) {
	n := w.g.n
	if prefix == nil {
		return nil, nodes, backtracks
	}
	w.reset(prefix)
	nodes = 1
	base := len(prefix) - 1
	if base == n-1 {
		return append([]uint16(nil), w.path...), nodes, backtracks
	}
	d := base
	w.candidates(d, n-1-d)
	for {
		if w.next[d] == w.count[d] {
			if d == base {
				return nil, nodes, backtracks
			}
			w.leave(w.path[d])
			backtracks++
			d--
			continue
		}
		t := w.order[d][w.next[d]]
		w.next[d]++
		d++
		w.path[d] = t
		w.enter(t)
		nodes++
		if nodes%stopEvery == 0 && (w.stop.Load() || nodes >= budget) {
			return nil, nodes, backtracks
		}
		if d == n-1 {
			return append([]uint16(nil), w.path...), nodes, backtracks
		}
		w.candidates(d, n-1-d)
	}
}
