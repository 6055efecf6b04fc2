package knightstour

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// dpLong runs the published counts that take minutes: go test -run
// TestCountDPPublished -dp.long.
var dpLong = flag.Bool("dp.long", false, "also run CountDP's slow published counts (minutes)")

func mustCountDP(t testing.TB, rows, cols int, opts ...CountDPOption) *DPCount {
	t.Helper()
	res, err := CountDP(context.Background(), rows, cols, opts...)
	if err != nil {
		t.Fatalf("CountDP(%dx%d): %v", rows, cols, err)
	}
	return res
}

// TestCountDPFigure2 reproduces every cell of the seed's Figure 2, the
// tours from the lower-left corner, as R x C and as C x R (both are in
// figure2).
func TestCountDPFigure2(t *testing.T) {
	t.Parallel()
	for b, want := range figure2(t) {
		if b[0]*b[1] > 30 && (raceEnabled || testing.Short()) {
			continue
		}
		res := mustCountDP(t, b[0], b[1])
		if res.Tours.Cmp(new(big.Int).SetUint64(want)) != 0 || res.Undirected.Cmp(res.Tours) != 0 {
			t.Errorf("%dx%d from the corner: %v tours (%v undirected); want %d", b[0], b[1], res.Tours, res.Undirected, want)
		}
	}
}

// TestCountDPAgainstEnumeration compares the frontier count with the
// enumerating search, which shares no code with it: from every start
// square, with free ends (a census), and closed, on boards that enumerate
// in milliseconds. Each board is also counted transposed, from the
// mirrored square.
func TestCountDPAgainstEnumeration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	boards := [][2]int{{1, 1}, {1, 4}, {2, 5}, {3, 3}, {3, 4}, {3, 5}, {3, 6}, {3, 7}, {3, 8}, {3, 10}, {4, 4}, {4, 5}, {4, 6}, {5, 5}}
	if exhaustive {
		boards = append(boards, [2]int{4, 7}, [2]int{5, 6})
	}
	for _, b := range boards {
		rows, cols := b[0], b[1]
		t.Run(fmt.Sprintf("%dx%d", rows, cols), func(t *testing.T) {
			for r := range rows {
				for c := range cols {
					if rows*cols > 25 && (r+c)%3 != 0 || rows*cols > 25 && !exhaustive && (r+c)%6 != 0 {
						continue // a sample of the starts on the larger boards
					}
					start := Coordinate{r, c}
					st, err := mustSolver(t, rows, cols, WithStart(start)).Count(ctx)
					if err != nil {
						t.Fatal(err)
					}
					want := st.Tours
					if got := mustCountDP(t, rows, cols, WithStart(start)).Tours; got.Cmp(want) != 0 {
						t.Errorf("from %v: %v tours, enumeration %v", start, got, want)
					}
					if got := mustCountDP(t, cols, rows, WithStart(Coordinate{c, r})).Tours; got.Cmp(want) != 0 {
						t.Errorf("transposed, from %v: %v tours, enumeration %v", Coordinate{c, r}, got, want)
					}
				}
			}
			census, err := RunCensus(ctx, rows, cols)
			if err != nil {
				t.Fatal(err)
			}
			free := mustCountDP(t, rows, cols, WithFreeEnds())
			if want := census.Directed; free.Tours.Cmp(want) != 0 {
				t.Errorf("free ends: %v tours, census %v", free.Tours, want)
			}
			if want := census.Undirected; rows*cols > 1 && free.Undirected.Cmp(want) != 0 {
				t.Errorf("free ends: %v undirected, census %v", free.Undirected, want)
			}
			closed, err := mustSolver(t, rows, cols, WithClosed()).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			res := mustCountDP(t, rows, cols, WithClosed())
			if want := closed.Tours; res.Tours.Cmp(want) != 0 {
				t.Errorf("closed: %v tours, enumeration %v", res.Tours, want)
			}
		})
	}
}

// TestCountDPPublished reproduces published counts (OEIS A165134, A083386,
// A175881, A070030). The slow ones run with -dp.long.
func TestCountDPPublished(t *testing.T) {
	const (
		fromCorner = iota
		free
		closed
	)
	tests := []struct {
		rows, cols int
		mode       int
		undirected string
		slow       bool // seconds: only under the build tag exhaustive, not with -race
		long       bool // minutes: only with -dp.long
	}{
		{3, 10, closed, "16", false, false},
		{3, 12, closed, "176", false, false},
		{3, 18, closed, "147728", false, false},
		{6, 6, closed, "9862", false, false},
		{6, 7, closed, "1067638", true, false},
		{6, 8, closed, "55488142", true, false},
		{6, 9, closed, "3374967940", false, true},
		{6, 10, closed, "239187240144", false, true},
		{5, 8, free, "18061054", true, false},
		{5, 9, free, "264895640", false, true},
		{6, 6, free, "3318960", true, false}, // 6,637,920 directed
		{5, 8, fromCorner, "3742739", true, false},
		{4, 11, fromCorner, "1268918", true, false},
		{6, 7, fromCorner, "57968982", false, true},
		{7, 7, free, "82787609160", false, true}, // 165,575,218,320 directed
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%dx%d mode %d", tt.rows, tt.cols, tt.mode)
		if tt.long && !*dpLong || tt.slow && (testing.Short() || raceEnabled || !exhaustive) {
			t.Logf("%s: skipped (slow)", name)
			continue
		}
		var opts []CountDPOption
		switch tt.mode {
		case free:
			opts = append(opts, WithFreeEnds())
		case closed:
			opts = append(opts, WithClosed())
		}
		res := mustCountDP(t, tt.rows, tt.cols, opts...)
		if got := res.Undirected.String(); got != tt.undirected {
			t.Errorf("%s: %s undirected, want %s", name, got, tt.undirected)
		}
		t.Logf("%s: %v in %v, peak %d states", name, res.Undirected, res.Work.Elapsed, res.Work.PeakStates)
	}
}

// TestCountDPStartsSum checks the counts from single squares against the
// count with free ends and the published totals (A165134): every directed
// open tour starts on exactly one square, so the counts from all squares
// add up to it. Squares that a symmetry maps onto each other start as many
// tours, so each orbit is counted once. 7x7 takes about four minutes:
// go test -run TestCountDPStartsSum -dp.long.
func TestCountDPStartsSum(t *testing.T) {
	tests := []struct {
		rows, cols int
		directed   string // published; "" where none is
		long       bool   // skipped but with -dp.long
	}{
		{5, 5, "1728", false},
		{4, 7, "", false},
		{5, 6, "", false},
		{6, 6, "6637920", !exhaustive},
		{7, 7, "165575218320", true},
	}
	for _, tt := range tests {
		if tt.long && !*dpLong {
			t.Logf("%dx%d: skipped (slow)", tt.rows, tt.cols)
			continue
		}
		sum := new(big.Int)
		for _, orbit := range orbits(tt.rows, tt.cols) {
			res := mustCountDP(t, tt.rows, tt.cols, WithStart(orbit[0]))
			sum.Add(sum, new(big.Int).Mul(res.Tours, big.NewInt(int64(len(orbit)))))
			t.Logf("%dx%d from %v (%d squares alike): %v tours in %v", tt.rows, tt.cols, orbit[0], len(orbit), res.Tours, res.Work.Elapsed)
		}
		if free := mustCountDP(t, tt.rows, tt.cols, WithFreeEnds()).Tours; sum.Cmp(free) != 0 {
			t.Errorf("%dx%d: the counts from every square add up to %v; with free ends %v", tt.rows, tt.cols, sum, free)
		}
		if tt.directed != "" && sum.String() != tt.directed {
			t.Errorf("%dx%d: the counts from every square add up to %v; published %s", tt.rows, tt.cols, sum, tt.directed)
		}
	}
}

// moreWorkers returns the numbers of workers that a test compares with one:
// an odd one, and with -tags exhaustive two and four as well.
func moreWorkers() []int {
	if exhaustive {
		return []int{2, 3, 4}
	}
	return []int{3}
}

// TestCountDPWorkers checks that the number of workers changes neither the
// count nor a single step's number of states.
func TestCountDPWorkers(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]CountDPOption{nil, {WithFreeEnds()}, {WithClosed()}} {
		want := mustCountDP(t, 5, 7, append(opts, WithWorkers(1))...)
		for _, workers := range moreWorkers() {
			got := mustCountDP(t, 5, 7, append(opts, WithWorkers(workers))...)
			if got.Tours.Cmp(want.Tours) != 0 {
				t.Errorf("%d workers: %v tours, 1 worker %v", workers, got.Tours, want.Tours)
			}
			if diff := cmp.Diff(want.Work.States, got.Work.States); diff != "" {
				t.Errorf("%d workers: states per step differ (-1 worker +%d):\n%s", workers, workers, diff)
			}
		}
	}
}

// TestCountDPSameCounts checks that the ways of counting that must not
// change a count give the default's counts, states after each square and
// counts by length: states packed in base 11 (as boards 8 squares wide
// swept row by row need, 17 squares in 64 bits), the lean step (which adds new states to
// tables as it makes them, where the tests otherwise take the buffered
// one), and both; also with counts of more than one limb (3x45, over
// 2^64).
func TestCountDPSameCounts(t *testing.T) {
	type board struct {
		rows, cols int
		opts       []CountDPOption
	}
	boards := []board{
		{5, 6, nil},
		{4, 7, []CountDPOption{WithFreeEnds()}},
		{6, 6, []CountDPOption{WithClosed()}},
		{4, 9, []CountDPOption{WithStart(Coordinate{1, 4})}},
		{3, 45, nil},
	}
	if exhaustive {
		boards = append(boards, board{5, 7, nil}, board{5, 8, []CountDPOption{WithAllLengths(), WithClosed()}})
	}
	// Base 11 keeps every state as it is, where keys in nibbles keep the
	// lesser of a state and its reflection at the end of a column (closed
	// tours and free ends): their states differ, not their counts.
	variants := []struct {
		name   string
		opts   []CountDPOption
		ignore []string
	}{
		{"base 11", []CountDPOption{withBase11()}, []string{"PeakBytes", "Elapsed", "DemandTime", "States", "PeakStates"}},
		{"lean step", []CountDPOption{withLeanStep()}, []string{"PeakBytes", "Elapsed", "DemandTime"}},
		{"lean step in base 11", []CountDPOption{withLeanStep(), withBase11()}, []string{"PeakBytes", "Elapsed", "DemandTime", "States", "PeakStates"}},
	}
	sameBig := cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })
	for _, b := range boards {
		if b.rows*b.cols >= 36 && !exhaustive {
			continue // 6x6 goes through each way in internal/frontier's tests
		}
		want := mustCountDP(t, b.rows, b.cols, b.opts...)
		for _, v := range variants {
			got := mustCountDP(t, b.rows, b.cols, append(append([]CountDPOption{}, b.opts...), v.opts...)...)
			if diff := cmp.Diff(want, got, sameBig, cmpopts.IgnoreFields(Work{}, v.ignore...)); diff != "" {
				t.Errorf("%dx%d %s (-default +%s):\n%s", b.rows, b.cols, v.name, v.name, diff)
			}
		}
	}
}

// TestCountDPEarlyStart checks that adding the start square where it lies
// (other states all the way) gives the count of adding it last.
func TestCountDPEarlyStart(t *testing.T) {
	for _, b := range []struct {
		rows, cols int
		start      Coordinate
	}{
		{5, 6, Coordinate{4, 0}},
		{6, 6, Coordinate{5, 0}},
		{4, 9, Coordinate{1, 4}},
		{7, 5, Coordinate{0, 4}},
		{3, 12, Coordinate{1, 0}},
	} {
		if b.rows*b.cols >= 36 && !exhaustive {
			continue // 6x6 goes through each way in internal/frontier's tests
		}
		want := mustCountDP(t, b.rows, b.cols, WithStart(b.start))
		got := mustCountDP(t, b.rows, b.cols, WithStart(b.start), WithEarlyStart())
		if got.Tours.Cmp(want.Tours) != 0 {
			t.Errorf("%dx%d from %v: early start %v, late %v", b.rows, b.cols, b.start, got.Tours, want.Tours)
		}
		if cmp.Equal(got.Work.States, want.Work.States) && b.rows*b.cols > 20 {
			t.Errorf("%dx%d from %v: the same states both ways: not a second computation", b.rows, b.cols, b.start)
		}
	}
	if _, err := CountDP(context.Background(), 5, 5, WithClosed(), WithEarlyStart()); !errors.Is(err, ErrBadOption) {
		t.Errorf("closed, early start: %v, want ErrBadOption", err)
	}
}

// TestCountDPSweep checks that the narrow sweep (other states all the way,
// fewer of them) gives the counts of the rows sweep, and that a sweep not
// among the three is refused.
func TestCountDPSweep(t *testing.T) {
	for _, b := range []struct {
		rows, cols int
		opts       []CountDPOption
	}{
		{5, 6, nil},
		{6, 6, []CountDPOption{WithStart(Coordinate{2, 3})}},
		{6, 6, []CountDPOption{WithClosed()}},
		{5, 5, []CountDPOption{WithFreeEnds()}},
		{4, 9, []CountDPOption{WithAllLengths()}},
		{7, 5, []CountDPOption{WithEarlyStart()}},
	} {
		if b.rows*b.cols >= 36 && !exhaustive {
			continue // 6x6 goes through each way in internal/frontier's tests
		}
		rows := mustCountDP(t, b.rows, b.cols, append(b.opts, WithSweep(SweepRows))...)
		if rows.Work.Sweep != SweepRows {
			t.Errorf("%dx%d: sweep %v, want rows", b.rows, b.cols, rows.Work.Sweep)
		}
		var narrow *DPCount
		for _, sweep := range []Sweep{SweepNarrow, SweepNarrowDown} {
			res := mustCountDP(t, b.rows, b.cols, append(b.opts, WithSweep(sweep))...)
			got := []any{res.Tours.String(), fmt.Sprint(res.ByLength), res.Work.Sweep}
			want := []any{rows.Tours.String(), fmt.Sprint(rows.ByLength), sweep}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%dx%d: sweep %v (-rows +%[3]v):\n%s", b.rows, b.cols, sweep, diff)
			}
			if cmp.Equal(rows.Work.States, res.Work.States) || narrow != nil && cmp.Equal(narrow.Work.States, res.Work.States) {
				t.Errorf("%dx%d: sweep %v keeps the states of another: not a second computation", b.rows, b.cols, sweep)
			}
			if slices.Max(res.Work.States) >= slices.Max(rows.Work.States) {
				t.Errorf("%dx%d: at most %d states by rows; by %v at most %d", b.rows, b.cols, slices.Max(rows.Work.States), sweep, slices.Max(res.Work.States))
			}
			narrow = res
		}
	}
	if got := mustCountDP(t, 3, 8).Work.Sweep; got != SweepNarrow {
		t.Errorf("3x8 by default: sweep %v, want narrow", got)
	}
	for _, s := range []Sweep{-1, SweepNarrowDown + 1} {
		if _, err := CountDP(context.Background(), 5, 5, WithSweep(s)); !errors.Is(err, ErrBadOption) {
			t.Errorf("WithSweep(%v): %v, want ErrBadOption", s, err)
		}
	}
}

// TestCountDPAcross checks that a count across the board (WithAcross)
// finds the count of one along it, with another width, that R x C and
// C x R agree across, and that a board longer than 8 or a count of every
// length is refused.
func TestCountDPAcross(t *testing.T) {
	for _, b := range []struct {
		rows, cols int
		opts       []CountDPOption
	}{
		{3, 7, nil},
		{7, 3, []CountDPOption{WithStart(Coordinate{1, 2})}},
		{4, 6, []CountDPOption{WithClosed()}},
		{5, 4, []CountDPOption{WithFreeEnds()}},
		{9, 3, []CountDPOption{WithFreeEnds()}}, // across, keys of 18 squares
	} {
		along := mustCountDP(t, b.rows, b.cols, b.opts...)
		across := mustCountDP(t, b.rows, b.cols, append(b.opts, WithAcross())...)
		want := []any{along.Tours.String(), min(b.rows, b.cols), max(b.rows, b.cols)}
		got := []any{across.Tours.String(), along.Work.Width, across.Work.Width}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%dx%d: tours, width along and across (-want +got):\n%s", b.rows, b.cols, diff)
		}
	}
	if a, b := mustCountDP(t, 4, 7, WithAcross()), mustCountDP(t, 7, 4, WithAcross(), WithStart(Coordinate{6, 0})); a.Tours.Cmp(b.Tours) != 0 {
		t.Errorf("across, 4x7 from a1: %v tours, 7x4 from its image: %v", a.Tours, b.Tours)
	}
	if _, err := CountDP(context.Background(), 3, 10, WithAcross()); !errors.Is(err, ErrBadSize) {
		t.Errorf("3x10 across: %v, want ErrBadSize", err)
	}
	if _, err := CountDP(context.Background(), 3, 9, WithAcross(), WithSweep(SweepRows)); !errors.Is(err, ErrBadOption) {
		t.Errorf("3x9 across by rows: %v, want ErrBadOption", err)
	}
	if _, err := CountDP(context.Background(), 3, 6, WithAcross(), WithAllLengths()); !errors.Is(err, ErrBadOption) {
		t.Errorf("3x6 across, every length: %v, want ErrBadOption", err)
	}
}

// TestSweepResolve checks that resolve names the sweep a count made with
// each sweep reports having used.
func TestSweepResolve(t *testing.T) {
	var want, got []Sweep
	for _, s := range []Sweep{SweepAuto, SweepRows, SweepNarrow, SweepNarrowDown} {
		want = append(want, mustCountDP(t, 4, 5, WithSweep(s)).Work.Sweep)
		got = append(got, s.resolve())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resolve (-counted +resolved):\n%s", diff)
	}
}

// TestCountDPDemands checks that dropping the states whose demands cannot
// be met changes no count, and that it leaves no more states at any step
// than keeping them all.
func TestCountDPDemands(t *testing.T) {
	for _, b := range []struct {
		rows, cols int
		opts       []CountDPOption
	}{
		{5, 6, nil},
		{6, 5, []CountDPOption{WithStart(Coordinate{2, 2})}},
		{4, 4, nil}, // no tour at all
		{4, 7, []CountDPOption{WithFreeEnds()}},
		{5, 5, []CountDPOption{WithFreeEnds()}},
		{6, 6, []CountDPOption{WithClosed()}},
		{3, 10, []CountDPOption{WithClosed()}},
		{4, 9, []CountDPOption{WithStart(Coordinate{1, 4})}},
		{3, 9, []CountDPOption{WithStart(Coordinate{1, 1})}}, // no tour from there
		// Every length: a state is kept if some shorter board can still end.
		{5, 8, []CountDPOption{WithAllLengths()}},
		{4, 10, []CountDPOption{WithAllLengths(), WithFreeEnds()}},
		{5, 7, []CountDPOption{WithAllLengths(), WithClosed()}},
	} {
		if b.rows*b.cols >= 36 && !exhaustive {
			continue // 6x6 goes through each way in internal/frontier's tests
		}
		all := mustCountDP(t, b.rows, b.cols, append(b.opts, withAllDemands())...)
		got := mustCountDP(t, b.rows, b.cols, b.opts...)
		if got.Tours.Cmp(all.Tours) != 0 || fmt.Sprint(got.ByLength) != fmt.Sprint(all.ByLength) {
			t.Errorf("%dx%d %d options: %v tours (by length %v), keeping every state %v (%v)", b.rows, b.cols, len(b.opts), got.Tours, got.ByLength, all.Tours, all.ByLength)
		}
		if len(got.Work.States) != len(all.Work.States) {
			t.Fatalf("%dx%d: %d steps, keeping every state %d", b.rows, b.cols, len(got.Work.States), len(all.Work.States))
		}
		for v := range got.Work.States {
			if got.Work.States[v] > all.Work.States[v] {
				t.Errorf("%dx%d: %d states after square %d, more than the %d kept without the demands", b.rows, b.cols, got.Work.States[v], v, all.Work.States[v])
			}
		}
		if got.Work.DemandTime <= 0 || got.Work.DemandTime > got.Work.Elapsed || all.Work.DemandTime != 0 {
			t.Errorf("%dx%d: DemandTime %v of %v, and %v keeping every state; want a part of the time, and 0 without demands",
				b.rows, b.cols, got.Work.DemandTime, got.Work.Elapsed, all.Work.DemandTime)
		}
		t.Logf("%dx%d %d options: peak %d states, %d keeping every state", b.rows, b.cols, len(b.opts), got.Work.PeakStates, all.Work.PeakStates)
	}
}

// TestCountDPBeyond64Bits counts the open tours of 3x45, which number more
// than 2^64, and checks them against the sum of the counts from every
// square: a second way through the frontier (a fixed start instead of two
// free ends) with the same wide arithmetic.
func TestCountDPBeyond64Bits(t *testing.T) {
	const rows, cols = 3, 45
	free := mustCountDP(t, rows, cols, WithFreeEnds())
	if free.Work.Limbs < 2 || free.Tours.BitLen() <= 64 {
		t.Fatalf("3x%d: %v tours in %d limbs; want a count past 64 bits", cols, free.Tours, free.Work.Limbs)
	}
	if !exhaustive {
		return // the sum over all 135 starts takes ten seconds
	}
	sum := new(big.Int)
	for r := range rows {
		for c := range cols {
			sum.Add(sum, mustCountDP(t, rows, cols, WithStart(Coordinate{r, c})).Tours)
		}
	}
	if sum.Cmp(free.Tours) != 0 {
		t.Errorf("3x%d: free ends %v, sum over starts %v", cols, free.Tours, sum)
	}
	t.Logf("3x%d: %v directed tours (%d bits)", cols, free.Tours, free.Tours.BitLen())
}

func TestCountDPErrors(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		opts       []CountDPOption
		want       error
	}{
		{"zero rows", 0, 5, nil, ErrBadSize},
		{"negative cols", 5, -1, nil, ErrBadSize},
		{"too wide", 10, 10, nil, ErrBadSize},
		{"too many squares", 8, 10000, nil, ErrBadSize},
		{"start off the board", 5, 5, []CountDPOption{WithStart(Coordinate{5, 0})}, ErrOffBoard},
		{"free ends and a start", 5, 5, []CountDPOption{WithFreeEnds(), WithStart(Coordinate{0, 0})}, ErrBadOption},
		{"free ends and closed", 5, 5, []CountDPOption{WithFreeEnds(), WithClosed()}, ErrBadOption},
		{"tiny memory limit", 5, 5, []CountDPOption{WithMemoryLimit(10)}, ErrBadOption},
		{"memory limit reached", 6, 6, []CountDPOption{WithMemoryLimit(1 << 20)}, ErrMemoryLimit},
		{"memory limit reached by the demands", 7, 7, []CountDPOption{WithMemoryLimit(1 << 20)}, ErrMemoryLimit},
		{"zero workers", 5, 5, []CountDPOption{WithWorkers(0)}, ErrBadOption},
	}
	for _, tt := range tests {
		_, err := CountDP(context.Background(), tt.rows, tt.cols, tt.opts...)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestCountDPCancel cancels a count of 7x7, which takes most of a minute,
// while it works out the demands, and checks that it returns the context's
// error and leaves no goroutine behind.
func TestCountDPCancel(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		base := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		begin := time.Now()
		_, err := CountDP(ctx, 7, 7, WithWorkers(workers))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%d workers: err = %v, want context.Canceled", workers, err)
		}
		t.Logf("%d workers: returned %v after the cancel", workers, time.Since(begin)-50*time.Millisecond)
		if !settled(base) {
			t.Errorf("%d workers: %d goroutines left, had %d", workers, runtime.NumGoroutine(), base)
		}
	}
}

// TestCountDPCancelInSteps cancels a count of 7x7 halfway through its
// steps (a progress report says so), where each step handles millions of
// states, and checks the same.
func TestCountDPCancelInSteps(t *testing.T) {
	if testing.Short() || raceEnabled || !exhaustive {
		t.Skip("takes seconds: under the build tag exhaustive")
	}
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var at atomic.Int64
	_, err := CountDP(ctx, 7, 7, WithProgress(10*time.Millisecond, func(p Progress) {
		if p.TasksDone >= 25 && at.Load() == 0 {
			at.Store(time.Now().UnixNano())
			cancel()
		}
	}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	t.Logf("returned %v after the cancel", time.Since(time.Unix(0, at.Load())))
	if !settled(base) {
		t.Errorf("%d goroutines left, had %d", runtime.NumGoroutine(), base)
	}
}

func TestCountDPProgress(t *testing.T) {
	var last atomic.Pointer[Progress]
	var calls atomic.Int64
	res := mustCountDP(t, 5, 7, WithProgress(time.Millisecond, func(p Progress) {
		calls.Add(1)
		last.Store(&p)
	}))
	p := last.Load()
	if p == nil || p.TasksDone != 35 || p.Tasks != 35 || calls.Load() < 1 {
		t.Fatalf("last progress %+v after %d calls; want 35 of 35 squares", p, calls.Load())
	}
	if len(res.Work.States) != 35 || res.Work.PeakStates == 0 || res.Work.PeakBytes == 0 {
		t.Errorf("States %v, peak %d states, %d bytes", res.Work.States, res.Work.PeakStates, res.Work.PeakBytes)
	}
}

// TestCountDPAllLengths checks the counts of the shorter boards that a
// count with WithAllLengths finds on the way against counts of each board
// alone.
func TestCountDPAllLengths(t *testing.T) {
	t.Parallel()
	for _, b := range []struct {
		rows, cols int
		opts       []CountDPOption
	}{
		{3, 14, nil},
		{5, 7, nil},
		{4, 10, []CountDPOption{WithFreeEnds()}},
		{3, 20, []CountDPOption{WithClosed()}},
		{6, 5, []CountDPOption{WithClosed()}},
		{5, 8, []CountDPOption{WithClosed()}},
		{9, 4, []CountDPOption{WithStart(Coordinate{2, 1})}}, // transposed: cut into k x 4
	} {
		if b.rows*b.cols == 40 && !exhaustive {
			continue // 5x8 closed, every length: with -tags exhaustive
		}
		res := mustCountDP(t, b.rows, b.cols, append(b.opts, WithAllLengths())...)
		var got, want []string
		for k := 1; k <= max(b.rows, b.cols); k++ {
			rows, cols := b.rows, k
			if b.rows > b.cols {
				rows, cols = k, b.cols
			}
			opts := b.opts
			if len(opts) == 0 {
				opts = []CountDPOption{WithStart(Coordinate{b.rows - 1, 0})}
			}
			if _, err := CountDP(context.Background(), rows, cols, opts...); errors.Is(err, ErrOffBoard) {
				want = append(want, "0")
			} else {
				want = append(want, mustCountDP(t, rows, cols, opts...).Tours.String())
			}
			got = append(got, res.ByLength[k-1].String())
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%dx%d %d options: by length (-alone +in one pass):\n%s", b.rows, b.cols, len(b.opts), diff)
		}
	}
}

// TestCountDPHalves checks which counts say they halved (Work.Halved):
// from a corner of a square board, as the board is given and turned, but
// not with the start placed early or every length, nor on a board that is
// not square, nor with free ends.
func TestCountDPHalves(t *testing.T) {
	for _, tt := range []struct {
		name       string
		rows, cols int
		opts       []CountDPOption
		want       bool
	}{
		{"5x5 from the corner", 5, 5, nil, true},
		{"5x5 from the opposite corner", 5, 5, []CountDPOption{WithStart(Coordinate{0, 4})}, true},
		{"6x6 from the corner", 6, 6, nil, true},
		{"5x5 from the centre", 5, 5, []CountDPOption{WithStart(Coordinate{2, 2})}, false},
		{"5x5 from the corner, the start early", 5, 5, []CountDPOption{WithEarlyStart()}, false},
		{"5x5 from the corner, every length", 5, 5, []CountDPOption{WithAllLengths()}, false},
		{"5x6 from the corner", 5, 6, nil, false},
		{"5x5 with free ends", 5, 5, []CountDPOption{WithFreeEnds()}, false},
	} {
		if got := mustCountDP(t, tt.rows, tt.cols, tt.opts...).Work.Halved; got != tt.want {
			t.Errorf("%s: halved %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestMergeDP checks that the shards of a frontier count add up to the
// whole count, and that MergeDP refuses parts that are not the shards of
// one count, each once and each what its label says.
func TestMergeDP(t *testing.T) {
	whole := mustCountDP(t, 5, 7, WithAllLengths())
	var parts []*DPCount
	for i := range 3 {
		parts = append(parts, mustCountDP(t, 5, 7, WithAllLengths(), WithShard(i, 3)))
	}
	got, err := MergeDP(parts[2], parts[0], parts[1])
	if err != nil {
		t.Fatal(err)
	}
	sameBig := cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })
	want := []any{whole.Tours, whole.Undirected, whole.ByLength, 1}
	if diff := cmp.Diff(want, []any{got.Tours, got.Undirected, got.ByLength, got.Shards}, sameBig); diff != "" {
		t.Errorf("merged shards (-whole +merged):\n%s", diff)
	}
	if alone, err := MergeDP(whole); err != nil || alone.Tours.Cmp(whole.Tours) != 0 {
		t.Errorf("a whole count merged alone: %v, %v", alone, err)
	}
	other := mustCountDP(t, 5, 6, WithShard(1, 3))
	forged := *parts[1]
	forged.Work.Followed++
	relabelled := *parts[1]
	relabelled.Shard = 2
	halved := *parts[1] // as a count from a corner of a square board would be
	halved.Work.Halved = true
	for name, bad := range map[string][]*DPCount{
		"none":            nil,
		"a shard missing": {parts[0], parts[1]},
		"a shard twice":   {parts[0], parts[1], parts[1], parts[2]},
		"another board":   {parts[0], other, parts[2]},
		"forged states":   {parts[0], &forged, parts[2]},
		"relabelled":      {parts[0], &relabelled, parts[2]},
		"one halved":      {parts[0], &halved, parts[2]},
		"a nil part":      {parts[0], nil, parts[2]},
	} {
		if _, err := MergeDP(bad...); !errors.Is(err, ErrMerge) {
			t.Errorf("%s: %v, want ErrMerge", name, err)
		}
	}
}
