package pool

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRunEachOnce(t *testing.T) {
	for _, tt := range []struct{ workers, n int }{{1, 0}, {1, 10}, {4, 1000}, {16, 3}, {0, 5}} {
		counts := make([]atomic.Int32, tt.n)
		seen := make([]atomic.Bool, max(1, tt.workers))
		err := Run(context.Background(), tt.workers, tt.n, func(w, i int) error {
			counts[i].Add(1)
			seen[w].Store(true)
			return nil
		})
		got := make([]int32, tt.n)
		for i := range counts {
			got[i] = counts[i].Load()
		}
		want := make([]int32, tt.n)
		for i := range want {
			want[i] = 1
		}
		if diff := cmp.Diff(want, got); diff != "" || err != nil {
			t.Errorf("%d workers, %d pieces: %v, counts (-want +got):\n%s", tt.workers, tt.n, err, diff)
		}
	}
}

func TestRunStops(t *testing.T) {
	base := runtime.NumGoroutine()
	boom := errors.New("boom")
	var after atomic.Int64
	err := Run(context.Background(), 4, 1_000_000, func(_, i int) error {
		if i == 100 {
			return boom
		}
		if i > 1000 {
			after.Add(1)
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want the first error", err)
	}
	if after.Load() > 1000 {
		t.Errorf("%d pieces ran long after the error", after.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	err = Run(ctx, 4, 1<<40, func(_, _ int) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	for range 100 {
		if runtime.NumGoroutine() <= base {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("%d goroutines left, had %d", runtime.NumGoroutine(), base)
}
