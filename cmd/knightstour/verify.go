package main

import (
	"context"
	"flag"
	"fmt"
	"hash/maphash"
	"io"
	"os"

	"github.com/euler1758/knightstour"
)

// runVerify reads a tour file written by 'list -o' and checks every tour.
func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hint := "usage: knightstour verify FILE   (a file written by 'knightstour list -o FILE' or 'knightstour tour -o FILE'; for example: knightstour verify tours.txt)\n"
	fs.Usage = func() {
		fmt.Fprint(stderr, hint+`
Reads a tour file and checks every tour in it: each line a knight's tour of
the board its header names (closed, if the header says so), no tour twice,
and the end line there, counting them: a file cut short is refused. Prints
the number of valid tours; exit status 1 names the first bad line.
`)
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err, hint}
	}
	if fs.NArg() != 1 {
		return usageError{fmt.Errorf("want one file, got %d arguments", fs.NArg()), hint}
	}
	// A regular file only: a named pipe or a device could keep the read
	// waiting for ever.
	if st, err := os.Stat(fs.Arg(0)); err != nil {
		return err
	} else if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %s, not a tour file", fs.Arg(0), kindOfFile(st.Mode()))
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
	// Each tour by two hashes of its squares: a repeat is told by both,
	// and two different tours share both with a chance near 2^-128.
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	seen := map[[2]uint64]int{}
	for t, err := range tr.Tours() {
		if err != nil {
			return fmt.Errorf("%s: %w (after %s)", fs.Arg(0), err, count(n, "good tour", "good tours"))
		}
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		text := t.String()
		key := [2]uint64{maphash.String(seeds[0], text), maphash.String(seeds[1], text)}
		if first, ok := seen[key]; ok {
			return fmt.Errorf("%s: tour %d repeats tour %d", fs.Arg(0), n+1, first)
		}
		seen[key] = n + 1
		n++
		if t.Kind() == knightstour.Closed {
			closed++
		}
	}
	rows, cols, _ := tr.Header()
	fmt.Fprintf(stdout, "%s: %s of %dx%d, %s of them closed\n", fs.Arg(0), count(n, "valid tour", "valid tours"), rows, cols, grouped(closed))
	return nil
}
