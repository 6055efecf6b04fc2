package frontier

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestCount(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Rows: 3, Cols: 4, Mode: FromStart, StartRow: 2}, "2"},
		{Config{Rows: 4, Cols: 7, Mode: FromStart, StartRow: 3}, "1682"},
		{Config{Rows: 5, Cols: 5, Mode: FromStart, StartRow: 4}, "304"},
		{Config{Rows: 5, Cols: 6, Mode: FreeEnds}, "37568"},
		{Config{Rows: 6, Cols: 6, Mode: Closed}, "19724"}, // A001230(6) = 9862 cycles, each in two directions
	}
	var got, want []string
	for _, tt := range tests {
		tt.cfg.Workers, tt.cfg.MemoryLimit = 2, 1<<30
		res, err := Count(context.Background(), tt.cfg)
		if err != nil {
			t.Fatalf("%+v: %v", tt.cfg, err)
		}
		got, want = append(got, res.Tours.String()), append(want, tt.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

// TestCountSmallGroups checks counts whose buffered steps take many
// groups to a bucket, so that the merge sorts each bucket into groups: by
// the marks the emitters wrote into keys with room for them (6 and 7
// rows), and by hashing each key again where there is none (8 rows, and
// 7 rows with more groups to a bucket than the room), against the same
// counts in few groups.
func TestCountSmallGroups(t *testing.T) {
	// In parallel, with a limit of 4 GiB, far above what it needs: the
	// limit counts the Go heap that the tests beside it grow (see
	// memory.Budget.Watch), and under the race detector 1 GiB once stopped
	// the count of 6x6 in groups of one state at square 30.
	t.Parallel()
	cfgs := []Config{
		{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4},
		{Rows: 7, Cols: 4, Mode: FromStart, StartRow: 6, Across: true}, // room for 2 bits
		{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true},
		{Rows: 8, Cols: 4, Mode: Closed, Sweep: SweepNarrow, Across: true},   // 16 nibbles
		{Rows: 8, Cols: 3, Mode: FreeEnds, Sweep: SweepNarrow, Across: true}, // base 11
	}
	var got, want [][]string
	for _, cfg := range cfgs {
		cfg.Workers, cfg.MemoryLimit = 2, 4<<30
		var counts []string
		for _, per := range []int{0, 1} {
			cfg.groupStates = per
			res, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%+v: %v", cfg, err)
			}
			counts = append(counts, fmt.Sprint(countsOf(res)))
		}
		got, want = append(got, counts), append(want, []string{counts[0], counts[0]})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts in few groups and in groups of about one state (-want +got):\n%s", diff)
	}
}

func TestCountRefusesBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Rows: 0, Cols: 4, Workers: 1, MemoryLimit: 1 << 20},
		{Rows: 4, Cols: 4, Workers: 0, MemoryLimit: 1 << 20},
		{Rows: 4, Cols: 4, Workers: 1},
		{Rows: 4, Cols: 4, Workers: 1, MemoryLimit: 1 << 20, StartRow: 4},
	} {
		if _, err := Count(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	for _, cfg := range []Config{
		{Rows: 10, Cols: 10, Sweep: SweepNarrow},
		{Rows: 9, Cols: 9, Sweep: SweepRows},
		{Rows: 9, Cols: 3, Sweep: SweepRows, Across: true},
		{Rows: 10, Cols: 3, Sweep: SweepNarrow, Across: true},
	} {
		cfg.Workers, cfg.MemoryLimit = 1, 1<<20
		if _, err := Count(context.Background(), cfg); !errors.Is(err, ErrTooWide) {
			t.Errorf("%dx%d %v, across %v: %v, want ErrTooWide", cfg.Rows, cfg.Cols, cfg.Sweep, cfg.Across, err)
		}
	}
}

func TestModeString(t *testing.T) {
	got := []string{FromStart.String(), FreeEnds.String(), Closed.String(), Mode(7).String()}
	want := []string{"from a start", "free ends", "closed", "Mode(7)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Mode.String (-want +got):\n%s", diff)
	}
}

// TestCountSpill checks that layers kept on disk give the counts and
// states of layers kept in memory, in both steps, and leave no file
// behind.
func TestCountSpill(t *testing.T) {
	// Not in parallel: it compares the peaks of two counts, which take in
	// what the Go heap grows by, and tests beside it grow the same heap
	// (on CI, 36 MB on disk against 11 in memory).
	// 5x7 from the corner in a quick run, 6x6 with -tags exhaustive: the
	// layers go to disk whatever their size.
	rows, cols := 5, 7
	if exhaustive {
		rows, cols = 6, 6
	}
	for _, cfg := range []Config{
		{Rows: rows, Cols: cols, Mode: FromStart, StartRow: rows - 1},
		{Rows: 5, Cols: cols, Mode: FreeEnds},
		{Rows: rows, Cols: cols, Mode: FromStart, StartRow: rows - 1, Lean: true},
		{Rows: 4, Cols: 9, Mode: Closed, AllLengths: true},
		{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2}, // two limbs
		// Compact on disk, the buffered steps' groups are by hash, not
		// by demand as in memory.
		{Rows: rows, Cols: cols, Mode: FromStart, StartRow: rows - 1, compact: true},
	} {
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		want := wholeCount(t, cfg)
		cfg.SpillDir = t.TempDir()
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 }), cmpopts.IgnoreFields(Result{}, "PeakBytes", "DemandTime")); diff != "" {
			t.Errorf("%dx%d %v: spilled (-memory +disk):\n%s", cfg.Rows, cfg.Cols, cfg.Mode, diff)
		}
		if got.PeakBytes > want.PeakBytes {
			t.Errorf("%dx%d %v: %d bytes on disk, %d in memory: the layers on disk should cost less memory", cfg.Rows, cfg.Cols, cfg.Mode, got.PeakBytes, want.PeakBytes)
		}
		if left, _ := os.ReadDir(cfg.SpillDir); len(left) != 0 {
			t.Errorf("%dx%d: %d files left in the spill directory", cfg.Rows, cfg.Cols, len(left))
		}
	}
}

// TestCountShards checks that the shards of a count add up to it, in
// memory and on disk, for any number of shards (3 and 100000, which
// leaves most shards nothing; 1 and 4 too, and three boards more, with
// -tags exhaustive).
func TestCountShards(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	shards := []int{3, 100000}
	if exhaustive {
		shards = append(shards, 1, 4)
	}
	boards := []Config{
		{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4},
		{Rows: 4, Cols: 9, Mode: FreeEnds},
		{Rows: 5, Cols: 6, Mode: Closed, Sweep: SweepNarrow},
	}
	if exhaustive {
		boards = append(boards,
			Config{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrow},
			Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true},
			Config{Rows: 6, Cols: 6, Mode: Closed},
			Config{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2})
	}
	for _, cfg := range boards {
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		whole := wholeCount(t, cfg)
		for _, n := range shards {
			sum := new(big.Int)
			kept, at := 0, 0
			for i := range n {
				cfg.Shard, cfg.Shards = i, n
				if i%2 == 1 {
					cfg.SpillDir = t.TempDir()
				}
				part, err := Count(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				sum.Add(sum, part.Tours)
				kept, at = kept+part.Followed, part.ShardAt
				if n > 1 && (part.ShardAt < 1 || part.States[part.ShardAt-1] != whole.States[part.ShardAt-1]) {
					t.Fatalf("%dx%d %v shard %d/%d parted at %d", cfg.Rows, cfg.Cols, cfg.Mode, i, n, part.ShardAt)
				}
				cfg.SpillDir = ""
				if n > 100 && i > 3 {
					break // the rest are checked below
				}
			}
			if n > 100 {
				continue
			}
			if n > 1 && kept != whole.States[at-1] {
				t.Errorf("%dx%d %v in %d shards: they followed %d states of the %d where they parted", cfg.Rows, cfg.Cols, cfg.Mode, n, kept, whole.States[at-1])
			}
			if sum.Cmp(whole.Tours) != 0 {
				t.Errorf("%dx%d %v in %d shards: %v, want %v", cfg.Rows, cfg.Cols, cfg.Mode, n, sum, whole.Tours)
			}
		}
	}
}

// TestSameBytes checks the positions sameBytes finds in random windows,
// codes up to 47 as labels take, against a loop.
func TestSameBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for range 20000 {
		var a slotCodes
		for p := range a {
			a[p] = uint8(rng.IntN(48))
			if rng.IntN(4) == 0 {
				a[p] = uint8(rng.IntN(4)) // codes repeat
			}
		}
		c := uint8(rng.IntN(48))
		if rng.IntN(2) == 0 {
			c = a[rng.IntN(MaxSlots)]
		}
		var want uint32
		for p, b := range a[:MaxSlots] {
			if b == c {
				want |= 1 << p
			}
		}
		if got := sameBytes(&a, c); got != want {
			t.Fatalf("%d in %v: positions %018b, want %018b", c, a, got, want)
		}
	}
}

// TestRelinkedFar checks that the far ends finish finds through
// relinked, in the window before a step's links, are those of the window
// the links made, for every end of a piece of path in it, on random
// windows of 17 squares and the square being added, and each choice of
// one or two edges from it, as expandDecoded makes them.
func TestRelinkedFar(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const s = 17 // the square being added
	for range 2000 {
		a := new(slotCodes)
		perm := rng.Perm(s)
		pieces := rng.IntN(7)
		for i, p := range perm {
			switch {
			case i < 2*pieces:
				a[p] = uint8(slotLabel + i/2)
			case i == 2*pieces && rng.IntN(2) == 0:
				a[p] = slotToZ
			case rng.IntN(3) == 0:
				a[p] = slotFree
			default:
				a[p] = slotDone
			}
		}
		a[s] = slotFree
		var cand []int8
		for p := range int8(s) {
			if a[p] != slotDone && len(cand) < 4 {
				cand = append(cand, p)
			}
		}
		fs := far(a, s)
		check := func(b *slotCodes, l relinked, what string) {
			t.Helper()
			for p := range int8(s + 1) {
				if b[p] < slotLabel {
					continue // done, free or an end to z: finish asks no far end
				}
				if got, want := l.far(p), far(b, p); got != want {
					t.Fatalf("%v %s: far end of %d is %d, relinked says %d", a, what, p, want, got)
				}
			}
		}
		for i := range cand {
			fi := far(a, cand[i])
			b := *a
			complete, ok := linkSlots(&b, s, cand[i], fs, fi, false)
			if !ok || complete {
				continue
			}
			check(&b, relinked{a, linkEnds(fs, fi), 1}, fmt.Sprintf("edge to %d", cand[i]))
			for j := i + 1; j < len(cand); j++ {
				c := b
				second := secondFar(far(a, cand[j]), cand[i], s)
				if complete, ok := linkSlots(&c, s, cand[j], fi, second, false); ok && !complete {
					check(&c, relinked{a, linkEnds(fs, fi) | linkEnds(fi, second)<<16, 2}, fmt.Sprintf("edges to %d and %d", cand[i], cand[j]))
				}
			}
		}
	}
}

// BenchmarkFar finds the other ends of the pieces of path of windows of
// 8x8 states, two thirds of whose squares are ends, as after square 44
// of 8x8 from the corner: link asks twice an edge. It reports ns/end for
// each way of reading the codes (see ways).
func BenchmarkFar(b *testing.B) {
	rng := rand.New(rand.NewPCG(17, 18))
	type end struct {
		a *slotCodes
		x int8
	}
	var ends []end
	for range 1024 {
		a := new(slotCodes)
		perm := rng.Perm(18)
		for i, p := range perm {
			switch {
			case i < 12: // six pieces of path
				a[p] = uint8(slotLabel + i/2)
				ends = append(ends, end{a, int8(p)})
			case i < 15:
				a[p] = slotDone
			default:
				a[p] = slotFree
			}
		}
	}
	// Each way finds the far end of e.x in e.a's codes: as they are; in a
	// copy just made; in a copy just changed a byte at a time, as finish
	// found them in the copy a step's links made; and through relinked,
	// as finish does now, in the codes before a change.
	ways := []struct {
		name string
		far  func(e end) int8
	}{
		{"window", func(e end) int8 { return far(e.a, e.x) }},
		{"copy", func(e end) int8 {
			a := *e.a
			return far(&a, e.x)
		}},
		{"changed-copy", func(e end) int8 {
			a := *e.a
			a[e.x], a[18] = e.a[e.x], slotDone // written again, and past the window
			return far(&a, e.x)
		}},
		{"relinked", func(e end) int8 {
			a := *e.a
			a[e.x], a[18] = e.a[e.x], slotDone
			l := relinked{orig: e.a}
			return l.far(e.x)
		}},
	}
	for _, way := range ways {
		b.Run(way.name, func(b *testing.B) {
			sum := 0
			for b.Loop() {
				for _, e := range ends {
					sum += int(way.far(e))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ends)), "ns/end")
			if sum == 1 {
				b.Log(sum)
			}
		})
	}
}

// TestEightWide counts the first 22 squares of 8x8 from a1, the only
// boards 8 wide within a test's reach (their keys are in base 11, 17
// squares, decoded by decode17), and checks the states after each square
// against those of the second computation of 8x8 recorded in COUNTS.md,
// made before decode17 was written. That one adds the start early
// (EarlyStart); the first computation's early squares were made before
// the demand filter's layout changed, and so kept a few other false
// positives of it (117,603 states after square 20 against 117,663 now).
// It takes a minute and 3 GB, for the demands of all 64 squares.
func TestEightWide(t *testing.T) {
	if !exhaustive {
		t.Skip("a minute and 3 GB: with -tags exhaustive")
	}
	want := []int{1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 16, 64, 256, 960, 1920, 3720, 9505, 29964, 73529, 294081, 875162, 2439044}
	cfg := Config{Rows: 8, Cols: 8, Mode: FromStart, StartRow: 7, EarlyStart: true, Workers: 2, MemoryLimit: 6 << 30,
		Checkpoint: filepath.Join(t.TempDir(), "8x8.ckpt")}
	if err := interrupted(t, cfg, len(want)); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped with %v", err)
	}
	r := testCounter(t, cfg, 1)
	m, cur, err := r.loadCheckpoint(context.Background())
	if err != nil || m == nil {
		t.Fatalf("loading the checkpoint: %v", err)
	}
	removeLayer(cur)
	if diff := cmp.Diff(want, m.States); diff != "" {
		t.Errorf("8x8 from a1, start added early: states (-COUNTS.md +now):\n%s", diff)
	}
}

// TestSixteenNibbles follows the first squares of counts 8 wide by the
// narrow sweeps, whose states are 16 nibbles that leave z out (window,
// zOf), and checks that they keep as many states after every square as
// the same counts in base 11. The demands are not pruned, so that no
// demand filter of 8x8 (a minute) has to be made first; the start is added
// early in some, so that z's state is told both before and after it; one
// keeps its layers on disk, compact (in the order of the nibble mixer).
// The states are kept as they are, not as the lesser of a state and its
// reflection, which only nibbles do (TestMirror).
func TestSixteenNibbles(t *testing.T) {
	squares := 18 // past the first two columns: every nibble of the window in use
	if exhaustive {
		squares = 27
	}
	for _, cfg := range []Config{
		{Rows: 8, Cols: 8, Mode: FromStart, StartRow: 7, Sweep: SweepNarrow},
		{Rows: 8, Cols: 8, Mode: FromStart, StartRow: 7, Sweep: SweepNarrow, EarlyStart: true},
		{Rows: 8, Cols: 9, Mode: FromStart, StartRow: 2, StartCol: 1, Sweep: SweepNarrowDown, EarlyStart: true},
		{Rows: 9, Cols: 8, Mode: FromStart, StartRow: 0, StartCol: 0, Sweep: SweepNarrow, EarlyStart: true, AllLengths: true},
		{Rows: 8, Cols: 8, Mode: Closed, Sweep: SweepNarrow},
		{Rows: 8, Cols: 10, Mode: Closed, Sweep: SweepNarrowDown, Lean: true},
		{Rows: 8, Cols: 8, Mode: FromStart, StartRow: 7, Sweep: SweepNarrow, EarlyStart: true, Lean: true, SpillDir: t.TempDir(), compact: true},
	} {
		cfg.Workers, cfg.MemoryLimit, cfg.AllDemands = 2, 2<<30, true
		cfg.noMirror = true // base 11 keeps every state as it is
		nibbles := statesBySquare(t, cfg, false, squares)
		if f := mustBoard(t, cfg); !f.packed || f.zInKey {
			t.Fatalf("%dx%d %v: packed %v, z in the key %v", cfg.Rows, cfg.Cols, cfg.Sweep, f.packed, f.zInKey)
		}
		if diff := cmp.Diff(statesBySquare(t, cfg, true, squares), nibbles); diff != "" {
			t.Errorf("%dx%d %v %v (early start %v): states after each square (-base 11 +nibbles):\n%s",
				cfg.Rows, cfg.Cols, cfg.Mode, cfg.Sweep, cfg.EarlyStart, diff)
		}
	}
}

// TestPackedStatesAsBase11 checks that the packed step keeps the states the
// step on bytes keeps, square by square, on boards up to 7 wide: where it
// leaves a state's labels as they were instead of renaming them (finishPacked's
// canon), a label out of order would make two keys of one state, and the
// count would stay right with more states. Starts inside the board, added
// where they lie, put the start square, whose other edge goes to z,
// among the others.
func TestPackedStatesAsBase11(t *testing.T) {
	t.Parallel()
	// The starts inside the board are the cases that once differed; the
	// other modes, a few seconds more, are for -tags exhaustive.
	boards := []Config{
		{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 2, StartCol: 3, Sweep: SweepNarrowDown, EarlyStart: true},
		{Rows: 5, Cols: 8, Mode: FromStart, StartRow: 1, StartCol: 3, Sweep: SweepRows, EarlyStart: true},
	}
	if exhaustive {
		boards = append(boards,
			Config{Rows: 6, Cols: 6, Mode: FreeEnds, Sweep: SweepNarrow},
			Config{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrowDown})
	}
	for _, cfg := range boards {
		cfg.Workers, cfg.MemoryLimit, cfg.AllDemands, cfg.noMirror = 2, 1<<30, true, true
		if diff := cmp.Diff(statesBySquare(t, cfg, true, 0), statesBySquare(t, cfg, false, 0)); diff != "" {
			t.Errorf("%dx%d %v from (%d,%d) %v: states after each square (-base 11 +packed):\n%s",
				cfg.Rows, cfg.Cols, cfg.Mode, cfg.StartRow, cfg.StartCol, cfg.Sweep, diff)
		}
	}
}

// statesBySquare counts cfg, its keys in base 11 or not, and returns the
// states after each square: of the first squares alone, the count then
// stopped, or of all of them for squares 0.
func statesBySquare(t *testing.T, cfg Config, base11 bool, squares int) []int {
	t.Helper()
	cfg.Base11 = base11
	var got []int
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.afterStep = func(v, n int) {
		if got = append(got, n); v+1 == squares {
			cancel()
		}
	}
	_, err := Count(ctx, cfg)
	if squares > 0 && !errors.Is(err, context.Canceled) || squares == 0 && err != nil {
		t.Fatalf("%+v: stopped with %v", cfg, err)
	}
	return got
}

// wholeCounts holds, for the tests that stop, split or spill a count, the
// same count made at once in memory, keyed by what decides its tours and
// states (wholeCount): most of them check the same few boards.
var wholeCounts sync.Map

// wholeCount returns cfg's count made at once, in memory, with 2 workers
// and cfg's memory limit, at least 1 GiB.
func wholeCount(t *testing.T, cfg Config) *Result {
	t.Helper()
	c := Config{Rows: cfg.Rows, Cols: cfg.Cols, Mode: cfg.Mode, StartRow: cfg.StartRow, StartCol: cfg.StartCol,
		AllLengths: cfg.AllLengths, AllDemands: cfg.AllDemands, Sweep: cfg.Sweep, EarlyStart: cfg.EarlyStart,
		Shard: cfg.Shard, Shards: cfg.Shards, Workers: 2, noMirror: cfg.noMirror, noDiagonal: cfg.noDiagonal, Across: cfg.Across}
	key := fmt.Sprintf("%+v", c) // the limit changes no count
	c.MemoryLimit = max(cfg.MemoryLimit, 1<<30)
	if r, ok := wholeCounts.Load(key); ok {
		return r.(*Result)
	}
	r, err := Count(context.Background(), c)
	if err != nil {
		t.Fatalf("%dx%d %v at once: %v", c.Rows, c.Cols, c.Mode, err)
	}
	wholeCounts.Store(key, r)
	return r
}

// withTestDefaults returns cfg with what a test's config leaves unset:
// 2 workers, and a directory for the layers of a count in passes, which
// need them on disk.
func withTestDefaults(t *testing.T, cfg Config) Config {
	t.Helper()
	if cfg.Workers == 0 {
		cfg.Workers = 2
	}
	if cfg.passPart > 0 && cfg.SpillDir == "" {
		cfg.SpillDir = t.TempDir()
	}
	return cfg
}

// countsOf returns the tours a count found, and those of every length,
// as text to compare.
func countsOf(r *Result) []string {
	s := []string{r.Tours.String()}
	for _, n := range r.ByLength {
		s = append(s, n.String())
	}
	return s
}

// statesOver returns the states a count kept over all its squares.
func statesOver(r *Result) (n int) {
	for _, s := range r.States {
		n += s
	}
	return n
}

// TestPairedStarts checks that a count from a start and its reflection
// until the start's column (counter.pair) finds the count from the start
// alone, with fewer states where the start has a pair: starts in a corner,
// on an edge and inside, each in and out of the last column, a start that
// is its own reflection, both narrow sweeps, keys in nibbles and in
// digits, the lean step, passes of some classes and of some groups,
// shards, and one worker; and that an even width has no pair.
func TestPairedStarts(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	cfgs := []Config{
		{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepNarrow},
		{Rows: 5, Cols: 6, StartRow: 0, Sweep: SweepNarrowDown},
		{Rows: 7, Cols: 5, StartRow: 1, StartCol: 2, Sweep: SweepNarrow},
		{Rows: 5, Cols: 7, StartRow: 3, StartCol: 6, Sweep: SweepNarrow},
		{Rows: 5, Cols: 7, StartRow: 2, StartCol: 3, Sweep: SweepNarrow}, // its own reflection
		{Rows: 3, Cols: 10, StartRow: 0, StartCol: 4, Sweep: SweepNarrow},
		{Rows: 5, Cols: 6, StartRow: 1, Sweep: SweepNarrow, Base11: true},
		{Rows: 5, Cols: 6, StartRow: 4, Sweep: SweepNarrow, Lean: true, passPart: 0.3},
		{Rows: 6, Cols: 5, StartRow: 3, StartCol: 0, Sweep: SweepNarrowDown, passPart: 0.3},
		{Rows: 5, Cols: 6, StartRow: 4, Sweep: SweepNarrow, Workers: 1},
		{Rows: 5, Cols: 6, StartRow: 4, Sweep: SweepRows},   // no pair: reflections only in the first columns
		{Rows: 4, Cols: 7, StartRow: 3, Sweep: SweepNarrow}, // even: no pair
	}
	if exhaustive {
		cfgs = append(cfgs,
			Config{Rows: 9, Cols: 4, Sweep: SweepNarrow, Across: true},
			Config{Rows: 7, Cols: 6, StartRow: 6, Sweep: SweepNarrowDown, Lean: true},
			Config{Rows: 5, Cols: 9, StartRow: 1, StartCol: 8, Sweep: SweepNarrow, Base11: true, passPart: 0.3})
	}
	count := func(cfg Config) *Result {
		t.Helper()
		r, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		return r
	}
	for _, cfg := range cfgs {
		cfg.Mode, cfg.MemoryLimit = FromStart, 1<<30
		cfg = withTestDefaults(t, cfg)
		name := fmt.Sprintf("%dx%d from {%d,%d} %v", cfg.Rows, cfg.Cols, cfg.StartRow, cfg.StartCol, cfg.Sweep)
		f := mustBoard(t, cfg)
		r := newCounter(f, cfg)
		paired := count(cfg)
		cfg.noMirror = true
		alone := count(cfg)
		if diff := cmp.Diff(countsOf(alone), countsOf(paired)); diff != "" {
			t.Errorf("%s: counts (-from the start alone +paired):\n%s", name, diff)
		}
		switch p, a := statesOver(paired), statesOver(alone); {
		case !r.mirror && p != a:
			t.Errorf("%s: %d states, %d from the start alone: no reflection kept", name, p, a)
		case r.mirror && cfg.passPart == 0 && 10*p > 8*a:
			t.Errorf("%s: %d states, %d from the start alone: want at most 80%%", name, p, a)
		}
	}
	if t.Failed() {
		return
	}
	// Shards of a paired count each count every tour of theirs twice, and
	// halve their own totals: their sum is the count. (5x7 in 4 shards
	// parted, before counter.parts, where states that are their own
	// reflection had split their successors.)
	for _, tt := range []struct {
		rows, cols, shards int
		want               string
	}{{5, 6, 3, "4542"}, {5, 7, 4, "187432"}} {
		cfg := Config{Rows: tt.rows, Cols: tt.cols, Mode: FromStart, StartRow: tt.rows - 1, Sweep: SweepNarrow, Workers: 2, MemoryLimit: 1 << 30, Shards: tt.shards}
		sum := new(big.Int)
		for i := range cfg.Shards {
			cfg.Shard = i
			sum.Add(sum, count(cfg).Tours)
		}
		if sum.String() != tt.want {
			t.Errorf("%dx%d from the corner in %d shards: %v tours, want %s", tt.rows, tt.cols, tt.shards, sum, tt.want)
		}
	}
}

// TestMirror checks that keeping the lesser of a state and its reflection
// where the rows added of a column are their own reflection, at its end
// and within it (counter.mirror), finds the counts of keeping
// every state, with fewer states, on boards of even and odd width, both
// narrow sweeps, closed tours and tours with free ends (whose z-states name
// a colour that the reflection of an even width swaps), every length, by
// the buffered and the lean step, keys in nibbles and in base 11; and that
// counts from a start,
// which the reflection would move, keep every state.
func TestMirror(t *testing.T) {
	t.Parallel() // a memory limit of 4 GiB, with room for the Go heap the counts beside it grow
	cfgs := []Config{
		{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrow},
		{Rows: 5, Cols: 7, Mode: FreeEnds, Sweep: SweepNarrowDown},
		{Rows: 8, Cols: 5, Mode: Closed, Sweep: SweepNarrow, AllLengths: true},
		{Rows: 4, Cols: 9, Mode: FreeEnds, Sweep: SweepNarrow, AllLengths: true, Lean: true},
		{Rows: 5, Cols: 7, Mode: FromStart, Sweep: SweepNarrow, StartRow: 2, StartCol: 3, EarlyStart: true},
		{Rows: 8, Cols: 4, Mode: FreeEnds, Sweep: SweepNarrow}, // base 11: 16 nibbles leave no room for z's colour
		{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrowDown, Base11: true},
	}
	if exhaustive {
		cfgs = append(cfgs,
			// Free ends of an even width are 8x4's and 4x9's above too.
			Config{Rows: 6, Cols: 6, Mode: FreeEnds, Sweep: SweepNarrow},
			Config{Rows: 6, Cols: 8, Mode: Closed, Sweep: SweepNarrow, AllLengths: true},
			Config{Rows: 7, Cols: 7, Mode: FreeEnds, Sweep: SweepNarrow},
			Config{Rows: 6, Cols: 7, Mode: FreeEnds, AllLengths: true, Sweep: SweepNarrowDown})
	}
	count := func(cfg Config) *Result {
		r, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, cfg := range cfgs {
		// 7x7 with every state kept peaks at 1.4 GiB, and the limit counts
		// the Go heap that tests beside this one grow as well.
		cfg.Workers, cfg.MemoryLimit = 2, 4<<30
		mirrored := count(cfg)
		cfg.noMirror = true
		every := count(cfg)
		name := fmt.Sprintf("%dx%d %v %v", cfg.Rows, cfg.Cols, cfg.Mode, cfg.Sweep)
		if diff := cmp.Diff(countsOf(every), countsOf(mirrored)); diff != "" {
			t.Errorf("%s: counts (-every state +mirrored):\n%s", name, diff)
		}
		switch m, e := statesOver(mirrored), statesOver(every); {
		case cfg.Mode == FromStart && m != e:
			t.Errorf("%s: %d states, %d when every state is kept: a count from a start has no reflection", name, m, e)
		case cfg.Mode != FromStart && 10*m > 7*e:
			t.Errorf("%s: %d states, %d when every state is kept: want at most 70%%", name, m, e)
		}
	}
}

// TestFullCounts checks that lean steps whose tables keep full counts
// (countLayout) find the counts of those that take the layout their
// counts call for: in one pass and in passes, keys in nibbles and in base
// 11, counts of every length, one worker and two, and counts of two limbs;
// and that a count whose counts outgrow a slot's bits takes full counts
// once they do, by the share its samples tell (wideShare).
func TestFullCounts(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	cfgs := []Config{
		{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4},
		{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrowDown, Workers: 1},
		{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, passPart: 0.3},
		{Rows: 4, Cols: 9, Mode: FreeEnds, AllLengths: true, Base11: true, passPart: 0.4, compact: true},
		{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2},                // counts of two limbs
		{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2, passPart: 0.4}, // wide counts reserved (leanPass)
	}
	if exhaustive {
		cfgs = append(cfgs, Config{Rows: 7, Cols: 6, Mode: FreeEnds, AllLengths: true, passPart: 0.3})
	}
	for _, cfg := range cfgs {
		cfg.Lean, cfg.MemoryLimit = true, 1<<30
		cfg = withTestDefaults(t, cfg)
		name := fmt.Sprintf("%dx%d %v passPart %v", cfg.Rows, cfg.Cols, cfg.Mode, cfg.passPart)
		want := countsOf(wholeCount(t, cfg))
		for _, c := range []struct {
			name   string
			choose func(wide float64, states int) countLayout
			ok     func(took map[countLayout]int) bool
		}{
			// The choice by the share of wide counts alone: these
			// boards have fewer states than fullStates. The counts of
			// 3x45 outgrow a slot's bits.
			{"chosen", func(wide float64, _ int) countLayout { return chooseLayout(wide, fullStates) },
				func(took map[countLayout]int) bool {
					return took[smallCounts] > 0 && (cfg.Rows != 3 || took[fullCounts] > 0)
				}},
			{"full", func(float64, int) countLayout { return fullCounts },
				func(took map[countLayout]int) bool { return took[smallCounts] == 0 && took[fullCounts] > 0 }},
			// Small counts throughout, where they outgrow their slots in
			// passes: the passes reserve wide counts.
			{"small", func(float64, int) countLayout { return smallCounts },
				func(took map[countLayout]int) bool { return took[smallCounts] > 0 && took[fullCounts] == 0 }},
		} {
			if c.name == "small" && (cfg.Rows != 3 || cfg.passPart == 0) {
				continue
			}
			took := map[countLayout]int{}
			cfg.layout, cfg.onLayout = c.choose, func(_ int, l countLayout) { took[l]++ }
			r, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s, %s layouts: %v", name, c.name, err)
			}
			if diff := cmp.Diff(want, countsOf(r)); diff != "" {
				t.Errorf("%s, %s layouts: counts (-at once +lean):\n%s", name, c.name, diff)
			}
			if !c.ok(took) {
				t.Errorf("%s, %s layouts: took %v", name, c.name, took)
			}
		}
	}
}

// TestChooseLayout checks the layout a lean step takes for the share of
// its new states whose counts outgrow a slot of small counts, and for
// their number.
func TestChooseLayout(t *testing.T) {
	var got, want []countLayout
	for _, tt := range []struct {
		wide   float64
		states int
		want   countLayout
	}{
		{0, fullStates, smallCounts},
		{fullShare / 2, fullStates, smallCounts},
		{fullShare, fullStates, fullCounts},
		{1, 1 << 30, fullCounts},
		{1, fullStates - 1, smallCounts}, // tables in the processor's cache
	} {
		got, want = append(got, chooseLayout(tt.wide, tt.states)), append(want, tt.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("layouts (-want +got):\n%s", diff)
	}
}

// TestSampleWider checks the share of a sample's counts wider than some
// bits, counts of one limb and of two.
func TestSampleWider(t *testing.T) {
	sm := &sample{}
	for _, c := range [][]uint64{{1, 0}, {7, 0}, {1 << 19, 0}, {1 << 20, 0}, {1 << 63, 0}, {0, 1}} {
		sm.countLen = append(sm.countLen, uint8(limbsLen(c)))
	}
	var got []float64
	for _, b := range []int{0, 3, 20, 64, 65} {
		got = append(got, sm.wider(b))
	}
	want := []float64{1, 4.0 / 6, 3.0 / 6, 1.0 / 6, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shares wider than 0, 3, 20, 64 and 65 bits (-want +got):\n%s", diff)
	}
	if got := (&sample{}).wider(0); got != 0 {
		t.Errorf("an empty sample: %v wider than 0 bits, want 0", got)
	}
}

// BenchmarkLeanLayouts counts 8x6 with free ends, every length, by the
// lean step in one pass with each layout of its tables: keys in base 11,
// whose counts mostly outgrow a slot of small counts in the last columns,
// but tables mostly in the processor's cache (at most 2 million states),
// which is why small steps keep small counts (fullStates). It reports
// states/s.
func BenchmarkLeanLayouts(b *testing.B) {
	for _, l := range []countLayout{smallCounts, fullCounts} {
		b.Run(strings.ReplaceAll(l.String(), " ", "-"), func(b *testing.B) {
			cfg := Config{Rows: 8, Cols: 6, Mode: FreeEnds, AllLengths: true, Base11: true, Workers: 2, MemoryLimit: 1 << 30, Lean: true,
				layout: func(float64, int) countLayout { return l }}
			var res *Result
			for b.Loop() {
				var err error
				if res, err = Count(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
			}
			if got := res.Tours.String(); got != "49929787608" {
				b.Fatalf("8x6: %s tours", got)
			}
			b.ReportMetric(float64(statesOver(res))*float64(b.N)/b.Elapsed().Seconds(), "states/s")
		})
	}
}

// BenchmarkKeyFormats counts the closed tours of 8 x n, every length, by
// the lean step with keys of 16 nibbles and again with keys in base 11
// (the format counts with free ends on 8 rows use, whose z-state does not
// fit beside 16 nibbles), on the same states. It reports states/s, less
// the demand passes: what packing the keys of free ends would gain. On
// 8x6 the tables stay in the processor's caches; on 8x7 (-benchtime 1x)
// they do not.
func BenchmarkKeyFormats(b *testing.B) {
	for _, cols := range []int{6, 7} {
		for _, base11 := range []bool{false, true} {
			b.Run(fmt.Sprintf("8x%d/base11=%v", cols, base11), func(b *testing.B) {
				cfg := Config{Rows: 8, Cols: cols, Mode: Closed, AllLengths: true, Base11: base11, Workers: 2, MemoryLimit: 4 << 30, Lean: true}
				var res *Result
				var demands time.Duration
				for b.Loop() {
					var err error
					if res, err = Count(context.Background(), cfg); err != nil {
						b.Fatal(err)
					}
					demands += res.DemandTime
				}
				b.ReportMetric(float64(statesOver(res))*float64(b.N)/(b.Elapsed()-demands).Seconds(), "states/s")
			})
		}
	}
}

// TestRunGivesBackMemory checks that a count gives back to the limit all
// it counted, the spare slabs its buffered steps pass from one to the
// next included, whether its steps are buffered or lean, and lean in
// passes, each of which keeps its tables' memory for the next, in its
// step or the next step.
func TestRunGivesBackMemory(t *testing.T) {
	for _, tt := range []struct {
		name     string
		lean     bool
		passPart float64
	}{
		{"buffered", false, 0},
		{"lean", true, 0},
		{"lean in passes", true, 0.3},
	} {
		cfg := withTestDefaults(t, Config{Rows: 5, Cols: 6, Mode: FromStart, StartRow: 4, MemoryLimit: 1 << 30, AllDemands: true, Lean: tt.lean, passPart: tt.passPart})
		most := 0 // the most passes of a step
		cfg.afterPass = func(_, passes int) { most = max(most, passes) }
		f, err := newBoard(cfg.Rows, cfg.Cols, cfg.Sweep, false)
		if err != nil {
			t.Fatal(err)
		}
		r := newCounter(f, cfg)
		r.k = 1
		n, err := r.run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n.Sign() == 0 {
			t.Errorf("%s: no tours", tt.name)
		}
		if tt.passPart > 0 && most < 2 {
			t.Errorf("%s: at most %d pass a step, want passes", tt.name, most)
		}
		if used, spared := r.mem.Used(), r.mem.Spared(); used != 0 || spared != 0 {
			t.Errorf("%s: after the count, %d bytes counted, %d of them spare; want 0", tt.name, used, spared)
		}
		if r.mem.TakeReserve() != nil {
			t.Errorf("%s: after the count, the tables of a pass still mapped", tt.name)
		}
	}
}
