package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
)

// runList prints the tours one per line, as the seed prints them, in the
// seed's order, streaming: nothing is held in memory but the line at hand.
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s, progress, err := newCommon("list", "knightstour list [flags] RxC", stderr).withLimit().setup(args, "", stderr)
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
