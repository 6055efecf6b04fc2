package progress

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestFractionAndETA(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		fraction    float64
		eta         time.Duration
	}{
		{0, 0, time.Second, 0, 0},
		{0, 4, time.Second, 0, 0},
		{1, 4, 3 * time.Second, 0.25, 9 * time.Second},
		{4, 4, time.Second, 1, 0},
	}
	for _, tt := range tests {
		f := Fraction(tt.done, tt.total)
		if f != tt.fraction || ETA(tt.elapsed, f) != tt.eta {
			t.Errorf("%d/%d after %v: %v, %v; want %v, %v", tt.done, tt.total, tt.elapsed, f, ETA(tt.elapsed, f), tt.fraction, tt.eta)
		}
	}
}

func TestEvery(t *testing.T) {
	var calls atomic.Int32
	stop := Every(time.Millisecond, func() { calls.Add(1) })
	time.Sleep(20 * time.Millisecond)
	stop()
	after := calls.Load()
	if after < 2 {
		t.Errorf("%d reports, want the ticks and a final one", after)
	}
	time.Sleep(5 * time.Millisecond)
	if calls.Load() != after {
		t.Errorf("reports went on after stop")
	}
}
