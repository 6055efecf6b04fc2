package queens

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
)

// BenchmarkCount counts n = 14..17 by both methods on one and two
// workers, reporting solutions per second (BENCHMARKS.md; scripts/bench.sh
// runs it).
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{14, 15, 16, 17} {
		for _, m := range []Method{Constellations, Classic} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("n=%d/%v/workers=%d", n, m, workers), func(b *testing.B) {
					var r Result
					for b.Loop() {
						var err error
						if r, err = Count(context.Background(), n, WithMethod(m), WithWorkers(workers)); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(r.Total)/(b.Elapsed().Seconds()/float64(b.N)), "solutions/s")
				})
			}
		}
	}
}

// BenchmarkFill runs the constellation method's search alone over the
// work units of n = 15, set up once: it allocates nothing.
func BenchmarkFill(b *testing.B) {
	const n = 15
	weights, units := frames(context.Background(), n)
	f := framer{n: n, weights: weights, units: units, fill: newFiller(n, new(atomic.Bool))}
	b.ReportAllocs()
	for b.Loop() {
		f.total = 0
		for i := range units {
			f.run(i)
		}
	}
	if f.total != 2279184 {
		b.Fatalf("%d solutions", f.total)
	}
	b.ReportMetric(float64(f.total)/(b.Elapsed().Seconds()/float64(b.N)), "solutions/s")
}
