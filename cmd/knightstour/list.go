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
	c := newCommon("list", stderr).withLimit()
	outFile := c.fs.String("o", "", "write the tours to this file, in the compact format (see 'knightstour verify')")
	compact := c.fs.Bool("compact", false, "print the compact format instead of the seed's")
	s, progress, err := c.setup(args, "", stderr)
	if err != nil {
		return err
	}
	defer progress.done()
	out := stdout
	var file *atomicFile
	if *outFile != "" {
		if file, err = createAtomic(*outFile); err != nil {
			return err
		}
		defer file.abort() // unless committed: a file is whole or absent
		out = file
	}
	// One writer, on this goroutine, gets the tours in order from all the
	// workers: nothing to lock, nothing interleaved.
	var write func(knightstour.Tour) error
	var flush, end func() error
	if *outFile != "" || *compact {
		tw := knightstour.NewTourWriter(out, s.Rows(), s.Cols(), knightstour.KindOf(s.Closed()))
		write, flush, end = tw.Write, tw.Flush, tw.Close
	} else {
		w := bufio.NewWriterSize(out, 1<<16)
		write = func(t knightstour.Tour) error {
			_, err := fmt.Fprintln(w, t)
			return err
		}
		flush, end = w.Flush, w.Flush
	}
	n := 0
	for tour, err := range s.All(ctx) {
		if err == nil {
			err = write(tour)
		}
		if err != nil {
			flush()
			if file != nil {
				return fmt.Errorf("%w; %s not written", err, *outFile)
			}
			// What was printed is a prefix of the list: say so where a
			// reader of the output will look. (The compact format also
			// lacks its end line, which readers check.)
			return fmt.Errorf("%w; the output holds only the first %d tours", err, n)
		}
		n++
	}
	if err := end(); err != nil {
		return err
	}
	if file != nil {
		return file.commit()
	}
	return nil
}
