package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/euler1758/knightstour"
)

// runList prints the tours one per line, as the seed prints them, in the
// seed's order, streaming: nothing is held in memory but the line at hand.
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("list", "knightstour list [flags] RxC", stderr).withLimit()
	outFile := c.fs.String("o", "", "write the tours to this file, in the compact format (see 'knightstour verify')")
	compact := c.fs.Bool("compact", false, "print the compact format instead of the seed's")
	s, progress, err := c.setup(args, "", stderr)
	if err != nil {
		return err
	}
	defer progress.done()
	out := stdout
	if *outFile != "" {
		f, err := os.Create(*outFile)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	// One writer, on this goroutine, gets the tours in order from all the
	// workers: nothing to lock, nothing interleaved.
	var write func(knightstour.Tour) error
	var flush func() error
	if *outFile != "" || *compact {
		tw := knightstour.NewTourWriter(out, s.Rows(), s.Cols(), s.Closed())
		write, flush = tw.Write, tw.Flush
	} else {
		w := bufio.NewWriterSize(out, 1<<16)
		write = func(t knightstour.Tour) error {
			_, err := fmt.Fprintln(w, t)
			return err
		}
		flush = w.Flush
	}
	for tour, err := range s.All(ctx) {
		if err == nil {
			err = write(tour)
		}
		if err != nil {
			flush()
			return err
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if f, ok := out.(*os.File); ok && f != stdout {
		return f.Close()
	}
	return nil
}
