package knightstour

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// settled waits for the goroutine count to fall back to base, and reports
// whether it did: a worker that outlives its call is a leak.
func settled(base int) bool {
	for range 200 {
		if runtime.NumGoroutine() <= base {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// TestCancel starts searches of 8x8, which would run for years, cancels
// them, and checks that every call returns the context's error, promptly,
// and leaves no goroutine behind. The latency is logged, not asserted (unit
// tests hold no timing limits); BenchmarkCancelLatency measures it.
func TestCancel(t *testing.T) {
	calls := map[string]func(*Solver, context.Context) error{
		"Count": func(s *Solver, ctx context.Context) error {
			_, err := s.Count(ctx)
			return err
		},
		"FindMoves": func(s *Solver, ctx context.Context) error {
			_, err := s.FindMoves(ctx)
			return err
		},
		"FindMovesParallel": func(s *Solver, ctx context.Context) error {
			_, err := s.FindMovesParallel(ctx)
			return err
		},
		"All": func(s *Solver, ctx context.Context) error {
			for _, err := range s.All(ctx) {
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
	for name, call := range calls {
		for _, workers := range []int{1, 2, 4} {
			base := runtime.NumGoroutine()
			s := mustSolver(t, 8, 8, WithWorkers(workers))
			ctx, cancel := context.WithCancel(context.Background())
			timer := time.AfterFunc(30*time.Millisecond, cancel)
			var cancelled atomic.Int64
			stop := context.AfterFunc(ctx, func() { cancelled.Store(time.Now().UnixNano()) })
			err := call(s, ctx)
			returned := time.Now().UnixNano()
			stop()
			timer.Stop()
			cancel()
			if at := cancelled.Load(); at != 0 {
				t.Logf("%s, %d workers: returned %v after cancel", name, workers, time.Duration(returned-at))
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s, %d workers: err = %v, want context.Canceled", name, workers, err)
			}
			if !settled(base) {
				t.Errorf("%s, %d workers: %d goroutines left, had %d", name, workers, runtime.NumGoroutine(), base)
			}
		}
	}
}

// TestStopEarly breaks out of parallel streams and checks that the workers
// are released.
func TestStopEarly(t *testing.T) {
	base := runtime.NumGoroutine()
	s := mustSolver(t, 6, 6, WithWorkers(4))
	for _, stopAt := range []int{0, 1, 1000, 100000} {
		i := 0
		for _, err := range s.All(context.Background()) {
			if err != nil {
				t.Fatal(err)
			}
			if i == stopAt {
				break
			}
			i++
		}
	}
	if !settled(base) {
		t.Errorf("%d goroutines left, had %d", runtime.NumGoroutine(), base)
	}
}

func TestAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, workers := range []int{1, 2} {
		s := mustSolver(t, 8, 8, WithWorkers(workers))
		if _, err := s.Count(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%d workers: Count err = %v", workers, err)
		}
		if _, err := s.First(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%d workers: First err = %v", workers, err)
		}
	}
}

func TestProgress(t *testing.T) {
	for _, workers := range []int{1, 2} {
		var mu sync.Mutex
		var reports []Progress
		s := mustSolver(t, 5, 7, WithWorkers(workers), WithProgress(time.Millisecond, func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, p)
		}))
		st, err := s.Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		last := reports[len(reports)-1]
		mu.Unlock()
		if last.TasksDone != last.Tasks || last.Tasks != st.Work.Tasks || last.Tours != st.Tours.Uint64() {
			t.Errorf("%d workers: last report %+v, stats %+v", workers, last, st)
		}
		if st.Work.Tasks < 100 {
			t.Errorf("%d workers: only %d tasks to report progress on", workers, st.Work.Tasks)
		}
		for i := 1; i < len(reports); i++ {
			if reports[i].TasksDone < reports[i-1].TasksDone {
				t.Errorf("%d workers: progress went back: %+v then %+v", workers, reports[i-1], reports[i])
			}
		}
	}
}
