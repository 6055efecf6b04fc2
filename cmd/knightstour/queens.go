package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/euler1758/knightstour/queens"
)

// queensResult is the JSON that 'queens -json' prints, one object per
// process, which 'knightstour merge' adds up.
type queensResult struct {
	Kind      string  `json:"kind"` // "queens"
	N         int     `json:"n"`
	Total     uint64  `json:"total"`
	Unique    uint64  `json:"unique"`
	C2        uint64  `json:"c2"`
	C4        uint64  `json:"c4"`
	C8        uint64  `json:"c8"`
	Tasks     int     `json:"tasks"`
	AllTasks  int     `json:"all_tasks"`
	Shard     int     `json:"shard"`
	Shards    int     `json:"shards"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

func toQueensResult(r queens.Result) queensResult {
	return queensResult{Kind: "queens", N: r.N, Total: r.Total, Unique: r.Unique, C2: r.C2, C4: r.C4, C8: r.C8,
		Tasks: r.Tasks, AllTasks: r.AllTasks, Shard: r.Shard, Shards: r.Shards, ElapsedMS: float64(r.Elapsed) / float64(time.Millisecond)}
}

func runQueens(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("queens", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hint := "usage: knightstour queens [-unique] [-workers N] [-shard i/n] [-json] [-print] N   (for example: knightstour queens 12)\nRun 'knightstour queens -h' for the flags.\n"
	unique := fs.Bool("unique", false, "print only the number of solutions up to rotation and reflection")
	workers := fs.Int("workers", 0, "goroutines (default: all cores)")
	var shard shardFlag
	fs.Var(&shard, "shard", "count only shard i of n, for example 0/4; add the -json results with 'knightstour merge'")
	asJSON := fs.Bool("json", false, "print one JSON object")
	print := fs.Bool("print", false, "print every solution as a board first (small n)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	fs.Usage = func() { fmt.Fprint(stderr, hint); fs.PrintDefaults() }
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return err
			}
			return usageError{err, hint}
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) != 1 {
		return usageError{fmt.Errorf("want one board size N, got %q", positional), hint}
	}
	n, err := strconv.Atoi(positional[0])
	if err != nil || n < 1 || n > queens.MaxN {
		return usageError{fmt.Errorf("board size %q: want a whole number from 1 to %d", positional[0], queens.MaxN), hint}
	}
	var opts []queens.Option
	if *workers != 0 || workersSet(fs) {
		if *workers < 1 || *workers > queens.MaxWorkers {
			return usageError{fmt.Errorf("-workers %d: want 1 to %d", *workers, queens.MaxWorkers), hint}
		}
		opts = append(opts, queens.WithWorkers(*workers))
	}
	if shard.set() {
		opts = append(opts, queens.WithShard(shard.i, shard.n))
	}
	progress := newProgressLine(stderr)
	if !*quiet {
		opts = append(opts, queens.WithProgress(250*time.Millisecond, func(p queens.Progress) {
			progress.report(p.Fraction(), p.TasksDone, p.Tasks, fmt.Sprintf("%d solutions", p.Solutions), p.Elapsed, p.ETA())
		}))
	}
	if *print {
		for p, err := range queens.Solutions(ctx, n) {
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%v\n%s\n", p, p.Board())
		}
	}
	r, err := queens.Count(ctx, n, opts...)
	progress.done()
	if errors.Is(err, queens.ErrBadOption) {
		return usageError{err, hint}
	}
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		return json.NewEncoder(stdout).Encode(toQueensResult(r))
	case *unique:
		fmt.Fprintln(stdout, r.Unique)
	default:
		part := ""
		if shard.set() {
			part = fmt.Sprintf(" (shard %d of %d)", shard.i, shard.n)
		}
		fmt.Fprintf(stdout, "%d queens%s: %d solutions, %d up to rotation and reflection\n", n, part, r.Total, r.Unique)
		fmt.Fprintf(stdout, "%d tasks, %s ms\n", r.Tasks, millis(r.Elapsed))
	}
	return nil
}

// workersSet reports whether -workers was given, so that -workers 0 is
// refused rather than taken for the default.
func workersSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "workers" })
	return set
}
