package frontier

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/euler1758/knightstour/internal/frontier/memory"
)

// TestMappedFilter checks that a filter large enough to be mapped from
// the kernel, off the Go heap, is, holds every key it was made from, and
// gives its memory back with its viability.
func TestMappedFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	keys := make([]uint64, 1<<18)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	fl := newFilter(keys, 0xff)
	if !fl.mapped || len(fl.words) < mappedFilterWords {
		t.Fatalf("a filter of %d words, mapped %v; want one of at least %d, mapped", len(fl.words), fl.mapped, mappedFilterWords)
	}
	for _, k := range keys {
		if !fl.has(k) {
			t.Fatalf("the filter lost key %#x", k)
		}
	}
	small := newFilter(keys[:10], 0xff)
	if small.mapped {
		t.Error("a filter of a few words was mapped")
	}
	vb := &viability{after: []*filter{fl, small, nil}}
	vb.free()
	for i, f := range vb.after {
		if f != nil {
			t.Errorf("filter %d kept after free", i)
		}
	}
}

// BenchmarkViability runs the demand passes that precede a count: of 7x8
// from the corner by rows, and of 7x7 from the corner as a count makes it
// (the narrow sweep, the start paired with its reflection); -benchmem
// shows the Go heap they allocate, most of it garbage the collector lets
// grow beside the lists it keeps.
func BenchmarkViability(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  Config
	}{
		{"7x8-rows", Config{Rows: 7, Cols: 8, Mode: FromStart}},
		{"7x7", Config{Rows: 7, Cols: 7, Mode: FromStart, StartRow: 6, Sweep: SweepNarrow}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := bc.cfg
			cfg.Workers, cfg.MemoryLimit = 2, 1<<30
			f := mustBoard(b, cfg)
			b.ReportAllocs()
			for b.Loop() {
				r := newCounter(f, cfg)
				vb, err := r.viability(context.Background(), f.packDemand(0, 0, r.firstZ()))
				if err != nil {
					b.Fatal(err)
				}
				vb.free()
			}
		})
	}
}

// TestDemandList checks that a list of demands, kept in base 3, gives
// back each demand it was made from, z and the pair's bit with it, on
// boards whose windows hold 16, 17 and 18 squares, with lists long enough
// to be mapped from the kernel.
func TestDemandList(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, cfg := range []Config{
		{Rows: 8, Cols: 8, Sweep: SweepNarrow},
		{Rows: 8, Cols: 9, Sweep: SweepRows},
		{Rows: 9, Cols: 9, Sweep: SweepNarrow},
	} {
		f := mustBoard(t, cfg)
		ds := make([]uint64, 2*mappedFilterWords+1) // odd: the last word holds one
		for i := range ds {
			var one, two uint32
			for p := range f.slots {
				switch rng.IntN(3) {
				case 1:
					one |= 1 << p
				case 2:
					two |= 1 << p
				}
			}
			ds[i] = f.packDemand(one, two, rng.IntN(8)) // z and the pair's bit (counter.pairBit)
		}
		ds[0] = f.packDemand(1<<f.slots-1, 0, 7)
		ds[1] = f.packDemand(0, 1<<f.slots-1, 7)
		l := f.keepDemands(ds)
		if !l.mapped || l.n != len(ds) {
			t.Fatalf("%dx%d: a list of %d demands, mapped %v; want %d, mapped", cfg.Rows, cfg.Cols, l.n, l.mapped, len(ds))
		}
		for i, d := range ds {
			if got := l.at(i); got != d {
				t.Fatalf("%dx%d: demand %d is %#x, kept as %#x", cfg.Rows, cfg.Cols, i, d, got)
			}
		}
		l.free()
	}
}

// TestDemandGrowth prints the demands the forward demand pass finds after
// each square of the board in $KNIGHTSTOUR_DEMANDS ("9x9" from the corner,
// "free 9x9" with free ends), and their sum: the figures docs/nine-rows.md
// gives for 9x9. It is a measurement, not a check, and runs only when
// asked (9x9: 13 minutes on one worker and 5 GB):
//
//	KNIGHTSTOUR_DEMANDS=9x9 go test -run TestDemandGrowth -v -timeout 0 ./internal/frontier
func TestDemandGrowth(t *testing.T) {
	board := os.Getenv("KNIGHTSTOUR_DEMANDS")
	if board == "" {
		t.Skip("a measurement: set KNIGHTSTOUR_DEMANDS to a board such as 9x9 or \"free 9x9\"")
	}
	cfg := Config{Mode: FromStart, Workers: 2, MemoryLimit: 1 << 40, Sweep: SweepNarrow}
	if rest, ok := strings.CutPrefix(board, "free "); ok {
		board, cfg.Mode = rest, FreeEnds
	}
	if _, err := fmt.Sscanf(board, "%dx%d", &cfg.Rows, &cfg.Cols); err != nil {
		t.Fatalf("KNIGHTSTOUR_DEMANDS=%q: %v", board, err)
	}
	cfg.StartRow = cfg.Rows - 1
	f := mustBoard(t, cfg)
	if !f.zInKey && cfg.Mode == FreeEnds && f.n%2 == 0 {
		f.pack(false) // as Count does
	}
	r := newCounter(f, cfg)
	occur := make([]demandList, f.n)
	begin := time.Now()
	if _, err := r.demandsForward(context.Background(), f.packDemand(0, 0, r.firstZ()), occur); err != nil {
		t.Fatal(err)
	}
	var sum, most, at int
	for v := range f.n - 1 {
		t.Logf("after square %d: %d demands", v, occur[v].n)
		sum += occur[v].n
		if occur[v].n > most {
			most, at = occur[v].n, v
		}
		occur[v].free()
	}
	t.Logf("%s: %d demands over its squares, at most %d (after square %d), %v", os.Getenv("KNIGHTSTOUR_DEMANDS"), sum, most, at, time.Since(begin).Round(time.Second))
}

// TestWithin checks that the limit counts what the demand passes keep on
// the Go heap: garbage is collected and not counted, a heap past the
// limit is refused.
func TestWithin(t *testing.T) {
	mem := memory.NewBudget(32 << 20)
	debug.FreeOSMemory() // the limit counts what the process holds beyond what it held at watch
	mem.Watch()
	fill := func() []uint64 {
		heap := make([]uint64, 16<<20) // 128 MiB
		for i := range heap {
			heap[i] = uint64(i)
		}
		return heap
	}
	fill() // garbage at once
	if !mem.Within() {
		t.Errorf("garbage counted after a collection: %d bytes held", mem.Held())
	}
	heap := fill()
	if mem.Within() {
		t.Errorf("a heap of 128 MiB is within a limit of 32 MiB")
	}
	runtime.KeepAlive(heap)
}

// TestDemandsPastTheLimit checks that demand passes whose buffers pass
// the memory limit stop with ErrMemoryLimit, not past it.
func TestDemandsPastTheLimit(t *testing.T) {
	cfg := Config{Rows: 4, Cols: 9, Mode: FreeEnds, Across: true, Sweep: SweepNarrow, Workers: 2, MemoryLimit: 40 << 20}
	_, err := Count(context.Background(), cfg)
	if !errors.Is(err, ErrMemoryLimit) || !strings.Contains(err.Error(), "the demands after square") {
		t.Errorf("Count(%+v): %v, want ErrMemoryLimit in the demand passes", cfg, err)
	}
}

// TestDemandsCountedOnce checks that the demand passes leave nothing
// counted against the limit: the count holds the filters they return, as
// it holds filters read from a checkpoint.
func TestDemandsCountedOnce(t *testing.T) {
	cfg := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Workers: 2, MemoryLimit: 1 << 30, Sweep: SweepNarrow}
	f, err := newBoard(cfg.Rows, cfg.Cols, cfg.Sweep, false)
	if err != nil {
		t.Fatal(err)
	}
	r := newCounter(f, cfg)
	vb, err := r.demands(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer vb.free()
	if used := r.mem.Used(); used != 0 || vb.bytes() == 0 {
		t.Errorf("after the demand passes: %d bytes counted (filters of %d bytes), want 0", used, vb.bytes())
	}
}

// TestKeyShards checks that filling a keyShards from lists with repeats
// keeps each key once, and gives the new keys in the same order whatever
// the number of workers.
func TestKeyShards(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name   string
		chunks int
		keys   int // drawn from 0..keys-1, so that many repeat
	}{
		{"empty", 0, 1},
		{"one chunk", 1, 50},
		{"many chunks", 40, 5000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lists := make([][]uint64, keyParts*tc.chunks)
			want := map[uint64]bool{}
			var by keyShards // only to tell parts
			for c := range tc.chunks {
				for range 300 {
					k := uint64(rng.IntN(tc.keys)) << 3
					j := c*keyParts + by.part(k)
					lists[j] = append(lists[j], k)
					want[k] = true
				}
			}
			var order [][]uint64
			for _, workers := range []int{1, 2, 5} {
				var ks keyShards
				ks.reset(10)
				var fresh [keyParts][]uint64
				if err := ks.fill(context.Background(), workers, lists, &fresh); err != nil {
					t.Fatal(err)
				}
				var got []uint64
				for _, f := range fresh {
					got = append(got, f...)
				}
				if len(got) != len(want) {
					t.Errorf("%d workers: %d keys kept, want %d", workers, len(got), len(want))
				}
				for k := range want {
					if !ks.has(k) {
						t.Errorf("%d workers: key %d missing", workers, k)
					}
				}
				if ks.has(1) {
					t.Errorf("%d workers: holds a key never added", workers)
				}
				if !ks.add(1) || ks.add(1) || !ks.has(1) {
					t.Errorf("%d workers: add of a new key, then of it again, then has, not true, false, true", workers)
				}
				order = append(order, got)
			}
			for i := 1; i < len(order); i++ {
				if diff := cmp.Diff(order[0], order[i]); diff != "" {
					t.Errorf("order differs with the number of workers (-1 worker +more):\n%s", diff)
				}
			}
		})
	}
}

// TestDenseDemands checks that the demand passes make the same filters
// with their sets as bits (demandSet) as with hash sets: on boards of 7
// rows, from a start with and without a pair, 6x5 with free ends of every
// length, and across boards 8 and 9 long (17 and 18 squares a window,
// and with -tags exhaustive 18 from a start with a pair); and on 1 worker
// as on 2.
//
// It does not run in parallel: the bits of 18 squares' demands take 194
// MB of Go heap (387 with a pair), which a count beside it would take for
// its own (see memory.Budget.Watch) and might stop at its limit.
func TestDenseDemands(t *testing.T) {
	type board struct {
		cfg    Config
		paired bool
	}
	boards := []board{
		{Config{Rows: 7, Cols: 5, Mode: FromStart, StartRow: 6, Sweep: SweepNarrow}, true},
		{Config{Rows: 7, Cols: 4, Mode: FromStart, StartRow: 3, StartCol: 2}, false},
		{Config{Rows: 6, Cols: 5, Mode: FreeEnds, AllLengths: true}, false},
		{Config{Rows: 3, Cols: 8, Mode: FreeEnds, Across: true}, false},
		{Config{Rows: 8, Cols: 4, Mode: Closed, Across: true}, false},
		{Config{Rows: 3, Cols: 9, Mode: FreeEnds, Across: true, Sweep: SweepNarrow, MemoryLimit: 4 << 30}, false},
	}
	if exhaustive {
		boards = append(boards, board{Config{Rows: 3, Cols: 9, Mode: FromStart, StartRow: 2, Across: true, Sweep: SweepNarrow, MemoryLimit: 8 << 30}, true})
	}
	for _, tc := range boards {
		cfg := tc.cfg
		cfg.Workers, cfg.MemoryLimit = 2, max(cfg.MemoryLimit, 1<<30)
		t.Run(fmt.Sprintf("%v %dx%d", cfg.Mode, cfg.Rows, cfg.Cols), func(t *testing.T) {
			f := mustBoard(t, cfg)
			var words [3][][]uint64
			for i, sparse := range []bool{false, true, false} {
				cfg.sparseDemands, cfg.Workers = sparse, 2-i/2 // the last on one worker
				r := newCounter(f, cfg)
				if r.paired != tc.paired {
					t.Fatalf("paired %v, want %v", r.paired, tc.paired)
				}
				if s := r.newDemandSet(); (s.bits == nil) != sparse {
					t.Fatalf("sparseDemands %v: bits %v", sparse, s.bits != nil)
				}
				vb, err := r.viability(context.Background(), f.packDemand(0, 0, r.firstZ()))
				if err != nil {
					t.Fatal(err)
				}
				for _, fl := range vb.after {
					words[i] = append(words[i], slices.Clone(fl.words))
				}
				vb.free()
			}
			same := func(a, b [][]uint64) bool { return slices.EqualFunc(a, b, slices.Equal) } // before cmp.Diff, which takes long on filters this large
			if !same(words[1], words[0]) {
				t.Errorf("filters differ (-hash sets +bits):\n%s", cmp.Diff(words[1], words[0]))
			}
			if !same(words[2], words[0]) {
				t.Errorf("filters differ (-1 worker +2):\n%s", cmp.Diff(words[2], words[0]))
			}
		})
	}
}
