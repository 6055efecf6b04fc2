package knightstour

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestWarnsdorff runs Warnsdorff on every board from 1x1 to 30x30, open and
// closed, from the corner: every tour it returns must pass the validator
// (and be closed when asked), boards without tours must answer ErrNoTour
// at once, and boards up to 10x10 must always succeed when a tour exists.
// Larger thin boards (3 x n, 4 x n) and some closed tours can exhaust the
// budget: those are for a construction (issue 4), not for the heuristic.
func TestWarnsdorff(t *testing.T) {
	maxSide := 30
	if testing.Short() || !exhaustive {
		maxSide = 16
	}
	found := 0
	for rows := 1; rows <= maxSide; rows++ {
		for cols := 1; cols <= maxSide; cols++ {
			for _, closed := range []bool{false, true} {
				opts := append(startOpts[FindTourOption](Coordinate{0, 0}, closed), WithNodeBudget(200_000))
				name := fmt.Sprintf("%dx%d closed=%v", rows, cols, closed)
				tour, st, err := warnsdorff(context.Background(), rows, cols, opts...)
				switch {
				case !Exists(rows, cols, kindOf(closed)):
					if !errors.Is(err, ErrNoTour) || st.Nodes != 0 {
						t.Errorf("%s: %v after %d nodes; want ErrNoTour at once", name, err, st.Nodes)
					}
				case err == nil:
					found++
					isClosed, verr := validate(rows, cols, tour.coordinates())
					if verr != nil || closed && !isClosed || tour.At(0) != (Coordinate{0, 0}) {
						t.Errorf("%s: %v, closed %v, start %v", name, verr, isClosed, tour.At(0))
					}
				case rows <= 10 && cols <= 10:
					t.Errorf("%s: %v; a tour exists from the corner", name, err)
				case !errors.Is(err, ErrGaveUp):
					t.Errorf("%s: %v, want a tour or ErrGaveUp", name, err)
				}
			}
		}
	}
	t.Logf("%d tours found and validated", found)
}

func TestWarnsdorffLarge(t *testing.T) {
	for _, b := range [][2]int{{100, 100}, {64, 200}, {255, 256}} {
		for _, closed := range []bool{false, true} {
			opts := []FindTourOption{WithStart(Coordinate{b[0] / 2, b[1] / 3})}
			if closed {
				opts = append(opts, WithClosed())
			}
			tour, st, err := warnsdorff(context.Background(), b[0], b[1], opts...)
			if err != nil {
				t.Errorf("%dx%d closed=%v: %v", b[0], b[1], closed, err)
				continue
			}
			if isClosed, err := validate(b[0], b[1], tour.coordinates()); err != nil || closed && !isClosed {
				t.Errorf("%dx%d closed=%v: %v", b[0], b[1], closed, err)
			}
			t.Logf("%dx%d closed=%v: %d nodes, %d backtracks", b[0], b[1], closed, st.Nodes, st.Backtracks)
		}
	}
}

func TestWarnsdorffInput(t *testing.T) {
	ctx := context.Background()
	if _, _, err := warnsdorff(ctx, 5, 5, WithStart(Coordinate{0, 1})); !errors.Is(err, ErrNoTour) {
		t.Errorf("5x5 from a minority square: %v", err)
	}
	if _, _, err := warnsdorff(ctx, 0, 5); !errors.Is(err, ErrBadSize) {
		t.Errorf("0x5: %v", err)
	}
	if _, _, err := warnsdorff(ctx, 300, 300); !errors.Is(err, ErrBadSize) {
		t.Errorf("300x300: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := warnsdorff(cancelled, 4, 60, WithNodeBudget(1<<40)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled 4x60: %v", err)
	}
}

// TestFindTour asks for a tour from the corner of every board up to 30x30,
// open and closed: every answer must be a valid tour from that corner
// (closed when asked), boards without tours must get ErrNoTour, and all
// others must succeed: closed 3x30 (and 30x3), where both searches run out
// of budget, by the construction.
func TestFindTour(t *testing.T) {
	maxSide := 30
	switch {
	case testing.Short() || !exhaustive:
		maxSide = 12
	case raceEnabled:
		maxSide = 16
	}
	start := Coordinate{0, 0}
	for rows := 1; rows <= maxSide; rows++ {
		for cols := 1; cols <= maxSide; cols++ {
			for _, closed := range []bool{false, true} {
				opts := startOpts[FindTourOption](start, closed)
				name := fmt.Sprintf("%dx%d closed=%v", rows, cols, closed)
				tour, method, err := FindTour(context.Background(), rows, cols, opts...)
				switch {
				case !Exists(rows, cols, kindOf(closed)):
					if !errors.Is(err, ErrNoTour) {
						t.Errorf("%s: %v, want ErrNoTour", name, err)
					}
				case err == nil:
					isClosed, verr := validate(rows, cols, tour.coordinates())
					if verr != nil || closed && !isClosed || tour.At(0) != start {
						t.Errorf("%s (%s): %v, closed %v, start %v", name, method, verr, isClosed, tour.At(0))
					}
					if closed && min(rows, cols) == 3 && max(rows, cols) == 30 && method != MethodConstruct {
						t.Errorf("%s: found by %s; the searches used to give up here", name, method)
					}
				default:
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
}
