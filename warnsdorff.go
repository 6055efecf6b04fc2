package knightstour

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/euler1758/knightstour/internal/enum"
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
	if !Exists(rows, cols, kindOf(s.cfg.closed)) || !StartPossible(rows, cols, s.start, kindOf(s.cfg.closed)) {
		return Tour{}, WarnsdorffStats{}, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kindOf(s.cfg.closed), rows, cols, s.start)
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
	path, nodes, backtracks := enum.Warnsdorff(s.job.Graph, s.job.Root, s.job.Ends, budget, &stop)
	st := WarnsdorffStats{Nodes: nodes, Backtracks: backtracks, Elapsed: time.Since(begin)}
	switch {
	case path != nil:
		return Tour{rows: rows, cols: cols, squares: path}, st, nil
	case stop.Load():
		return Tour{}, st, ctx.Err()
	case st.Nodes >= budget:
		return Tour{}, st, fmt.Errorf("%w after %d nodes and %d backtracks on %dx%d from %v", ErrGaveUp, st.Nodes, st.Backtracks, rows, cols, s.start)
	}
	return Tour{}, st, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kindOf(s.cfg.closed), rows, cols, s.start)
}
