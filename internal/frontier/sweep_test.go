package frontier

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSweepsAgree counts boards of every shape up to 6 wide, in every
// mode, from several start squares, with both sweeps, the narrow one both
// packed and in base 11 (as on boards 8 wide): their states differ at
// nearly every square (the windows hold other squares), and their counts
// must not.
func TestSweepsAgree(t *testing.T) {
	var cfgs []Config
	for rows := 1; rows <= 6; rows++ {
		for cols := 1; cols <= 7; cols++ {
			if rows*cols > 36 {
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
	cfgs = append(cfgs,
		Config{Rows: 5, Cols: 9, Mode: FromStart, StartRow: 4, AllLengths: true},
		Config{Rows: 4, Cols: 9, Mode: Closed, AllLengths: true},
		Config{Rows: 6, Cols: 6, Mode: FromStart, StartRow: 5, Lean: true},
		Config{Rows: 3, Cols: 45, Mode: FromStart, StartRow: 2}, // two limbs
	)
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
		for _, base11 := range []bool{false, true} {
			if diff := cmp.Diff(rows, counts(SweepNarrow, base11)); diff != "" {
				t.Errorf("%dx%d %v from {%d,%d} (early %v, all lengths %v, base 11 %v): counts (-rows +narrow):\n%s",
					cfg.Rows, cfg.Cols, cfg.Mode, cfg.StartRow, cfg.StartCol, cfg.EarlyStart, cfg.AllLengths, base11, diff)
			}
		}
	}
}

// TestNarrowWindow checks the frontier of the narrow sweep: at most 2w
// squares for every width from 3 on, against 2w+1 for the rows sweep.
func TestNarrowWindow(t *testing.T) {
	var got, want []string
	for w := 1; w <= MaxWidth; w++ {
		for _, sweep := range []Sweep{SweepRows, SweepNarrow} {
			f, err := newBoard(w, 12, sweep)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d %v %d", w, sweep, f.slots))
			slots := 2*w + 1
			if sweep == SweepNarrow && w >= 3 {
				slots = 2 * w
			}
			if sweep == SweepNarrow && w < 3 {
				slots = f.slots // no knight's move stays in a column of two
			}
			want = append(want, fmt.Sprintf("%d %v %d", w, sweep, slots))
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("window squares (-want +got):\n%s", diff)
	}
}
