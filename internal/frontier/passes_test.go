package frontier

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// TestCountPasses checks that a lean step made in passes, where the
// memory limit holds only part of the next layer's tables, gives the
// counts and states of one made at once, within the limit, and leaves no
// file behind.
func TestCountPasses(t *testing.T) {
	// Room for the layers and little more.
	noRoom := func(string) (int64, bool) { return diskReserve + 4<<20, true }
	type count struct {
		cfg   Config
		limit int64
	}
	counts := []count{
		{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, freeBytes: noRoom}, 3 << 20},
		// Planned as one pass a square, which the limit cannot hold: the
		// pass is dropped and made again as two.
		{Config{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, AllDemands: true, passPart: 1.5}, 1 << 20},
	}
	if exhaustive {
		counts = append(counts,
			// Every state kept (AllDemands): a layer that 1 MiB cannot hold.
			count{Config{Rows: 5, Cols: 6, Mode: FreeEnds, AllLengths: true, AllDemands: true, compact: true}, 1 << 20},
			count{Config{Rows: 6, Cols: 6, Mode: Closed, Shard: 1, Shards: 3, AllDemands: true}, 2 << 20},
			count{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5}, 3 << 20},
			count{Config{Rows: 5, Cols: 8, Mode: FreeEnds, AllLengths: true, AllDemands: true, compact: true}, 4 << 20},
			count{Config{Rows: 5, Cols: 8, Mode: FreeEnds, AllLengths: true, AllDemands: true, passPart: 1.5}, 4 << 20},
			count{Config{Rows: 5, Cols: 8, Mode: FreeEnds, AllLengths: true, AllDemands: true}, 4 << 20},
			count{Config{Rows: 5, Cols: 8, Mode: FreeEnds, AllLengths: true, AllDemands: true, freeBytes: noRoom}, 4 << 20})
	}
	for _, tt := range counts {
		cfg := tt.cfg
		// Every state kept as it is: a step in passes of some classes
		// keeps only the reflections of its own classes (worker.classAt),
		// one in a single pass all, so their states would differ.
		cfg.Workers, cfg.MemoryLimit, cfg.noMirror = 2, 1<<30, true
		want := wholeCount(t, cfg)
		cfg.SpillDir, cfg.Lean, cfg.MemoryLimit = t.TempDir(), true, tt.limit
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%dx%d %v in %d bytes: %v", cfg.Rows, cfg.Cols, cfg.Mode, tt.limit, err)
		}
		t.Logf("%dx%d %v: %d passes, peak %d bytes for %d states", cfg.Rows, cfg.Cols, cfg.Mode, got.Passes, got.PeakBytes, got.PeakStates)
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 }), cmpopts.IgnoreFields(Result{}, "PeakBytes", "Passes", "Narrowed", "DemandTime")); diff != "" {
			t.Errorf("%dx%d %v: in passes (-once +passes):\n%s", cfg.Rows, cfg.Cols, cfg.Mode, diff)
		}
		if got.Passes < 2 {
			t.Errorf("%dx%d %v in %d bytes: %d pass, want several", cfg.Rows, cfg.Cols, cfg.Mode, tt.limit, got.Passes)
		}
		if left, _ := os.ReadDir(cfg.SpillDir); len(left) != 0 {
			t.Errorf("%dx%d %v: %d files left in the spill directory", cfg.Rows, cfg.Cols, cfg.Mode, len(left))
		}
		if got.PeakBytes > tt.limit {
			t.Errorf("%dx%d %v: peak %d bytes, over the limit %d", cfg.Rows, cfg.Cols, cfg.Mode, got.PeakBytes, tt.limit)
		}
	}
}

// TestCountClassPasses makes every step in passes of a few classes each,
// lean and buffered, states in base 11 and packed, and checks the counts and the states
// after each square against a count made at once: a new state whose class
// differed from its old state's would appear in two passes, and a layer
// would hold it twice.
func TestCountClassPasses(t *testing.T) {
	// In parallel, with a limit of 4 GiB, as the passes are set by share
	// (passPart): at 1 GiB, 5x8 with free ends (-tags exhaustive) stopped
	// at the limit, which counts the Go heap of the tests beside it too.
	t.Parallel()
	mr, mc := middle()
	boards := []Config{
		{Rows: mr, Cols: mc, Mode: FromStart, StartRow: mr - 1, Sweep: SweepNarrow, Base11: true},
		{Rows: mr, Cols: mc, Mode: FromStart, StartRow: mr - 1, Sweep: SweepNarrow, Base11: true, compact: true}, // buffered: grouped by mix
		{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2},                                                        // counts of two limbs
	}
	parts := []float64{0.3}
	if exhaustive {
		boards = append(boards,
			Config{Rows: 5, Cols: 7, Mode: FreeEnds},
			Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Base11: true},
			Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow},
			Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5},
			Config{Rows: 5, Cols: 8, Mode: FreeEnds, AllLengths: true},
			Config{Rows: 6, Cols: 6, Mode: Closed})
		parts = append(parts, 0.05)
	}
	for _, cfg := range boards {
		// Every state kept as it is: a step in passes of some classes
		// keeps only the reflections of its own classes (worker.classAt),
		// one in a single pass all, so their states would differ.
		cfg.Workers, cfg.MemoryLimit, cfg.noMirror = 2, 4<<30, true
		want := wholeCount(t, cfg)
		for _, part := range parts {
			for _, lean := range []bool{true, false} {
				cfg.SpillDir, cfg.Lean, cfg.passPart = t.TempDir(), lean, part
				step := "buffered"
				if lean {
					step = "lean"
				}
				var skipped atomic.Int64
				cfg.onSkip = func() { skipped.Add(1) }
				got, err := Count(context.Background(), cfg)
				if err != nil {
					t.Fatalf("%dx%d %v in %s passes of %v: %v", cfg.Rows, cfg.Cols, cfg.Mode, step, part, err)
				}
				if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 }), cmpopts.IgnoreFields(Result{}, "PeakBytes", "Passes", "Narrowed", "DemandTime")); diff != "" {
					t.Errorf("%dx%d %v (base 11 %v) in %s passes of %v (-once +passes):\n%s", cfg.Rows, cfg.Cols, cfg.Mode, cfg.Base11, step, part, diff)
				}
				if got.Passes < 3 {
					t.Errorf("%dx%d %v in %s passes of %v: at most %d passes a step, want 3 or more", cfg.Rows, cfg.Cols, cfg.Mode, step, part, got.Passes)
				}
				if skipped.Load() == 0 {
					t.Errorf("%dx%d %v in %s passes of %v: no pass read only the groups of its classes", cfg.Rows, cfg.Cols, cfg.Mode, step, part)
				}
			}
		}
	}
}

// TestMirrorClassPasses makes every step in passes of a few classes each,
// lean and buffered, keys packed and in base 11, keeping a state's
// reflection in its place where the two are of the same class
// (worker.classAt), and checks the counts against those of a count made at
// once keeping every state, that the passes still read only the groups of
// their classes, and that they keep fewer states than passes that keep
// every state.
func TestMirrorClassPasses(t *testing.T) {
	// In parallel, with a limit of 4 GiB, as TestCountClassPasses: at 1
	// GiB, 6x7 with free ends (-tags exhaustive) stopped at the limit.
	t.Parallel()
	// In passes of a tenth of a layer, classes split (partition), and a
	// state and its reflection of different kinds at a position may
	// still be of one class.
	boards := []Config{
		{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrow, passPart: 0.3},
		{Rows: 5, Cols: 6, Mode: FreeEnds, Sweep: SweepNarrowDown, passPart: 0.3},
		{Rows: 8, Cols: 4, Mode: FreeEnds, Sweep: SweepNarrow, passPart: 0.3},
		{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrow, Base11: true, passPart: 0.3},
		{Rows: 6, Cols: 6, Mode: Closed, Sweep: SweepNarrow, Base11: true, passPart: 0.1},
	}
	if exhaustive {
		boards = append(boards,
			Config{Rows: 6, Cols: 7, Mode: FreeEnds, Sweep: SweepNarrow, AllLengths: true, passPart: 0.3},
			Config{Rows: 7, Cols: 6, Mode: Closed, Sweep: SweepNarrow, passPart: 0.3},
			// Free ends in base 11, as on 8 rows: z-states that name a
			// colour, which the reflection of an even width swaps.
			Config{Rows: 6, Cols: 6, Mode: FreeEnds, Sweep: SweepNarrowDown, Base11: true, passPart: 0.3},
			Config{Rows: 6, Cols: 6, Mode: FreeEnds, Sweep: SweepNarrowDown, Base11: true, passPart: 0.1},
			Config{Rows: 6, Cols: 7, Mode: FreeEnds, Sweep: SweepNarrow, AllLengths: true, passPart: 0.1},
			Config{Rows: 5, Cols: 7, Mode: FreeEnds, Sweep: SweepNarrowDown, passPart: 0.1})
	}
	for _, cfg := range boards {
		part := cfg.passPart
		cfg.Workers, cfg.MemoryLimit, cfg.noMirror = 2, 4<<30, true
		want := wholeCount(t, cfg)
		for _, lean := range []bool{true, false} {
			name := fmt.Sprintf("%dx%d %v %v in passes of %v, lean %v", cfg.Rows, cfg.Cols, cfg.Mode, cfg.Sweep, part, lean)
			var skipped atomic.Int64
			cfg.SpillDir, cfg.Lean, cfg.passPart, cfg.noMirror = t.TempDir(), lean, part, false
			cfg.onSkip = func() { skipped.Add(1) }
			got, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := cmp.Diff(countsOf(want), countsOf(got)); diff != "" {
				t.Errorf("%s: counts (-at once, every state +passes, reflections):\n%s", name, diff)
			}
			if got.Passes < 3 || skipped.Load() == 0 {
				t.Errorf("%s: at most %d passes a step, %d pieces skipped: want 3 or more, and some", name, got.Passes, skipped.Load())
			}
			cfg.noMirror = true
			every, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s, every state: %v", name, err)
			}
			if m, e := statesOver(got), statesOver(every); m >= e {
				t.Errorf("%s: %d states, %d when the passes keep every state: want fewer", name, m, e)
			}
		}
	}
}

// TestMarkUndo checks that a dropped pass takes back what it found: the
// tours, the counts of shorter boards and the states it kept.
func TestMarkUndo(t *testing.T) {
	s := &stepper{ws: []*worker{{total: []uint64{5}, cut: []uint64{7}}, {total: []uint64{1}}}}
	s.followed.Store(3)
	undo := s.mark()
	s.ws[0].total[0], s.ws[0].cut[0], s.ws[1].total[0] = 50, 70, 10
	s.followed.Add(100)
	undo()
	got := [][]uint64{s.ws[0].total, s.ws[0].cut, s.ws[1].total, s.ws[1].cut, {uint64(s.followed.Load())}}
	want := [][]uint64{{5}, {7}, {1}, nil, {3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after undo (-want +got):\n%s", diff)
	}
}

// TestPlanPassesCoversEveryClass checks that every class is in some pass,
// and every group of a class made in ranges in exactly one, however small
// the part a pass may take.
func TestPlanPassesCoversEveryClass(t *testing.T) {
	f, err := newBoard(6, 6, SweepRows, false)
	if err != nil {
		t.Fatal(err)
	}
	const groups = 64
	v := 20
	for _, sm := range samples(f) {
		for _, part := range []float64{0, 1e-9, 0.01, 0.2, 0.5, 1, 3} {
			passes, c := planPasses(f, v, sm, part, groups, nil, untouched(&f.shifts[v], f.slots))
			coversOnce(t, passes, c, groups, part)
		}
	}
}

// samples returns samples of random keys of f's layers: of the states
// alone, measured, and measured with nothing made.
func samples(f *board) []*sample {
	keys := randomKeys(f)
	rng := rand.New(rand.NewPCG(3, 4))
	made, none := make([]uint32, len(keys)), make([]uint32, len(keys))
	for i := range made {
		made[i] = uint32(rng.IntN(12))
	}
	return []*sample{{keys: keys}, {keys: keys, made: made}, {keys: keys, made: none}}
}

// coversOnce checks that passes make every class of c and group of the
// next layer once.
func coversOnce(t *testing.T, passes []pass, c *classifier, groups int, part float64) {
	t.Helper()
	classes := c.count()
	covered := make([][]int, classes) // per class, how often each group is made
	for cl := range covered {
		covered[cl] = make([]int, groups)
	}
	for _, p := range passes {
		for cl := range classes {
			if p.classes>>cl&1 == 0 {
				continue
			}
			for g := p.lo; g < p.hi; g++ {
				covered[cl][g]++
			}
		}
	}
	for cl := range covered {
		for g, n := range covered[cl] {
			if n != 1 {
				t.Fatalf("part %v: class %d group %d made %d times, want once (passes %+v)", part, cl, g, n, passes)
			}
		}
	}
}

// randomKeys returns 5000 keys of packed board f, drawn at random.
func randomKeys(f *board) []uint64 {
	var keys []uint64
	for i := range uint64(5000) {
		keys = append(keys, mix.Hash(i)&(1<<(4*f.slots)-1))
	}
	return keys
}

// TestAlignedPassesCoverEveryClass plans passes by the classes of a
// layer made in four passes, for budgets from none to all of it, and
// checks that every class and group of the next layer is made once, and
// that the classes of a pass before stay in one pass where they fit.
func TestAlignedPassesCoverEveryClass(t *testing.T) {
	f, err := newBoard(6, 6, SweepRows, false)
	if err != nil {
		t.Fatal(err)
	}
	// 27 classes by three positions, made before in four passes of 8
	// groups each, of 10, 20, 30 and 40 states a group.
	cp := &classParts{partition: partition{pos: []int{3, 5, 9}}}
	sets := []uint64{0x1ff, 0x3e00, 0x3c000, 0x7fc0000}
	cur := &layer{n: 8 * (10 + 20 + 30 + 40)}
	for i, set := range sets {
		cp.add(8*i, 8*(i+1), set)
		for range 8 {
			cur.groups = append(cur.groups, group{words: 2 * 10 * (i + 1)})
		}
	}
	const groups = 64
	for n, sm := range samples(f) {
		for _, part := range []float64{0, 0.01, 0.2, 0.35, 0.5, 1} {
			passes, c := alignedPasses(f, cp, cur, 2, sm, part, groups, everyPosition(f))
			if !slices.Equal(c.pos, cp.pos) {
				t.Fatalf("part %v: classes by positions %v, want %v", part, c.pos, cp.pos)
			}
			coversOnce(t, passes, c, groups, part)
			if n == 0 {
				keptTogether(t, passes, sets, cur, part)
			}
		}
	}
}

// keptTogether checks that the classes of each pass before, sets, are in
// one pass where their share of cur, which holds 10*(i+1) states in
// each of its 8 groups, fits in part.
func keptTogether(t *testing.T, passes []pass, sets []uint64, cur *layer, part float64) {
	t.Helper()
	for i, set := range sets {
		share := float64(8*10*(i+1)) / float64(cur.n)
		if share > part {
			continue
		}
		if !slices.ContainsFunc(passes, func(p pass) bool { return p.classes&set == set }) {
			t.Errorf("part %v: the classes of pass %d before (share %.2f) are split: %+v", part, i, share, passes)
		}
	}
}

// TestKindSet checks that the classes a group's kinds allow hold the
// class of each of its states, only those of its one state in a group of
// one, and all of them where the kinds are unknown: keys packed (6x6 by
// rows: 13 nibbles, and z above them) and in digits (base 11 on 8 rows,
// growing radices on 9).
func TestKindSet(t *testing.T) {
	packed, err := newBoard(6, 6, SweepRows, false)
	if err != nil {
		t.Fatal(err)
	}
	if !packed.packed {
		t.Fatal("6x6 by rows: keys not packed")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	nibbleKey := func() uint64 {
		k := rng.Uint64() &^ packed.nibbles // z, or noise, above the nibbles
		for p := range packed.slots {
			k |= uint64(rng.IntN(16)) << (4 * p)
		}
		return k
	}
	digitKeys := func(rows, cols int, sweep Sweep) (*board, func() uint64) {
		f, windows := randomWindows(t, rows, cols, sweep)
		st := &f.shifts[f.n-1]
		return f, func() uint64 { return f.encode(&windows[rng.IntN(len(windows))], rng.IntN(4), st) }
	}
	f8, key8 := digitKeys(8, 8, SweepRows)
	f9, key9 := digitKeys(9, 9, SweepNarrow)
	for _, tc := range []struct {
		name string
		f    *board
		key  func() uint64
	}{
		{"6x6 packed", packed, nibbleKey},
		{"8x8 base 11", f8, key8},
		{"9x9 growing radices", f9, key9},
	} {
		f := tc.f
		for _, pos := range [][]int{{0}, {12}, {3, 7}, {1, 5, 11}, {11, 5, 1}, {f.slots - 1}, {f.slots - 3, 2, f.slots - 1}} {
			c := &classifier{f: f}
			c.setPositions(pos)
			for _, n := range []int{1, 2, 5, 40} {
				for range 200 {
					entries := make([]uint64, 0, 2*n)
					var want uint64
					for range n {
						k := tc.key()
						entries = append(entries, k, 1)
						want |= 1 << c.class(k)
					}
					ks := f.kindsOf(entries, 2)
					if !f.validKinds(ks) {
						t.Fatalf("%s, %d states: kinds %#x not valid", tc.name, n, ks)
					}
					got := c.holds(ks)
					if got&want != want {
						t.Fatalf("%s, positions %v, %d states: holds %b, not all of their classes %b", tc.name, pos, n, got, want)
					}
					if n == 1 && got != want {
						t.Fatalf("%s, positions %v, one state of class %b: holds %b", tc.name, pos, want, got)
					}
				}
			}
		}
	}
	c := &classifier{f: packed}
	c.setPositions([]int{2})
	got := []uint64{c.holds(0), (&classifier{f: packed}).holds(packed.kindsOf([]uint64{5, 1}, 2))}
	if diff := cmp.Diff([]uint64{allClasses, allClasses}, got); diff != "" {
		t.Errorf("unknown kinds, no positions: (-want +got)\n%s", diff)
	}
	for _, tc := range []struct {
		f  *board
		ks kindSet
	}{
		{f9, 1 << (3 * f9.slots)}, // past the window
		{f9, 1},                   // position 0 alone
		{f8, 0xf},                 // no kind at positions 2 to 16
		{packed, 1 << 60},         // past the nibbles
	} {
		if tc.f.validKinds(tc.ks) {
			t.Errorf("%d slots: kinds %#x valid", tc.f.slots, tc.ks)
		}
	}
}

// BenchmarkClass tells the classes of keys of 8 rows in base 11, which
// every pass of a step made in passes does for every state of the layer
// it reads: by three window positions (17 squares, by rows) and by three
// and four splits (16 squares, as with free ends), each by the
// classifier's table and by division.
func BenchmarkClass(b *testing.B) {
	for _, bc := range []struct {
		name  string
		sweep Sweep
		pt    partition
	}{
		{"17/positions", SweepRows, partition{pos: []int{3, 9, 14}}},
		{"16/splits", SweepNarrow, partition{pos: []int{3, 9, 14}, splits: []classSplit{{26, 5}, {0, 7}, {13, 1}, {27, 11}}}},
	} {
		f, windows := randomWindows(b, 8, 12, bc.sweep)
		keys := make([]uint64, len(windows))
		for i := range windows {
			keys[i] = f.encode(&windows[i], i&3, &f.shifts[f.n-1])
		}
		for _, by := range []string{"table", "division"} {
			c := classifier{f: f}
			c.setPartition(bc.pt)
			if by == "division" {
				c.table = nil
			}
			b.Run(bc.name+"/"+by, func(b *testing.B) {
				sum := 0
				for b.Loop() {
					for _, key := range keys {
						sum += c.class(key)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
				if sum == 1 {
					b.Log(sum)
				}
			})
		}
	}
}

// BenchmarkClassTable makes the table of a classifier of keys of 8 rows
// in base 11, as a plan does for its classes and each step for those of
// its passes: by three window positions, by three and four splits, and by
// nine positions, the most a table looks at.
func BenchmarkClassTable(b *testing.B) {
	f, err := newBoard(8, 12, SweepNarrow, false)
	if err != nil {
		b.Fatal(err)
	}
	f.pack(false)
	for _, bc := range []struct {
		name string
		pt   partition
	}{
		{"positions", partition{pos: []int{3, 9, 14}}},
		{"splits", partition{pos: []int{3, 9, 14}, splits: []classSplit{{26, 5}, {0, 7}, {13, 1}, {27, 11}}}},
		{"nine", partition{pos: []int{1, 3, 9}, splits: []classSplit{{0, 2}, {1, 4}, {2, 5}, {3, 6}, {4, 7}, {5, 8}}}},
	} {
		c := classifier{f: f}
		c.setPartition(bc.pt)
		if c.table == nil {
			b.Fatalf("%v: no table", bc.pt)
		}
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				c.table = newClassTable(&c)
			}
		})
	}
}

// BenchmarkCountInPasses counts 6x7 from the corner with its layers on
// disk and every step from the tenth square on in passes of at most a
// quarter of the next layer, as the widest squares of 8 rows are made: by
// the lean step (tables) and by the buffered one (bins).
func BenchmarkCountInPasses(b *testing.B) {
	for _, lean := range []bool{true, false} {
		name := "buffered"
		if lean {
			name = "lean"
		}
		b.Run(name, func(b *testing.B) {
			cfg := Config{Rows: 6, Cols: 7, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30, Lean: lean, passPart: 0.25}
			var res *Result
			for b.Loop() {
				cfg.SpillDir = b.TempDir()
				var err error
				if res, err = Count(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
				if res.Tours.String() != "57968982" {
					b.Fatalf("%v tours", res.Tours)
				}
			}
			if res.Passes < 4 {
				b.Fatalf("at most %d passes a step, want 4", res.Passes)
			}
		})
	}
}

// TestCountPassesByMemory checks counts whose steps are split into passes
// by the memory limit alone, as a user's are: the buffered step's passes
// planned from a measured sample of the layer (measure), the lean step's
// from its guess, each dropped and made again as two where it passes the
// limit.
func TestCountPassesByMemory(t *testing.T) {
	cfgs := []Config{{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow, MemoryLimit: 3 << 20}}
	if exhaustive {
		cfgs = append(cfgs, Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, MemoryLimit: 4 << 20})
	}
	for _, cfg := range cfgs {
		cfg.Workers = 2
		want := wholeCount(t, Config{Rows: cfg.Rows, Cols: cfg.Cols, Mode: cfg.Mode, StartRow: cfg.StartRow, Sweep: cfg.Sweep, Workers: 2, MemoryLimit: 1 << 30})
		cfg.SpillDir = t.TempDir()
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%dx%d %v at %d bytes: %v", cfg.Rows, cfg.Cols, cfg.Sweep, cfg.MemoryLimit, err)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 }), cmpopts.IgnoreFields(Result{}, "PeakBytes", "Passes", "Narrowed", "DemandTime")); diff != "" {
			t.Errorf("%dx%d %v at %d bytes (-at once +in passes):\n%s", cfg.Rows, cfg.Cols, cfg.Sweep, cfg.MemoryLimit, diff)
		}
		if got.Passes < 2 {
			t.Errorf("%dx%d %v at %d bytes: at most %d pass a step, want 2 or more", cfg.Rows, cfg.Cols, cfg.Sweep, cfg.MemoryLimit, got.Passes)
		}
		if got.PeakBytes > cfg.MemoryLimit {
			t.Errorf("%dx%d %v at %d bytes: held %d bytes at the peak", cfg.Rows, cfg.Cols, cfg.Sweep, cfg.MemoryLimit, got.PeakBytes)
		}
	}
}

// TestRunSplitsLargePasses checks how a step's passes are made again when
// one passes the memory limit: it is made as two, and, the first time, so
// is every pass left as large as half of it, since the plan underestimated
// them alike; a pass dropped later is made as two alone.
func TestRunSplitsLargePasses(t *testing.T) {
	quarter := func(i int) pass { return pass{classes: 0b11 << (2 * i), hi: 2, share: 0.25} }
	type made struct {
		classes uint64
		lo, hi  int
	}
	tests := []struct {
		name    string
		passes  []pass
		fits    float64 // the largest share that stays within the limit
		want    []made
		dropped int
	}{
		{"all fit", []pass{quarter(0), quarter(1)}, 0.3, []made{{0b11, 0, 2}, {0b1100, 0, 2}}, 0},
		{"each too large", []pass{quarter(0), quarter(1), quarter(2)}, 0.2,
			[]made{{0b1, 0, 2}, {0b10, 0, 2}, {0b100, 0, 2}, {0b1000, 0, 2}, {0b10000, 0, 2}, {0b100000, 0, 2}}, 1},
		{"a small pass left as it is", []pass{quarter(0), {classes: 0b1100, hi: 2, share: 0.1}}, 0.2,
			[]made{{0b1, 0, 2}, {0b10, 0, 2}, {0b1100, 0, 2}}, 1},
		// The halves too large as well: each is made again as two groups'
		// ranges, in its turn, and the passes left are split only once.
		{"halves too large", []pass{quarter(0), quarter(1)}, 0.1,
			[]made{{0b1, 0, 1}, {0b1, 1, 2}, {0b10, 0, 1}, {0b10, 1, 2}, {0b100, 0, 1}, {0b100, 1, 2}, {0b1000, 0, 1}, {0b1000, 1, 2}}, 5},
	}
	for _, tt := range tests {
		s := &stepper{r: &counter{}}
		var got []made
		tries := 0
		err := s.run(tt.passes, true, func(p pass) (int, error) {
			tries++
			if p.share > tt.fits {
				return p.lo, ErrMemoryLimit
			}
			got = append(got, made{p.classes, p.lo, p.hi})
			return p.hi, nil
		})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(made{})); diff != "" {
			t.Errorf("%s: the passes made (-want +got):\n%s", tt.name, diff)
		}
		if dropped := tries - len(got); dropped != tt.dropped {
			t.Errorf("%s: %d passes dropped, want %d", tt.name, dropped, tt.dropped)
		}
		// The next step plans for more memory after a drop, once.
		want := 1.0
		if tt.dropped > 0 {
			want = 1.5
		}
		if got := s.r.planScale.factor(); got != want {
			t.Errorf("%s: plan scale %v after the step, want %v", tt.name, got, want)
		}
	}
}

// TestRunMakesTheRestOfANarrowedPass checks that the groups a pass gave
// up when it narrowed are the next pass, of their share of it, and that
// the plans' scale does not come down after the step.
func TestRunMakesTheRestOfANarrowedPass(t *testing.T) {
	s := &stepper{r: &counter{planScale: 2}}
	var got []pass
	err := s.run([]pass{{classes: 0b11, hi: 16, share: 0.4}, {classes: 0b1100, hi: 16, share: 0.4}}, true, func(p pass) (int, error) {
		got = append(got, p)
		if p.classes == 0b11 && p.hi-p.lo > 4 {
			return p.lo + (p.hi-p.lo)/2, nil // narrowed to its first half
		}
		return p.hi, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []pass{{0b11, 0, 16, 0.4}, {0b11, 8, 16, 0.2}, {0b11, 12, 16, 0.1}, {0b1100, 0, 16, 0.4}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(pass{}), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("passes made (-want +got):\n%s", diff)
	}
	if got := s.r.planScale.factor(); got != 2 {
		t.Errorf("plan scale %v after a step that narrowed, want 2 as before", got)
	}
}

// TestScale checks how the plans' scale moves: after a step with a drop,
// up by half where the drop was not measured, else to the miss it
// measured (or the scale, if larger) and a tenth more, to at most
// maxScale; back down a tenth at each step whose passes held, to no less
// than 1.
func TestScale(t *testing.T) {
	const held = -1.0
	tests := []struct {
		name  string
		steps []float64 // a drop's miss (0: unmeasured), or held
		want  []float64
	}{
		{"unmeasured", []float64{0, 0, held, 0, 0, 0, 0, held}, []float64{1.5, 2.25, 2.025, 3.037, 4, 4, 4, 3.6}},
		{"measured", []float64{1.05, held, 2, held, held, 0.5, 9}, []float64{1.155, 1.04, 2.2, 1.98, 1.782, 1.96, 4}},
		{"measured below the scale", []float64{0, 1.2}, []float64{1.5, 1.65}},
	}
	for _, tt := range tests {
		var s scale
		var got []float64
		for _, miss := range tt.steps {
			if miss == held {
				s.held()
			} else {
				s.dropped(miss)
			}
			got = append(got, math.Round(s.factor()*1000)/1000)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: scales (-want +got):\n%s", tt.name, diff)
		}
	}
	s := scale(1.05)
	if s.held(); s.factor() != 1 {
		t.Errorf("scale %v after a step that held, want 1", s.factor())
	}
}

// TestSampleWeighsStates checks that the plan's sample holds each part
// of a layer as its states do, not as its groups or pieces do: a layer
// made in passes has as many groups in each pass, whatever its states.
func TestSampleWeighsStates(t *testing.T) {
	const stride = 2
	tests := []struct {
		name        string
		large, many int // states of the one large group, and of each of 100 small ones
	}{
		{"one large group beside many small", 40000, 40},
		{"groups alike", 500, 500},
		{"fewer states than a sample", 30, 3},
	}
	for _, tt := range tests {
		cur := &layer{}
		add := func(n int, key uint64) {
			entries := make([]uint64, n*stride)
			for i := range n {
				entries[i*stride] = key
			}
			cur.groups = append(cur.groups, group{entries: entries, words: len(entries)})
			cur.n += n
		}
		add(tt.large, 1)
		for range 100 {
			add(tt.many, 2)
		}
		s := &stepper{r: &counter{k: 1}, cur: cur, pieces: cur.pieces(stride)}
		sm, err := s.sample()
		if err != nil {
			t.Fatal(err)
		}
		want := min(sampleRuns*sampleRun, cur.n)
		if len(sm.keys) < want*9/10 || len(sm.keys) > want {
			t.Errorf("%s: %d keys in the sample, want about %d", tt.name, len(sm.keys), want)
		}
		large := 0
		for _, key := range sm.keys {
			if key == 1 {
				large++
			}
		}
		got, share := float64(large)/float64(len(sm.keys)), float64(tt.large)/float64(cur.n)
		if math.Abs(got-share) > 0.02 {
			t.Errorf("%s: the large group is %.3f of the sample, want %.3f", tt.name, got, share)
		}
	}
}

// TestRefit checks how a dropped pass is made again from what it
// measured: its classes first fit into passes of the room, largest first,
// by their shares, and a class larger than the room in ranges of the
// pass's groups.
func TestRefit(t *testing.T) {
	shares := []float64{0.1, 0.5, 0.2, 0.2}
	tests := []struct {
		name         string
		p            pass
		states, room float64
		want         []pass
	}{
		{"classes apart", pass{classes: 0b1111, hi: 8, share: 0.4}, 1000, 600,
			[]pass{{classes: 0b11, hi: 8, share: 600}, {classes: 0b1100, hi: 8, share: 400}}},
		{"a class in ranges", pass{classes: 0b1111, hi: 8, share: 0.4}, 1000, 300,
			[]pass{{classes: 0b10, lo: 0, hi: 4, share: 250}, {classes: 0b10, lo: 4, hi: 8, share: 250},
				{classes: 0b101, hi: 8, share: 300}, {classes: 0b1000, hi: 8, share: 200}}},
		{"one class", pass{classes: 0b100, lo: 4, hi: 8, share: 0.1}, 1000, 400,
			[]pass{{classes: 0b100, lo: 4, hi: 5, share: 1000. / 3}, {classes: 0b100, lo: 5, hi: 6, share: 1000. / 3}, {classes: 0b100, lo: 6, hi: 8, share: 1000. / 3}}},
		{"every class", pass{classes: allClasses, hi: 4, share: 1}, 1000, 600,
			[]pass{{classes: allClasses, lo: 0, hi: 2, share: 500}, {classes: allClasses, lo: 2, hi: 4, share: 500}}},
	}
	for _, tt := range tests {
		got := refit(tt.p, tt.states, tt.room, shares)
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(pass{}), cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestRemakeMeasured checks that a buffered pass dropped for memory is
// made again in passes that its measure says fit, and that the first
// time the passes left that the same measure says are too large are
// split too, while the others stay as they were.
func TestRemakeMeasured(t *testing.T) {
	f, err := newBoard(6, 6, SweepRows, false)
	if err != nil {
		t.Fatal(err)
	}
	c := &classifier{f: f}
	c.setPositions([]int{3, 5})
	sm := &sample{keys: randomKeys(f)}
	held := c.shares(sm)
	const states = 1_000_000
	room := 100_000.0 // new states a pass's bins have room for
	r := &counter{k: 1, mem: memory.NewBudget(int64(room * binBytes(1)))}
	p := pass{classes: 0b111, hi: 16, share: 0.3}
	in := held[0] + held[1] + held[2]
	left := []pass{{classes: 0b111000, hi: 16, share: 0.3}, {classes: 0b111000000, hi: 16, share: 0.05}}
	// A lean step's tables, planned at perState bytes a state, have the
	// room the buffered step's bins have.
	for _, perState := range []float64{0, binBytes(1) / 2} {
		limit := int64(room * binBytes(1))
		if perState > 0 {
			limit /= 2
		}
		for _, first := range []bool{true, false} {
			// The pass kept 150,000 new states for the first half of its
			// classes' states: 300,000 in all, 10^6 for a share of 1.
			// The sample foretold half a new state a state of cur: 500,000
			// for a share of 1, half what the pass made.
			s := &stepper{r: &counter{k: 1, mem: memory.NewBudget(limit)}, cur: &layer{n: states}, classes: c, sampled: sm, perState: perState,
				dropped: &dropMeasure{kept: 150_000, taken: int64(in * states / 2)}, made: 0.5}
			got, ok := s.remake(p, slices.Clone(left), first)
			if !ok {
				t.Fatalf("first %v: not made again", first)
			}
			if want := map[bool]float64{true: 2, false: 0}[perState == 0]; math.Abs(s.missed-want) > 1e-9 {
				t.Errorf("perState %v: missed %v, want %v (only a buffered pass's miss is the plan's)", perState, s.missed, want)
			}
			var mine, rest []pass
			for _, q := range got {
				if q.classes&p.classes != 0 {
					mine = append(mine, q)
				} else {
					rest = append(rest, q)
				}
			}
			sum := 0.0
			for _, q := range mine {
				if q.share*1e6 > room*1.0001 {
					t.Errorf("first %v: a pass of %.0f new states made again, room for %.0f: %+v", first, q.share*1e6, room, mine)
				}
				sum += q.share
			}
			if math.Abs(sum-0.3) > 1e-9 || len(mine) < 3 {
				t.Errorf("first %v: made again as %+v (shares %.3f in all), want at least 3 passes of 0.3 in all", first, mine, sum)
			}
			coversOnce(t, append(slices.Clone(mine), pass{classes: allClasses &^ 0b111, hi: 16}), c, 16, 0)
			want := left
			if first { // the first pass left, 300,000 new states, split; not the second
				want = nil
				for _, q := range rest {
					if q.classes&left[0].classes != 0 {
						want = append(want, q)
					}
				}
				if len(want) < 3 {
					t.Errorf("first %v: the pass left of 300,000 new states made as %+v", first, want)
				}
				want = append(want, left[1])
			}
			if diff := cmp.Diff(want, rest, cmp.AllowUnexported(pass{})); diff != "" {
				t.Errorf("first %v: the passes left (-want +got):\n%s", first, diff)
			}
		}
	}
	// Without a measure, the pass is halved.
	s := &stepper{r: r, cur: &layer{n: states}, classes: c, sampled: sm}
	got, _ := s.remake(p, nil, false)
	if len(got) != 2 || got[0].share != 0.15 {
		t.Errorf("a lean pass made again as %+v, want two halves", got)
	}
}

// TestCountNarrows makes every buffered step of a count in one pass that
// its bins cannot hold, so that passes narrow, and checks the counts and
// states against a count made at once and that the bins stayed within the
// limit: a state of a group given up that was kept, or one of a group
// kept that was lost, would change them.
func TestCountNarrows(t *testing.T) {
	type tight struct {
		cfg   Config
		limit int64
	}
	counts := []tight{
		{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow}, 3 << 20},
		// At 2.5 MiB only 2 or 3 passes narrowed, and under load now and
		// then none (1 run in 80); at 2 MiB 13 to 21 do.
		{Config{Rows: 5, Cols: 7, Mode: FreeEnds, AllLengths: true}, 1 << 21},
		// Groups of a few states, more than the bins' buckets: a packed
		// key then carries its group within its bucket (emitter.markKeys),
		// and the buckets a pass gives up must take their counts along.
		{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow, groupStates: 64}, 6 << 20},
	}
	if exhaustive {
		counts = append(counts,
			tight{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Base11: true}, 4 << 20},
			tight{Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow, Shard: 1, Shards: 3}, 5 << 19})
	}
	for _, tt := range counts {
		cfg := tt.cfg
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		want := wholeCount(t, cfg)
		narrowed := 0
		cfg.SpillDir, cfg.MemoryLimit, cfg.passPart = t.TempDir(), tt.limit, 1.5
		cfg.onNarrow = func(p pass, hi int) {
			narrowed++
			if hi <= p.lo || hi >= p.hi {
				t.Errorf("%dx%d %v: a pass of groups [%d, %d) narrowed to end at %d", cfg.Rows, cfg.Cols, cfg.Mode, p.lo, p.hi, hi)
			}
		}
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%dx%d %v in %d bytes: %v", cfg.Rows, cfg.Cols, cfg.Mode, tt.limit, err)
		}
		t.Logf("%dx%d %v: %d passes narrowed, peak %d bytes", cfg.Rows, cfg.Cols, cfg.Mode, narrowed, got.PeakBytes)
		if got.Narrowed != narrowed {
			t.Errorf("%dx%d %v: Narrowed %d, but %d passes narrowed", cfg.Rows, cfg.Cols, cfg.Mode, got.Narrowed, narrowed)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 }), cmpopts.IgnoreFields(Result{}, "PeakBytes", "Passes", "Narrowed", "DemandTime")); diff != "" {
			t.Errorf("%dx%d %v: narrowed (-once +narrowed):\n%s", cfg.Rows, cfg.Cols, cfg.Mode, diff)
		}
		if narrowed == 0 {
			t.Errorf("%dx%d %v in %d bytes: no pass narrowed", cfg.Rows, cfg.Cols, cfg.Mode, tt.limit)
		}
		// A narrowed pass fills its bins to the room the merge buffers
		// leave, twice the most they took so far (mergeRoom); on boards
		// this small, whose groups still grow, a merge may take more, and
		// merge buffers are counted even past the limit (merger.grow):
		// up to a fifteenth of it here.
		if got.PeakBytes > tt.limit+tt.limit/8 {
			t.Errorf("%dx%d %v: peak %d bytes, over the limit %d and the merge's margin", cfg.Rows, cfg.Cols, cfg.Mode, got.PeakBytes, tt.limit)
		}
	}
}

// TestProjection checks that a projection of one classifier's classes on
// another's holds, for the class of each key by the first, its class by
// the second, and no class that disagrees at a shared position; that it
// is nil where no position is shared; and that it knows nothing of all
// classes or of classes the parts do not have.
func TestProjection(t *testing.T) {
	f, windows := randomWindows(t, 8, 8, SweepRows)
	st := &f.shifts[f.n-1]
	for _, tc := range []struct {
		from, to []int
		shared   int // positions both look at
	}{
		{[]int{3, 9, 14}, []int{3, 9, 14}, 3},
		{[]int{3, 9, 14}, []int{14, 2, 3}, 2},
		{[]int{5}, []int{1, 5, 8}, 1},
		{[]int{1, 5, 8}, []int{5}, 1},
		{[]int{2, 4}, []int{6, 7, 0}, 0},
	} {
		from, to := &classifier{f: f}, &classifier{f: f}
		from.setPositions(tc.from)
		to.setPositions(tc.to)
		pr := project(&classParts{partition: partition{pos: tc.from}}, to)
		if tc.shared == 0 {
			if pr != nil {
				t.Errorf("%v on %v: a projection, with no position shared", tc.from, tc.to)
			}
			continue
		}
		for i := range windows {
			key := f.encode(&windows[i], i&3, st)
			if a, b := from.class(key), to.class(key); pr[a]>>b&1 == 0 {
				t.Fatalf("%v on %v: key of classes %d and %d, projection of %d is %b", tc.from, tc.to, a, b, a, pr[a])
			}
		}
		// Each class of the parts agrees with 3^(len(to)-shared) classes.
		want := classesBy(len(tc.to) - tc.shared)
		for a, m := range pr {
			if got := bits.OnesCount64(m); got != want {
				t.Errorf("%v on %v: class %d projects on %d classes, want %d", tc.from, tc.to, a, got, want)
			}
		}
		if got := []uint64{pr.of(allClasses), pr.of(1 << 40)}; got[0] != allClasses || got[1] != allClasses {
			t.Errorf("%v on %v: of all classes %x, of class 40 %x; want all", tc.from, tc.to, got[0], got[1])
		}
	}
}

// TestReadsInPasses counts boards in passes of a tenth of a layer each,
// their layers on disk: as a count does, without projections, and with
// no class split. It checks that the counts agree with a count at once,
// that projections make the passes read fewer states, and that splits
// make them expand fewer. Given KNIGHTSTOUR_READS (a board, such as
// "free 8x6"; "all" before it counts every length, "across" after "free"
// counts across, keys in digits), it measures instead
// what the passes read and expand against the states of the layers, and
// with no group's kinds besides, the figures docs/performance.md gives:
//
//	KNIGHTSTOUR_READS="free 8x6" go test -run TestReadsInPasses -v -timeout 0 ./internal/frontier
func TestReadsInPasses(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	boards := []Config{{Rows: 4, Cols: 9, Mode: FreeEnds}}
	if exhaustive {
		boards = append(boards, Config{Rows: 5, Cols: 8, Mode: FreeEnds}, Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5})
	}
	board := os.Getenv("KNIGHTSTOUR_READS")
	if board != "" {
		cfg := Config{Mode: FromStart}
		rest, all := strings.CutPrefix(board, "all ")
		if rest, ok := strings.CutPrefix(rest, "free "); ok {
			board, cfg.Mode = rest, FreeEnds
		} else {
			board = rest
		}
		board, cfg.Across = strings.CutPrefix(board, "across ")
		if _, err := fmt.Sscanf(board, "%dx%d", &cfg.Rows, &cfg.Cols); err != nil {
			t.Fatalf("KNIGHTSTOUR_READS=%q: %v", os.Getenv("KNIGHTSTOUR_READS"), err)
		}
		if cfg.Mode == FromStart {
			cfg.StartRow = cfg.Rows - 1
		}
		cfg.AllLengths = all
		boards = []Config{cfg}
	}
	type variant struct {
		name                            string
		noProjection, noSplits, noKinds bool
	}
	variants := []variant{{"as a count does", false, false, false}, {"no projections", true, false, false}, {"no splits", false, true, false}}
	if board != "" {
		variants = append(variants, variant{"no kinds", false, false, true}) // what skipping groups by their kinds spares
	}
	for _, cfg := range boards {
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		want := wholeCount(t, cfg)
		name := fmt.Sprintf("%dx%d %v", cfg.Rows, cfg.Cols, cfg.Mode)
		var reads, expanded [4]int64
		for i, v := range variants {
			var read, expand atomic.Int64
			cfg.SpillDir, cfg.passPart, cfg.noProjection, cfg.noSplits, cfg.noKinds = t.TempDir(), 0.1, v.noProjection, v.noSplits, v.noKinds
			cfg.onRead = func(states int) { read.Add(int64(states)) }
			cfg.onExpand = func(states int) { expand.Add(int64(states)) }
			start := time.Now()
			got, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s, %s: %v", name, v.name, err)
			}
			if diff := cmp.Diff(countsOf(want), countsOf(got)); diff != "" {
				t.Errorf("%s, %s: counts (-at once +in passes):\n%s", name, v.name, diff)
			}
			reads[i], expanded[i] = read.Load(), expand.Load()
			if board != "" {
				var states int64
				for _, n := range got.States {
					states += int64(n)
				}
				t.Logf("%s, %s: in passes of a tenth, at most %d a square; of the %d states of the layers, %.2f read and %.2f expanded a state; %.1f s",
					name, v.name, got.Passes, states, float64(reads[i])/float64(states), float64(expanded[i])/float64(states), time.Since(start).Seconds())
			}
		}
		if reads[0] >= reads[1] {
			t.Errorf("%s: the passes read %d states with projections, %d without: want fewer", name, reads[0], reads[1])
		}
		if expanded[0] >= expanded[2] {
			t.Errorf("%s: the passes expanded %d states with splits, %d without: want fewer", name, expanded[0], expanded[2])
		}
	}
}

// everyPosition returns every window position of f.
func everyPosition(f *board) []int {
	var all []int
	for p := range f.slots {
		all = append(all, p)
	}
	return all
}

// TestLayerReads, given KNIGHTSTOUR_LAYER_READS (the checkpoint of a
// count stopped between the passes of a step), reports what share of the
// layer each of the step's passes reads, the done ones and those left: the
// groups that by their kinds, and by the layer's parts through the step's
// classes (aligned or projected, as stepper.startPasses finds them), may
// hold states of the pass's classes. It reads the checkpoint's record
// alone, not its layers:
//
//	KNIGHTSTOUR_LAYER_READS=/data/8x12-free/ckpt go test -run TestLayerReads -v ./internal/frontier
func TestLayerReads(t *testing.T) {
	path := os.Getenv("KNIGHTSTOUR_LAYER_READS")
	if path == "" {
		t.Skip("KNIGHTSTOUR_LAYER_READS names no checkpoint")
	}
	m := readManifest(t, path)
	if m.Step == nil || m.Parts == nil && m.Kinds == nil {
		t.Fatalf("%s: no step under way, or a layer whose groups record neither classes nor kinds", path)
	}
	sweep := slices.IndexFunc([]Sweep{SweepRows, SweepNarrow, SweepNarrowDown}, func(s Sweep) bool {
		return m.Job.Sweep == s.String() || m.Job.Sweep == "" && s == SweepRows
	})
	f, err := newBoard(m.Job.Rows, m.Job.Cols, Sweep(sweep), m.Job.Across)
	if sweep < 0 || err != nil {
		t.Fatalf("%s: the board of %+v: %v", path, m.Job, err)
	}
	if m.Job.Base11 || !f.zInKey && m.Job.Mode == FreeEnds.String() && f.n%2 == 0 {
		f.pack(false) // as Count does
	}
	c := &classifier{f: f}
	c.setPartition(m.Step.partition())
	var cp *classParts
	if m.Parts != nil {
		cp = &classParts{partition: m.Parts.partition()}
		for _, rg := range m.Parts.Ranges {
			cp.ranges = append(cp.ranges, classRange{int(rg[0]), int(rg[1]), rg[2]})
		}
	}
	aligned := cp.usable(untouched(&f.shifts[m.Squares], f.slots), len(m.Groups)) && cp.partition.equal(c.partition)
	var proj projection
	if !aligned && cp != nil && cp.usable(cp.positions(), len(m.Groups)) {
		proj = project(cp, c)
	}
	var passes []uint64 // the classes of each pass, done (where the parts tell them) and left
	if m.Step.Parts != nil && m.Step.Grouping != int(groupsByNextClass) {
		for _, rg := range m.Step.Parts.Ranges { // a range a pass
			passes = append(passes, rg[2])
		}
	}
	done := len(passes)
	if done < m.Step.Passes {
		t.Logf("the classes of the %d passes done are not recorded (their groups are by the next step's classes): the passes left only", m.Step.Passes)
	}
	for _, p := range m.Step.Left {
		passes = append(passes, p.Classes)
	}
	var all int64
	for _, g := range m.Groups {
		all += g[2]
	}
	t.Logf("square %d: classes by positions %v, splits %v; the layer's parts by %v (aligned: %v, projected: %v)",
		m.Squares+1, m.Step.Positions, m.Step.Splits, cp.positions(), aligned, proj != nil)
	sum := 0.0
	for i, classes := range passes {
		var read int64
		for g, rec := range m.Groups {
			var ks kindSet
			if g < len(m.Kinds) {
				ks = kindSet(m.Kinds[g])
			}
			held := c.holds(ks)
			switch {
			case aligned:
				held &= cp.classesOf(g)
			case proj != nil:
				held &= proj.of(cp.classesOf(g))
			}
			if held&classes != 0 {
				read += rec[2]
			}
		}
		share := float64(read) / float64(max(all, 1))
		sum += share
		state := "left"
		if i < done {
			state = "done"
		}
		t.Logf("pass %d of %d (%s), classes %#x: reads %.3f of the layer", i+1, len(passes), state, classes, share)
	}
	t.Logf("these %d passes read the layer %.2f times", len(passes), sum)
}

// TestLeanPassesByNextClass counts a board of keys in digits whose steps
// keep the lesser of a state and its reflection, by the lean step in
// passes of a fifth with compact layers: each layer grouped by the classes
// the next step's passes read it by (packByClass), and by mix alone
// (ownClasses). Grouped by class, each pass reads only the groups of its
// classes, and any pass keeps any state as its reflection, so the layers
// hold about the states of a count in one pass (a state two passes both
// make is there twice until the next step): 7x4 across with free ends held
// 46,131 states against 45,933 in one pass, and its passes read 1.48
// states a state; by mix alone, 4.13, and the layers held 84,190 states.
// With -tags exhaustive it counts 8x4 across, keys in base 11 as 8 rows
// have them (1.63 states a state read, 3.76 by mix), whose demand passes
// take most of a second and a half; KNIGHTSTOUR_LEAN_BY_CLASS="8x5"
// counts that board across instead, and the log gives each count's time.
func TestLeanPassesByNextClass(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	base := Config{Rows: 7, Cols: 4, Mode: FreeEnds, Across: true, Base11: true, Workers: 2, MemoryLimit: 1 << 30, Lean: true, compact: true}
	if exhaustive {
		base.Rows, base.Base11 = 8, false
	}
	if board := os.Getenv("KNIGHTSTOUR_LEAN_BY_CLASS"); board != "" {
		base.Base11 = false
		if _, err := fmt.Sscanf(board, "%dx%d", &base.Rows, &base.Cols); err != nil {
			t.Fatalf("KNIGHTSTOUR_LEAN_BY_CLASS=%q: %v", board, err)
		}
	}
	// Directed tours of 8 x n with free ends: twice OEIS A389760(n).
	want, known := map[int]string{3: "792", 4: "62176", 5: "36122108"}[base.Cols]
	if base.Rows != 8 || !known {
		want = wholeCount(t, base).Tours.String()
	}
	type run struct {
		tours         *big.Int
		states, reads int64
		passes        int
		took          time.Duration
	}
	count := func(t *testing.T, part float64, ownClasses bool) run {
		cfg := base
		cfg.SpillDir, cfg.passPart, cfg.ownClasses = t.TempDir(), part, ownClasses
		var read atomic.Int64
		cfg.onRead = func(states int) { read.Add(int64(states)) }
		start := time.Now()
		got, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var states int64
		for _, n := range got.States {
			states += int64(n)
		}
		return run{got.Tours, states, read.Load(), got.Passes, time.Since(start)}
	}
	once := count(t, 0, false)
	byClass := count(t, 0.2, false)
	byMix := count(t, 0.2, true)
	for _, r := range []struct {
		name string
		run
	}{{"in one pass", once}, {"grouped by class", byClass}, {"grouped by mix", byMix}} {
		if diff := cmp.Diff(want, r.tours.String()); diff != "" {
			t.Errorf("%s: tours (-want +lean):\n%s", r.name, diff)
		}
		t.Logf("%s: %d states over the layers, %.2f read a state, the most passes of a step %d; %.1f s", r.name, r.states, float64(r.reads)/float64(r.states), r.passes, r.took.Seconds())
	}
	if once.passes != 1 || byClass.passes < 2 {
		t.Fatalf("steps of at most %d and %d passes, want 1 and more", once.passes, byClass.passes)
	}
	if byClass.states > once.states+once.states/100 {
		t.Errorf("grouped by class, the layers held %d states, more than 1%% over the %d of one pass: some pass kept states apart from their reflections", byClass.states, once.states)
	}
	if readsC, readsM := float64(byClass.reads)/float64(byClass.states), float64(byMix.reads)/float64(byMix.states); readsC >= 2 || readsC >= readsM {
		t.Errorf("grouped by class, the passes read %.2f states a state, by mix %.2f: want fewer than 2, and fewer than by mix", readsC, readsM)
	}
}
