package knightstour

import (
	"context"
	"errors"
	"fmt"

	"github.com/euler1758/knightstour/internal/construct"
)

// maxConstructSquares is the largest board the construction builds a tour on. It
// needs eight bytes a square while it works (the links of the tour, then
// the tour itself in four), so the limit is 8 GiB of memory.
const maxConstructSquares = 1 << 30

// constructTour builds one tour by the construction (MethodConstruct).
func constructTour(ctx context.Context, rows, cols int, opts ...FindTourOption) (Tour, error) {
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
	if len(sq) > maxSquares {
		t.wide = sq
		return t, nil
	}
	t.squares = make([]uint16, len(sq))
	for i, s := range sq {
		t.squares[i] = uint16(s)
	}
	return t, nil
}
