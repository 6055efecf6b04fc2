package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/euler1758/knightstour"
)

// runList prints the tours one per line, as the seed prints them, in the
// seed's order, streaming: nothing is held in memory but the line at hand.
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("list", "knightstour list [flags] RxC", stderr)
	limit := c.fs.Int("limit", 0, "stop after this many tours (0: all)")
	rows, cols, opts, err := c.parse(args, "")
	if err != nil {
		return err
	}
	if *limit < 0 {
		return usageError{fmt.Errorf("-limit %d: want 0 or more", *limit), c.hint()}
	}
	progress := newProgressLine(stderr)
	opts = append(opts, knightstour.WithLimit(*limit))
	s, err := c.newSolver(rows, cols, append(opts, progress.option(c.quiet)...))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	var werr error
	for tour, err := range s.All(ctx) {
		if err != nil {
			progress.done()
			w.Flush()
			return err
		}
		if _, werr = fmt.Fprintln(w, tour); werr != nil {
			break
		}
	}
	progress.done()
	if err := w.Flush(); werr == nil {
		werr = err
	}
	return werr
}
