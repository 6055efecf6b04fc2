package frontier

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTurnOver checks the turn of a square board over a diagonal through
// a square: it leaves the square where it is, undoes itself, and maps
// each square's neighbours onto its image's, on boards of 3 to 9 squares
// a side, every sweep, along and across; and that no other square has
// one.
func TestTurnOver(t *testing.T) {
	for n := 3; n <= 9; n++ {
		for _, sweep := range []Sweep{SweepRows, SweepNarrow, SweepNarrowDown} {
			if sweep == SweepRows && n > 8 {
				continue
			}
			for _, across := range []bool{false, true} {
				f, err := newBoard(n, n, sweep, across)
				if err != nil {
					t.Fatal(err)
				}
				for v := range f.n {
					r, c := f.rows[v%f.w], v/f.w
					turn := f.turnOver(v)
					if onDiagonal := r == c || r+c == n-1; (turn != nil) != onDiagonal {
						t.Fatalf("%dx%d %v: square %d at {%d,%d} has a turn %v", n, n, sweep, v, r, c, turn != nil)
					}
					if turn == nil {
						continue
					}
					if turn(v) != v {
						t.Fatalf("%dx%d %v: the turn through %d moves it to %d", n, n, sweep, v, turn(v))
					}
					for u := range f.n {
						var images []int
						for _, x := range f.neighbours(u) {
							images = append(images, turn(x))
						}
						want := f.neighbours(turn(u))
						slices.Sort(images)
						slices.Sort(want)
						if turn(turn(u)) != u || !slices.Equal(images, want) {
							t.Fatalf("%dx%d %v: the turn through %d is no symmetry of the board at %d", n, n, sweep, v, u)
						}
					}
				}
			}
		}
	}
}

// TestDiagonalHalves checks that a count from a start on a diagonal of a
// square board, of half of the tours by their first move (diagonal.go),
// finds the count of every tour, with fewer states: the corner of boards
// of odd width (a start paired with its reflection) and of even width,
// starts on both diagonals, both narrow sweeps and rows, across, the lean
// step in passes, keys in digits, one worker, and shards; and that it
// halves only where it should.
func TestDiagonalHalves(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	for _, tt := range []struct {
		cfg    Config
		halves bool
	}{
		{Config{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepNarrow}, true},
		{Config{Rows: 5, Cols: 5, StartRow: 0, StartCol: 4, Sweep: SweepNarrowDown}, true},
		{Config{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepRows}, true},
		{Config{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepNarrow, Across: true}, true},
		{Config{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepNarrow, Lean: true, passPart: 0.3}, true},
		{Config{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepNarrow, Base11: true, Workers: 1}, true},
		{Config{Rows: 6, Cols: 6, StartRow: 5, Sweep: SweepNarrow}, true},
		{Config{Rows: 6, Cols: 6, StartRow: 0, StartCol: 0, Sweep: SweepNarrowDown}, true},
		{Config{Rows: 5, Cols: 5, StartRow: 1, StartCol: 1, Sweep: SweepNarrow}, false}, // neighbours after it
		{Config{Rows: 5, Cols: 5, StartRow: 2, StartCol: 2, Sweep: SweepNarrow}, false}, // the centre
		{Config{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepNarrow, EarlyStart: true}, false},
		{Config{Rows: 5, Cols: 6, StartRow: 4, Sweep: SweepNarrow}, false}, // not square
		{Config{Rows: 5, Cols: 5, StartRow: 4, Sweep: SweepNarrow, AllLengths: true}, false},
	} {
		cfg := tt.cfg
		cfg.Mode, cfg.MemoryLimit = FromStart, 1<<30
		cfg = withTestDefaults(t, cfg)
		name := fmt.Sprintf("%dx%d from {%d,%d} %v across %v", cfg.Rows, cfg.Cols, cfg.StartRow, cfg.StartCol, cfg.Sweep, cfg.Across)
		if r := newCounter(mustBoard(t, cfg), cfg); r.halved() != tt.halves {
			t.Errorf("%s: halves %v, want %v", name, r.halved(), tt.halves)
			continue
		}
		// The first report says so, before the count's first square.
		said, halfCfg := []bool(nil), cfg
		halfCfg.Progress, halfCfg.Every = func(p Progress) { said = append(said, p.Halved) }, time.Hour
		half, err := Count(context.Background(), halfCfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(said) == 0 || said[0] != tt.halves || half.Halved != tt.halves {
			t.Errorf("%s: reports said halved %v, result %v; want %v", name, said, half.Halved, tt.halves)
		}
		cfg.noDiagonal = true
		whole, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(countsOf(whole), countsOf(half)); diff != "" {
			t.Errorf("%s: counts (-every tour +half, doubled):\n%s", name, diff)
		}
		if h, w := statesOver(half), statesOver(whole); tt.halves && h >= w || !tt.halves && h != w {
			t.Errorf("%s: %d states, %d counting every tour", name, h, w)
		}
	}
	// The counts from the corner (5x5: 304, 6x6: 524486), whole and as the
	// sum of its shards.
	type sharded struct {
		n, shards int
		want      string
	}
	corners := []sharded{{5, 1, "304"}, {5, 3, "304"}, {6, 1, "524486"}}
	if exhaustive {
		corners = append(corners, sharded{6, 4, "524486"})
	}
	for _, tt := range corners {
		cfg := Config{Rows: tt.n, Cols: tt.n, Mode: FromStart, StartRow: tt.n - 1, Sweep: SweepNarrow, Workers: 2, MemoryLimit: 1 << 30, Shards: tt.shards}
		sum := new(big.Int)
		for i := range max(1, cfg.Shards) {
			cfg.Shard = i
			r, err := Count(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			sum.Add(sum, r.Tours)
		}
		if sum.String() != tt.want {
			t.Errorf("%dx%d from the corner in %d shards: %v tours, want %s", tt.n, tt.n, tt.shards, sum, tt.want)
		}
	}
}

// TestDiagonalResumesOlder checks that a count that halves resumes the
// checkpoint of a count of every tour, as counts before halving wrote, as
// one of those, and that a count of every tour refuses the checkpoint of
// one that halves, whose layers hold half of the tours.
func TestDiagonalResumesOlder(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	base := Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Sweep: SweepNarrow, Workers: 2, MemoryLimit: 1 << 30}
	want := wholeCount(t, base)
	for _, tt := range []struct {
		name          string
		older, resume bool // noDiagonal of the stopped count and of the resumed
		refused       bool
	}{
		{"every tour, resumed by a count that halves", true, false, false},
		{"half, resumed by a count of every tour", false, true, true},
	} {
		cfg := base
		cfg.Checkpoint = filepath.Join(t.TempDir(), "count.ckpt")
		cfg.noDiagonal = tt.older
		if err := interrupted(t, cfg, 20); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: stopped with %v", tt.name, err)
		}
		cfg.noDiagonal = tt.resume
		// The first report says whether the count halves as it goes on:
		// not where it goes on as a count of every tour.
		var said []bool
		cfg.Progress, cfg.Every = func(p Progress) { said = append(said, p.Halved) }, time.Hour
		got, err := Count(context.Background(), cfg)
		if tt.refused {
			if !errors.Is(err, ErrCheckpoint) {
				t.Errorf("%s: %v, want ErrCheckpoint", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(said) == 0 || said[0] || got.Halved {
			t.Errorf("%s: reports said halved %v, result %v; want false", tt.name, said, got.Halved)
		}
		if got.Resumed != 20 || got.Tours.Cmp(want.Tours) != 0 {
			t.Errorf("%s: resumed after %d squares, %v tours; want 20, %v", tt.name, got.Resumed, got.Tours, want.Tours)
		}
	}
}
