package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/euler1758/knightstour"
)

// runMain is the seed's program: all tours found sequentially and then in
// parallel, each with its time and count, and the first tour as a board.
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s, progress, err := newCommon("knightstour", stderr).setup(args, "4x7", stderr)
	if err != nil {
		return err
	}
	rows, cols := s.rows, s.cols
	fmt.Fprintf(stdout, "Board %dx%d, start %s, %d workers\n", rows, cols, describe(s.start, rows, cols), s.workers)
	var first *knightstour.Tours
	for _, step := range []struct {
		name string
		find func(context.Context) (*knightstour.Tours, error)
	}{
		{"findMovesSequential", s.FindMoves},
		{"findMovesParallel", s.FindMovesParallel},
	} {
		fmt.Fprintf(stdout, "Main: %s():\n", step.name)
		tours, err := step.find(ctx)
		progress.done()
		if err != nil {
			return err
		}
		st := tours.Stats()
		fmt.Fprintf(stdout, "Elapsed time = %s [msecs]\n", millis(st.Work.Elapsed))
		fmt.Fprintf(stdout, "Found: %d\n", tours.Len())
		if first == nil {
			first = tours
		} else if tours.Len() != first.Len() {
			return fmt.Errorf("internal error: sequential search found %d tours, parallel %d", first.Len(), tours.Len())
		}
	}
	if first.Len() == 0 {
		fmt.Fprintln(stdout, "No tour.")
		return nil
	}
	fmt.Fprintln(stdout, "First tour:")
	fmt.Fprint(stdout, first.At(0).Board())
	return nil
}

// describe names a square both ways, as {row,col} and, where the board is
// narrow enough, in algebraic notation.
func describe(sq knightstour.Coordinate, rows, cols int) string {
	if a, err := sq.Algebraic(rows, cols); err == nil {
		return sq.String() + " (" + a + ")"
	}
	return sq.String()
}

func millis(d time.Duration) string {
	return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond))
}
