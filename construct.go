package knightstour

import (
	"context"
	"fmt"
	"math"
)

// MaxConstructSquares is the largest board Construct builds a tour on. It
// needs eight bytes a square while it works (the links of the tour, then
// the tour itself in four), so the limit is 8 GiB of memory.
const MaxConstructSquares = 1 << 30

// Construct builds one tour of an R x C board (closed with WithClosed) from
// the start square (WithStart; the default is the lower-left corner),
// wherever such a tour exists, in time and memory linear in the number of
// squares: a 1000x1000 board takes milliseconds and 10,000 x 10,000 a few
// seconds. Unlike Warnsdorff and FindTour it never gives up.
//
// On boards whose sides are both at least 5 it cuts the board into blocks
// of 5 to 11 squares a side and gives each block a closed tour that uses
// four chosen jumps near the middles of its sides, its ports; then it
// joins the blocks' cycles into one, two at a time: where a port of one
// block faces a port of the next, the two jumps and two jumps across the
// border form a square of four jumps, and swapping the first pair for the
// second joins the cycles (after Parberry 1997, with ports of our own).
// The blocks' tours are found by a search on the block, once for each size.
// An open tour on a board with closed tours is a closed one cut at the
// start. On a board with an odd number of squares, which has no closed
// tour, the block that holds the start gets an odd size and a path from
// the start instead of a cycle, and the other blocks join it the same way.
// Boards 3 or 4 squares wide are strips, where Construct uses an exact
// frontier search that runs along the strip; it is the only method that
// finds where on such a strip a tour can start.
//
// A board or start square without tours gives ErrNoTour: at once where
// Exists or StartPossible rule it out, else after the exact search of a
// strip or of a board small enough to be one block proves it. WithWorkers
// sets how many goroutines lay the blocks' tours out (the result does not
// depend on it); other options besides WithStart and WithClosed give
// ErrBadOption. Boards of more than MaxConstructSquares squares give ErrTooLarge.
func Construct(ctx context.Context, rows, cols int, opts ...Option) (Tour, error) {
	cfg, err := newConfig(rows, cols, MaxConstructSquares, opts)
	if err != nil {
		return Tour{}, err
	}
	if err := cfg.only("Construct", constructOptions); err != nil {
		return Tour{}, err
	}
	start, err := cfg.startOn(rows, cols)
	if err != nil {
		return Tour{}, err
	}
	noTour := fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, KindOf(cfg.closed), rows, cols, start)
	if !Exists(rows, cols, cfg.closed) || !StartPossible(rows, cols, start, cfg.closed) {
		return Tour{}, noTour
	}
	if err := ctx.Err(); err != nil {
		return Tour{}, err
	}
	if rows*cols == 1 {
		return Tour{rows: 1, cols: 1, squares: []uint16{0}}, nil
	}
	if min(rows, cols) < 5 {
		return constructStrip(ctx, rows, cols, start, cfg.closed)
	}
	l, err := planBlocks(ctx, rows, cols, start)
	if err != nil {
		return Tour{}, err
	}
	if l == nil {
		return Tour{}, noTour
	}
	next, err := l.link(ctx, cfg.workers)
	if err != nil {
		return Tour{}, err
	}
	return walk(ctx, rows, cols, next, start)
}

// walk follows the links from start and returns the squares in order:
// all of them around a cycle, or up to the end of a path.
func walk(ctx context.Context, rows, cols int, next []uint32, start Coordinate) (Tour, error) {
	n := rows * cols
	t := Tour{rows: rows, cols: cols}
	if n <= MaxSquares {
		t.squares = make([]uint16, n)
	} else {
		var err error
		if t.wide, err = makeWords(ctx, n); err != nil {
			return Tour{}, err
		}
	}
	s := uint32(start.Row*cols + start.Col)
	for i := range n {
		if s == noLink {
			return Tour{}, fmt.Errorf("knightstour: internal error: the constructed path ends after %d of %d squares", i, n)
		}
		if t.wide != nil {
			t.wide[i] = s
		} else {
			t.squares[i] = uint16(s)
		}
		s = next[s]
		// Each step is a load from a table far larger than the caches:
		// 2^16 of them take a few milliseconds.
		if i%(1<<16) == 0 && ctx.Err() != nil {
			return Tour{}, ctx.Err()
		}
	}
	return t, nil
}

// makeWords returns n zeroed words, or ctx's error as soon as ctx is done.
// The heap zeroes a large slice it reuses before handing it out, a few
// hundred milliseconds for the 1.6 GB of a 20000x20000 board, and no
// cancel can stop it: so a large slice is made on another goroutine, whose
// work is dropped if ctx is done first (it ends as soon as the slice is
// made).
func makeWords(ctx context.Context, n int) ([]uint32, error) {
	if n < 1<<22 {
		return make([]uint32, n), nil
	}
	made := make(chan []uint32, 1)
	go func() { made <- make([]uint32, n) }()
	select {
	case w := <-made:
		return w, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// noLink marks the end of a path in a table of links.
const noLink = math.MaxUint32
