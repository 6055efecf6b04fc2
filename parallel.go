package knightstour

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// tasksPerWorker is how many tasks the tree is cut into per worker when the
// split depth is automatic. Many small tasks handed out one at a time keep
// every worker busy to the end, where a task per first jump (the seed's
// split) leaves most of them idle.
const tasksPerWorker = 512

// Before cutting the tree, the parallel calls search it on one goroutine
// for up to probeNodes nodes (a few milliseconds), keeping at most
// probeBytes of tours: most boards are done by then, faster than any split
// could do them. Otherwise the probe's work is dropped and the tree cut.
const (
	probeNodes = 1 << 16
	probeBytes = 1 << 20
	unlimited  = ^uint64(0)
)

// walk runs the search on workers goroutines and calls yield with every
// tour in order, on the calling goroutine, until yield returns false, the
// limit is reached or ctx is cancelled. With yield == nil it only counts.
func (s *Solver) walk(ctx context.Context, workers int, yield func([]uint16) bool) (Stats, error) {
	begin := time.Now()
	if err := ctx.Err(); err != nil {
		return Stats{Elapsed: time.Since(begin)}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()

	depth, target := s.cfg.splitDepth, tasksPerWorker*workers
	if depth < 0 && workers == 1 && s.cfg.progress == nil {
		depth = 0 // one unbroken search: nothing to balance or report
	}
	root := uint16(s.start.Row*s.cols + s.start.Col)
	if depth < 0 && workers > 1 && s.cfg.probe > 0 {
		if stats, done, err := s.probe(ctx, root, &stop, yield); done {
			stats.Elapsed = time.Since(begin)
			return stats, err
		}
	}
	tasks, nodes := split(newSearcher(s.g, &stop), s.g.n, root, depth, target)
	t := &tally{tasks: len(tasks), start: begin}
	stopReport := t.report(s.cfg.every, s.cfg.progress)

	var delivered uint64
	if inner := yield; inner != nil {
		yield = func(path []uint16) bool {
			delivered++
			return inner(path)
		}
	}
	var err error
	switch {
	case workers == 1 || len(tasks) <= 1:
		err = s.walkInOrder(ctx, tasks, t, &stop, yield)
	case yield == nil:
		err = s.walkShuffled(tasks, workers, t, &stop)
	default:
		err = s.walkOrdered(ctx, tasks, workers, t, &stop, yield)
	}
	stopReport()
	stats := Stats{
		Tours:   t.tours.Load(),
		Nodes:   nodes + t.nodes.Load(),
		Tasks:   len(tasks),
		Workers: min(workers, max(1, len(tasks))),
		Elapsed: time.Since(begin),
	}
	switch {
	case yield != nil:
		stats.Tours = delivered
	case s.cfg.limit > 0:
		stats.Tours = min(stats.Tours, s.cfg.limit)
	}
	if err == nil {
		err = ctx.Err()
	}
	return stats, err
}

// probe searches the whole tree on the calling goroutine within the probe
// budget. If it finishes (or reaches the limit) it delivers what it found
// and reports done; if not, it has delivered nothing.
func (s *Solver) probe(ctx context.Context, root uint16, stop *atomic.Bool, yield func([]uint16) bool) (stats Stats, done bool, err error) {
	limit := s.cfg.limit
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
	tours, nodes, ok := newSearcher(s.g, stop).search([]uint16{root}, emit, s.cfg.probe)
	if stop.Load() {
		return stats, true, ctx.Err()
	}
	if !ok && !reached {
		return stats, false, nil
	}
	stats = Stats{Tours: tours, Nodes: nodes, Tasks: 1, Workers: 1}
	if emit != nil {
		stats.Tours = found
	}
	if yield != nil {
		n := s.g.n
		delivered := uint64(0)
		for ; len(buf) > 0 && yield(buf[:n:n]); buf = buf[n:] {
			delivered++
		}
		stats.Tours = delivered
	}
	if s.cfg.progress != nil {
		s.cfg.progress(Progress{TasksDone: 1, Tasks: 1, Tours: stats.Tours, Nodes: nodes})
	}
	return stats, true, nil
}

// limited wraps yield so that it also stops at the solver's limit; it
// returns nil when there is nothing to call, so that a plain count takes
// the search's fast path.
func (s *Solver) limited(yield func([]uint16) bool) func([]uint16) bool {
	limit := s.cfg.limit
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
func (s *Solver) walkInOrder(ctx context.Context, tasks [][]uint16, t *tally, stop *atomic.Bool, yield func([]uint16) bool) error {
	sr := newSearcher(s.g, stop)
	emit := s.limited(yield)
	for _, task := range tasks {
		tours, nodes, ok := sr.search(task, emit, unlimited)
		t.add(tours, nodes)
		if !ok {
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
func (s *Solver) walkShuffled(tasks [][]uint16, workers int, t *tally, stop *atomic.Bool) error {
	order := rand.New(rand.NewPCG(1, 2)).Perm(len(tasks))
	var next atomic.Int64
	var found atomic.Uint64
	var g errgroup.Group
	for range workers {
		g.Go(func() error {
			sr := newSearcher(s.g, stop)
			var emit func([]uint16) bool // nil: the search only counts
			if limit := s.cfg.limit; limit > 0 {
				emit = func([]uint16) bool {
					if found.Add(1) >= limit {
						stop.Store(true) // enough: stop the other workers too
						return false
					}
					return true
				}
			}
			for {
				i := next.Add(1) - 1
				if i >= int64(len(tasks)) {
					return nil
				}
				tours, nodes, ok := sr.search(tasks[order[i]], emit, unlimited)
				t.add(tours, nodes)
				if !ok {
					return nil
				}
			}
		})
	}
	return g.Wait()
}

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
func (s *Solver) walkOrdered(ctx context.Context, tasks [][]uint16, workers int, t *tally, stop *atomic.Bool, yield func([]uint16) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := ctx.Done()
	n := s.g.n
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
	var next atomic.Int64
	var g errgroup.Group
	for range workers {
		g.Go(func() error {
			sr := newSearcher(s.g, stop)
			for {
				select {
				case <-tokens:
				case <-done:
					return nil
				}
				i := next.Add(1) - 1
				if i >= int64(len(tasks)) {
					return nil
				}
				if !s.produce(sr, tasks[i], slots[i], perChunk, free, done, t) {
					return nil
				}
			}
		})
	}

	emit := s.limited(yield)
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
	_ = g.Wait()
	return err
}

// produce runs one task and sends its tours to out in chunks, closing out
// at the end. It returns false if the run was stopped.
func (s *Solver) produce(sr searcher, task []uint16, out slot, perChunk int, free chan chunk, done <-chan struct{}, t *tally) bool {
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
