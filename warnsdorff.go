package knightstour

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/euler1758/knightstour/internal/enum"
)

// warnsdorffStats describes a search by Warnsdorff's rule.
type warnsdorffStats struct {
	Nodes      uint64 // squares entered
	Backtracks uint64 // squares left again because the path could not go on
	Elapsed    time.Duration
}

// defaultBudget bounds the backtracking of Warnsdorff's rule: plenty for every
// board where the rule nearly works, and a prompt answer where it does not.
const defaultBudget = 20_000_000

// warnsdorff finds one tour by Warnsdorff's rule (MethodWarnsdorff),
// within the budget of WithNodeBudget or defaultBudget.
func warnsdorff(ctx context.Context, rows, cols int, opts ...FindTourOption) (Tour, warnsdorffStats, error) {
	if err := checkContext(ctx); err != nil {
		return Tour{}, warnsdorffStats{}, err
	}
	begin := time.Now()
	s, err := NewSolver(rows, cols, pick[SolverOption](opts)...) // every FindTourOption is one
	if err != nil {
		return Tour{}, warnsdorffStats{}, err
	}
	if !Exists(rows, cols, kindOf(s.cfg.closed)) || !StartPossible(rows, cols, s.start, kindOf(s.cfg.closed)) {
		return Tour{}, warnsdorffStats{}, fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kindOf(s.cfg.closed), rows, cols, s.start)
	}
	if err := ctx.Err(); err != nil {
		return Tour{}, warnsdorffStats{}, err
	}
	budget := uint64(defaultBudget)
	if s.cfg.budget > 0 {
		budget = s.cfg.budget
	}
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	path, nodes, backtracks := enum.Warnsdorff(s.job.Graph, s.job.Root, s.job.Ends, budget, &stop)
	st := warnsdorffStats{Nodes: nodes, Backtracks: backtracks, Elapsed: time.Since(begin)}
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
