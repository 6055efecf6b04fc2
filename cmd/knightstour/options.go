package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/euler1758/knightstour"
)

// common holds the flags every command takes.
type common struct {
	fs      *flag.FlagSet
	start   string
	order   string
	workers int
	quiet   bool
	closed  bool
	limit   *int // -limit, for the commands that have it
}

// kind is the kind of tours -closed asks for.
func (c *common) kind() knightstour.Kind {
	if c.closed {
		return knightstour.Closed
	}
	return knightstour.Open
}

// newCommon makes the flags of the command name; those named in without
// (a census has no -start) are left out, so that its -h lists only the
// flags that apply.
func newCommon(name string, stderr io.Writer, without ...string) *common {
	c := &common{fs: flag.NewFlagSet(name, flag.ContinueOnError)}
	c.fs.SetOutput(stderr)
	if !slices.Contains(without, "start") {
		c.fs.StringVar(&c.start, "start", "", "start square, as {row,col} or algebraic a1 (default: the lower-left corner)")
	}
	c.fs.StringVar(&c.order, "order", "seed", `move order: "seed" (the case study's), "wirth", or eight jumps such as "(2,1) (1,2) ..."`)
	c.fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "goroutines for the parallel search")
	c.fs.BoolVar(&c.quiet, "quiet", false, "no progress on stderr")
	c.fs.BoolVar(&c.closed, "closed", false, "closed tours only (the last square a jump from the first)")
	c.fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\nflags:\n", c.synopsis())
		c.fs.PrintDefaults()
	}
	return c
}

// withLimit adds the -limit flag.
func (c *common) withLimit() *common {
	c.limit = c.fs.Int("limit", 0, "stop after this many tours (0: no limit)")
	return c
}

// search is what a command searches: the solver its flags made, and what
// they asked of it, with the defaults filled in (the solver is given every
// one of them, so that what the command reports is what it searched).
type search struct {
	*knightstour.Solver
	rows    int
	cols    int
	start   knightstour.Coordinate
	order   []knightstour.Move
	workers int
	kind    knightstour.Kind
}

// setup parses the command line and builds the solver, with a progress
// line on stderr unless -quiet: the start of every command. Each of more
// turns the command's own flags into options once they are parsed.
func (c *common) setup(args []string, defaultBoard string, stderr io.Writer, more ...func() ([]knightstour.SolverOption, error)) (*search, *progressLine, error) {
	rows, cols, ch, err := c.parse(args, defaultBoard)
	if err != nil {
		return nil, nil, err
	}
	s := &search{rows: rows, cols: cols, start: knightstour.Coordinate{Row: rows - 1, Col: 0}, order: knightstour.SeedOrder(), workers: runtime.GOMAXPROCS(0), kind: c.kind()}
	if ch.start != nil {
		s.start = *ch.start
	}
	if ch.order != nil {
		s.order = ch.order
	}
	if ch.workers != nil {
		s.workers = *ch.workers
	}
	opts := []knightstour.SolverOption{knightstour.WithStart(s.start), knightstour.WithMoveOrder(s.order...), knightstour.WithWorkers(s.workers)}
	if s.kind == knightstour.Closed {
		opts = append(opts, knightstour.WithClosed())
	}
	for _, f := range more { // options from the command's own flags, read after parsing
		extra, err := f()
		if err != nil {
			return nil, nil, usageError{err, c.hint()}
		}
		opts = append(opts, extra...)
	}
	if c.limit != nil {
		if *c.limit < 0 {
			return nil, nil, usageError{fmt.Errorf("-limit %d: want 0 or more", *c.limit), c.hint()}
		}
		if *c.limit > 0 {
			opts = append(opts, knightstour.WithLimit(*c.limit))
		}
	}
	progress := newProgressLine(stderr)
	if !c.quiet {
		opts = append(opts, knightstour.WithProgress(250*time.Millisecond, progress.show))
	}
	if s.Solver, err = knightstour.NewSolver(rows, cols, opts...); err != nil {
		return nil, nil, usageError{err, c.hint()}
	}
	return s, progress, nil
}

// hint is what a user who mistyped should read.
func (c *common) hint() string {
	help := "knightstour " + c.fs.Name() + " -h"
	if c.fs.Name() == "knightstour" {
		help = "knightstour -h"
	}
	return "usage: " + c.synopsis() + "\nRun '" + help + "' for the flags.\n"
}

func (c *common) synopsis() string {
	switch c.fs.Name() {
	case "knightstour":
		return "knightstour [-start SQ] [-order O] [-workers N] RxC   (for example: knightstour 4x7)"
	default:
		return "knightstour " + c.fs.Name() + " [flags] RxC   (for example: knightstour " + c.fs.Name() + " 5x6)"
	}
}

// parse reads the flags and the one board argument, and builds the solver
// options. Flags may come before or after the board.
func (c *common) parse(args []string, defaultBoard string) (rows, cols int, ch chosen, err error) {
	// A size with a minus sign would reach the flag package as an unknown
	// flag, whose message does not say what is wrong.
	for _, a := range args {
		if negativeSize(a) {
			_, _, err := parseSize(a)
			return 0, 0, ch, usageError{err, c.hint()}
		}
	}
	var positional []string
	for {
		if err := c.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0, 0, ch, err
			}
			return 0, 0, ch, usageError{err, c.hint()}
		}
		if c.fs.NArg() == 0 {
			break
		}
		positional = append(positional, c.fs.Arg(0))
		args = c.fs.Args()[1:]
	}
	switch {
	case len(positional) == 0 && defaultBoard != "":
		positional = []string{defaultBoard}
	case len(positional) != 1:
		return 0, 0, ch, usageError{fmt.Errorf("want one board such as 4x7, got %d arguments %q", len(positional), positional), c.hint()}
	}
	rows, cols, err = parseSize(positional[0])
	if err != nil {
		return 0, 0, ch, usageError{err, c.hint()}
	}
	order, err := parseOrder(c.order)
	if err != nil {
		return 0, 0, ch, usageError{err, c.hint()}
	}
	// Only the flags given become options, so that a flag the command's
	// method cannot honour (-order for the construction) is refused rather
	// than silently ignored.
	c.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "order":
			ch.order = order
		case "workers":
			ch.workers = &c.workers
		}
	})
	ch.closed = c.closed
	if c.start != "" {
		sq, err := knightstour.ParseCoordinate(c.start, rows, cols)
		if err != nil {
			return 0, 0, ch, usageError{fmt.Errorf("-start: %w", err), c.hint()}
		}
		ch.start = &sq
	}
	return rows, cols, ch, nil
}

// chosen is what the common flags asked for, to become options of the
// call a command makes.
type chosen struct {
	start   *knightstour.Coordinate // -start, if given
	order   []knightstour.Move      // -order, if given
	workers *int                    // -workers, if given
	closed  bool
}

// optionsFor returns ch as options of O, the kind the call named call
// takes; a flag whose option that call does not take is an error that
// names them both.
func optionsFor[O any](ch chosen, call string) ([]O, error) {
	var opts []O
	add := func(flag string, opt any) error {
		o, ok := opt.(O)
		if !ok {
			return fmt.Errorf("%s does not apply to %s", flag, call)
		}
		opts = append(opts, o)
		return nil
	}
	var err error
	if ch.order != nil {
		err = add("-order", knightstour.WithMoveOrder(ch.order...))
	}
	if ch.workers != nil && err == nil {
		err = add("-workers", knightstour.WithWorkers(*ch.workers))
	}
	if ch.closed && err == nil {
		err = add("-closed", knightstour.WithClosed())
	}
	if ch.start != nil && err == nil {
		err = add("-start", knightstour.WithStart(*ch.start))
	}
	return opts, err
}

// parseSize reads a board size such as "4x7" (rows x columns).
func parseSize(s string) (rows, cols int, err error) {
	r, c, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		r, c, ok = strings.Cut(s, "×")
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("board %q: want ROWSxCOLS, for example 4x7", s)
	}
	if rows < 1 || cols < 1 {
		return 0, 0, fmt.Errorf("board %q: both sides must be at least 1", s)
	}
	return rows, cols, nil
}

// negativeSize reports whether arg reads as a board size with a minus sign,
// such as -3x4: no flag's name begins with a digit.
func negativeSize(arg string) bool {
	return len(arg) > 2 && arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9' &&
		strings.ContainsAny(arg, "xX×")
}

// usageErrorIf turns the library's errors about bad input into usage
// errors, which come with a hint.
func usageErrorIf(err error, c *common) error {
	for _, target := range []error{knightstour.ErrBadSize, knightstour.ErrOffBoard, knightstour.ErrBadOption} {
		if errors.Is(err, target) {
			return usageError{err, c.hint()}
		}
	}
	return err
}
