package knightstour

import (
	"context"
	"flag"
	"math/big"
	"testing"
	"time"
)

// The benchmarks behind BENCHMARKS.md (scripts/bench.sh runs them). Boards
// start in the lower-left corner; "Seq" runs on one goroutine, "Par2" on two
// workers. Each reports tours/s and nodes/s besides the time.

// benchCount counts the tours b.N times.
func benchCount(b *testing.B, rows, cols, workers int, want uint64) {
	s, err := NewSolver(rows, cols, WithWorkers(workers))
	if err != nil {
		b.Fatal(err)
	}
	var st Stats
	b.ReportAllocs()
	for b.Loop() {
		st, err = s.Count(context.Background())
		if err != nil || st.Tours.Uint64() != want {
			b.Fatalf("Count = %d, %v; want %d", st.Tours, err, want)
		}
	}
	report(b, st)
}

// benchFind lists and stores every tour b.N times.
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
	var bytes int
	b.ReportAllocs()
	for b.Loop() {
		ts, err := find(context.Background())
		if err != nil || ts.Len() != want {
			b.Fatalf("found %d, %v; want %d", ts.Len(), err, want)
		}
		st, bytes = ts.Stats(), ts.size()
	}
	report(b, st)
	b.ReportMetric(float64(bytes)/1e6, "MB-stored")
}

func report(b *testing.B, st Stats) {
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(st.Tours.Uint64())/sec, "tours/s")
	b.ReportMetric(float64(st.Work.Nodes)/sec, "nodes/s")
}

func BenchmarkFind4x7Seq(b *testing.B)   { benchFind(b, 4, 7, 1, 1682) }
func BenchmarkFind4x7Par2(b *testing.B)  { benchFind(b, 4, 7, 2, 1682) }
func BenchmarkCount5x6Seq(b *testing.B)  { benchCount(b, 5, 6, 1, 4542) }
func BenchmarkCount6x6Seq(b *testing.B)  { benchCount(b, 6, 6, 1, 524486) }
func BenchmarkCount6x6Par2(b *testing.B) { benchCount(b, 6, 6, 2, 524486) }
func BenchmarkFind6x6Par2(b *testing.B)  { benchFind(b, 6, 6, 2, 524486) }
func BenchmarkCount5x8Seq(b *testing.B)  { benchCount(b, 5, 8, 1, 3742739) }
func BenchmarkCount5x8Par2(b *testing.B) { benchCount(b, 5, 8, 2, 3742739) }

// BenchmarkStream6x6Par2 streams all 6x6 tours in order on two workers
// without keeping them.
func BenchmarkStream6x6Par2(b *testing.B) {
	s, err := NewSolver(6, 6, WithWorkers(2))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n = 0
		for _, err := range s.All(context.Background()) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	report(b, Stats{Tours: new(big.Int).SetUint64(n)})
}

// BenchmarkCancelLatency measures how long a search of 8x8 (years of work)
// takes to return once its context is cancelled: the ms-to-return metric.
func BenchmarkCancelLatency(b *testing.B) {
	s, err := NewSolver(8, 8, WithWorkers(2))
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled time.Time
		timer := time.AfterFunc(5*time.Millisecond, func() {
			cancelled = time.Now()
			cancel()
		})
		_, err := s.Count(ctx)
		returned := time.Now()
		timer.Stop()
		cancel()
		if err == nil {
			b.Fatal("Count of 8x8 finished")
		}
		total += returned.Sub(cancelled)
	}
	b.ReportMetric(float64(total)/float64(b.N)/1e6, "ms-to-return")
}

// benchClosed counts the 6x6 closed tours from the corner, with or without
// seed 004's reduction (fix the first jump, reserve the last square).
func benchClosed(b *testing.B, reduce bool) {
	s, err := NewSolver(6, 6, WithClosed(), withReduction(reduce), WithWorkers(2))
	if err != nil {
		b.Fatal(err)
	}
	var st Stats
	for b.Loop() {
		if st, err = s.Count(context.Background()); err != nil || st.Tours.Uint64() != 19724 {
			b.Fatalf("Count = %d, %v", st.Tours, err)
		}
	}
	report(b, st)
}

func BenchmarkClosed6x6Par2(b *testing.B)         { benchClosed(b, true) }
func BenchmarkClosed6x6NoReducePar2(b *testing.B) { benchClosed(b, false) }

// BenchmarkCensus6x6Par2 counts the open tours from every square of 6x6
// (6,637,920), one square per symmetry class.
func BenchmarkCensus6x6Par2(b *testing.B) {
	for b.Loop() {
		c, err := RunCensus(context.Background(), 6, 6, WithWorkers(2))
		if err != nil || c.Directed.Uint64() != 6637920 {
			b.Fatalf("census = %v, %v", c, err)
		}
	}
	b.ReportMetric(6637920/(b.Elapsed().Seconds()/float64(b.N)), "tours/s")
}

// BenchmarkCensus6x6AllSquaresPar2 is the census without symmetry classes:
// every one of the 36 squares searched, to measure what the classes save.
func BenchmarkCensus6x6AllSquaresPar2(b *testing.B) {
	for b.Loop() {
		var total uint64
		for r := range 6 {
			for c := range 6 {
				s, err := NewSolver(6, 6, WithStart(Coordinate{r, c}), WithWorkers(2))
				if err != nil {
					b.Fatal(err)
				}
				st, err := s.Count(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				total += st.Tours.Uint64()
			}
		}
		if total != 6637920 {
			b.Fatalf("total %d", total)
		}
	}
	b.ReportMetric(6637920/(b.Elapsed().Seconds()/float64(b.N)), "tours/s")
}

// BenchmarkWarnsdorff255x256 finds one open tour of the largest board the
// Tour type holds (65,280 squares) from its middle, reporting ns per square.
func BenchmarkWarnsdorff255x256(b *testing.B) {
	start := WithStart(Coordinate{127, 85})
	for b.Loop() {
		if _, _, err := warnsdorff(context.Background(), 255, 256, start); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(255*256), "ns/square")
}

// benchDP counts by frontier dynamic programming and reports the states
// handled per second (summed over the steps), the counter's measure of
// work, and the peak of its state memory.
func benchDP(b *testing.B, rows, cols, workers int, want string, opts ...CountDPOption) {
	var res *DPCount
	for b.Loop() {
		var err error
		res, err = CountDP(context.Background(), rows, cols, append(opts, WithWorkers(workers))...)
		if err != nil {
			b.Fatal(err)
		}
		if res.Undirected.String() != want {
			b.Fatalf("%v undirected, want %s", res.Undirected, want)
		}
	}
	states := 0
	for _, n := range res.Work.States {
		states += n
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(res.Work.PeakStates), "peak-states")
	b.ReportMetric(float64(res.Work.PeakBytes)/1e6, "MB-states")
	b.ReportMetric(float64(res.Work.PeakBytes)/float64(res.Work.PeakStates), "bytes/state")
}

// BenchmarkDP5x5Par2 and BenchmarkDP4x7Par2 count boards whose layers
// are small: what a count costs beside its states, at every square.
func BenchmarkDP5x5Par2(b *testing.B) { benchDP(b, 5, 5, 2, "304") }
func BenchmarkDP4x7Par2(b *testing.B) { benchDP(b, 4, 7, 2, "1682") }

func BenchmarkDP5x8Par2(b *testing.B)       { benchDP(b, 5, 8, 2, "3742739") }
func BenchmarkDP6x6Par2(b *testing.B)       { benchDP(b, 6, 6, 2, "524486") }
func BenchmarkDP6x6Seq(b *testing.B)        { benchDP(b, 6, 6, 1, "524486") }
func BenchmarkDP6x8ClosedPar2(b *testing.B) { benchDP(b, 6, 8, 2, "55488142", WithClosed()) }
func BenchmarkDP5x8FreePar2(b *testing.B)   { benchDP(b, 5, 8, 2, "18061054", WithFreeEnds()) }
func BenchmarkDP6x7Par2(b *testing.B)       { benchDP(b, 6, 7, 2, "57968982") }

// BenchmarkDP6x7LeanPar2 takes the lean step, which the counter chooses
// when memory is short (8 rows), so that its bytes/state can be watched
// on a board that takes a second.
func BenchmarkDP6x7LeanPar2(b *testing.B) { benchDP(b, 6, 7, 2, "57968982", withLeanStep()) }

// BenchmarkDP6x7SpillPar2 takes the lean step with its layers on disk, as
// the counts of 8 rows do: only the tables of the layer being made take
// memory, one word a state.
func BenchmarkDP6x7SpillPar2(b *testing.B) {
	benchDP(b, 6, 7, 2, "57968982", withLeanStep(), WithSpill(b.TempDir()))
}

// BenchmarkDP7x7Lean is the lean step on the largest board that runs in
// about a minute: go test -bench DP7x7Lean -benchtime 1x -dp.long.
func BenchmarkDP7x7Lean(b *testing.B) {
	if !*dpLong {
		b.Skip("a minute a run: with -dp.long")
	}
	benchDP(b, 7, 7, 2, "19023006776", withLeanStep())
}

// benchConstruct builds one tour b.N times and reports the time per
// square; -benchmem's B/op is the memory it allocates, nearly all of it
// live at the peak (the links, then the tour).
func benchConstruct(b *testing.B, rows, cols int, opts ...FindTourOption) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := constructTour(context.Background(), rows, cols, opts...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows*cols), "ns/square")
}

func BenchmarkConstruct1000Closed(b *testing.B) { benchConstruct(b, 1000, 1000, WithClosed()) }
func BenchmarkConstruct1001Open(b *testing.B) {
	benchConstruct(b, 1001, 1001, WithStart(Coordinate{500, 500}))
}
func BenchmarkConstruct10000Closed(b *testing.B) { benchConstruct(b, 10000, 10000, WithClosed()) }
func BenchmarkConstructStrip4x100000(b *testing.B) {
	benchConstruct(b, 4, 100_000, WithStart(Coordinate{0, 50_000}))
}

// cancelLatency runs call with contexts cancelled after each of delays and
// reports the mean and the worst time from the cancel to the return, in
// milliseconds (ms-to-return, worst-ms-to-return).
func cancelLatency(b *testing.B, delays []time.Duration, call func(context.Context) error) {
	var total, worst time.Duration
	n := 0
	for b.Loop() {
		for _, d := range delays {
			ctx, cancel := context.WithCancel(context.Background())
			fired := make(chan time.Time, 1)
			timer := time.AfterFunc(d, func() { fired <- time.Now(); cancel() })
			err := call(ctx)
			returned := time.Now()
			if timer.Stop() { // it returned before the cancel
				b.Logf("returned within %v: %v", d, err)
				cancel()
				continue
			}
			cancel()
			lat := returned.Sub(<-fired)
			b.Logf("cancelled after %v: returned in %v", d, lat)
			total += lat
			worst = max(worst, lat)
			n++
		}
	}
	b.ReportMetric(float64(total)/float64(max(n, 1))/1e6, "ms-to-return")
	b.ReportMetric(float64(worst)/1e6, "worst-ms-to-return")
}

// BenchmarkCancelConstruct cancels the construction of a tour of
// 20000x20000 (400 million squares, about 3 s) at several points.
func BenchmarkCancelConstruct(b *testing.B) {
	if !*cancelLong {
		b.Skip("builds 400 million squares (3 GB) per cancel: with -cancel.long")
	}
	cancelLatency(b, []time.Duration{10 * time.Millisecond, 100 * time.Millisecond, 300 * time.Millisecond, 600 * time.Millisecond, time.Second, 1500 * time.Millisecond, 3 * time.Second, 5 * time.Second},
		func(ctx context.Context) error {
			_, err := constructTour(ctx, constructSide, constructSide)
			return err
		})
}

// BenchmarkCancelCountDP cancels a frontier count of the 8x8 closed tours
// (about 20 minutes) at several points: in the demand passes of its first
// minute and a half, then in its steps.
func BenchmarkCancelCountDP(b *testing.B) {
	if !*cancelLong {
		b.Skip("about eight minutes: with -cancel.long")
	}
	cancelLatency(b, []time.Duration{10 * time.Millisecond, 300 * time.Millisecond, time.Second, 5 * time.Second, 20 * time.Second, 2 * time.Minute, 4 * time.Minute},
		func(ctx context.Context) error {
			_, err := CountDP(ctx, 8, 8, WithClosed(), WithMemoryLimit(dpCancelMemory), WithSpill(b.TempDir()))
			return err
		})
}

// cancelLong runs the cancel benchmarks of whole large calls, which take
// minutes and gigabytes: go test -bench Cancel -cancel.long.
var cancelLong = flag.Bool("cancel.long", false, "run the cancel benchmarks of 20000x20000 and of 8x8 closed (minutes)")

// constructSide is the side of the board BenchmarkCancelConstruct builds.
var constructSide = 20000

// dpCancelMemory bounds the memory of BenchmarkCancelCountDP's counts.
var dpCancelMemory int64 = 6 << 30
