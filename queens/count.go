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
	Method Method
	Total  uint64 // all solutions
	Unique uint64 // solutions up to rotation and reflection
	// Classes of unique solutions by size: C2 map onto themselves under a
	// quarter turn, C4 under a half turn only, C8 under no symmetry.
	// Total = 2*C2 + 4*C4 + 8*C8 for n >= 4. A shard of the constellation
	// method, whose tasks count solutions without telling their classes
	// apart, leaves Unique and the classes zero: Merge finds them.
	C2, C4, C8 uint64
	// QuarterTurn and HalfTurn count the solutions that a quarter turn
	// and a half turn of the board leave unchanged (2*C2 and 2*C2+4*C4
	// for a whole search): with Total, they give the classes.
	QuarterTurn, HalfTurn uint64
	Tasks                 int // tasks searched
	// AllTasks is the tasks the whole search is cut into, fixed by N and
	// Method: the Tasks of all its shards add up to it, and no search
	// splits into more shards than it has tasks.
	AllTasks      int
	Shard, Shards int // which shard of how many; 0 of 1 for a whole search
	Elapsed       time.Duration
}

// counter is one worker's search, of either method, over the tasks of a
// count.
type counter interface {
	// run counts the solutions below task i, unless the count is stopped.
	run(i int)
	// solutions returns the solutions found so far, weighed.
	solutions() uint64
	// stopped reports whether the last run was cut short.
	stopped() bool
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
	if ctx == nil {
		return Result{}, fmt.Errorf("%w: a nil context.Context (use context.Background())", ErrMisuse)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	res := Result{N: n, Method: cfg.method.Resolve(n), Shard: cfg.shard, Shards: cfg.shards, AllTasks: 1}
	if n < 4 { // too small for the symmetry searches: 1 for n = 1, none for 2 and 3
		if cfg.shards > 1 {
			return Result{}, fmt.Errorf("%w: shard %d/%d: n=%d is one task, not split", ErrBadOption, cfg.shard, cfg.shards, n)
		}
		if n == 1 {
			res.Total, res.Unique, res.QuarterTurn, res.HalfTurn = 1, 1, 1, 1
		}
		res.Tasks = 1
		res.Elapsed = time.Since(begin)
		return res, nil
	}

	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	newCounter, finish, err := res.counters(ctx, &stop, cfg.shards == 1)
	if err != nil {
		return Result{}, err
	}
	if cfg.shards > res.AllTasks {
		return Result{}, fmt.Errorf("%w: shard %d/%d: n=%d splits into at most %d shards", ErrBadOption, cfg.shard, cfg.shards, n, res.AllTasks)
	}
	var mine []int
	for i := cfg.shard; i < res.AllTasks; i += cfg.shards {
		mine = append(mine, i)
	}
	mine = shuffleSpans(mine, 256, uint64(n))

	var done atomic.Int64
	var found atomic.Uint64
	stopReport := report(cfg, func() Progress {
		return Progress{TasksDone: int(done.Load()), Tasks: len(mine), Solutions: found.Load(), Elapsed: time.Since(begin)}
	})
	counters := make([]counter, min(cfg.workers, len(mine)))
	errStopped := errors.New("stopped")
	err = pool.Run(context.Background(), len(counters), len(mine), func(w, i int) error {
		if counters[w] == nil {
			counters[w] = newCounter()
		}
		c := counters[w]
		before := c.solutions()
		c.run(mine[i])
		if c.stopped() {
			return errStopped // ctx is done: the other workers stop too
		}
		found.Add(c.solutions() - before)
		done.Add(1)
		return nil
	})
	if err != nil && !errors.Is(err, errStopped) {
		return Result{}, err
	}
	err = finish(counters)
	stopReport()
	res.Tasks = len(mine)
	res.Elapsed = time.Since(begin)
	switch {
	case stop.Load():
		return res, ctx.Err()
	case err != nil: // never seen: the tests hold every n to 16 to the published counts
		return Result{}, fmt.Errorf("queens: n=%d: the count contradicts itself: %v", n, err)
	}
	return res, nil
}

// counters returns, for the count of res.N by res.Method, how to make a
// worker's counter and how to add up the counters into res when the work
// is done (with the classes of symmetry where whole); it sets
// res.AllTasks.
func (res *Result) counters(ctx context.Context, stop *atomic.Bool, whole bool) (newCounter func() counter, finish func([]counter) error, err error) {
	n := res.N
	switch res.Method {
	case Classic:
		all := tasks(n)
		res.AllTasks = len(all)
		newCounter = func() counter { return &classic{s: newSearch(n, stop), tasks: all} }
		finish = func(counters []counter) error {
			for _, c := range counters {
				if c, ok := c.(*classic); ok {
					res.C2 += c.s.c2
					res.C4 += c.s.c4
					res.C8 += c.s.c8
				}
			}
			res.Total = 2*res.C2 + 4*res.C4 + 8*res.C8
			res.Unique = res.C2 + res.C4 + res.C8
			res.QuarterTurn, res.HalfTurn = 2*res.C2, 2*res.C2+4*res.C4
			return nil
		}
	default:
		weights, units := frames(ctx, n)
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		// The last task counts the solutions the turns leave unchanged.
		res.AllTasks = len(units) + 1
		newCounter = func() counter {
			return &framer{n: n, weights: weights, units: units, fill: newFiller(n, stop)}
		}
		finish = func(counters []counter) error {
			for _, c := range counters {
				if c, ok := c.(*framer); ok {
					res.Total += c.total
					res.QuarterTurn += c.quarter
					res.HalfTurn += c.half
				}
			}
			if whole {
				return res.setClasses()
			}
			return nil
		}
	}
	return newCounter, finish, nil
}

// setClasses sets r's classes and unique count from its total and its
// counts of solutions the turns leave unchanged, and reports an error if
// they cannot be those of a whole search.
func (r *Result) setClasses() error {
	q, h, t := r.QuarterTurn, r.HalfTurn, r.Total
	if q%2 != 0 || h < q || (h-q)%4 != 0 || t < h || (t-h)%8 != 0 {
		return fmt.Errorf("%d solutions, %d unchanged by a quarter turn and %d by a half turn cannot be a whole count", t, q, h)
	}
	r.C2, r.C4, r.C8 = q/2, (h-q)/4, (t-h)/8
	r.Unique = r.C2 + r.C4 + r.C8
	return nil
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
// for different boards, methods or cuts, a shard missing, repeated or out
// of range, results whose totals contradict their classes of solutions,
// whose tasks do not add up to the search's, or whose sums overflow; it
// returns the whole search's Result, with its classes. It never panics,
// whatever the Results hold.
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
		case r.Method != first.Method:
			return fail("results of the %v and the %v method", first.Method, r.Method)
		case r.AllTasks != first.AllTasks:
			return fail("shard %d/%d: a search cut into %d tasks, not %d", r.Shard, r.Shards, r.AllTasks, first.AllTasks)
		}
		if err := r.check(); err != nil {
			return fail("%v", err)
		}
		ids[i] = shard.ID{Index: r.Shard, Count: r.Shards}
	}
	if err := shard.Complete(ids); err != nil {
		return fail("%v", err)
	}
	out := Result{N: first.N, Method: first.Method, AllTasks: first.AllTasks, Shards: 1}
	var carry uint64
	for _, r := range results {
		var c [3]uint64
		out.Total, c[0] = bits.Add64(out.Total, r.Total, 0)
		out.QuarterTurn, c[1] = bits.Add64(out.QuarterTurn, r.QuarterTurn, 0)
		out.HalfTurn, c[2] = bits.Add64(out.HalfTurn, r.HalfTurn, 0)
		carry |= c[0] | c[1] | c[2]
		out.Tasks += r.Tasks
		out.Elapsed = max(out.Elapsed, r.Elapsed)
	}
	switch {
	case carry != 0:
		return fail("the totals pass 2^64")
	case out.Tasks != out.AllTasks:
		return fail("the shards searched %d tasks, the search has %d", out.Tasks, out.AllTasks)
	}
	if out.N < 4 {
		out.Unique = out.Total // one task: the whole
	} else if err := out.setClasses(); err != nil {
		return fail("%v", err)
	}
	return out, nil
}

// Check reports an error, wrapping ErrResult, unless r could be the
// result of a count or of one shard of it: its board, method, shard and
// tasks in range, and its counts in agreement with each other (see
// consistent). Merge checks every result it adds.
func (r Result) Check() error {
	if err := r.check(); err != nil {
		return fmt.Errorf("%w: %v", ErrResult, err)
	}
	return nil
}

// check is Check without the sentinel, for Merge to wrap in its own.
func (r Result) check() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("shard %d/%d: %s", r.Shard, r.Shards, fmt.Sprintf(format, args...))
	}
	switch {
	case checkN(r.N) != nil:
		return fail("n=%d", r.N)
	case r.Method != Constellations && r.Method != Classic:
		return fail("method %v", r.Method)
	case r.AllTasks < 1:
		return fail("a search cut into %d tasks", r.AllTasks)
	case r.Shards < 1 || r.Shards > r.AllTasks || r.Shard < 0 || r.Shard >= r.Shards:
		return fail("not a shard of a search of %d tasks", r.AllTasks)
	case r.Tasks < 0 || r.Tasks > r.AllTasks:
		return fail("%d tasks of %d", r.Tasks, r.AllTasks)
	}
	if err := r.consistent(); err != nil {
		return fail("%v", err)
	}
	return nil
}

// consistent reports an error unless r's counts agree with each other:
// each unique solution stands for 2, 4 or 8 solutions by its symmetry, and
// the solutions a quarter turn leaves unchanged are among those a half
// turn does. A shard of the constellation method has no classes of its
// own; every other result has them.
func (r Result) consistent() error {
	if r.N < 4 {
		// One solution for n = 1, none for 2 and 3.
		if r.C2|r.C4|r.C8 != 0 || r.Total != r.Unique || r.Total > 1 || r.N != 1 && r.Total != 0 ||
			r.QuarterTurn != r.Total || r.HalfTurn != r.Total {
			return fmt.Errorf("n=%d has %d solutions, %d unique, classes %d/%d/%d, %d and %d unchanged by turns",
				r.N, r.Total, r.Unique, r.C2, r.C4, r.C8, r.QuarterTurn, r.HalfTurn)
		}
		return nil
	}
	if q, h := r.QuarterTurn, r.HalfTurn; q%2 != 0 || h < q || (h-q)%4 != 0 {
		return fmt.Errorf("%d solutions unchanged by a quarter turn and %d by a half turn", q, h)
	}
	if r.Method == Constellations && r.Shards > 1 && r.Unique|r.C2|r.C4|r.C8 == 0 {
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
	if r.QuarterTurn != 2*r.C2 || r.HalfTurn-r.QuarterTurn != 4*r.C4 {
		return fmt.Errorf("classes c2=%d c4=%d do not match %d solutions unchanged by a quarter turn and %d by a half turn", r.C2, r.C4, r.QuarterTurn, r.HalfTurn)
	}
	return nil
}
