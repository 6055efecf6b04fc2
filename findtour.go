package knightstour

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Method names a way FindTour finds a tour.
type Method int

const (
	// MethodSearch is the exact search: the first tour in move order.
	MethodSearch Method = iota + 1
	// MethodWarnsdorff is Warnsdorff's rule with bounded backtracking.
	MethodWarnsdorff
	// MethodConstruct is the guaranteed construction (Construct).
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
// the method. On boards of more than MaxSquares squares it is Construct.
// Otherwise the exact search (the first tour in move order, with the
// solver's pruning) comes first on boards of up to 64 squares and on strips
// 3 or 4 squares wide, where it is fast and Warnsdorff's rule stumbles, and
// Warnsdorff's rule first elsewhere; each runs within a node budget, and
// the other takes over if it gives up. A closed tour it cannot find from
// the start square it looks for from the corners and the centre, and
// starts where asked. If every try runs out of budget it builds the tour
// with Construct, which has no budget to run out of. It returns the tour and the method
// that found it (MethodSearch, MethodWarnsdorff or MethodConstruct). ErrNoTour comes at
// once where the theorems or the colour argument rule a tour out, and
// after a search where a search proves it (some start squares of 3 x n and
// 4 x n boards). Its options (FindTourOption) are WithStart,
// WithMoveOrder, WithWorkers and WithClosed.
func FindTour(ctx context.Context, rows, cols int, opts ...FindTourOption) (Tour, Method, error) {
	if err := checkContext(ctx); err != nil {
		return Tour{}, 0, err
	}
	if _, err := newConfig(rows, cols, maxConstructSquares, opts); err != nil {
		return Tour{}, 0, err
	}
	if rows*cols > MaxSquares {
		t, err := Construct(ctx, rows, cols, pick[ConstructOption](opts)...)
		return t, MethodConstruct, err
	}
	t, m, err := findTour(ctx, rows, cols, opts...)
	if errors.Is(err, ErrGaveUp) {
		// The construction is exact: its "no tour" is the answer too.
		t, err := Construct(ctx, rows, cols, pick[ConstructOption](opts)...)
		return t, MethodConstruct, err
	}
	return t, m, err
}

// findTour is FindTour without the construction.
func findTour(ctx context.Context, rows, cols int, opts ...FindTourOption) (Tour, Method, error) {
	solverOpts := pick[SolverOption](opts)
	s, err := NewSolver(rows, cols, solverOpts...)
	if err != nil {
		return Tour{}, 0, err
	}
	if !Exists(rows, cols, kindOf(s.cfg.closed)) || !StartPossible(rows, cols, s.start, kindOf(s.cfg.closed)) {
		return Tour{}, 0, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kindOf(s.cfg.closed), rows, cols, s.start)
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
		r, err := NewSolver(R, C, append(solverOpts, WithStart(sym.apply(start, R, C)), WithNodeBudget(findBudget))...)
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
		t, _, err := Warnsdorff(ctx, rows, cols, append(pick[WarnsdorffOption](opts), WithNodeBudget(findBudget))...)
		return t, err
	}
	methods := []Method{MethodWarnsdorff, MethodSearch}
	if rows*cols <= 64 || min(rows, cols) <= 4 {
		methods = []Method{MethodSearch, MethodWarnsdorff}
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
	return Tour{}, 0, fmt.Errorf("%w: both methods ran out of budget (%v)", ErrGaveUp, errors.Join(errs...))
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
