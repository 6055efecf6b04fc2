package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/euler1758/knightstour"
)

// runList prints the tours one per line, as the seed prints them, in the
// seed's order, streaming: nothing is held in memory but the line at hand.
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("list", stderr).withLimit()
	outFile := c.fs.String("o", "", "write the tours to this file, in the compact format (see 'knightstour verify')")
	compact := c.fs.Bool("compact", false, "print the compact format (see 'knightstour verify') instead of the case study's")
	unique := c.fs.Bool("unique", false, "one tour of each shape up to rotation and reflection (and, for closed tours, start and direction), from every square")
	s, progress, err := c.setup(args, "", stderr)
	if err != nil {
		return err
	}
	tours := s.All(ctx)
	if *unique {
		if c.start != "" && s.kind != knightstour.Closed {
			return usageError{fmt.Errorf("-unique lists the open tours of every square: -start has no meaning"), c.hint()}
		}
		tours = shapes(ctx, s, *c.limit)
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
		tw := knightstour.NewTourWriter(out, s.rows, s.cols, s.kind)
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
	for tour, err := range tours {
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

// shapes yields one tour of each shape, the first found: the tours of
// every square in turn (of the start only for closed tours, which pass
// through every square), in the solver's move order, less those that the
// board's symmetries and reversal (and, for closed tours, the choice of
// start) make of a tour already yielded. At most limit, if not 0.
func shapes(ctx context.Context, s *search, limit int) iter.Seq2[knightstour.Tour, error] {
	return func(yield func(knightstour.Tour, error) bool) {
		starts := []knightstour.Coordinate{s.start}
		if s.kind != knightstour.Closed {
			starts = starts[:0]
			for r := range s.rows {
				for k := range s.cols {
					starts = append(starts, knightstour.Coordinate{Row: r, Col: k})
				}
			}
		}
		seen := map[string]bool{}
		for _, start := range starts {
			opts := []knightstour.SolverOption{knightstour.WithStart(start), knightstour.WithMoveOrder(s.order...), knightstour.WithWorkers(s.workers)}
			if s.kind == knightstour.Closed {
				opts = append(opts, knightstour.WithClosed())
			}
			from, err := knightstour.NewSolver(s.rows, s.cols, opts...)
			if err != nil {
				yield(knightstour.Tour{}, err)
				return
			}
			for t, err := range from.All(ctx) {
				if err != nil {
					yield(knightstour.Tour{}, err)
					return
				}
				key := knightstour.Canonical(t, s.kind).String()
				if seen[key] {
					continue
				}
				seen[key] = true
				if !yield(t, nil) || len(seen) == limit {
					return
				}
			}
		}
	}
}
