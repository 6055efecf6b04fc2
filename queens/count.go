package queens

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/euler1758/knightstour/internal/pool"
	"github.com/euler1758/knightstour/internal/progress"
	"github.com/euler1758/knightstour/internal/shard"
)

// Result is the outcome of Count: for the whole search, or one shard of it.
type Result struct {
	N      int
	Total  uint64 // all solutions
	Unique uint64 // solutions up to rotation and reflection
	// Classes of unique solutions by size: C2 map onto themselves under a
	// quarter turn, C4 under a half turn only, C8 under no symmetry.
	// Total = 2*C2 + 4*C4 + 8*C8 for n >= 4.
	C2, C4, C8 uint64
	Tasks      int // tasks searched
	// AllTasks is the tasks the whole search is cut into, fixed by N: the
	// Tasks of all its shards add up to it, and no search splits into
	// more shards than it has tasks.
	AllTasks      int
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
	res := Result{N: n, Shard: cfg.shard, Shards: cfg.shards, AllTasks: 1}
	if n < 4 { // too small for the symmetry search: 1 for n = 1, none for 2 and 3
		if cfg.shards > 1 {
			return Result{}, fmt.Errorf("%w: shard %d/%d: n=%d is one task, not split", ErrBadOption, cfg.shard, cfg.shards, n)
		}
		if n == 1 {
			res.Total, res.Unique = 1, 1
		}
		res.Tasks = 1
		res.Elapsed = time.Since(begin)
		return res, nil
	}
	all := tasks(n)
	if res.AllTasks = len(all); cfg.shards > len(all) {
		return Result{}, fmt.Errorf("%w: shard %d/%d: n=%d splits into at most %d shards", ErrBadOption, cfg.shard, cfg.shards, n, len(all))
	}
	var mine []int
	for i := cfg.shard; i < len(all); i += cfg.shards {
		mine = append(mine, i)
	}
	mine = shuffleSpans(mine, 256, uint64(n))

	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	var done atomic.Int64
	var solutions atomic.Uint64
	stopReport := report(cfg, func() Progress {
		return Progress{TasksDone: int(done.Load()), Tasks: len(mine), Solutions: solutions.Load(), Elapsed: time.Since(begin)}
	})

	searches := make([]*search, min(cfg.workers, len(mine)))
	errStopped := errors.New("stopped")
	err = pool.Run(context.Background(), len(searches), len(mine), func(w, i int) error {
		if searches[w] == nil {
			searches[w] = newSearch(n, &stop)
		}
		s := searches[w]
		c2, c4, c8 := s.c2, s.c4, s.c8
		s.run(&all[mine[i]])
		if s.stopped {
			return errStopped // ctx is done: the other workers stop too
		}
		solutions.Add(2*(s.c2-c2) + 4*(s.c4-c4) + 8*(s.c8-c8))
		done.Add(1)
		return nil
	})
	if err != nil && !errors.Is(err, errStopped) {
		return Result{}, err
	}
	for _, s := range searches {
		if s != nil {
			res.C2 += s.c2
			res.C4 += s.c4
			res.C8 += s.c8
		}
	}
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

// shuffleSpans reorders tasks by spans of size consecutive tasks: the
// spans come in random order, so that the share of tasks done estimates
// the share of work done, while within a span neighbouring tasks, which
// take the same branches, stay together for the branch predictor (3% on
// one core for n = 16).
func shuffleSpans(tasks []int, size int, seed uint64) []int {
	spans := (len(tasks) + size - 1) / size
	out := make([]int, 0, len(tasks))
	for _, b := range rand.New(rand.NewPCG(seed, 17)).Perm(spans) {
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
// for different boards or cuts, a shard missing, repeated or out of range,
// results whose totals contradict their classes of solutions, whose tasks
// do not add up to the search's, or whose sums overflow; it returns the
// whole search's Result. It never panics, whatever the Results hold.
func Merge(results ...Result) (Result, error) {
	fail := func(format string, args ...any) (Result, error) {
		return Result{}, fmt.Errorf("%w: %s", ErrMerge, fmt.Sprintf(format, args...))
	}
	if len(results) == 0 {
		return fail("no results")
	}
	ids := make([]shard.ID, len(results))
	first := results[0]
	for i, r := range results {
		switch {
		case r.N != first.N:
			return fail("results for n=%d and n=%d", first.N, r.N)
		case r.AllTasks != first.AllTasks || r.AllTasks < 1:
			return fail("shard %d/%d: a search cut into %d tasks, not %d", r.Shard, r.Shards, r.AllTasks, first.AllTasks)
		case r.Shards > r.AllTasks:
			return fail("shard %d/%d of a search of %d tasks", r.Shard, r.Shards, r.AllTasks)
		case r.Tasks < 0 || r.Tasks > r.AllTasks:
			return fail("shard %d/%d: %d tasks of %d", r.Shard, r.Shards, r.Tasks, r.AllTasks)
		}
		if err := r.consistent(); err != nil {
			return fail("shard %d/%d: %v", r.Shard, r.Shards, err)
		}
		ids[i] = shard.ID{Index: r.Shard, Count: r.Shards}
	}
	if err := shard.Complete(ids); err != nil {
		return fail("%v", err)
	}
	out := Result{N: first.N, AllTasks: first.AllTasks, Shards: 1}
	var carry uint64
	for _, r := range results {
		var c [5]uint64
		out.Total, c[0] = bits.Add64(out.Total, r.Total, 0)
		out.Unique, c[1] = bits.Add64(out.Unique, r.Unique, 0)
		out.C2, c[2] = bits.Add64(out.C2, r.C2, 0)
		out.C4, c[3] = bits.Add64(out.C4, r.C4, 0)
		out.C8, c[4] = bits.Add64(out.C8, r.C8, 0)
		for _, x := range c {
			carry |= x
		}
		out.Tasks += r.Tasks
		out.Elapsed = max(out.Elapsed, r.Elapsed)
	}
	switch {
	case carry != 0:
		return fail("the totals pass 2^64")
	case out.Tasks != out.AllTasks:
		return fail("the shards searched %d tasks, the search has %d", out.Tasks, out.AllTasks)
	}
	return out, nil
}

// consistent reports an error unless r's totals agree with its classes:
// each unique solution stands for 2, 4 or 8 solutions by its symmetry.
func (r Result) consistent() error {
	if r.N < 4 {
		// One solution for n = 1, none for 2 and 3.
		if r.C2|r.C4|r.C8 != 0 || r.Total != r.Unique || r.Total > 1 || r.N != 1 && r.Total != 0 {
			return fmt.Errorf("n=%d has %d solutions, %d unique, classes %d/%d/%d", r.N, r.Total, r.Unique, r.C2, r.C4, r.C8)
		}
		return nil
	}
	// Sums in 128 bits, so that forged classes cannot wrap to a match.
	var unique, total [2]uint64
	for _, t := range []struct{ c, m uint64 }{{r.C2, 2}, {r.C4, 4}, {r.C8, 8}} {
		var carry uint64
		unique[0], carry = bits.Add64(unique[0], t.c, 0)
		unique[1] += carry
		hi, lo := bits.Mul64(t.c, t.m)
		total[0], carry = bits.Add64(total[0], lo, 0)
		total[1] += hi + carry
	}
	if unique != [2]uint64{r.Unique, 0} || total != [2]uint64{r.Total, 0} {
		return fmt.Errorf("%d solutions, %d unique, do not match classes c2=%d c4=%d c8=%d", r.Total, r.Unique, r.C2, r.C4, r.C8)
	}
	return nil
}
