// Package pool is the one worker pool of the module's engines: a fixed
// number of goroutines take numbered pieces of work in turn until none is
// left, the first error stops them all, and the call returns only when
// every goroutine has. Work is handed out by an atomic counter, in
// increasing order, so that a worker that finishes early takes the next
// piece at once and pieces of any size balance themselves.
package pool

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Run calls do(worker, i) once for every i in [0, n), on workers
// goroutines numbered 0 to workers-1: worker takes the next i as soon as it
// is done with the last, so per-worker state can live in a slice indexed
// by worker. Run returns the first error do returns, or ctx's error if ctx
// is done first; either way the other workers stop before their next piece.
// With workers < 1 it runs one.
func Run(ctx context.Context, workers, n int, do func(worker, i int) error) error {
	var next atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	for w := range max(1, min(workers, n)) {
		g.Go(func() error {
			for {
				if err := gctx.Err(); err != nil {
					return err
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return nil
				}
				if err := do(w, i); err != nil {
					return err
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
