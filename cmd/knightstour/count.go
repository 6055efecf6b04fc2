package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/euler1758/knightstour"
	"github.com/euler1758/knightstour/internal/diskspace"
	"github.com/euler1758/knightstour/internal/sysmem"
)

// countResult is the JSON that 'count -json' prints: one object, so that
// results from many runs (or machines) can be collected line by line.
type countResult struct {
	Kind      string   `json:"kind"` // "tours"
	Rows      int      `json:"rows"`
	Cols      int      `json:"cols"`
	Start     string   `json:"start"`
	Algebraic string   `json:"start_algebraic,omitempty"`
	Order     string   `json:"order"`
	Closed    bool     `json:"closed"`
	Free      bool     `json:"free_ends,omitempty"`
	Method    string   `json:"method"` // "enum" or "dp"
	Count     *big.Int `json:"count"`
	Nodes     uint64   `json:"nodes"`
	Tasks     int      `json:"tasks"`
	Workers   int      `json:"workers"`
	Limit     int      `json:"limit,omitempty"`
	Shard     int      `json:"shard"`
	Shards    int      `json:"shards"`
	ElapsedMS float64  `json:"elapsed_ms"`
	// DemandsMS is, of elapsed_ms, the time a frontier count took before
	// its first square to find (or read back) the demands a tour can
	// still meet.
	DemandsMS float64 `json:"demands_ms,omitempty"`
	// For -method dp: distinct partial solutions, most at once and per
	// square added, and the memory they took.
	PeakStates int   `json:"peak_states,omitempty"`
	PeakBytes  int64 `json:"peak_bytes,omitempty"`
	// Sweep is the order of each column's squares (-method dp): results
	// of different sweeps are different computations, never shards of one.
	Sweep string `json:"sweep,omitempty"`
	// Width is the squares of each column a frontier count added: the
	// board's shorter side, or its longer with -across.
	Width int `json:"width,omitempty"`
	// Halved says that a frontier count from a start on a diagonal of a
	// square board followed the tours of half of the start's first moves
	// and doubled them (Work.Halved).
	Halved bool  `json:"halved,omitempty"`
	States []int `json:"states,omitempty"`
	// AllTasks is the tasks the whole enumeration was cut into: the tasks
	// of its shards add up to it.
	AllTasks int `json:"all_tasks,omitempty"`
	// PartedAt and Followed are, for a shard of a frontier count, the
	// squares added before the shards parted and the states there the
	// shard followed: the followed of all the shards add up to the
	// states after square parted_at.
	PartedAt int `json:"parted_at,omitempty"`
	Followed int `json:"followed,omitempty"`
	// Passes is the most passes a square of a frontier count took.
	Passes int `json:"passes,omitempty"`
	// Narrowed is how many passes of a frontier count reached the memory
	// limit and left the rest of their states to a pass after them.
	Narrowed int `json:"narrowed,omitempty"`
	// Resumed is the squares done in the checkpoint a count resumed from.
	Resumed int `json:"resumed,omitempty"`
	// StatesPerSecond is, for -method dp, the states made after every
	// square (the sum of states) over the time: the speed of the step,
	// which scripts/against.sh compares between versions. A resumed
	// count's is of the squares it made.
	StatesPerSecond float64 `json:"states_per_second,omitempty"`
	// For -all-lengths: the count for each shorter board, 1 to the length.
	ByLength []*big.Int `json:"by_length,omitempty"`
}

// countFlags are the flags of count beyond the common ones, and what
// they say once read.
type countFlags struct {
	asJSON, allLengths, free, early, across       *bool
	method, memory, spill, sweepName, output, cpt *string
	shard                                         shardFlag
	prof                                          profileFlags
	memLimit                                      int64 // -memory, 0 if not given
	sweep                                         knightstour.Sweep
}

func newCountFlags(c *common) *countFlags {
	fs := c.fs
	f := &countFlags{
		asJSON:     fs.Bool("json", false, "print one JSON object"),
		method:     fs.String("method", "auto", `"enum" lists the tours one by one (any board; -limit, -shard), "dp" counts them by frontier dynamic programming (shorter side up to 9, 8 with -sweep rows; any length), "auto" picks the faster`),
		allLengths: fs.Bool("all-lengths", false, "with -method dp, also count every shorter board along the longer side, in the same pass (R x 1 .. R x C)"),
		free:       fs.Bool("free", false, "open tours from every square (both ends free), not from one start"),
		memory:     fs.String("memory", "", "with -method dp, stop before the states take more than this, such as 8G (default: half the machine's memory)"),
		spill:      fs.String("spill", "", "with -method dp, keep the states after each square in files in this directory (made if missing) instead of in memory, for boards whose states do not fit, such as 8x8"),
		early:      fs.Bool("early-start", false, "with -method dp, add the start square where it lies rather than last (other states, the same count: a second computation to check a count by)"),
		across:     fs.Bool("across", false, "with -method dp, add the squares column by column along the shorter side, each column as long as the longer (boards up to 9 on the longer side; far more states, the same count: a second computation to check a count by)"),
		sweepName:  fs.String("sweep", "narrow", `with -method dp, the order of each column's squares: "narrow" keeps about half the states of "rows", "narrow-down" as few as "narrow" but other ones; a count made with one checks a count made with another`),
		output:     fs.String("o", "", "write the -json result to FILE (whole or absent); if FILE already holds this count's result, check it and count nothing"),
		cpt:        fs.String("checkpoint", "", "with -method dp, record progress in this file after every column, between the passes of a square made in passes, and on a stop (Ctrl-C), with the states beside it; run the same command again to resume"),
	}
	fs.Var(&f.shard, "shard", "count only shard i of n, for example 0/4; add the -json results with 'knightstour merge'")
	f.prof.register(fs)
	return f
}

// options checks the flags against each other, once parsed, and turns
// those the solver takes into options.
func (f *countFlags) options(c *common) ([]knightstour.SolverOption, error) {
	method, limit := *f.method, *c.limit
	sweepGiven := false
	c.fs.Visit(func(fl *flag.Flag) { sweepGiven = sweepGiven || fl.Name == "sweep" })
	switch {
	case method != "auto" && method != "enum" && method != "dp":
		return nil, fmt.Errorf("-method %q: want enum, dp or auto", method)
	case *f.free && c.start != "":
		return nil, fmt.Errorf("-free counts tours from every square: -start has no meaning")
	case *f.free && c.closed:
		return nil, fmt.Errorf("-free and -closed do not go together: a closed tour has no ends")
	case *f.allLengths && method != "dp":
		return nil, fmt.Errorf("-all-lengths needs -method dp")
	case method == "dp" && limit > 0:
		return nil, fmt.Errorf("-method dp counts everything at once: -limit needs -method enum")
	case (*f.spill != "" || *f.cpt != "" || *f.early || *f.across || sweepGiven) && method != "dp":
		return nil, fmt.Errorf("-spill, -checkpoint, -early-start, -across and -sweep need -method dp")
	case *f.across && *f.allLengths:
		return nil, fmt.Errorf("-across and -all-lengths do not go together: the shorter boards are cut along the longer side")
	case *f.spill != "" && *f.cpt != "":
		return nil, fmt.Errorf("-spill and -checkpoint do not go together: a checkpoint keeps its states beside it")
	case *f.free && limit > 0:
		return nil, fmt.Errorf("-free counts the tours from every square in full: -limit does not apply")
	case *f.free && method != "dp" && f.shard.set():
		// A census by enumeration is a sum over every square: a shard
		// of it would not add up to the whole count.
		return nil, fmt.Errorf("-free with -shard needs -method dp: enumeration counts the tours from every square in full")
	case *f.memory != "" && method == "enum":
		return nil, fmt.Errorf("-memory bounds the states of -method dp: enumeration keeps none")
	case f.shard.set() && limit > 0:
		return nil, fmt.Errorf("-limit and -shard do not go together: a shard's first tours are not the search's")
	}
	var err error
	if f.sweep, err = parseSweep(*f.sweepName); err != nil {
		return nil, err
	}
	if *f.memory != "" {
		n, err := parseBytes(*f.memory)
		if err != nil {
			return nil, fmt.Errorf("-memory: %w", err)
		}
		if total := sysmem.Total(); total > 0 && n > total {
			return nil, fmt.Errorf("-memory %s: more than the %s this machine gives the process", *f.memory, roughBytes(float64(total)))
		}
		f.memLimit = n
	}
	if !f.shard.set() {
		return nil, nil
	}
	return []knightstour.SolverOption{knightstour.WithShard(f.shard.i, f.shard.n)}, nil
}

func runCount(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	c := newCommon("count", stderr).withLimit()
	f := newCountFlags(c)
	s, progress, err := c.setup(args, "", stderr, func() ([]knightstour.SolverOption, error) { return f.options(c) })
	if err != nil {
		return err
	}
	rows, cols := s.rows, s.cols
	res := countResult{
		Kind: "tours", Rows: rows, Cols: cols, Start: s.start.String(), Order: fmt.Sprint(s.order), Closed: s.kind == knightstour.Closed,
		Free: *f.free, Limit: *c.limit, Shard: f.shard.i, Shards: max(1, f.shard.n),
	}
	res.Algebraic, _ = s.start.Algebraic(rows, cols)
	if *f.free || s.kind == knightstour.Closed {
		res.Start, res.Algebraic = "", ""
	}
	res.Method = chooseMethod(*f.method, rows, cols, *c.limit > 0)
	if res.Method == "enum" && (*f.memory != "" || *f.allLengths) {
		return usageError{fmt.Errorf("-method auto enumerates %dx%d: -memory and -all-lengths need -method dp", rows, cols), c.hint()}
	}
	if res.Method == "dp" {
		res.Sweep, res.Width = f.sweep.String(), min(rows, cols)
		if *f.across {
			res.Width = max(rows, cols)
		}
	}
	var out *claim
	if *f.output != "" {
		*f.asJSON = true
		if out, err = claimOutput(*f.output); err != nil {
			return err
		}
		defer out.release()
		switch done, err := res.doneIn(out, *f.allLengths); {
		case err != nil:
			return err
		case done:
			fmt.Fprintf(stderr, "%s already holds %s: nothing to count\n", *f.output, res.job())
			return nil
		}
	}
	stop, err := f.prof.start()
	if err != nil {
		return err
	}
	defer func() {
		if serr := stop(); err == nil {
			err = serr
		}
	}()
	switch {
	case res.Method == "dp":
		err = countDP(ctx, s, c, f, progress, stderr, &res)
	case *f.free:
		census, cerr := knightstour.RunCensus(ctx, rows, cols, knightstour.WithWorkers(s.workers), knightstour.WithMoveOrder(s.order...))
		if err = cerr; err == nil {
			res.Count = census.Directed
			res.Nodes, res.Workers = census.Work.Nodes, s.workers
			res.ElapsedMS = float64(census.Work.Elapsed) / float64(time.Millisecond)
		}
	default:
		if !c.quiet && *c.limit == 0 && rows*cols >= 48 {
			fmt.Fprintf(stderr, "knightstour: listing every tour of %dx%d one by one may take hours or far more (about 50 ns a tour; 7x7 from the corner has 19 billion): -method dp counts them without listing\n", rows, cols)
		}
		st, serr := s.Count(ctx)
		if err = serr; err == nil {
			res.Count, res.Nodes, res.Tasks, res.AllTasks, res.Workers = st.Tours, st.Work.Nodes, st.Work.Tasks, st.Work.AllTasks, st.Work.Workers
			res.ElapsedMS = float64(st.Work.Elapsed) / float64(time.Millisecond)
		}
	}
	progress.done()
	if err != nil {
		return err
	}
	switch {
	case out != nil:
		return out.write(res)
	case *f.asJSON:
		return json.NewEncoder(stdout).Encode(res)
	}
	printCount(stdout, s, *f.free, f.shard, &res)
	return nil
}

// countDP counts by frontier dynamic programming into res, first saying
// on stderr what a long count is expected to cost.
func countDP(ctx context.Context, s *search, c *common, f *countFlags, progress *progressLine, stderr io.Writer, res *countResult) error {
	rows, cols := s.rows, s.cols
	opts := []knightstour.CountDPOption{knightstour.WithWorkers(s.workers)}
	job := dpJob{rows: rows, cols: cols, tours: fromStart, allLengths: *f.allLengths}
	switch {
	case *f.free:
		opts, job.tours = append(opts, knightstour.WithFreeEnds()), freeEnds
	case s.kind == knightstour.Closed:
		opts, job.tours = append(opts, knightstour.WithClosed()), closedTours
	default:
		opts = append(opts, knightstour.WithStart(s.start))
	}
	if f.memLimit > 0 {
		opts = append(opts, knightstour.WithMemoryLimit(f.memLimit))
	}
	if *f.allLengths {
		opts = append(opts, knightstour.WithAllLengths())
	}
	if f.shard.set() {
		opts = append(opts, knightstour.WithShard(f.shard.i, f.shard.n))
	}
	if *f.spill != "" {
		if err := os.MkdirAll(*f.spill, 0o755); err != nil {
			return usageError{fmt.Errorf("-spill %s: %w", *f.spill, errors.Unwrap(err)), c.hint()}
		}
		opts = append(opts, knightstour.WithSpill(*f.spill))
	}
	if *f.cpt != "" {
		opts = append(opts, knightstour.WithCheckpoint(*f.cpt))
	}
	if *f.early {
		opts = append(opts, knightstour.WithEarlyStart())
	}
	if *f.across {
		opts = append(opts, knightstour.WithAcross())
	}
	opts = append(opts, knightstour.WithSweep(f.sweep))
	if !c.quiet {
		limit := f.memLimit
		if limit == 0 {
			limit = max(sysmem.Total()/2, 4<<30)
		}
		// Whether the count halves its states is the engine's to say:
		// the forecast waits for its first report.
		if !*f.across {
			progress.forecast = func(halved bool) string {
				job := job
				job.halves = halved
				if fc := forecastDP(job, s.workers, limit); fc.long() {
					return fc.advice(fmt.Sprintf("%dx%d", rows, cols), s.workers, limit, *f.cpt != "", *f.spill != "", layerRoom(*f.cpt, *f.spill))
				}
				return ""
			}
		}
		progress.checkpoint, progress.width = *f.cpt, res.Width
		progress.cut = func(k int) string { return cutBoard(rows, cols, k) }
		opts = append(opts, knightstour.WithProgress(250*time.Millisecond, progress.showSteps))
	}
	dp, err := knightstour.CountDP(ctx, rows, cols, opts...)
	switch {
	case err != nil && *f.cpt != "" && !errors.Is(err, knightstour.ErrBadOption) && !errors.Is(err, knightstour.ErrCheckpoint) && !errors.Is(err, knightstour.ErrInUse) && fileExists(*f.cpt):
		return fmt.Errorf("%w; the count so far is in %s: run the same command to go on", err, *f.cpt)
	case errors.Is(err, knightstour.ErrCheckpoint):
		return fmt.Errorf("%w; to start afresh, remove it and the files named %s.* beside it", err, *f.cpt)
	case err != nil:
		return usageErrorIf(err, c)
	}
	res.Resumed, res.Width, res.Halved = dp.Work.Resumed, dp.Work.Width, dp.Work.Halved
	res.Sweep = dp.Work.Sweep.String()
	res.Passes, res.Narrowed = dp.Work.Passes, dp.Work.Narrowed
	res.PartedAt, res.Followed = dp.Work.PartedAt, dp.Work.Followed
	res.Count, res.Workers, res.Tasks = dp.Tours, dp.Work.Workers, len(dp.Work.States)
	res.PeakStates, res.PeakBytes, res.States, res.ByLength = dp.Work.PeakStates, dp.Work.PeakBytes, dp.Work.States, dp.ByLength
	res.ElapsedMS = float64(dp.Work.Elapsed) / float64(time.Millisecond)
	res.DemandsMS = float64(dp.Work.DemandTime) / float64(time.Millisecond)
	made := 0
	for _, n := range dp.Work.States[dp.Work.Resumed:] {
		made += n
	}
	if secs := dp.Work.Elapsed.Seconds(); secs > 0 {
		res.StatesPerSecond = math.Round(float64(made) / secs)
	}
	return nil
}

// printCount writes a count for people.
func printCount(stdout io.Writer, s *search, free bool, shard shardFlag, res *countResult) {
	rows, cols := s.rows, s.cols
	kind, from := "", " from "+describe(s.start, rows, cols)
	switch {
	case s.kind == knightstour.Closed:
		kind, from = "closed ", " (from any one square, both directions)"
	case free:
		from = " (from every square, both directions)"
	}
	part := ""
	if shard.set() {
		part = fmt.Sprintf(" (shard %d of %d)", shard.i, shard.n)
	}
	noun := "tours"
	if res.Count.IsInt64() && res.Count.Int64() == 1 {
		noun = "tour"
	}
	fmt.Fprintf(stdout, "%s %s%s of %dx%d%s%s\n", grouped(res.Count), kind, noun, rows, cols, from, part)
	if s.kind == knightstour.Closed && rows*cols%2 == 1 {
		fmt.Fprintln(stdout, "(a closed tour needs an even number of squares: every jump changes colour)")
		return
	}
	for k, n := range res.ByLength {
		fmt.Fprintf(stdout, "  %s: %s\n", cutBoard(rows, cols, k+1), grouped(n))
	}
	elapsed := millis(time.Duration(res.ElapsedMS * float64(time.Millisecond)))
	if res.Method == "dp" {
		fmt.Fprintf(stdout, "counted by frontier dynamic programming: peak %s, %.1f MiB, %s ms, %s\n",
			count(res.PeakStates, "state", "states"), float64(res.PeakBytes)/(1<<20), elapsed, count(res.Workers, "worker", "workers"))
		if res.Resumed > 0 {
			fmt.Fprintf(stdout, "resumed from the checkpoint after square %d of %d\n", res.Resumed, rows*cols)
		}
		return
	}
	fmt.Fprintf(stdout, "%s, %s ms, %s\n", count(res.Nodes, "node", "nodes"), elapsed, count(res.Workers, "worker", "workers"))
}

// job names the count c is the result of, or a shard of.
func (c *countResult) job() string {
	return fmt.Sprintf("shard %d/%d of the count of %s", c.Shard, c.Shards, shardResult{tours: c}.identity())
}

// doneIn reports whether file holds the result of the count that want
// begins to describe (its board, tours, method, sweep, shard and limit),
// with counts of the shorter boards if allLengths. A missing file is not
// done; a file that holds anything else (another count, a torn write, a
// count that does not check) is an error, not to be overwritten unread:
// remove it to count again.
func (want *countResult) doneIn(file *claim, allLengths bool) (bool, error) {
	var got countResult
	if found, err := file.read(&got); !found || err != nil {
		return false, err
	}
	// Whether a count halves is known only once it runs; a result that
	// did and one that did not count the same tours (merge keeps them
	// apart, as their shards follow other states).
	same := got
	same.Halved = want.Halved
	var err error
	switch {
	case got.Kind != "tours" || same.job() != want.job() || got.Limit != want.Limit || (len(got.ByLength) > 0) != allLengths:
		err = fmt.Errorf("it holds %s (limit %d, %d lengths), not %s", got.job(), got.Limit, len(got.ByLength), want.job())
	case got.Count == nil || got.Count.Sign() < 0:
		err = fmt.Errorf("it holds a count of %v", got.Count)
	default:
		err = checkByLength(&got, &got)
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w (remove it to count again)", file, err)
	}
	return true, nil
}

// layerRoom returns the free space where a count's layers go: beside the
// checkpoint, or in the spill directory; -1 with neither, or where it
// cannot be told.
func layerRoom(checkpoint, spill string) int64 {
	dir := spill
	if checkpoint != "" {
		dir = filepath.Dir(checkpoint)
	}
	if dir == "" {
		return -1
	}
	if free, ok := diskspace.Free(dir); ok {
		return free
	}
	return -1
}

// chooseMethod resolves -method auto. Enumeration costs about 50 ns per
// tour found; the frontier count's cost follows its states, whatever the
// number of tours. Measured with this command on the development machine,
// enumeration wins up to 36 squares (6x6 from the corner: 0.17 s against
// 0.35 s; with free ends 0.41 s against 0.78 s; closed 16 ms against 61 ms)
// and the frontier count beyond (5x8 from the corner: 0.09 s against
// 0.85 s; 6x7 closed 0.27 s against 0.59 s). -limit enumerates. A board
// wider than the frontier allows on both sides has far too many tours to
// enumerate, so it goes to the frontier count too, which says so.
func chooseMethod(method string, rows, cols int, partial bool) string {
	if method != "auto" {
		return method
	}
	switch n := rows * cols; {
	case partial:
		return "enum"
	case n > 36:
		return "dp"
	}
	return "enum"
}

// parseBytes reads a size such as 512M or 8G (powers of 1024).
func parseBytes(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("an empty size: want a size such as 512M or 8G")
	}
	mult := int64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	digits := s
	if mult > 1 {
		digits = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q: want a size such as 512M or 8G", s)
	}
	return n * mult, nil
}

// fileExists reports whether name is there: whether a stopped count left
// a checkpoint to go on from.
func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// parseSweep reads -sweep: one of the sweeps a count can take, by the name
// its String gives. The CLI names each sweep it counts with, so it leaves
// out SweepAuto, the library's own choice.
func parseSweep(name string) (knightstour.Sweep, error) {
	for _, s := range []knightstour.Sweep{knightstour.SweepRows, knightstour.SweepNarrow, knightstour.SweepNarrowDown} {
		if s.String() == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("-sweep %q: want rows, narrow or narrow-down", name)
}

// cutBoard names the board rows x cols cut to k squares along its longer
// side, as -all-lengths counts it.
func cutBoard(rows, cols, k int) string {
	if rows > cols {
		return fmt.Sprintf("%dx%d", k, cols)
	}
	return fmt.Sprintf("%dx%d", rows, k)
}
