// Package progress holds what the searches of knightstour and queens share
// for progress reports: the share of tasks done, the time left, and a
// goroutine that reports at an interval.
package progress

import (
	"sync"
	"time"
)

// Fraction returns done/total, or 0 when there is nothing to do.
func Fraction(done, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(done) / float64(total)
}

// ETA estimates the time left from the share done so far and the time it
// took; 0 until some work is done and once all of it is.
func ETA(elapsed time.Duration, fraction float64) time.Duration {
	if fraction <= 0 || fraction >= 1 {
		return 0
	}
	return time.Duration(float64(elapsed) * (1 - fraction) / fraction)
}

// Every calls report every interval, from its own goroutine, until the
// returned stop function is called; stop waits for that goroutine and then
// calls report once more, so that the last report is the final state.
func Every(interval time.Duration, report func()) (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				report()
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
		report()
	}
}
