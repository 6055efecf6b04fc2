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
	Kind        string  `json:"kind"` // "queens"
	N           int     `json:"n"`
	Method      string  `json:"method"`
	Total       uint64  `json:"total"`
	Unique      uint64  `json:"unique"`
	C2          uint64  `json:"c2"`
	C4          uint64  `json:"c4"`
	C8          uint64  `json:"c8"`
	QuarterTurn uint64  `json:"quarter_turn"`
	HalfTurn    uint64  `json:"half_turn"`
	Tasks       int     `json:"tasks"`
	AllTasks    int     `json:"all_tasks"`
	Shard       int     `json:"shard"`
	Shards      int     `json:"shards"`
	ElapsedMS   float64 `json:"elapsed_ms"`
}

func toQueensResult(r queens.Result) queensResult {
	return queensResult{Kind: "queens", N: r.N, Method: r.Method.String(), Total: r.Total, Unique: r.Unique, C2: r.C2, C4: r.C4, C8: r.C8,
		QuarterTurn: r.QuarterTurn, HalfTurn: r.HalfTurn,
		Tasks: r.Tasks, AllTasks: r.AllTasks, Shard: r.Shard, Shards: r.Shards, ElapsedMS: float64(r.Elapsed) / float64(time.Millisecond)}
}

// result returns the queens.Result that q holds, or an error if q names no
// method.
func (q queensResult) result() (queens.Result, error) {
	m, err := queens.ParseMethod(q.Method)
	if err != nil {
		return queens.Result{}, err
	}
	return queens.Result{N: q.N, Method: m, Total: q.Total, Unique: q.Unique, C2: q.C2, C4: q.C4, C8: q.C8,
		QuarterTurn: q.QuarterTurn, HalfTurn: q.HalfTurn,
		Tasks: q.Tasks, AllTasks: q.AllTasks, Shard: q.Shard, Shards: q.Shards,
		Elapsed: time.Duration(q.ElapsedMS * float64(time.Millisecond))}, nil
}

func runQueens(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("queens", flag.ContinueOnError)
	fs.SetOutput(stderr)
	synopsis := "usage: knightstour queens [-unique] [-method M] [-workers N] [-shard i/n [-o FILE]] [-json] [-print] N   (for example: knightstour queens 12)\n"
	hint := synopsis + "Run 'knightstour queens -h' for the flags.\n"
	unique := fs.Bool("unique", false, "print only the number of solutions up to rotation and reflection")
	methodName := fs.String("method", queens.Auto.String(), "how to count: constellations, classic, or auto (constellations from n = 15 on); same counts, other tasks")
	output := fs.String("o", "", "write the -json result to FILE (whole or absent); if FILE already holds this count's result, check it and count nothing")
	workers := fs.Int("workers", 0, "goroutines (default: all cores)")
	var shard shardFlag
	fs.Var(&shard, "shard", "count only shard i of n, for example 0/4; add the -json results with 'knightstour merge'")
	asJSON := fs.Bool("json", false, "print one JSON object")
	print := fs.Bool("print", false, "print every solution as a board first (small n)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	var prof profileFlags
	prof.register(fs)
	fs.Usage = func() { fmt.Fprint(stderr, synopsis+"\nflags:\n"); fs.PrintDefaults() }
	n, err := parseQueensN(fs, args, hint)
	if err != nil {
		return err
	}
	method, err := queens.ParseMethod(*methodName)
	if err != nil {
		return usageError{err, hint}
	}
	opts := []queens.Option{queens.WithMethod(method)}
	if *workers != 0 || workersSet(fs) {
		if *workers < 1 || *workers > queens.MaxWorkers {
			return usageError{fmt.Errorf("-workers %d: want 1 to %d", *workers, queens.MaxWorkers), hint}
		}
		opts = append(opts, queens.WithWorkers(*workers))
	}
	if shard.set() {
		opts = append(opts, queens.WithShard(shard.i, shard.n))
	}
	var out *claim
	if *output != "" {
		if *print || *unique {
			return usageError{errors.New("-o writes the -json result: it does not go with -print or -unique"), hint}
		}
		*asJSON = true
		want := queensJob{n: n, method: method.Resolve(n), shard: 0, shards: 1}
		if shard.set() {
			want.shard, want.shards = shard.i, shard.n
		}
		if out, err = claimOutput(*output); err != nil {
			return err
		}
		defer out.release()
		switch done, err := want.doneIn(out); {
		case err != nil:
			return err
		case done:
			fmt.Fprintf(stderr, "%s already holds %v: nothing to count\n", *output, want)
			return nil
		}
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
	stop, err := prof.start()
	if err != nil {
		return err
	}
	r, err := queens.Count(ctx, n, opts...)
	progress.done()
	if serr := stop(); err == nil {
		err = serr
	}
	if errors.Is(err, queens.ErrBadOption) {
		return usageError{err, hint}
	}
	if err != nil {
		return err
	}
	switch {
	case *output != "":
		return out.write(toQueensResult(r))
	case *asJSON:
		return json.NewEncoder(stdout).Encode(toQueensResult(r))
	default:
		printQueens(stdout, r, *unique)
	}
	return nil
}

// printQueens writes a count of N-Queens solutions for people.
func printQueens(stdout io.Writer, r queens.Result, unique bool) {
	if unique {
		fmt.Fprintf(stdout, "%d queens: %s up to rotation and reflection\n", r.N, grouped(r.Unique))
		return
	}
	part := ""
	if r.Shards > 1 {
		part = fmt.Sprintf(" (shard %d of %d)", r.Shard, r.Shards)
	}
	fmt.Fprintf(stdout, "%d queens%s: %s, %s up to rotation and reflection\n", r.N, part, count(r.Total, "solution", "solutions"), grouped(r.Unique))
	fmt.Fprintf(stdout, "%s, %s ms\n", count(r.Tasks, "task", "tasks"), millis(r.Elapsed))
}

// parseQueensN reads the flags, before or after the one argument, the
// board size N.
func parseQueensN(fs *flag.FlagSet, args []string, hint string) (int, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return 0, err
			}
			return 0, usageError{err, hint}
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) != 1 {
		return 0, usageError{fmt.Errorf("want one board size N, got %q", positional), hint}
	}
	n, err := strconv.Atoi(positional[0])
	if err != nil || n < 1 || n > queens.MaxN {
		return 0, usageError{fmt.Errorf("board size %q: want a whole number from 1 to %d", positional[0], queens.MaxN), hint}
	}
	return n, nil
}

// queensJob names one shard of one count, so that a rerun of a sharded
// count can skip the shards already done.
type queensJob struct {
	n             int
	method        queens.Method
	shard, shards int
}

func (j queensJob) String() string {
	return fmt.Sprintf("shard %d/%d of the %d-queens count by %v", j.shard, j.shards, j.n, j.method)
}

// doneIn reports whether file holds the result of job j. A missing file
// is not done; a file that holds anything else (another job, a result
// that does not check, a torn write) is an error, not to be overwritten
// unread: remove it to count again.
func (j queensJob) doneIn(file *claim) (bool, error) {
	var q queensResult
	if found, err := file.read(&q); !found || err != nil {
		return false, err
	}
	r, err := q.result()
	if err == nil && (q.Kind != "queens" || r.N != j.n || r.Method != j.method || r.Shard != j.shard || r.Shards != j.shards) {
		err = fmt.Errorf("it holds shard %d/%d of the %d-queens count by %v, not %v", r.Shard, r.Shards, r.N, r.Method, j)
	}
	if err == nil {
		err = r.Check()
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w (remove it to count again)", file, err)
	}
	return true, nil
}

// workersSet reports whether -workers was given, so that -workers 0 is
// refused rather than taken for the default.
func workersSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "workers" })
	return set
}
