package knightstour

import (
	"context"
	"testing"
)

// benchCount counts the tours of an R x C board from the lower-left corner
// b.N times and reports tours and nodes per second.
func benchCount(b *testing.B, rows, cols, workers int, want uint64) {
	s, err := NewSolver(rows, cols, WithWorkers(workers))
	if err != nil {
		b.Fatal(err)
	}
	var st Stats
	b.ReportAllocs()
	for b.Loop() {
		st, err = s.Count(context.Background())
		if err != nil || st.Tours != want {
			b.Fatalf("Count = %d, %v; want %d", st.Tours, err, want)
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(st.Tours)/sec, "tours/s")
	b.ReportMetric(float64(st.Nodes)/sec, "nodes/s")
}

func BenchmarkCount6x6Seq(b *testing.B)  { benchCount(b, 6, 6, 1, 524486) }
func BenchmarkCount6x6Par2(b *testing.B) { benchCount(b, 6, 6, 2, 524486) }
func BenchmarkCount5x6Seq(b *testing.B)  { benchCount(b, 5, 6, 1, 4542) }
