package knightstour

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// ErrGaveUp reports that a heuristic search used up its budget of nodes
// without finding a tour; one may still exist.
var ErrGaveUp = errors.New("knightstour: gave up")

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
// It takes WithStart, WithMoveOrder (the last tie-break), WithClosed and
// WithNodeBudget; other options give ErrBadOption.
func Warnsdorff(ctx context.Context, rows, cols int, opts ...Option) (Tour, WarnsdorffStats, error) {
	begin := time.Now()
	s, err := NewSolver(rows, cols, opts...)
	if err != nil {
		return Tour{}, WarnsdorffStats{}, err
	}
	if err := s.cfg.only("Warnsdorff", warnsdorffOptions); err != nil {
		return Tour{}, WarnsdorffStats{}, err
	}
	if !Exists(rows, cols, s.Closed()) || !StartPossible(rows, cols, s.start, s.Closed()) {
		return Tour{}, WarnsdorffStats{}, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kind(s.Closed()), rows, cols, s.start)
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
	return Tour{}, st, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kind(s.Closed()), rows, cols, s.start)
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

// FindTour finds one tour (closed with WithClosed) on any board, choosing
// the method. On boards of more than MaxSquares squares it is Construct.
// Otherwise the exact search (the first tour in move order, with the
// solver's pruning) comes first on boards of up to 64 squares and on strips
// 3 or 4 squares wide, where it is fast and Warnsdorff's rule stumbles, and
// Warnsdorff's rule first elsewhere; each runs within a node budget, and
// the other takes over if it gives up. A closed tour it cannot find from
// the start square it looks for from the corners and the centre, and
// starts where asked. If every try runs out of budget it builds the tour
// with Construct, which never gives up. It returns the tour and the method
// that found it ("search", "warnsdorff" or "construct"). ErrNoTour comes at
// once where the theorems or the colour argument rule a tour out, and
// after a search where a search proves it (some start squares of 3 x n and
// 4 x n boards). It takes WithStart, WithMoveOrder, WithWorkers and
// WithClosed; other options give ErrBadOption.
func FindTour(ctx context.Context, rows, cols int, opts ...Option) (Tour, string, error) {
	cfg, err := newConfig(rows, cols, MaxConstructSquares, opts)
	if err != nil {
		return Tour{}, "", err
	}
	if err := cfg.only("FindTour", findTourOptions); err != nil {
		return Tour{}, "", err
	}
	if rows*cols > MaxSquares {
		t, err := Construct(ctx, rows, cols, pick(opts, constructOptions)...)
		return t, "construct", err
	}
	t, m, err := findTour(ctx, rows, cols, opts...)
	if errors.Is(err, ErrGaveUp) {
		// The construction is exact: its "no tour" is the answer too.
		t, err := Construct(ctx, rows, cols, pick(opts, constructOptions)...)
		return t, "construct", err
	}
	return t, m, err
}

// findTour is FindTour without the construction.
func findTour(ctx context.Context, rows, cols int, opts ...Option) (Tour, string, error) {
	s, err := NewSolver(rows, cols, opts...)
	if err != nil {
		return Tour{}, "", err
	}
	if !Exists(rows, cols, s.Closed()) || !StartPossible(rows, cols, s.start, s.Closed()) {
		return Tour{}, "", fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kind(s.Closed()), rows, cols, s.start)
	}
	search := func() (Tour, error) {
		// The move order sends the knight along the rows and up first, so
		// the search does best on a wide board from the lower left: turn a
		// tall board on its side and reflect the board to put the start in
		// its lower left, search there, and map the tour back.
		R, C, start := rows, cols, s.start
		if rows > cols {
			R, C, start = cols, rows, Coordinate{s.start.Col, s.start.Row}
		}
		sym := Identity // each of these four reflections is its own inverse
		if start.Row < R/2 {
			sym = MirrorUpDown
		}
		if start.Col >= (C+1)/2 {
			sym = map[Symmetry]Symmetry{Identity: MirrorLeftRight, MirrorUpDown: Rotate180}[sym]
		}
		r, err := NewSolver(R, C, append(opts, WithStart(sym.Apply(start, R, C)), WithNodeBudget(findBudget))...)
		if err != nil {
			return Tour{}, err
		}
		t, err := r.First(ctx)
		if err != nil {
			return Tour{}, err
		}
		out := Tour{rows: rows, cols: cols, squares: make([]uint16, len(t.squares))}
		for i := range t.squares {
			c := sym.Apply(t.At(i), R, C)
			if rows > cols {
				c = Coordinate{c.Col, c.Row}
			}
			out.squares[i] = uint16(c.Row*cols + c.Col)
		}
		return out, nil
	}
	heuristic := func() (Tour, error) {
		t, _, err := Warnsdorff(ctx, rows, cols, append(pick(opts, warnsdorffOptions), WithNodeBudget(findBudget))...)
		return t, err
	}
	methods := []string{"warnsdorff", "search"}
	if rows*cols <= 64 || min(rows, cols) <= 4 {
		methods = []string{"search", "warnsdorff"}
	}
	t, m, err := findFrom(methods, search, heuristic)
	if err == nil || !s.Closed() || s.cfg.noRetry || !errors.Is(err, ErrGaveUp) {
		return t, m, err
	}
	// A closed tour is a cycle: one found from any square, started where
	// asked, is a tour from there. Try the corners and the centre.
	for _, from := range []Coordinate{{0, 0}, {rows - 1, 0}, {0, cols - 1}, {rows - 1, cols - 1}, {rows / 2, cols / 2}} {
		if from == s.start {
			continue
		}
		t, m, err := findTour(ctx, rows, cols, append(opts, WithStart(from), withoutRetry())...)
		if err == nil {
			return t.rotateTo(s.start), m, nil
		}
		if !errors.Is(err, ErrGaveUp) {
			return Tour{}, m, err
		}
	}
	return Tour{}, "", err
}

// findFrom tries the methods in turn while they give up.
func findFrom(methods []string, search, heuristic func() (Tour, error)) (Tour, string, error) {
	var errs []error
	for _, m := range methods {
		var t Tour
		var err error
		if m == "search" {
			t, err = search()
		} else {
			t, err = heuristic()
		}
		switch {
		case err == nil:
			return t, m, nil
		case errors.Is(err, ErrNoTour) && m == "search": // the exact search has the last word
			return Tour{}, m, err
		case !errors.Is(err, ErrGaveUp):
			return Tour{}, m, err
		}
		errs = append(errs, err)
	}
	return Tour{}, "", fmt.Errorf("%w: both methods ran out of budget (%v)", ErrGaveUp, errors.Join(errs...))
}

// rotateTo returns the closed tour t started on square c instead.
func (t Tour) rotateTo(c Coordinate) Tour {
	at := slices.Index(t.squares, uint16(c.Row*t.cols+c.Col))
	sq := make([]uint16, 0, len(t.squares))
	sq = append(append(sq, t.squares[at:]...), t.squares[:at]...)
	return Tour{rows: t.rows, cols: t.cols, squares: sq}
}

// findBudget is the node budget of each of FindTour's methods: a few
// tenths of a second.
const findBudget = 5_000_000
