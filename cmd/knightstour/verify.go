package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/euler1758/knightstour"
)

// runVerify reads a tour file written by 'list -o' and checks every tour.
func runVerify(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hint := "usage: knightstour verify FILE   (a file written by 'knightstour list -o FILE' or 'knightstour tour -o FILE')\n"
	fs.Usage = func() {
		fmt.Fprint(stderr, hint+`
Reads a tour file and checks every tour in it: each line a knight's tour of
the board its header names (closed, if the header says so), and the end
line there, counting them: a file cut short is refused. Prints the number
of valid tours; exit status 1 names the first bad line.
`)
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err, hint}
	}
	if fs.NArg() != 1 {
		return usageError{fmt.Errorf("want one file, got %d arguments", fs.NArg()), hint}
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	tr, err := knightstour.NewTourReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	var n, closed int
	for t, err := range tr.Tours() {
		if err != nil {
			return fmt.Errorf("%s: %w (after %d good tours)", fs.Arg(0), err, n)
		}
		n++
		if t.Closed() {
			closed++
		}
	}
	fmt.Fprintf(stdout, "%s: %d valid tours of %dx%d, %d of them closed\n", fs.Arg(0), n, tr.Rows(), tr.Cols(), closed)
	return nil
}
