package frontier

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepsAgree counts boards of every shape up to 6 wide, in every
// mode, from several start squares, with every sweep, the narrow ones both
// packed and in base 11 (as on boards 8 wide): their states differ at
// nearly every square (the windows hold other squares), and their counts
// must not. Boards of more than 20 squares in every mode are for -tags
// exhaustive; 6x6 from the corner is counted by default.
func TestSweepsAgree(t *testing.T) {
	t.Parallel() // a memory limit of 1 GiB, with room for the Go heap the counts beside it grow
	var cfgs []Config
	most := 20
	if exhaustive {
		most = 36
	}
	for rows := 1; rows <= 6; rows++ {
		for cols := 1; cols <= 7; cols++ {
			if rows*cols > most {
				continue
			}
			cfgs = append(cfgs,
				Config{Rows: rows, Cols: cols, Mode: FreeEnds},
				Config{Rows: rows, Cols: cols, Mode: Closed},
				Config{Rows: rows, Cols: cols, Mode: FromStart, StartRow: rows - 1},
				Config{Rows: rows, Cols: cols, Mode: FromStart, StartRow: rows / 2, StartCol: (cols - 1) / 2},
				Config{Rows: rows, Cols: cols, Mode: FromStart, StartRow: rows - 1, EarlyStart: true},
			)
		}
	}
	allLengths := 7
	mr, mc := middle()
	if exhaustive {
		allLengths = 9
	}
	cfgs = append(cfgs,
		Config{Rows: 5, Cols: allLengths, Mode: FromStart, StartRow: 4, AllLengths: true},
		Config{Rows: 4, Cols: 9, Mode: Closed, AllLengths: true},
		Config{Rows: mr, Cols: mc, Mode: FromStart, StartRow: mr - 1, Lean: true},
		Config{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2}, // two limbs
	)
	// The sweeps counted against SweepRows; SweepNarrowDown in base 11
	// only with -tags exhaustive, as it shares every line with the rest.
	type variant struct {
		sweep  Sweep
		base11 bool
	}
	others := []variant{{SweepNarrow, false}, {SweepNarrow, true}, {SweepNarrowDown, false}}
	if exhaustive {
		others = append(others, variant{SweepNarrowDown, true})
	}
	for _, cfg := range cfgs {
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		counts := func(sweep Sweep, base11 bool) []string {
			c := cfg
			c.Sweep, c.Base11 = sweep, base11
			res, err := Count(context.Background(), c)
			if err != nil {
				t.Fatalf("%+v: %v", c, err)
			}
			out := []string{res.Tours.String()}
			for _, n := range res.ByLength {
				out = append(out, n.String())
			}
			return out
		}
		rows := counts(SweepRows, false)
		for _, o := range others {
			if diff := cmp.Diff(rows, counts(o.sweep, o.base11)); diff != "" {
				t.Errorf("%dx%d %v from {%d,%d} (early %v, all lengths %v, base 11 %v): counts (-rows +%v):\n%s",
					cfg.Rows, cfg.Cols, cfg.Mode, cfg.StartRow, cfg.StartCol, cfg.EarlyStart, cfg.AllLengths, o.base11, o.sweep, diff)
			}
		}
	}
}

// TestSweepRows checks the order in which each sweep adds a column's rows.
func TestSweepRows(t *testing.T) {
	for _, tt := range []struct {
		w     int
		sweep Sweep
		want  []int
	}{
		{1, SweepNarrow, []int{0}},
		{1, SweepNarrowDown, []int{0}},
		{3, SweepRows, []int{0, 1, 2}},
		{3, SweepNarrow, []int{1, 0, 2}},
		{3, SweepNarrowDown, []int{1, 0, 2}},
		{6, SweepNarrow, []int{1, 3, 4, 2, 0, 5}},
		{6, SweepNarrowDown, []int{4, 2, 0, 1, 3, 5}},
		{7, SweepNarrow, []int{1, 3, 5, 4, 2, 0, 6}},
		{7, SweepNarrowDown, []int{5, 3, 1, 0, 2, 4, 6}},
		{8, SweepRows, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{8, SweepNarrow, []int{1, 3, 5, 6, 4, 2, 0, 7}},
		{8, SweepNarrowDown, []int{6, 4, 2, 0, 1, 3, 5, 7}},
		{9, SweepNarrow, []int{1, 3, 5, 7, 6, 4, 2, 0, 8}},
		{9, SweepNarrowDown, []int{7, 5, 3, 1, 0, 2, 4, 6, 8}},
	} {
		if diff := cmp.Diff(tt.want, sweepRows(tt.w, tt.sweep)); diff != "" {
			t.Errorf("%v, %d rows (-want +got):\n%s", tt.sweep, tt.w, diff)
		}
	}
}

// TestNarrowWindow checks the frontier of the narrow sweeps: at most 2w
// squares for every width from 3 on, against 2w+1 for the rows sweep,
// which on 9 rows (19 squares) a key cannot hold.
func TestNarrowWindow(t *testing.T) {
	var got, want []string
	for w := 1; w <= MaxWidth; w++ {
		for _, sweep := range []Sweep{SweepRows, SweepNarrow, SweepNarrowDown} {
			f, err := newBoard(w, 12, sweep, false)
			if sweep == SweepRows && w == MaxWidth {
				if !errors.Is(err, ErrTooWide) {
					t.Errorf("%d rows by %v: %v, want ErrTooWide", w, sweep, err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d %v %d", w, sweep, f.slots))
			slots := 2*w + 1
			if sweep != SweepRows && w >= 3 {
				slots = 2 * w
			}
			if sweep != SweepRows && w < 3 {
				slots = f.slots // no knight's move stays in a column of two
			}
			want = append(want, fmt.Sprintf("%d %v %d", w, sweep, slots))
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("window squares (-want +got):\n%s", diff)
	}
}

// TestReflections checks where within a column the count may keep a state
// and its reflection as one (board.reflects, shift.mirrored): where the
// rows of the column added so far are their own reflection, as at every
// column's end, and there only.
func TestReflections(t *testing.T) {
	for _, c := range []struct {
		sweep Sweep
		w     int
		rows  []int // the column's rows in the order the sweep adds them
		at    []int // the squares of the column after which reflections may be kept
	}{
		{SweepNarrow, 3, []int{1, 0, 2}, []int{0, 2}},
		{SweepNarrow, 4, []int{1, 2, 0, 3}, []int{1, 3}},
		{SweepNarrow, 5, []int{1, 3, 2, 0, 4}, []int{1, 2, 4}},
		{SweepNarrow, 6, []int{1, 3, 4, 2, 0, 5}, []int{3, 5}},
		{SweepNarrow, 7, []int{1, 3, 5, 4, 2, 0, 6}, []int{2, 4, 6}},
		{SweepNarrow, 8, []int{1, 3, 5, 6, 4, 2, 0, 7}, []int{5, 7}},
		{SweepNarrow, 9, []int{1, 3, 5, 7, 6, 4, 2, 0, 8}, []int{3, 6, 8}},
		{SweepNarrowDown, 9, []int{7, 5, 3, 1, 0, 2, 4, 6, 8}, []int{3, 8}},
		{SweepNarrowDown, 5, []int{3, 1, 0, 2, 4}, []int{1, 4}},
		{SweepNarrowDown, 7, []int{5, 3, 1, 0, 2, 4, 6}, []int{2, 6}},
		{SweepNarrowDown, 8, []int{6, 4, 2, 0, 1, 3, 5, 7}, []int{7}},
		{SweepRows, 6, []int{0, 1, 2, 3, 4, 5}, nil}, // its window holds part of a third column
	} {
		f, err := newBoard(c.w, 9, c.sweep, false)
		if err != nil {
			t.Fatal(err)
		}
		col := 4 * c.w // a column in the middle of the board
		var at []int
		for i := range c.w {
			if f.shifts[col+i].mirrored {
				at = append(at, i)
			}
		}
		if diff := cmp.Diff([]any{c.rows, c.at}, []any{f.rows, at}); diff != "" {
			t.Errorf("%v, %d wide: rows and squares that keep reflections (-want +got):\n%s", c.sweep, c.w, diff)
		}
	}
}

// TestAcross checks that counts whose columns run along the board's
// shorter side (Config.Across), with a frontier as wide as the longer
// side, find the counts of the usual sweep, on boards taller than wide
// and wider than tall, from a start, with free ends and closed, by both
// narrow sweeps, and say how wide they were.
func TestAcross(t *testing.T) {
	t.Parallel() // a memory limit of 4 GiB, with room for the Go heap the counts beside it grow
	cfgs := []Config{
		{Rows: 4, Cols: 6, Mode: FromStart, Sweep: SweepNarrow},
		{Rows: 6, Cols: 4, Mode: FromStart, StartRow: 5, StartCol: 2, Sweep: SweepNarrowDown},
		{Rows: 3, Cols: 8, Mode: FreeEnds, Sweep: SweepNarrow},
		{Rows: 5, Cols: 6, Mode: Closed, Sweep: SweepNarrow},
		{Rows: 4, Cols: 7, Mode: FreeEnds, Sweep: SweepRows},
		{Rows: 3, Cols: 9, Mode: FreeEnds, Sweep: SweepNarrow},                                // across, keys of 18 squares
		{Rows: 9, Cols: 3, Mode: FromStart, StartRow: 4, StartCol: 1, Sweep: SweepNarrowDown}, // 18 squares
	}
	if exhaustive {
		cfgs = append(cfgs,
			Config{Rows: 4, Cols: 9, Mode: FreeEnds, Sweep: SweepNarrowDown},
			Config{Rows: 9, Cols: 4, Mode: FromStart, Sweep: SweepNarrow},
			Config{Rows: 5, Cols: 8, Mode: FromStart, Sweep: SweepNarrow},
			Config{Rows: 6, Cols: 7, Mode: FreeEnds, Sweep: SweepNarrowDown},
			Config{Rows: 6, Cols: 8, Mode: Closed, Sweep: SweepNarrow})
	}
	for _, cfg := range cfgs {
		// 6x7 with free ends across, by narrow-down, comes near 1 GiB
		// alone, and the limit counts the Go heap of the tests beside it:
		// the exhaustive run stopped it at square 35 of 42.
		cfg.Workers, cfg.MemoryLimit = 2, 4<<30
		name := fmt.Sprintf("%dx%d %v %v", cfg.Rows, cfg.Cols, cfg.Mode, cfg.Sweep)
		along, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg.Across = true
		across, err := Count(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s across: %v", name, err)
		}
		want := []any{along.Tours.String(), min(cfg.Rows, cfg.Cols), max(cfg.Rows, cfg.Cols)}
		if diff := cmp.Diff(want, []any{across.Tours.String(), along.Width, across.Width}); diff != "" {
			t.Errorf("%s: tours, width along and across (-want +got):\n%s", name, diff)
		}
	}
	for _, cfg := range []Config{
		{Rows: 3, Cols: 10, Mode: FreeEnds, Sweep: SweepNarrow, Across: true},
		{Rows: 3, Cols: 9, Mode: FreeEnds, Sweep: SweepRows, Across: true},
		{Rows: 4, Cols: 6, Mode: FreeEnds, Across: true, AllLengths: true},
	} {
		cfg.Workers, cfg.MemoryLimit = 2, 1<<30
		if _, err := Count(context.Background(), cfg); err == nil {
			t.Errorf("%dx%d across, all lengths %v: counted, want an error", cfg.Rows, cfg.Cols, cfg.AllLengths)
		}
	}
}

// TestNineWide counts boards 9 squares long across, by a frontier of 18
// squares, against twice the published counts of open tours on 9 x n
// (OEIS A391009, undirected): keys in the growing digits of keys.go,
// demands of 18 squares.
func TestNineWide(t *testing.T) {
	type count struct {
		cfg  Config
		want string
	}
	cases := []count{
		{Config{Rows: 9, Cols: 3, Mode: FreeEnds, Sweep: SweepNarrow}, "1120"},
		{Config{Rows: 3, Cols: 9, Mode: FreeEnds, Sweep: SweepNarrowDown}, "1120"},
	}
	if exhaustive {
		cases = append(cases, count{Config{Rows: 9, Cols: 4, Mode: FreeEnds, Sweep: SweepNarrow}, "379376"})
	}
	for _, c := range cases {
		c.cfg.Across, c.cfg.Workers, c.cfg.MemoryLimit = true, 2, 2<<30
		res, err := Count(context.Background(), c.cfg)
		if err != nil {
			t.Fatalf("%dx%d: %v", c.cfg.Rows, c.cfg.Cols, err)
		}
		if diff := cmp.Diff([]any{c.want, 9}, []any{res.Tours.String(), res.Width}); diff != "" {
			t.Errorf("%dx%d %v across: tours and width (-want +got):\n%s", c.cfg.Rows, c.cfg.Cols, c.cfg.Sweep, diff)
		}
	}
}
