package queens

import (
	"fmt"
	"runtime"
	"time"

	"github.com/euler1758/knightstour/internal/progress"
)

// Option configures Count.
type Option func(*config) error

type config struct {
	method        Method
	workers       int
	shard, shards int
	progress      func(Progress)
	every         time.Duration
}

// MaxWorkers is the most goroutines WithWorkers takes.
const MaxWorkers = 1024

// WithWorkers sets how many goroutines search (default GOMAXPROCS). It
// never changes a result.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 || n > MaxWorkers {
			return fmt.Errorf("%w: %d workers (want 1 to %d)", ErrBadOption, n, MaxWorkers)
		}
		c.workers = n
		return nil
	}
}

// WithMethod sets the way of counting (default Auto). It never changes a
// total or a class count, but it changes the tasks a count is cut into,
// so shards of one count must share it.
func WithMethod(m Method) Option {
	return func(c *config) error {
		if int(m) >= len(methods) {
			return fmt.Errorf("%w: %v", ErrBadOption, m)
		}
		c.method = m
		return nil
	}
}

// WithShard makes Count search only shard i of n (0 <= i < n): every n-th
// task of a task list that depends on the board size and the method
// alone, so that n processes on any machines, each given its i, search
// every task exactly once, and Merge adds their Results. The constellation
// method's tens of thousands of tasks, each a constellation with a few
// more queens placed, spread evenly over the shards.
func WithShard(i, n int) Option {
	return func(c *config) error {
		if n < 1 || i < 0 || i >= n {
			return fmt.Errorf("%w: shard %d/%d (want 0 <= i < n)", ErrBadOption, i, n)
		}
		c.shard, c.shards = i, n
		return nil
	}
}

// WithProgress makes Count report to fn about every interval, from another
// goroutine, and once at the end.
func WithProgress(every time.Duration, fn func(Progress)) Option {
	return func(c *config) error {
		if every <= 0 || fn == nil {
			return fmt.Errorf("%w: progress needs a positive interval and a function", ErrBadOption)
		}
		c.progress, c.every = fn, every
		return nil
	}
}

// Progress is a snapshot of a running Count.
type Progress struct {
	TasksDone, Tasks int
	Solutions        uint64 // in the tasks done so far
	Elapsed          time.Duration
}

// Fraction returns the share of tasks done. Tasks are taken in a shuffled
// order, so it estimates the share of the work done.
func (p Progress) Fraction() float64 { return progress.Fraction(p.TasksDone, p.Tasks) }

// ETA estimates the time left; 0 until some work is done.
func (p Progress) ETA() time.Duration { return progress.ETA(p.Elapsed, p.Fraction()) }

func newConfig(opts []Option) (config, error) {
	c := config{workers: runtime.GOMAXPROCS(0), shards: 1}
	for i, o := range opts {
		if o == nil {
			return c, fmt.Errorf("%w: option %d of %d is nil", ErrMisuse, i+1, len(opts))
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}
