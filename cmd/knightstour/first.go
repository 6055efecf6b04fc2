package main

import (
	"context"
	"fmt"
	"io"
)

// runFirst prints the first tour in order as a board, the way the Pascal
// program of seed 002 does, and then as a line of squares.
func runFirst(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s, progress, err := newCommon("first", stderr).setup(args, "", stderr)
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
