package enum

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/euler1758/knightstour/internal/pool"
)

// tasksPerWorker is how many tasks the tree is cut into per worker when the
// split depth is automatic. Many small tasks handed out one at a time keep
// every worker busy to the end, where a task per first jump (the seed's
// split) leaves most of them idle.
const tasksPerWorker = 512

// shardTasks is how many tasks each shard of a sharded count gets.
const shardTasks = 256

// shardOf keeps every n-th task, starting at i.
func shardOf(tasks [][]uint16, i, n int) [][]uint16 {
	var out [][]uint16
	for k := i; k < len(tasks); k += n {
		out = append(out, tasks[k])
	}
	return out
}

// ProbeNodes is the default Config.Probe: before cutting the tree, a
// parallel walk searches it on one goroutine for up to this many nodes (a
// few milliseconds), keeping at most probeBytes of tours. Most boards are
// done by then, faster than any split could do them; otherwise the
// probe's work is dropped and the tree cut.
const ProbeNodes = 1 << 16

const (
	probeBytes = 1 << 20
	unlimited  = ^uint64(0)
)

// Config is how a Job searches. Its zero value searches the whole tree,
// cut automatically, with no limit, budget, shard or reports.
type Config struct {
	// SplitDepth is how many jumps below the root the tree is cut into
	// tasks; -1 chooses it (tasksPerWorker a worker), and 0 with one
	// worker and no reports searches in one piece.
	SplitDepth int
	Limit      uint64 // stop after this many tours; 0: no limit
	// Progress, when not nil, is called every Every, and once at the end.
	Progress func(Progress)
	Every    time.Duration
	Probe    uint64 // node budget of the single-goroutine try; 0: none
	// Shard of Shards: walk only every Shards-th task, from the Shard-th,
	// of a tree cut the same way whatever the workers. Shards 0: all.
	Shard, Shards int
	Budget        uint64 // nodes the walk may enter; 0: no limit. One worker.
}

// Job is one search: the tours that start with Root and end on one of
// Ends (nil: anywhere), on Graph.
type Job struct {
	Graph  *Graph
	Root   []uint16
	Ends   []uint16
	Config Config
}

// Walk runs the search on workers goroutines and calls yield with every
// tour in order, on the calling goroutine, until yield returns false, the
// limit is reached or ctx is cancelled. With yield == nil it only counts.
// A Root of nil, or one whose squares no tour can follow, has no tours.
func (j *Job) Walk(ctx context.Context, workers int, yield func([]uint16) bool) (Stats, error) {
	if j.Root == nil || len(j.Root) > 1 && !j.Graph.balanced(j.Root) { // no tour can exist
		return Stats{Shard: j.Config.Shard, Shards: max(1, j.Config.Shards)}, ctx.Err()
	}
	begin := time.Now()
	if err := ctx.Err(); err != nil {
		return Stats{Elapsed: time.Since(begin)}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()

	if j.Config.Budget > 0 {
		workers = 1 // a budget means the same work every time only on one goroutine
	}
	depth, target := j.Config.SplitDepth, tasksPerWorker*workers
	sharded := j.Config.Shards > 0
	switch {
	case sharded:
		// Every shard must cut the tree the same way, whatever its workers.
		target = shardTasks * j.Config.Shards
	case depth < 0 && workers == 1 && j.Config.Progress == nil:
		depth = 0 // one unbroken search: nothing to balance or report
	}
	if depth < 0 && workers > 1 && j.Config.Probe > 0 && !sharded {
		if stats, done, err := j.probe(ctx, &stop, yield); done {
			stats.Elapsed = time.Since(begin)
			return stats, err
		}
	}
	tasks, nodes := split(newSearcher(j.Graph, &stop, j.Ends), j.Graph.n, j.Root, depth, target)
	allTasks := len(tasks)
	if sharded {
		tasks = shardOf(tasks, j.Config.Shard, j.Config.Shards)
		if j.Config.Shard != 0 {
			nodes = 0 // the nodes above the tasks count once, in shard 0
		}
	}
	t := &tally{tasks: len(tasks), start: begin}
	stopReport := t.report(j.Config.Every, j.Config.Progress)

	var delivered uint64
	if inner := yield; inner != nil {
		yield = func(path []uint16) bool {
			delivered++
			return inner(path)
		}
	}
	var err error
	switch {
	case workers == 1 || len(tasks) <= 1 || j.Config.Budget > 0:
		err = j.walkInOrder(ctx, tasks, t, &stop, yield)
	case yield == nil:
		err = j.walkShuffled(tasks, workers, t, &stop)
	default:
		err = j.walkOrdered(ctx, tasks, workers, t, &stop, yield)
	}
	stopReport()
	stats := Stats{
		Tours:    t.tours.Load(),
		Nodes:    nodes + t.nodes.Load(),
		Tasks:    len(tasks),
		AllTasks: allTasks,
		Shard:    j.Config.Shard,
		Shards:   max(1, j.Config.Shards),
		Workers:  min(workers, max(1, len(tasks))),
		Elapsed:  time.Since(begin),
	}
	switch {
	case yield != nil:
		stats.Tours = delivered
	case j.Config.Limit > 0:
		stats.Tours = min(stats.Tours, j.Config.Limit)
	}
	if err == nil {
		err = ctx.Err()
	}
	return stats, err
}

// probe searches the whole tree on the calling goroutine within the probe
// budget. If it finishes (or reaches the limit) it delivers what it found
// and reports done; if not, it has delivered nothing.
func (j *Job) probe(ctx context.Context, stop *atomic.Bool, yield func([]uint16) bool) (stats Stats, done bool, err error) {
	limit := j.Config.Limit
	var buf []uint16
	var found uint64
	reached := false
	var emit func([]uint16) bool
	if yield != nil || limit > 0 {
		emit = func(path []uint16) bool {
			if yield != nil {
				if 2*(len(buf)+len(path)) > probeBytes {
					return false // too many to hold: leave it to the workers
				}
				buf = append(buf, path...)
			}
			found++
			reached = limit > 0 && found >= limit
			return !reached
		}
	}
	tours, nodes, ok := newSearcher(j.Graph, stop, j.Ends).search(j.Root, emit, j.Config.Probe)
	if stop.Load() {
		return stats, true, ctx.Err()
	}
	if !ok && !reached {
		return stats, false, nil
	}
	stats = Stats{Tours: tours, Nodes: nodes, Tasks: 1, AllTasks: 1, Shards: 1, Workers: 1}
	if emit != nil {
		stats.Tours = found
	}
	if yield != nil {
		n := j.Graph.n
		delivered := uint64(0)
		for ; len(buf) > 0 && yield(buf[:n:n]); buf = buf[n:] {
			delivered++
		}
		stats.Tours = delivered
	}
	if j.Config.Progress != nil {
		j.Config.Progress(Progress{TasksDone: 1, Tasks: 1, Tours: stats.Tours, Nodes: nodes})
	}
	return stats, true, nil
}

// limited wraps yield so that it also stops at the solver's limit; it
// returns nil when there is nothing to call, so that a plain count takes
// the search's fast path.
func (j *Job) limited(yield func([]uint16) bool) func([]uint16) bool {
	limit := j.Config.Limit
	if limit == 0 {
		return yield
	}
	var seen uint64
	return func(path []uint16) bool {
		seen++
		if yield != nil && !yield(path) {
			return false
		}
		return seen < limit
	}
}

// walkInOrder does the tasks one after another on the calling goroutine.
func (j *Job) walkInOrder(ctx context.Context, tasks [][]uint16, t *tally, stop *atomic.Bool, yield func([]uint16) bool) error {
	sr := newSearcher(j.Graph, stop, j.Ends)
	emit := j.limited(yield)
	stopped := false // by emit: the caller or the limit
	if emit != nil {
		inner := emit
		emit = func(path []uint16) bool {
			stopped = !inner(path)
			return !stopped
		}
	}
	budget, used := unlimited, uint64(0)
	if j.Config.Budget > 0 {
		budget = j.Config.Budget
	}
	for _, task := range tasks {
		tours, nodes, ok := sr.search(task, emit, budget-used)
		t.add(tours, nodes)
		used += nodes
		if !ok {
			if !stopped && !stop.Load() {
				return fmt.Errorf("%w: the node budget of %d is spent", ErrGaveUp, j.Config.Budget)
			}
			break
		}
	}
	if stop.Load() {
		return ctx.Err()
	}
	return nil
}

// walkShuffled counts on several workers, up to the limit if there is one.
// The tasks are handed out in a fixed shuffled order, so that big subtrees
// are spread over the whole run and the share of tasks done estimates the
// share of work done.
func (j *Job) walkShuffled(tasks [][]uint16, workers int, t *tally, stop *atomic.Bool) error {
	order := rand.New(rand.NewPCG(1, 2)).Perm(len(tasks))
	var found atomic.Uint64
	var emit func([]uint16) bool // nil: the search only counts
	if limit := j.Config.Limit; limit > 0 {
		emit = func([]uint16) bool {
			if found.Add(1) >= limit {
				stop.Store(true) // enough: stop the other workers too
				return false
			}
			return true
		}
	}
	searchers := make([]searcher, workers)
	err := pool.Run(context.Background(), workers, len(tasks), func(w, i int) error {
		if searchers[w] == nil {
			searchers[w] = newSearcher(j.Graph, stop, j.Ends)
		}
		tours, nodes, ok := searchers[w].search(tasks[order[i]], emit, unlimited)
		t.add(tours, nodes)
		if !ok {
			return errStopped // stopped, or the limit reached: the others stop too
		}
		return nil
	})
	if errors.Is(err, errStopped) {
		return nil
	}
	return err
}

// errStopped ends a pool's run when the search was stopped: the caller
// reports the context's error or the limit reached, not this.
var errStopped = errors.New("search stopped")

// chunk is a run of tours from one task, back to back.
type chunk []uint16

// slot carries one task's tours from the worker doing it to the consumer.
// The channel is closed when the task is done.
type slot chan chunk

// chunkBytes is about how much of a task's output a worker hands over at a
// time, and slotDepth how many such chunks may wait per task: together with
// the window of tasks in flight they bound the memory of an ordered stream.
const (
	chunkBytes = 64 << 10
	slotDepth  = 2
)

// walkOrdered searches on several workers and delivers the tours in order.
// Workers take tasks in order, each needing a token; the consumer returns a
// token when it has delivered a task's tours, so at most window tasks are
// ahead of it, and a worker whose output is not wanted yet waits. The task
// the consumer is waiting for is always running, so this cannot deadlock.
func (j *Job) walkOrdered(ctx context.Context, tasks [][]uint16, workers int, t *tally, stop *atomic.Bool, yield func([]uint16) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := ctx.Done()
	n := j.Graph.n
	perChunk := max(1, chunkBytes/2/n)
	slots := make([]slot, len(tasks))
	for i := range slots {
		slots[i] = make(slot, slotDepth)
	}
	window := 4 * workers
	// Chunks go back and forth between workers and consumer instead of
	// becoming garbage: enough for every slot plus one per worker.
	free := make(chan chunk, window*(slotDepth+1)+workers)
	tokens := make(chan struct{}, window)
	for range window {
		tokens <- struct{}{}
	}
	// The pool calls the function once per task, but a worker takes its
	// task only once it holds a token, from a counter of its own: so the
	// task the consumer waits for is always taken before any that hold the
	// tokens, and cannot wait for one.
	var next atomic.Int64
	searchers := make([]searcher, workers)
	produced := make(chan error, 1)
	go func() {
		produced <- pool.Run(ctx, workers, len(tasks), func(w, _ int) error {
			select {
			case <-tokens:
			case <-done:
				return errStopped
			}
			i := next.Add(1) - 1
			if searchers[w] == nil {
				searchers[w] = newSearcher(j.Graph, stop, j.Ends)
			}
			if !j.produce(searchers[w], tasks[i], slots[i], perChunk, free, done, t) {
				return errStopped
			}
			return nil
		})
	}()

	emit := j.limited(yield)
	var err error
deliver:
	for _, out := range slots {
		for {
			var c chunk
			var open bool
			select {
			case c, open = <-out:
			case <-done:
				err = ctx.Err()
				break deliver
			}
			if !open {
				break
			}
			for rest := c; len(rest) > 0; rest = rest[n:] {
				if !emit(rest[:n:n]) {
					break deliver
				}
			}
			select {
			case free <- c[:0]:
			default:
			}
		}
		tokens <- struct{}{}
	}
	if err == nil {
		stop.Store(true) // stopped early or finished: release the workers
	}
	cancel()
	<-produced // the workers' errors are the stop or the cancel, reported above
	return err
}

// produce runs one task and sends its tours to out in chunks, closing out
// at the end. It returns false if the run was stopped.
func (j *Job) produce(sr searcher, task []uint16, out slot, perChunk int, free chan chunk, done <-chan struct{}, t *tally) bool {
	defer close(out)
	var c chunk
	emit := func(path []uint16) bool {
		if c == nil {
			select {
			case c = <-free:
			default:
				c = make(chunk, 0, perChunk*len(path))
			}
		}
		c = append(c, path...)
		if len(c) < perChunk*len(path) {
			return true
		}
		select {
		case out <- c:
			c = nil
			return true
		case <-done:
			return false
		}
	}
	tours, nodes, ok := sr.search(task, emit, unlimited)
	t.add(tours, nodes)
	if ok && len(c) > 0 {
		select {
		case out <- c:
		case <-done:
			return false
		}
	}
	return ok
}
