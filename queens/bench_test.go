package queens

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkCount counts n = 14..17 on one and two workers, reporting
// solutions per second (BENCHMARKS.md; scripts/bench.sh runs it).
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{14, 15, 16, 17} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(b *testing.B) {
				var r Result
				for b.Loop() {
					var err error
					if r, err = Count(context.Background(), n, WithWorkers(workers)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(r.Total)/(b.Elapsed().Seconds()/float64(b.N)), "solutions/s")
			})
		}
	}
}
