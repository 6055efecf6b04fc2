package queens

import (
	"context"
	"fmt"
	"iter"
	"sync/atomic"
)

// Solutions streams every solution for an n x n board in lexicographic
// order of the columns, row by row, from a plain bitmask search on the
// calling goroutine. The Placement is reused: copy it (slices.Clone) to
// keep it. If ctx is cancelled the last pair carries its error; stop the
// loop to stop the search.
func Solutions(ctx context.Context, n int) iter.Seq2[Placement, error] {
	return func(yield func(Placement, error) bool) {
		if err := checkN(n); err != nil {
			yield(nil, err)
			return
		}
		if ctx == nil {
			yield(nil, fmt.Errorf("%w: a nil context.Context (use context.Background())", ErrMisuse))
			return
		}
		var stop atomic.Bool
		defer context.AfterFunc(ctx, func() { stop.Store(true) })()
		if ctx.Err() != nil {
			yield(nil, ctx.Err())
			return
		}
		w := walker{mask: 1<<uint(n) - 1, p: make(Placement, n), yield: yield, stop: &stop, checkBelow: n - checkRows}
		w.place(0, 0, 0, 0)
		if w.cancelled {
			yield(nil, ctx.Err())
		}
	}
}

// walker is the state of Solutions' search.
type walker struct {
	mask       uint64
	p          Placement
	yield      func(Placement, error) bool
	stop       *atomic.Bool
	checkBelow int
	quit       bool // the caller stopped, or ctx was cancelled
	cancelled  bool
}

func (w *walker) place(y int, left, down, right uint64) {
	if y == len(w.p) {
		w.quit = !w.yield(w.p, nil)
		return
	}
	if y < w.checkBelow && w.stop.Load() {
		w.quit, w.cancelled = true, true
		return
	}
	for bits := w.mask &^ (left | down | right); bits != 0 && !w.quit; {
		bit := bits & -bits
		bits ^= bit
		w.p[y] = bits64(bit)
		w.place(y+1, (left|bit)<<1, down|bit, (right|bit)>>1)
	}
}
