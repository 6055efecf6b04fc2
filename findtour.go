package knightstour

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Method names a way FindTour finds a tour.
type Method int

const (
	// MethodSearch is the exact search: the first tour in move order,
	// with the solver's pruning, within a budget of nodes.
	MethodSearch Method = iota + 1

	// MethodWarnsdorff is Warnsdorff's rule of 1823: always jump to the
	// square with the fewest onward jumps. Ties go to the square farther
	// from the centre of the board (Roth's rule, which keeps the knight off
	// the middle until the edges are done) or, on boards 3 or 4 squares
	// wide, to the square nearer the start along the strip (so that the
	// knight sweeps away from where it began), then to the move order.
	// When the path gets stuck it backtracks, trying the next candidate,
	// within a budget of nodes (WithNodeBudget; 20 million when it is the
	// method asked for), so that small and medium boards succeed when a
	// tour exists. It uses the solver's exact pruning, so it notices dead
	// ends early.
	MethodWarnsdorff

	// MethodConstruct is the construction: it builds a tour wherever one
	// exists, in time and memory linear in the number of squares (a
	// 1000x1000 board takes milliseconds, 10,000 x 10,000 a few seconds),
	// with no budget to run out of, on boards of up to 2^30 squares.
	//
	// On boards whose sides are both at least 5 it cuts the board into
	// blocks of 5 to 11 squares a side and gives each block a closed tour
	// that uses four chosen jumps near the middles of its sides, its
	// ports; then it joins the blocks' cycles into one, two at a time:
	// where a port of one block faces a port of the next, the two jumps
	// and two jumps across the border form a square of four jumps, and
	// swapping the first pair for the second joins the cycles (after
	// Parberry 1997, with ports of our own). The blocks' tours are found by
	// a search on the block, once for each size. An open tour on a board
	// with closed tours is a closed one cut at the start. On a board with
	// an odd number of squares, which has no closed tour, the block that
	// holds the start gets an odd size and a path from the start instead
	// of a cycle, and the other blocks join it the same way. Boards 3 or 4
	// squares wide are strips, where it uses an exact frontier search that
	// runs along the strip; it is the only method that finds where on such
	// a strip a tour can start. WithWorkers sets how many goroutines lay
	// the blocks' tours out (the result does not depend on it). It gives
	// ErrGaveUp only if its plan of blocks had no cut for an odd board and
	// start, which no board of the tests (every start up to 31x31) shows.
	MethodConstruct
)

// String names the method as the CLI's -method flag does.
func (m Method) String() string {
	switch m {
	case MethodSearch:
		return "search"
	case MethodWarnsdorff:
		return "warnsdorff"
	case MethodConstruct:
		return "construct"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// FindTour finds one tour (closed with WithClosed) on any board, choosing
// the method, or by the one WithMethod asks for. On boards of more than
// 65,536 squares it is the construction. Otherwise the exact search
// comes first on boards of up to 64 squares and on strips 3 or 4 squares
// wide, where it is fast and Warnsdorff's rule stumbles, and Warnsdorff's
// rule first elsewhere; each runs within a node budget, and the other
// takes over if it gives up. A closed tour it cannot find from the start
// square it looks for from the corners and the centre, and starts where
// asked. If every try runs out of budget it builds the tour by the
// construction, which has no budget to run out of. It returns the tour and
// the method that found it.
//
// ErrNoTour comes at once where the theorems or the colour argument rule a
// tour out (Exists, StartPossible), and after a search where a search
// proves it (some start squares of 3 x n and 4 x n boards); ErrGaveUp when
// the one method asked for spent its budget. Boards of more than 2^30
// squares give ErrBadSize. Its options (FindTourOption) are WithStart,
// WithMoveOrder, WithWorkers, WithClosed, WithNodeBudget (the budget of
// each try) and WithMethod.
func FindTour(ctx context.Context, rows, cols int, opts ...FindTourOption) (Tour, Method, error) {
	if err := checkContext(ctx); err != nil {
		return Tour{}, 0, err
	}
	cfg, err := newConfig(rows, cols, maxConstructSquares, opts)
	if err != nil {
		return Tour{}, 0, err
	}
	if err := cfg.unused(); err != nil {
		return Tour{}, 0, err
	}
	if cfg.method == MethodConstruct || rows*cols > maxSquares && cfg.method == 0 {
		t, err := constructTour(ctx, rows, cols, opts...)
		return t, MethodConstruct, err
	}
	t, m, err := findTour(ctx, rows, cols, opts...)
	if errors.Is(err, ErrGaveUp) && cfg.method == 0 {
		// The construction is exact: its "no tour" is the answer too.
		t, err := constructTour(ctx, rows, cols, opts...)
		return t, MethodConstruct, err
	}
	return t, m, err
}

// findTour is FindTour without the construction.
func findTour(ctx context.Context, rows, cols int, opts ...FindTourOption) (Tour, Method, error) {
	cfg, err := newConfig(rows, cols, maxSquares, opts)
	if err != nil {
		return Tour{}, 0, err
	}
	solverOpts := pick[SolverOption](opts)
	s, err := NewSolver(rows, cols, solverOpts...)
	if err != nil {
		return Tour{}, 0, err
	}
	if !Exists(rows, cols, kindOf(s.cfg.closed)) || !StartPossible(rows, cols, s.start, kindOf(s.cfg.closed)) {
		return Tour{}, 0, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kindOf(s.cfg.closed), rows, cols, s.start)
	}
	budget := findBudget
	switch {
	case s.cfg.budget > 0:
		budget = int(min(s.cfg.budget, math.MaxInt))
	case cfg.method == MethodWarnsdorff:
		budget = defaultBudget
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
		sym := identity // each of these four reflections is its own inverse
		if start.Row < R/2 {
			sym = mirrorUpDown
		}
		if start.Col >= (C+1)/2 {
			sym = map[symmetry]symmetry{identity: mirrorLeftRight, mirrorUpDown: rotate180}[sym]
		}
		r, err := NewSolver(R, C, append(solverOpts, WithStart(sym.apply(start, R, C)), WithNodeBudget(budget))...)
		if err != nil {
			return Tour{}, err
		}
		t, err := r.First(ctx)
		if err != nil {
			return Tour{}, err
		}
		out := Tour{rows: rows, cols: cols, squares: make([]uint16, len(t.squares))}
		for i := range t.squares {
			c := sym.apply(t.At(i), R, C)
			if rows > cols {
				c = Coordinate{c.Col, c.Row}
			}
			out.squares[i] = uint16(c.Row*cols + c.Col)
		}
		return out, nil
	}
	heuristic := func() (Tour, error) {
		t, _, err := warnsdorff(ctx, rows, cols, append(opts, WithNodeBudget(budget))...)
		return t, err
	}
	var methods []Method
	switch {
	case cfg.method != 0:
		methods = []Method{cfg.method}
	case rows*cols <= 64 || min(rows, cols) <= 4:
		methods = []Method{MethodSearch, MethodWarnsdorff}
	default:
		methods = []Method{MethodWarnsdorff, MethodSearch}
	}
	t, m, err := findFrom(methods, search, heuristic)
	if err == nil || !s.cfg.closed || s.cfg.noRetry || !errors.Is(err, ErrGaveUp) {
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
	return Tour{}, 0, err
}

// findFrom tries the methods in turn while they give up.
func findFrom(methods []Method, search, heuristic func() (Tour, error)) (Tour, Method, error) {
	var errs []error
	for _, m := range methods {
		var t Tour
		var err error
		if m == MethodSearch {
			t, err = search()
		} else {
			t, err = heuristic()
		}
		switch {
		case err == nil:
			return t, m, nil
		case errors.Is(err, ErrNoTour) && m == MethodSearch: // the exact search has the last word
			return Tour{}, m, err
		case !errors.Is(err, ErrGaveUp):
			return Tour{}, m, err
		}
		errs = append(errs, err)
	}
	return Tour{}, 0, fmt.Errorf("%w: every method tried ran out of budget (%v)", ErrGaveUp, errors.Join(errs...))
}

// rotateTo returns the closed tour t started on square c instead.
func (t Tour) rotateTo(c Coordinate) Tour {
	at := slices.Index(t.squares, uint16(c.Row*t.cols+c.Col))
	sq := make([]uint16, 0, len(t.squares))
	sq = append(append(sq, t.squares[at:]...), t.squares[:at]...)
	return Tour{rows: t.rows, cols: t.cols, squares: sq}
}

// unused refuses an option that the one method asked for (WithMethod) does
// not use: the construction has no move order and no budget, and the
// search and Warnsdorff's rule run on one goroutine.
func (cfg *config) unused() error {
	refuse := func(option, why string) error {
		return fmt.Errorf("%w: %s does not apply to %v (%s)", ErrBadOption, option, cfg.method, why)
	}
	switch {
	case cfg.method == MethodConstruct && cfg.given&givenOrder != 0:
		return refuse("WithMoveOrder", "the construction has no move order")
	case cfg.method == MethodConstruct && cfg.given&givenBudget != 0:
		return refuse("WithNodeBudget", "the construction has no budget to run out of")
	case (cfg.method == MethodSearch || cfg.method == MethodWarnsdorff) && cfg.given&givenWorkers != 0:
		return refuse("WithWorkers", "it searches on one goroutine")
	}
	return nil
}

// WithMethod makes FindTour use one method, m, and no other: the exact
// search and Warnsdorff's rule give ErrGaveUp when their budget is spent
// rather than handing over to another method.
func WithMethod(m Method) FindTourOption {
	return findTourOpt{option: option{func(cfg *config) error {
		if m < MethodSearch || m > MethodConstruct {
			return fmt.Errorf("%w: method %v", ErrBadOption, m)
		}
		cfg.method = m
		return nil
	}}}
}

// findBudget is the node budget of each of FindTour's methods: a few
// tenths of a second.
const findBudget = 5_000_000
