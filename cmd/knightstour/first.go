package main

import (
	"context"
	"fmt"
	"io"
)

// runFirst prints the first tour in order as a board, the way the Pascal
// program of seed 002 does, and then as a line of squares.
func runFirst(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("first", "knightstour first [flags] RxC", stderr)
	rows, cols, opts, err := c.parse(args, "")
	if err != nil {
		return err
	}
	progress := newProgressLine(stderr)
	s, err := c.newSolver(rows, cols, append(opts, progress.option(c.quiet)...))
	if err != nil {
		return err
	}
	tour, err := s.First(ctx)
	progress.done()
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, tour.Board())
	fmt.Fprintln(stdout, tour)
	return nil
}
