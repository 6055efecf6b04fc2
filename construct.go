package knightstour

import (
	"context"
	"errors"
	"fmt"

	"github.com/euler1758/knightstour/internal/construct"
)

// maxConstructSquares is the largest board Construct builds a tour on. It
// needs eight bytes a square while it works (the links of the tour, then
// the tour itself in four), so the limit is 8 GiB of memory.
const maxConstructSquares = 1 << 30

// Construct builds one tour of an R x C board (closed with WithClosed) from
// the start square (WithStart; the default is the lower-left corner),
// wherever such a tour exists, in time and memory linear in the number of
// squares: a 1000x1000 board takes milliseconds and 10,000 x 10,000 a few
// seconds. Unlike Warnsdorff and FindTour it has no budget to run out of;
// it returns ErrGaveUp only if its plan of blocks has no cut for an odd
// board and start, which no board of the tests (every start up to 31x31)
// shows.
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
// depend on it); WithStart and WithClosed are the other ConstructOptions.
// Boards of more than 2^30 squares give ErrTooLarge.
func Construct(ctx context.Context, rows, cols int, opts ...ConstructOption) (Tour, error) {
	if err := checkContext(ctx); err != nil {
		return Tour{}, err
	}
	cfg, err := newConfig(rows, cols, maxConstructSquares, opts)
	if err != nil {
		return Tour{}, err
	}
	start, err := cfg.startOn(rows, cols)
	if err != nil {
		return Tour{}, err
	}
	noTour := fmt.Errorf("%w: no %s tour of %dx%d starts on %v", ErrNoTour, kindOf(cfg.closed), rows, cols, start)
	if !Exists(rows, cols, kindOf(cfg.closed)) || !StartPossible(rows, cols, start, kindOf(cfg.closed)) {
		return Tour{}, noTour
	}
	if err := ctx.Err(); err != nil {
		return Tour{}, err
	}
	sq, err := construct.Tour(ctx, rows, cols, construct.Square{Row: start.Row, Col: start.Col}, cfg.closed, cfg.workers)
	switch {
	case errors.Is(err, construct.ErrNoTour):
		return Tour{}, noTour
	case errors.Is(err, construct.ErrGaveUp):
		return Tour{}, fmt.Errorf("%w: %v", ErrGaveUp, err)
	case err != nil:
		return Tour{}, err
	}
	t := Tour{rows: rows, cols: cols}
	if len(sq) > MaxSquares {
		t.wide = sq
		return t, nil
	}
	t.squares = make([]uint16, len(sq))
	for i, s := range sq {
		t.squares[i] = uint16(s)
	}
	return t, nil
}
