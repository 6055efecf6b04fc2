package queens

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/euler1758/knightstour/internal/progress"
	"github.com/euler1758/knightstour/internal/shard"
	"golang.org/x/sync/errgroup"
)

// Result is the outcome of Count: for the whole search, or one shard of it.
type Result struct {
	N      int
	Total  uint64 // all solutions
	Unique uint64 // solutions up to rotation and reflection
	// Classes of unique solutions by size: C2 map onto themselves under a
	// quarter turn, C4 under a half turn only, C8 under no symmetry.
	// Total = 2*C2 + 4*C4 + 8*C8 for n >= 4.
	C2, C4, C8    uint64
	Tasks         int // tasks searched
	Shard, Shards int // which shard of how many; 0 of 1 for a whole search
	Elapsed       time.Duration
}

// targetTasks is how many tasks the search for n is cut into: enough that
// two or hundreds of workers stay busy to the end (8192 from n = 17 on),
// few enough that cutting costs little on small boards, and fixed by n
// alone so that shards on different machines agree on the list.
func targetTasks(n int) int { return 1 << min(13, max(0, n-4)) }

// tasks returns the task list for n: the roots of both families, expanded
// row by row until there are targetTasks or the next row is the last.
func tasks(n int) []task {
	ts := roots(n)
	for y := 2; len(ts) < targetTasks(n) && y < n-2; y++ {
		ts = expand(n, ts)
	}
	return ts
}

// Count counts the solutions for an n x n board, or one shard of them
// (WithShard), on the given workers. It returns promptly with ctx's error
// when ctx is cancelled.
func Count(ctx context.Context, n int, opts ...Option) (Result, error) {
	begin := time.Now()
	if err := checkN(n); err != nil {
		return Result{}, err
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	res := Result{N: n, Shard: cfg.shard, Shards: cfg.shards}
	if n < 4 { // too small for the symmetry search: 1 for n = 1, none for 2 and 3
		if n == 1 && cfg.shard == 0 {
			res.Total, res.Unique, res.Tasks = 1, 1, 1
		}
		res.Elapsed = time.Since(begin)
		return res, nil
	}
	all := tasks(n)
	var mine []int
	for i := cfg.shard; i < len(all); i += cfg.shards {
		mine = append(mine, i)
	}
	mine = shuffleBlocks(mine, 256, uint64(n))

	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	var done atomic.Int64
	var solutions atomic.Uint64
	stopReport := report(cfg, func() Progress {
		return Progress{TasksDone: int(done.Load()), Tasks: len(mine), Solutions: solutions.Load(), Elapsed: time.Since(begin)}
	})

	var mu sync.Mutex
	var next atomic.Int64
	var g errgroup.Group
	for range min(cfg.workers, len(mine)) {
		g.Go(func() error {
			s := newSearch(n, &stop)
			for !s.stopped {
				i := next.Add(1) - 1
				if i >= int64(len(mine)) {
					break
				}
				c2, c4, c8 := s.c2, s.c4, s.c8
				s.run(&all[mine[i]])
				if !s.stopped {
					solutions.Add(2*(s.c2-c2) + 4*(s.c4-c4) + 8*(s.c8-c8))
					done.Add(1)
				}
			}
			mu.Lock()
			res.C2 += s.c2
			res.C4 += s.c4
			res.C8 += s.c8
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
	stopReport()
	res.Tasks = len(mine)
	res.Unique = res.C2 + res.C4 + res.C8
	res.Total = 2*res.C2 + 4*res.C4 + 8*res.C8
	res.Elapsed = time.Since(begin)
	if stop.Load() {
		return res, ctx.Err()
	}
	return res, nil
}

// shuffleBlocks reorders tasks by blocks of size consecutive tasks: the
// blocks come in random order, so that the share of tasks done estimates
// the share of work done, while within a block neighbouring tasks, which
// take the same branches, stay together for the branch predictor (3% on
// one core for n = 16).
func shuffleBlocks(tasks []int, size int, seed uint64) []int {
	blocks := (len(tasks) + size - 1) / size
	out := make([]int, 0, len(tasks))
	for _, b := range rand.New(rand.NewPCG(seed, 17)).Perm(blocks) {
		out = append(out, tasks[b*size:min((b+1)*size, len(tasks))]...)
	}
	return out
}

// report calls the progress function every interval until the returned
// function is called, which reports once more.
func report(cfg config, snapshot func() Progress) func() {
	if cfg.progress == nil {
		return func() {}
	}
	return progress.Every(cfg.every, func() { cfg.progress(snapshot()) })
}

// Merge adds the Results of the shards of one search. It refuses results
// for different boards, a shard missing, repeated or out of range, and
// returns the whole search's Result.
func Merge(results ...Result) (Result, error) {
	ids := make([]shard.ID, len(results))
	for i, r := range results {
		if r.N != results[0].N {
			return Result{}, fmt.Errorf("%w: results for n=%d and n=%d", ErrMerge, results[0].N, r.N)
		}
		ids[i] = shard.ID{Index: r.Shard, Count: r.Shards}
	}
	if err := shard.Complete(ids); err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrMerge, err)
	}
	out := Result{N: results[0].N, Shards: 1}
	for _, r := range results {
		out.Total += r.Total
		out.Unique += r.Unique
		out.C2 += r.C2
		out.C4 += r.C4
		out.C8 += r.C8
		out.Tasks += r.Tasks
		out.Elapsed = max(out.Elapsed, r.Elapsed)
	}
	return out, nil
}
