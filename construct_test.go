package knightstour

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// startOpts returns the options for a tour from start, closed or not.
func startOpts[O applier](start Coordinate, closed bool) []O {
	opts := []O{any(WithStart(start)).(O)}
	if closed {
		opts = append(opts, any(WithClosed()).(O))
	}
	return opts
}

// checkConstructed checks that Construct's answer for an R x C board from
// start is a tour of the kind asked for, from there.
func checkConstructed(t *testing.T, rows, cols int, start Coordinate, closed bool, tour Tour) {
	t.Helper()
	if err := tour.check(make([]uint64, (tour.Len()+63)/64)); err != nil {
		t.Errorf("%dx%d from %v: %v", rows, cols, start, err)
		return
	}
	if tour.Rows() != rows || tour.Cols() != cols || tour.At(0) != start || closed && !tour.closed() {
		t.Errorf("%dx%d from %v closed=%v: got a %dx%d tour from %v, closed=%v", rows, cols, start, closed, tour.Rows(), tour.Cols(), tour.At(0), tour.closed())
	}
}

// TestConstructBlocks builds a tour from every square of every board from
// 5x5 to 16x16, open and closed, and of every board with an odd number of
// squares up to 31x31, and from a sample of squares on the other boards up
// to 30x30. Where the colour argument and Schwenk's theorem allow a tour,
// Construct must find one: on these boards the theorems are exact.
//
// On a board with an even number of squares the start only chooses where
// to cut the same cycle. On an odd one it decides the cut into blocks and
// the search in the start's block; by 31 squares a side every size of that
// block, place of the start in it and set of neighbours recurs, so larger
// odd boards meet no case these have not.
func TestConstructBlocks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	largest := 31
	if !exhaustive {
		largest = 13 // every start of every board
	}
	for rows := 5; rows <= largest; rows++ {
		for cols := 5; cols <= largest; cols++ {
			odd := rows*cols%2 == 1
			if (rows == largest || cols == largest) && !odd {
				continue
			}
			for _, closed := range []bool{false, true} {
				var starts []Coordinate
				if rows <= 16 && cols <= 16 || odd && !closed {
					for r := range rows {
						for c := range cols {
							starts = append(starts, Coordinate{r, c})
						}
					}
				} else {
					starts = []Coordinate{{rows - 1, 0}, {0, 0}, {rows / 2, cols / 2}, {rows / 2, cols/2 + 1}, {1, 2}, {rows - 3, cols - 2}}
				}
				for _, start := range starts {
					tour, err := constructTour(ctx, rows, cols, startOpts[FindTourOption](start, closed)...)
					want := Exists(rows, cols, kindOf(closed)) && StartPossible(rows, cols, start, kindOf(closed))
					switch {
					case want && err != nil:
						t.Errorf("%dx%d from %v closed=%v: %v", rows, cols, start, closed, err)
					case !want && !errors.Is(err, ErrNoTour):
						t.Errorf("%dx%d from %v closed=%v: got %v, want ErrNoTour", rows, cols, start, closed, err)
					case want:
						checkConstructed(t, rows, cols, start, closed, tour)
					}
				}
			}
		}
	}
}

// TestConstructStrips checks the frontier search on boards 1 to 4 squares
// wide: from every square up to length 8 (both ways round) and from a
// sample of squares up to length 30 (14 with -short or -race), a tour exactly when CountDP, a
// separate count, finds tours from that square.
func TestConstructStrips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	longest := 30
	switch {
	case testing.Short() || raceEnabled:
		longest = 14
	case !exhaustive:
		longest = 6 // every start of every strip up to 6 long
	}
	// Whether an open tour starts at a square, by CountDP: once for a
	// board and its transpose, as a tour turned over the diagonal is one.
	openFrom := map[[3]int]bool{}
	wantOpen := func(t *testing.T, rows, cols int, start Coordinate) bool {
		key := [3]int{rows, cols, start.Row*cols + start.Col}
		if rows > cols {
			key = [3]int{cols, rows, start.Col*rows + start.Row}
		}
		if want, ok := openFrom[key]; ok {
			return want
		}
		res, err := CountDP(ctx, rows, cols, WithStart(start), WithWorkers(1))
		if err != nil {
			t.Fatalf("%dx%d from %v: CountDP: %v", rows, cols, start, err)
		}
		openFrom[key] = res.Tours.Sign() > 0
		return openFrom[key]
	}
	for h := 1; h <= 4; h++ {
		for n := 1; n <= longest; n++ {
			for _, closed := range []bool{false, true} {
				for _, turned := range []bool{false, true} {
					rows, cols := h, n
					if turned {
						rows, cols = n, h
					}
					var starts []Coordinate
					if n <= 8 {
						for r := range rows {
							for c := range cols {
								starts = append(starts, Coordinate{r, c})
							}
						}
					} else if !turned || n <= 12 {
						starts = []Coordinate{{rows - 1, 0}, {0, 0}, {rows / 2, cols / 2}, {1, 2}}
					}
					for _, start := range starts {
						if !start.contains(rows, cols) {
							continue
						}
						name := fmt.Sprintf("%dx%d from %v closed=%v", rows, cols, start, closed)
						tour, err := constructTour(ctx, rows, cols, startOpts[FindTourOption](start, closed)...)
						if err != nil && !errors.Is(err, ErrNoTour) {
							t.Errorf("%s: %v", name, err)
							continue
						}
						var want bool
						if closed {
							want = Exists(rows, cols, Closed)
						} else if rows*cols <= maxSquares {
							want = wantOpen(t, rows, cols, start)
						}
						if (err == nil) != want {
							t.Errorf("%s: Construct says %v, want a tour: %v", name, err, want)
						}
						if err == nil {
							checkConstructed(t, rows, cols, start, closed, tour)
						}
					}
				}
			}
		}
	}
}

// TestConstructLarge builds tours on boards beyond the 65,536 squares of
// the other methods, of every kind of plan: even, odd, long strips.
func TestConstructLarge(t *testing.T) {
	cases := []struct {
		rows, cols int
		start      Coordinate
		closed     bool
	}{
		{1000, 1000, Coordinate{999, 0}, true},
		{1000, 1000, Coordinate{500, 317}, false},
		{1001, 999, Coordinate{500, 500}, false},
		{997, 1003, Coordinate{0, 0}, false},
		{300, 1001, Coordinate{123, 456}, true},
		{3, 100_000, Coordinate{1, 50_000}, true},
		{100_001, 3, Coordinate{0, 2}, false},
		{4, 50_000, Coordinate{0, 25_000}, false},
		{5, 30_001, Coordinate{2, 15_000}, false},
	}
	if testing.Short() || !exhaustive {
		cases = append(cases[:2:2], cases[5]) // a block board each way and a long strip
	}
	for _, c := range cases {
		tour, err := constructTour(context.Background(), c.rows, c.cols, startOpts[FindTourOption](c.start, c.closed)...)
		if err != nil {
			t.Errorf("%dx%d from %v: %v", c.rows, c.cols, c.start, err)
			continue
		}
		checkConstructed(t, c.rows, c.cols, c.start, c.closed, tour)
	}
}

func TestConstructErrors(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name       string
		ctx        context.Context
		rows, cols int
		opts       []FindTourOption
		want       error
	}{
		{"zero rows", context.Background(), 0, 5, nil, ErrBadSize},
		{"negative cols", context.Background(), 5, -1, nil, ErrBadSize},
		{"too large", context.Background(), 1 << 16, 1 << 15, nil, ErrBadSize},
		{"start off the board", context.Background(), 8, 8, []FindTourOption{WithStart(Coordinate{8, 0})}, ErrOffBoard},
		{"no tours on 2xn", context.Background(), 2, 9, nil, ErrNoTour},
		{"no closed tour on 4xn", context.Background(), 4, 9, []FindTourOption{WithClosed()}, ErrNoTour},
		{"no closed tour on an odd board", context.Background(), 7, 9, []FindTourOption{WithClosed()}, ErrNoTour},
		{"odd board, wrong colour", context.Background(), 9, 9, []FindTourOption{WithStart(Coordinate{0, 1})}, ErrNoTour},
		{"strip start with no tour", context.Background(), 4, 30, []FindTourOption{WithStart(Coordinate{1, 15})}, ErrNoTour},
		{"bad option", context.Background(), 8, 8, []FindTourOption{WithWorkers(0)}, ErrBadOption},
		{"cancelled", cancelled, 1000, 1000, nil, context.Canceled},
		{"cancelled strip", cancelled, 4, 1000, nil, context.Canceled},
	}
	for _, c := range cases {
		_, err := constructTour(c.ctx, c.rows, c.cols, c.opts...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

// TestCheckFindsFaults shows Tour.Check catching a jump that is not a
// knight's, a missing square and a square visited twice on a large tour.
func TestCheckFindsFaults(t *testing.T) {
	good, err := constructTour(context.Background(), 300, 300)
	if err != nil {
		t.Fatal(err)
	}
	if err := good.check(make([]uint64, (good.Len()+63)/64)); err != nil {
		t.Fatal(err)
	}
	bad := good.Clone()
	bad.wide[10], bad.wide[11] = bad.wide[11], bad.wide[10]
	short := good.Clone()
	short.wide = short.wide[:len(short.wide)-1]
	twice := good.Clone()
	twice.wide[5] = twice.wide[3]
	for name, tour := range map[string]Tour{"swapped": bad, "short": short, "twice": twice} {
		if err := tour.check(make([]uint64, (tour.Len()+63)/64)); !isErr(err, errTour) {
			t.Errorf("%s: Check says %v", name, err)
		}
	}
}

// TestConstructCancel cancels constructions in mid-run, on blocks and on a
// long strip: each returns context.Canceled and leaves no goroutine
// behind. The latency is logged, not asserted.
func TestConstructCancel(t *testing.T) {
	for _, c := range []struct{ rows, cols int }{{4000, 4000}, {4, 1_000_000}} {
		base := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		fired := make(chan time.Time, 1)
		time.AfterFunc(20*time.Millisecond, func() { fired <- time.Now(); cancel() })
		_, err := constructTour(ctx, c.rows, c.cols, WithStart(Coordinate{0, 0}))
		returned := time.Now()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%dx%d: %v, want context.Canceled", c.rows, c.cols, err)
			continue
		}
		t.Logf("%dx%d: returned %v after the cancel", c.rows, c.cols, returned.Sub(<-fired))
		if !settled(base) {
			t.Errorf("%dx%d: goroutines left behind", c.rows, c.cols)
		}
		cancel()
	}
}

// TestShapeOfLargeTour checks Canonical and sameShape on a tour stored four
// bytes a square: its mirror image has the same shape, and the canonical
// form is itself a tour.
func TestShapeOfLargeTour(t *testing.T) {
	tour, err := constructTour(context.Background(), 300, 300, WithStart(Coordinate{10, 20}))
	if err != nil {
		t.Fatal(err)
	}
	mirror := Tour{rows: 300, cols: 300, wide: make([]uint32, tour.Len())}
	for i := range tour.Len() {
		c := mirrorLeftRight.apply(tour.At(i), 300, 300)
		mirror.wide[i] = uint32(c.Row*300 + c.Col)
	}
	if !sameShape(tour, mirror) {
		t.Error("a tour and its mirror image differ in shape")
	}
	if c := Canonical(tour, tour.Kind()); c.wide == nil || c.check(make([]uint64, (c.Len()+63)/64)) != nil {
		t.Errorf("canonical form: wide %v, %v", c.wide != nil, c.check(make([]uint64, (c.Len()+63)/64)))
	}
}
