package knightstour

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// figure2Cells is Figure 2 of the seed (seed 000, "Einige Resultate des
// Springerproblems"): the number of directed open tours from the
// lower-left corner of an R x C board, for the cells the seed computed
// with R <= C (the test also runs C x R, the mirror image).
var figure2Cells = []struct {
	rows, cols int
	tours      uint64
}{
	{3, 3, 0}, {3, 4, 2}, {3, 5, 0}, {3, 6, 0}, {3, 7, 8}, {3, 8, 82}, {3, 9, 172}, {3, 10, 448},
	{4, 4, 0}, {4, 5, 32}, {4, 6, 220}, {4, 7, 1682}, {4, 8, 7630}, {4, 9, 42018},
	{5, 5, 304}, {5, 6, 4542}, {5, 7, 187432},
	{6, 6, 524486},
}

// figure2 returns the seed's table as a map from board to count, with both
// R x C and C x R.
func figure2(t *testing.T) map[[2]int]uint64 {
	t.Helper()
	counts := make(map[[2]int]uint64)
	for _, c := range figure2Cells {
		counts[[2]int{c.rows, c.cols}] = c.tours
		counts[[2]int{c.cols, c.rows}] = c.tours
	}
	if len(counts) != 32 {
		t.Fatalf("figure 2 has %d cells, want 32", len(counts))
	}
	return counts
}

// TestKnownCounts counts the open tours from the corner of the boards of
// the seed's Figure 2 small enough for a unit test and compares the whole
// table at once.
func TestKnownCounts(t *testing.T) {
	type cell struct {
		Board string
		Tours uint64
	}
	var want, got []cell
	for _, c := range figure2Cells {
		if c.tours > 100000 {
			continue // TestFigure2 and the frontier counter's tests count these
		}
		st, err := mustSolver(t, c.rows, c.cols).Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		board := fmt.Sprintf("%dx%d", c.rows, c.cols)
		want, got = append(want, cell{board, c.tours}), append(got, cell{board, st.Tours.Uint64()})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("open tours from the corner (-want +got):\n%s", diff)
	}
}

func lines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func mustSolver(t testing.TB, rows, cols int, opts ...SolverOption) *Solver {
	t.Helper()
	s, err := NewSolver(rows, cols, opts...)
	if err != nil {
		t.Fatalf("NewSolver(%d, %d): %v", rows, cols, err)
	}
	return s
}

// withoutProbe makes s cut its tree into tasks even when the whole search
// would fit in the probe, so that the tests reach the parallel runners.
func withoutProbe(s *Solver) *Solver {
	s.job.Config.Probe = 0
	return s
}

// bothWays returns s and a copy of it that never probes.
func bothWays(t testing.TB, rows, cols int, opts ...SolverOption) []*Solver {
	return []*Solver{mustSolver(t, rows, cols, opts...), withoutProbe(mustSolver(t, rows, cols, opts...))}
}

func tourStrings(ts *Tours) []string {
	var out []string
	for _, t := range ts.All() {
		out = append(out, t.String())
	}
	return out
}

// TestFigure2 reproduces every cell of the seed's table, sequentially and
// on two workers. figure2 holds each board as R x C and as its mirror image
// C x R, whose lower-left corner is the image of a corner of R x C.
func TestFigure2(t *testing.T) {
	for b, want := range figure2(t) {
		if testing.Short() && want > 100000 {
			continue
		}
		t.Run(fmt.Sprintf("%dx%d", b[0], b[1]), func(t *testing.T) {
			t.Parallel()
			for _, workers := range []int{1, 2} {
				st, err := mustSolver(t, b[0], b[1], WithWorkers(workers)).Count(context.Background())
				if err != nil || st.Tours.Uint64() != want {
					t.Errorf("%d workers: Count = %d, %v; want %d", workers, st.Tours, err, want)
				}
			}
		})
	}
}

// TestSeedListing checks the seed's 3x4 listing to the letter and in order,
// from every way of listing the tours and for 1 to 8 workers.
func TestSeedListing(t *testing.T) {
	want := lines(t, "testdata/seed000_3x4.txt")
	ctx := context.Background()
	seq, err := mustSolver(t, 3, 4).FindMoves(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, tourStrings(seq)); diff != "" {
		t.Errorf("FindMoves (-want +got):\n%s", diff)
	}
	for workers := 1; workers <= 8; workers++ {
		for _, depth := range []int{-1, 0, 1, 2, 5, 11, 20} {
			opts := []SolverOption{WithWorkers(workers)}
			if depth >= 0 {
				opts = append(opts, WithSplitDepth(depth))
			}
			for _, s := range bothWays(t, 3, 4, opts...) {
				par, err := s.FindMovesParallel(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, tourStrings(par)); diff != "" {
					t.Errorf("FindMovesParallel, %d workers, depth %d (-want +got):\n%s", workers, depth, diff)
				}
				var streamed []string
				for tour, err := range s.All(ctx) {
					if err != nil {
						t.Fatal(err)
					}
					streamed = append(streamed, tour.String())
				}
				if diff := cmp.Diff(want, streamed); diff != "" {
					t.Errorf("All, %d workers, depth %d (-want +got):\n%s", workers, depth, diff)
				}
			}
		}
	}
}

// TestSeed002 checks that the first tour with the Pascal program's jump
// table, from the top-left corner of 5x5, is the board that seed prints.
func TestSeed002(t *testing.T) {
	var want [][]int
	for _, l := range lines(t, "testdata/seed002_5x5.txt") {
		var row []int
		for _, f := range strings.Fields(l) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("seed002_5x5.txt: %v", err)
			}
			row = append(row, n)
		}
		want = append(want, row)
	}
	for workers := 1; workers <= 4; workers++ {
		s := withoutProbe(mustSolver(t, 5, 5, WithStart(Coordinate{0, 0}), WithMoveOrder(WirthOrder()...), WithWorkers(workers)))
		tour, err := s.First(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b := tour.Board()
		got := make([][]int, 5)
		for r := range got {
			for c := range 5 {
				got[r] = append(got[r], b.At(Coordinate{r, c}))
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d workers (-want +got):\n%s", workers, diff)
		}
	}
}

// referenceBoards are small enough for the unpruned search from every square.
var referenceBoards = [][2]int{{1, 1}, {1, 3}, {2, 3}, {3, 3}, {3, 4}, {4, 3}, {4, 4}, {3, 5}, {3, 6}, {3, 7}, {7, 3}, {4, 5}, {5, 4}, {5, 5}}

// TestAgainstReference compares the full ordered listing from every start
// square with the unpruned search, for the seed's and Wirth's move orders,
// and with both engines (the wide one is forced onto small boards).
func TestAgainstReference(t *testing.T) {
	boards := referenceBoards
	switch {
	case testing.Short():
		boards = boards[:10]
	case !exhaustive:
		boards = boards[:len(boards)-1] // 5x5 from every square: with -tags exhaustive
	}
	for _, b := range boards {
		for _, order := range [][]Move{SeedOrder(), WirthOrder()} {
			for r := range b[0] {
				for c := range b[1] {
					start := Coordinate{r, c}
					want := referenceTours(b[0], b[1], start, order)
					s := withoutProbe(mustSolver(t, b[0], b[1], WithStart(start), WithMoveOrder(order...), WithWorkers(2)))
					g := s.job.Graph
					for _, wide := range []bool{false, true} {
						if wide {
							s.job.Graph = g.WideOnly()
						}
						got, err := s.FindMovesParallel(context.Background())
						if err != nil {
							t.Fatal(err)
						}
						if diff := cmp.Diff(want, tourStrings(got)); diff != "" {
							t.Errorf("%dx%d from %v, order %v, wide %v (-want +got):\n%s", b[0], b[1], start, order, wide, diff)
						}
					}
				}
			}
		}
	}
}

// TestWorkersAndMirror checks on boards with many tours that counts and
// node counts do not depend on the workers or the split depth, and that an
// R x C board gives the same counts as its mirror image C x R from the
// mirrored square.
func TestWorkersAndMirror(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, b := range [][2]int{{5, 6}, {4, 8}, {3, 10}, {5, 5}} {
		starts := []Coordinate{{b[0] - 1, 0}, {0, 1}, {1, 2}, {b[0] / 2, b[1] / 2}}
		for _, start := range starts {
			base, err := mustSolver(t, b[0], b[1], WithStart(start), WithWorkers(1)).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			mirror, err := mustSolver(t, b[1], b[0], WithStart(Coordinate{start.Col, start.Row})).Count(ctx)
			if err != nil || mirror.Tours.Cmp(base.Tours) != 0 {
				t.Errorf("%dx%d from %v: %d tours, mirror %d, %v", b[0], b[1], start, base.Tours, mirror.Tours, err)
			}
			for _, workers := range []int{2, 3, 8} {
				for _, depth := range []int{-1, 1, 4} {
					opts := []SolverOption{WithStart(start), WithWorkers(workers)}
					if depth >= 0 {
						opts = append(opts, WithSplitDepth(depth))
					}
					for _, s := range bothWays(t, b[0], b[1], opts...) {
						st, err := s.Count(ctx)
						if err != nil || st.Tours.Cmp(base.Tours) != 0 || st.Work.Nodes != base.Work.Nodes {
							t.Errorf("%dx%d from %v, %d workers, depth %d: %d tours %d nodes, %v; want %d tours %d nodes",
								b[0], b[1], start, workers, depth, st.Tours, st.Work.Nodes, err, base.Tours, base.Work.Nodes)
						}
					}
				}
			}
		}
	}
}

// TestParallelListing compares the ordered parallel listing and stream
// with the sequential one on a board with thousands of tours.
func TestParallelListing(t *testing.T) {
	ctx := context.Background()
	want, err := mustSolver(t, 5, 6).FindMoves(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{2, 3, 8} {
		s := withoutProbe(mustSolver(t, 5, 6, WithWorkers(workers)))
		got, err := s.FindMovesParallel(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tourStrings(want), tourStrings(got)); diff != "" {
			t.Errorf("%d workers (-want +got):\n%s", workers, diff)
		}
		i := 0
		for tour, err := range s.All(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			if tour.String() != want.At(i).String() {
				t.Fatalf("%d workers: stream tour %d = %v, want %v", workers, i, tour, want.At(i))
			}
			i++
		}
		if i != want.Len() {
			t.Errorf("%d workers: streamed %d tours, want %d", workers, i, want.Len())
		}
	}
}

// TestLimit checks that a limit keeps the first tours in order.
func TestLimit(t *testing.T) {
	ctx := context.Background()
	all, err := mustSolver(t, 5, 6).FindMoves(ctx)
	if err != nil {
		t.Fatal(err)
	}
	limits, workerCounts := []int{1, 100, 5000}, []int{1, 2}
	if exhaustive {
		limits, workerCounts = []int{1, 7, 100, 4542, 5000}, []int{1, 2, 5}
	}
	for _, limit := range limits {
		for _, workers := range workerCounts {
			for _, s := range bothWays(t, 5, 6, WithLimit(limit), WithWorkers(workers)) {
				want := tourStrings(all)[:min(limit, all.Len())]
				for name, find := range map[string]func(context.Context) (*Tours, error){"FindMoves": s.FindMoves, "FindMovesParallel": s.FindMovesParallel} {
					got, err := find(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, tourStrings(got)); diff != "" {
						t.Errorf("%s limit %d, %d workers (-want +got):\n%s", name, limit, workers, diff)
					}
					if got.Stats().Tours.Uint64() != uint64(len(want)) {
						t.Errorf("%s limit %d: Stats().Tours = %d", name, limit, got.Stats().Tours)
					}
				}
				st, err := s.Count(ctx)
				if err != nil || st.Tours.Uint64() != uint64(len(want)) {
					t.Errorf("Count limit %d, %d workers = %d, %v; want %d", limit, workers, st.Tours, err, len(want))
				}
			}
		}
	}
}

func TestFirst(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		rows, cols int
		start      Coordinate
		want       string // "" for no tour
	}{
		{3, 4, Coordinate{2, 0}, "{2,0} {1,2} {0,0} {2,1} {1,3} {0,1} {2,2} {0,3} {1,1} {2,3} {0,2} {1,0}"},
		{1, 1, Coordinate{0, 0}, "{0,0}"},
		{3, 3, Coordinate{0, 0}, ""},
		{4, 4, Coordinate{3, 0}, ""},
		{5, 5, Coordinate{0, 1}, ""}, // odd board, minority colour: answered at the root
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 2} {
			tour, err := withoutProbe(mustSolver(t, tt.rows, tt.cols, WithStart(tt.start), WithWorkers(workers))).First(ctx)
			if tt.want == "" {
				if !errors.Is(err, ErrNoTour) {
					t.Errorf("%dx%d from %v: err = %v, want ErrNoTour", tt.rows, tt.cols, tt.start, err)
				}
				continue
			}
			if err != nil || tour.String() != tt.want {
				t.Errorf("%dx%d from %v: First = %v, %v; want %s", tt.rows, tt.cols, tt.start, tour, err, tt.want)
			}
		}
	}
}

func TestStoredToursAreCompact(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("stores 524,486 tours")
	}
	ts, err := mustSolver(t, 6, 6, WithWorkers(2)).FindMovesParallel(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ts.Len() != 524486 {
		t.Fatalf("Len = %d", ts.Len())
	}
	if b := ts.size(); b > 2*36*524486+listChunkBytes {
		t.Errorf("tours take %d bytes, want at most 2 per square plus one chunk", b)
	}
	for _, i := range []int{0, 1, 262243, 524485} {
		tour := ts.At(i)
		if _, err := validate(6, 6, tour.coordinates()); err != nil || tour.At(0) != (Coordinate{5, 0}) {
			t.Errorf("tour %d: %v, starts at %v", i, err, tour.At(0))
		}
	}
}

func TestNewSolverErrors(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		opts       []SolverOption
		want       error
	}{
		{"zero rows", 0, 4, nil, ErrBadSize},
		{"zero cols", 4, 0, nil, ErrBadSize},
		{"negative", -3, 4, nil, ErrBadSize},
		{"absurd", 1 << 40, 1 << 40, nil, ErrBadSize},
		{"too many squares", 300, 300, nil, ErrBadSize},
		{"start off board", 3, 4, []SolverOption{WithStart(Coordinate{3, 0})}, ErrOffBoard},
		{"start negative", 3, 4, []SolverOption{WithStart(Coordinate{0, -1})}, ErrOffBoard},
		{"short order", 3, 4, []SolverOption{WithMoveOrder(Move{2, 1})}, ErrBadOption},
		{"not a jump", 3, 4, []SolverOption{WithMoveOrder(Move{2, 2}, Move{1, 2}, Move{-2, 1}, Move{-1, 2}, Move{2, -1}, Move{1, -2}, Move{-2, -1}, Move{-1, -2})}, ErrBadOption},
		{"repeated jump", 3, 4, []SolverOption{WithMoveOrder(Move{1, 2}, Move{1, 2}, Move{-2, 1}, Move{-1, 2}, Move{2, -1}, Move{1, -2}, Move{-2, -1}, Move{-1, -2})}, ErrBadOption},
		{"zero workers", 3, 4, []SolverOption{WithWorkers(0)}, ErrBadOption},
		{"negative depth", 3, 4, []SolverOption{WithSplitDepth(-1)}, ErrBadOption},
		{"negative limit", 3, 4, []SolverOption{WithLimit(-1)}, ErrBadOption},
		{"bad shard", 3, 4, []SolverOption{WithShard(-1, 2)}, ErrBadOption},
		{"progress without func", 3, 4, []SolverOption{WithProgress(1, nil)}, ErrBadOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSolver(tt.rows, tt.cols, tt.opts...)
			if !errors.Is(err, tt.want) || s != nil {
				t.Errorf("NewSolver = %v, %v; want nil, %v", s, err, tt.want)
			}
		})
	}
}

// TestLargeBoard runs the wide engine where it is the only one: a 9x8
// board (72 squares) from the corner, first tour only.
func TestLargeBoard(t *testing.T) {
	for _, b := range [][2]int{{9, 8}, {3, 30}, {5, 13}} {
		tour, err := mustSolver(t, b[0], b[1], WithStart(Coordinate{0, 0}), WithMoveOrder(WirthOrder()...)).First(context.Background())
		if err != nil {
			t.Fatalf("%dx%d: %v", b[0], b[1], err)
		}
		if _, err := validate(b[0], b[1], tour.coordinates()); err != nil {
			t.Errorf("%dx%d: %v", b[0], b[1], err)
		}
	}
}

// TestShardsAddUp splits counts into shards in several ways, with workers
// differing between shards, and checks that tours and nodes add up to the
// whole search's, open and closed.
func TestShardsAddUp(t *testing.T) {
	ctx := context.Background()
	for _, closed := range []bool{false, true} {
		base := []SolverOption{WithWorkers(1)}
		if closed {
			base = append(base, WithClosed())
		}
		for _, b := range [][2]int{{5, 6}, {3, 4}, {1, 1}} {
			whole, err := mustSolver(t, b[0], b[1], base...).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{1, 2, 3, 7} {
				var parts []Stats
				for i := range k {
					st, err := mustSolver(t, b[0], b[1], append(base, WithShard(i, k), WithWorkers(1+i%3))...).Count(ctx)
					if err != nil {
						t.Fatal(err)
					}
					parts = append(parts, st)
				}
				m, err := MergeStats(parts...)
				if err != nil {
					t.Fatalf("%dx%d closed=%v in %d shards: %v", b[0], b[1], closed, k, err)
				}
				if m.Tours.Cmp(whole.Tours) != 0 || m.Work.Nodes != whole.Work.Nodes {
					t.Errorf("%dx%d closed=%v in %d shards: %d tours %d nodes, whole %d %d", b[0], b[1], closed, k, m.Tours, m.Work.Nodes, whole.Tours, whole.Work.Nodes)
				}
			}
		}
	}
	if _, err := NewSolver(5, 5, WithShard(3, 3)); !errors.Is(err, ErrBadOption) {
		t.Errorf("WithShard(3, 3): %v", err)
	}
}

// TestMergeStatsRefuses forges the Stats of shards: MergeStats must refuse
// every forgery with ErrMerge.
func TestMergeStatsRefuses(t *testing.T) {
	ctx := context.Background()
	var parts []Stats
	for i := range 3 {
		st, err := mustSolver(t, 5, 6, WithShard(i, 3)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, st)
	}
	with := func(i int, change func(*Stats)) []Stats {
		out := slices.Clone(parts)
		change(&out[i])
		return out
	}
	relabelled := parts[2]
	relabelled.Shard, relabelled.Shards = 0, 1
	otherJob, err := mustSolver(t, 5, 6, WithShard(2, 3), WithClosed()).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	otherJob.Work.AllTasks, otherJob.Work.Tasks = parts[2].Work.AllTasks, parts[2].Work.Tasks // all but the job alike
	for name, in := range map[string][]Stats{
		"none":                     nil,
		"missing":                  parts[:2],
		"repeated":                 append(slices.Clone(parts), parts[1]),
		"shard 2/3 relabelled 0/1": {relabelled},
		"other cut":                with(1, func(s *Stats) { s.Work.AllTasks++ }),
		"more tasks than the tree": with(0, func(s *Stats) { s.Work.Tasks = s.Work.AllTasks + 1 }),
		"negative tours":           with(0, func(s *Stats) { s.Tours = big.NewInt(-1) }),
		"more tours than nodes":    with(0, func(s *Stats) { s.Tours = new(big.Int).SetUint64(2*s.Work.Nodes + 1) }),
		"split of 2^62":            with(0, func(s *Stats) { s.Shards = 1 << 62 }),
		"another count":            append(slices.Clone(parts[:2]), otherJob),
	} {
		if _, err := MergeStats(in...); !errors.Is(err, ErrMerge) {
			t.Errorf("%s: err = %v, want ErrMerge", name, err)
		}
	}
	if _, err := MergeStats(parts...); err != nil {
		t.Errorf("the real shards: %v", err)
	}
}
