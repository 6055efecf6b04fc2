package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/euler1758/knightstour"
)

// runTour finds one tour on any board, prints it (a board for small sizes,
// a summary for large ones) and can draw it.
func runTour(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("tour", stderr)
	method := c.fs.String("method", "auto", "auto (search or Warnsdorff, whichever suits the board, the construction if both give up or the board has more than 65536 squares), construct (guaranteed, linear time, any size), warnsdorff, or search (the first tour in move order)")
	svgFile := c.fs.String("svg", "", "also draw the tour as an SVG picture in this file")
	outFile := c.fs.String("o", "", "also write the tour to this file in the tour file format of 'list -o' (any size; check it with 'knightstour verify')")
	numbers := c.fs.Bool("numbers", false, "with -svg: write the move numbers in the squares")
	rows, cols, ch, err := c.parse(args, "")
	if err != nil {
		return err
	}
	switch *method {
	case "auto", "construct", "warnsdorff", "search":
	default:
		return usageError{fmt.Errorf("-method %q: want auto, construct, warnsdorff or search", *method), c.hint()}
	}
	if *svgFile != "" && rows*cols > maxDrawn {
		return usageError{fmt.Errorf("-svg: %dx%d is too large to draw (more than %d squares)", rows, cols, maxDrawn), c.hint()}
	}
	if !knightstour.Exists(rows, cols, c.kind()) {
		return fmt.Errorf("no %s tour exists on a %dx%d board", c.kind(), rows, cols)
	}
	// The files are claimed before the work, so that one that cannot be
	// written is said at once.
	outs := map[*string]*claim{outFile: nil, svgFile: nil}
	for name := range outs {
		if *name != "" {
			if outs[name], err = claimOutput(*name); err != nil {
				return err
			}
			defer outs[name].release()
		}
	}
	begin := time.Now()
	tour, summary, err := findOne(ctx, *method, rows, cols, ch, c)
	if err != nil {
		return err
	}
	elapsed := time.Since(begin)
	if rows <= 30 && cols <= 30 {
		fmt.Fprint(stdout, tour.Board())
	}
	kind := tour.Kind()
	fmt.Fprintf(stdout, "%v tour of %dx%d from %v to %v: %s, %s ms (%.1f ns a square)\n", kind, rows, cols, tour.At(0), tour.At(tour.Len()-1), summary, millis(elapsed), float64(elapsed.Nanoseconds())/float64(rows*cols))
	if *outFile != "" {
		if err := writeTour(outs[outFile], tour); err != nil {
			return err
		}
	}
	if *svgFile != "" {
		f, err := outs[svgFile].create()
		if err != nil {
			return err
		}
		defer f.abort()
		if err := knightstour.WriteSVG(f, tour, knightstour.SVGOptions{Numbers: *numbers}); err != nil {
			return err
		}
		return f.commit()
	}
	return nil
}

// maxDrawn is the largest board tour -svg draws: a picture of a million
// squares is already some 15 MB.
const maxDrawn = 1_000_000

// writeTour writes one tour to a tour file, whole or not at all.
func writeTour(out *claim, tour knightstour.Tour) error {
	f, err := out.create()
	if err != nil {
		return err
	}
	defer f.abort()
	tw := knightstour.NewTourWriter(f, tour.Rows(), tour.Cols(), tour.Kind())
	if err := tw.Write(tour); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return f.commit()
}

// foundBy says how a tour was found by FindTour's method m.
func foundBy(m knightstour.Method) string {
	switch m {
	case knightstour.MethodSearch:
		return "exact search"
	case knightstour.MethodWarnsdorff:
		return "Warnsdorff's rule"
	case knightstour.MethodConstruct:
		return "guaranteed construction"
	}
	return m.String()
}

// findOne finds a tour by method, with the common flags' options as that
// method's call takes them, and says how it was found.
func findOne(ctx context.Context, method string, rows, cols int, ch chosen, c *common) (knightstour.Tour, string, error) {
	call := "-method " + method
	if method == "search" {
		// The first tour in move order, however long it takes: not
		// FindTour's search, which has a budget.
		opts, err := optionsFor[knightstour.SolverOption](ch, call)
		if err != nil {
			return knightstour.Tour{}, "", usageError{err, c.hint()}
		}
		s, err := knightstour.NewSolver(rows, cols, opts...)
		if err != nil {
			return knightstour.Tour{}, "", usageErrorIf(err, c)
		}
		tour, err := s.First(ctx)
		return tour, "first tour in move order", err
	}
	opts, err := optionsFor[knightstour.FindTourOption](ch, call)
	if err != nil {
		return knightstour.Tour{}, "", usageError{err, c.hint()}
	}
	switch method {
	case "construct":
		opts = append(opts, knightstour.WithMethod(knightstour.MethodConstruct))
	case "warnsdorff":
		opts = append(opts, knightstour.WithMethod(knightstour.MethodWarnsdorff))
	}
	tour, m, err := knightstour.FindTour(ctx, rows, cols, opts...)
	if err != nil {
		return tour, "", usageErrorIf(err, c)
	}
	return tour, foundBy(m), nil
}
