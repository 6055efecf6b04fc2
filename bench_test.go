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

// benchFind lists (and stores) every tour, sequentially or in parallel.
func benchFind(b *testing.B, rows, cols, workers int, want int) {
	s, err := NewSolver(rows, cols, WithWorkers(workers))
	if err != nil {
		b.Fatal(err)
	}
	find := s.FindMovesParallel
	if workers == 1 {
		find = s.FindMoves
	}
	var st Stats
	b.ReportAllocs()
	for b.Loop() {
		ts, err := find(context.Background())
		if err != nil || ts.Len() != want {
			b.Fatalf("found %d, %v; want %d", ts.Len(), err, want)
		}
		st = ts.Stats()
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(st.Tours)/sec, "tours/s")
	b.ReportMetric(float64(st.Nodes)/sec, "nodes/s")
}

func BenchmarkFind4x7Seq(b *testing.B)  { benchFind(b, 4, 7, 1, 1682) }
func BenchmarkFind4x7Par2(b *testing.B) { benchFind(b, 4, 7, 2, 1682) }
