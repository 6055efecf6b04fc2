package knightstour

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// WarnsdorffStats describes a Warnsdorff search.
type WarnsdorffStats struct {
	Nodes      uint64 // squares entered
	Backtracks uint64 // squares left again because the path could not go on
	Elapsed    time.Duration
}

// defaultBudget bounds the backtracking of Warnsdorff: plenty for every
// board where the rule nearly works, and a prompt answer where it does not.
const defaultBudget = 20_000_000

// Warnsdorff finds one tour (closed with WithClosed) by Warnsdorff's rule
// of 1823: always jump to the square with the fewest onward jumps. Ties go
// to the square farther from the centre of the board (Roth's rule, which
// keeps the knight off the middle until the edges are done) or, on boards
// 3 or 4 squares wide, to the square nearer the start along the strip (so
// that the knight sweeps away from where it began), then to the move order. When the path gets stuck it backtracks, trying the next
// candidate, within a budget of nodes (WithNodeBudget sets it; the default is 20
// million), so small and medium boards always succeed when a tour exists.
// It uses the same exact pruning as the solver, so it notices dead ends
// early.
//
// A board without tours, or a start square that no tour can have by the
// colour argument, gives ErrNoTour at once; a spent budget gives ErrGaveUp.
// Its options (WarnsdorffOption) are WithStart, WithMoveOrder (the last
// tie-break), WithClosed and WithNodeBudget.
func Warnsdorff(ctx context.Context, rows, cols int, opts ...WarnsdorffOption) (Tour, WarnsdorffStats, error) {
	if err := checkContext(ctx); err != nil {
		return Tour{}, WarnsdorffStats{}, err
	}
	begin := time.Now()
	s, err := NewSolver(rows, cols, pick[SolverOption](opts)...) // every WarnsdorffOption is one
	if err != nil {
		return Tour{}, WarnsdorffStats{}, err
	}
	if !Exists(rows, cols, s.Closed()) || !StartPossible(rows, cols, s.start, s.Closed()) {
		return Tour{}, WarnsdorffStats{}, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, KindOf(s.Closed()), rows, cols, s.start)
	}
	if err := ctx.Err(); err != nil {
		return Tour{}, WarnsdorffStats{}, err
	}
	budget := uint64(defaultBudget)
	if s.cfg.budget > 0 {
		budget = s.cfg.budget
	}
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	w := newWarnsdorff(s, &stop)
	path, st := w.find(s.job.root, budget)
	st.Elapsed = time.Since(begin)
	switch {
	case path != nil:
		return Tour{rows: rows, cols: cols, squares: path}, st, nil
	case stop.Load():
		return Tour{}, st, ctx.Err()
	case st.Nodes >= budget:
		return Tour{}, st, fmt.Errorf("%w after %d nodes and %d backtracks on %dx%d from %v", ErrGaveUp, st.Nodes, st.Backtracks, rows, cols, s.start)
	}
	return Tour{}, st, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, KindOf(s.Closed()), rows, cols, s.start)
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

func newWarnsdorff(s *Solver, stop *atomic.Bool) *warnsdorff {
	n := s.job.g.n
	w := &warnsdorff{
		wideSearch: newWideSearch(s.job.g, stop, s.job.ends),
		order:      make([][8]uint16, n),
		next:       make([]uint8, n),
		count:      make([]uint8, n),
	}
	w.setTieBreak(s.rows, s.cols, s.start)
	return w
}

// setTieBreak fills tie: Roth's rule (farther from the centre first: four
// times the squared distance), or on a strip 3 or 4 squares wide the
// nearer to the start along the strip.
func (w *warnsdorff) setTieBreak(rows, cols int, start Coordinate) {
	w.tie = make([]int32, w.g.n)
	for s := range w.tie {
		r, c := s/cols, s%cols
		switch {
		case rows <= 4 && cols > rows:
			// A strip: sweep away from the start, finishing what lies behind.
			w.tie[s] = -int32(abs(c - start.Col))
		case cols <= 4 && rows > cols:
			w.tie[s] = -int32(abs(r - start.Row))
		default:
			dr, dc := 2*r-(rows-1), 2*c-(cols-1)
			w.tie[s] = int32(dr*dr + dc*dc)
		}
	}
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
func (w *warnsdorff) find(prefix []uint16, budget uint64) ([]uint16, WarnsdorffStats) {
	var st WarnsdorffStats
	n := w.g.n
	if prefix == nil {
		return nil, st
	}
	w.reset(prefix)
	st.Nodes = 1
	base := len(prefix) - 1
	if base == n-1 {
		return append([]uint16(nil), w.path...), st
	}
	d := base
	w.candidates(d, n-1-d)
	for {
		if w.next[d] == w.count[d] {
			if d == base {
				return nil, st
			}
			w.leave(w.path[d])
			st.Backtracks++
			d--
			continue
		}
		t := w.order[d][w.next[d]]
		w.next[d]++
		d++
		w.path[d] = t
		w.enter(t)
		st.Nodes++
		if st.Nodes%stopEvery == 0 && (w.stop.Load() || st.Nodes >= budget) {
			return nil, st
		}
		if d == n-1 {
			return append([]uint16(nil), w.path...), st
		}
		w.candidates(d, n-1-d)
	}
}
