package enum

import (
	"sync/atomic"
	"time"

	"github.com/euler1758/knightstour/internal/progress"
)

// Stats describes a finished (or stopped) walk.
type Stats struct {
	Tours    uint64 // tours found
	Nodes    uint64 // squares entered, a measure of work
	Tasks    int    // pieces of the tree this walk searched
	AllTasks int    // pieces the whole tree was cut into (all the shards)
	// Shard and Shards say which part of the tree these are: shard Shard
	// of Shards, 0 of 1 for the whole tree.
	Shard, Shards int
	Workers       int           // goroutines that searched
	Elapsed       time.Duration // wall-clock time
}

// Progress is a snapshot of a running walk.
type Progress struct {
	TasksDone, Tasks int
	Tours, Nodes     uint64 // in the tasks done so far
	Elapsed          time.Duration
}

// tally counts finished tasks for progress reports; every worker adds to it.
type tally struct {
	tasks        int
	start        time.Time
	done         atomic.Int64
	tours, nodes atomic.Uint64
}

func (t *tally) add(tours, nodes uint64) {
	t.tours.Add(tours)
	t.nodes.Add(nodes)
	t.done.Add(1)
}

func (t *tally) snapshot() Progress {
	return Progress{
		TasksDone: int(t.done.Load()),
		Tasks:     t.tasks,
		Tours:     t.tours.Load(),
		Nodes:     t.nodes.Load(),
		Elapsed:   time.Since(t.start),
	}
}

// report calls fn with a snapshot every interval until the returned stop
// function is called; stop waits for the reporter, then reports once more.
func (t *tally) report(every time.Duration, fn func(Progress)) (stop func()) {
	if fn == nil {
		return func() {}
	}
	return progress.Every(every, func() { fn(t.snapshot()) })
}
