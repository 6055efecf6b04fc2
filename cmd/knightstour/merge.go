package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/euler1758/knightstour"
	"github.com/euler1758/knightstour/queens"
)

// shardResult holds one result of 'count -json' (tours) or 'queens -json'
// (queens).
type shardResult struct {
	tours  *countResult
	queens *queensResult
}

// identity says which search a result belongs to: results merge only with
// results of the same search.
func (r shardResult) identity() string {
	if c := r.tours; c != nil {
		width := c.Width
		if width == 0 && c.Method == "dp" {
			width = min(c.Rows, c.Cols) // a result from before -across: along the board
		}
		return fmt.Sprintf("tours %dx%d from %s, order %s, closed %v, free ends %v, method %s, sweep %q, width %d, halved %v", c.Rows, c.Cols, c.Start, c.Order, c.Closed, c.Free, c.Method, c.Sweep, width, c.Halved)
	}
	return fmt.Sprintf("queens n=%d by %s", r.queens.N, r.queens.Method)
}

// parseResults reads the results in data, one JSON object a line, from
// the input called name.
func parseResults(name string, data []byte) ([]shardResult, error) {
	var results []shardResult
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var kind struct {
			Kind string `json:"kind"`
		}
		var res shardResult
		err := json.Unmarshal(line, &kind) // also refuses two objects on a line
		if err == nil {
			switch kind.Kind {
			case "tours":
				res.tours = new(countResult)
				err = decodeStrict(line, res.tours)
			case "queens":
				res.queens = new(queensResult)
				err = decodeStrict(line, res.queens)
			default:
				err = fmt.Errorf("not a result of count -json or queens -json (kind %q)", kind.Kind)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", name, i+1, err)
		}
		results = append(results, res)
	}
	return results, nil
}

// maxMergeBytes bounds what merge reads from one file or from stdin: a
// result is a few hundred bytes, and a count of every length of a long
// board a number a length.
const maxMergeBytes = 256 << 20

// readInput reads a file, or stdin for "-", whole: at most limit bytes,
// and giving up as soon as ctx is done, even while a pipe or a named pipe
// has nothing to say (the read it leaves ends with the process).
func readInput(ctx context.Context, name string, limit int64) ([]byte, error) {
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		f := os.Stdin
		if name != "-" {
			var err error
			if f, err = os.Open(name); err != nil { // a named pipe waits here for a writer
				done <- read{nil, err}
				return
			}
			defer f.Close()
		}
		data, err := io.ReadAll(io.LimitReader(f, limit+1))
		if err == nil && int64(len(data)) > limit {
			err = fmt.Errorf("%s: more than %d bytes: not results of shards", name, limit)
		}
		done <- read{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// runMerge adds the JSON results of the shards of one count, read from
// the files named or from stdin, and prints the whole count's JSON. It
// refuses results of different searches, and a shard missing or repeated.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hint := "usage: knightstour merge [FILE...]   (JSON results of 'count -shard i/n -json' or 'queens -shard i/n -json'; stdin if no FILE; for example: knightstour merge shards/*.json)\n"
	fs.Usage = func() {
		fmt.Fprint(stderr, hint+`
Adds up the JSON results of the shards of one count, one object a line, in
any order and from any number of files, and prints the whole count's JSON.
It refuses results of different counts, a shard missing, repeated or out of
range, a limited count, and any result its numbers show to be forged or
relabelled (negative counts, totals against classes, tasks or states that
do not add up), as well as JSON with repeated, unknown or case-folded keys.
`)
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err, hint}
	}
	var results []shardResult
	inputs := fs.Args()
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	for _, name := range inputs {
		data, err := readInput(ctx, name, maxMergeBytes)
		if err != nil {
			return err
		}
		parsed, err := parseResults(name, data)
		if err != nil {
			return err
		}
		results = append(results, parsed...)
	}
	if len(results) == 0 {
		return usageError{errors.New("no results to merge"), hint}
	}
	id := results[0].identity()
	for _, r := range results {
		if r.identity() != id {
			return fmt.Errorf("cannot merge %q with %q", r.identity(), id)
		}
	}
	if results[0].queens != nil {
		var parts []queens.Result
		for _, r := range results {
			q, err := r.queens.result()
			if err != nil {
				return err
			}
			parts = append(parts, q)
		}
		whole, err := queens.Merge(parts...)
		if err != nil {
			return err
		}
		out := toQueensResult(whole)
		for _, r := range results {
			out.ElapsedMS = max(out.ElapsedMS, r.queens.ElapsedMS)
		}
		return json.NewEncoder(stdout).Encode(out)
	}
	out, err := mergeTours(results)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(out)
}

// mergeTours adds up the results of the shards of one count of tours, by
// the library's merge of their method: MergeDP for a frontier count,
// MergeStats for an enumeration. What a result file alone can be checked
// for (a count, no -limit) is checked here first.
func mergeTours(results []shardResult) (*countResult, error) {
	counts := make([]*countResult, len(results))
	for i, r := range results {
		counts[i] = r.tours
		if err := checkRecord(r.tours); err != nil {
			return nil, fmt.Errorf("cannot merge: shard %d/%d: %w", r.tours.Shard, r.tours.Shards, err)
		}
	}
	first := counts[0]
	out := *first
	var err error
	switch {
	case first.Method == "dp":
		err = mergeDP(&out, counts)
	case first.Free:
		// A census by enumeration is never split; a file that says
		// otherwise holds a whole count under a shard's label.
		if len(counts) != 1 || first.Shards != 1 {
			err = errors.New("a count of tours with free ends by enumeration is never split into shards")
		}
	default:
		err = mergeEnum(&out, counts, results[0].identity())
	}
	if err != nil {
		return nil, fmt.Errorf("cannot merge: %w", err)
	}
	return &out, nil
}

// checkRecord reports what makes c, one result, no part of a count to
// merge: no count or a negative one, a -limit, impossible figures, or
// counts by length that do not end in the count.
func checkRecord(c *countResult) error {
	switch {
	case c.Count == nil:
		return errors.New("no count")
	case c.Count.Sign() < 0:
		return fmt.Errorf("a negative count, %v", c.Count)
	case c.Limit != 0:
		return errors.New("limited (-limit): not a whole count")
	case c.Workers < 1 || !(c.ElapsedMS >= 0) || c.Tasks < 0:
		return fmt.Errorf("%d workers, %d tasks, %v ms: not a result a count printed", c.Workers, c.Tasks, c.ElapsedMS)
	}
	return checkByLength(c, c)
}

// mergeDP merges the shards of a frontier count into out with MergeDP.
func mergeDP(out *countResult, counts []*countResult) error {
	parts := make([]*knightstour.DPCount, len(counts))
	for i, c := range counts {
		kind := knightstour.Open
		if c.Closed {
			kind = knightstour.Closed
		}
		parts[i] = &knightstour.DPCount{Rows: c.Rows, Cols: c.Cols, Kind: kind, Shard: c.Shard, Shards: c.Shards,
			Tours: c.Count, Undirected: c.Count, ByLength: c.ByLength, Work: knightstour.Work{
				States: c.States, PeakStates: c.PeakStates, PeakBytes: c.PeakBytes, Workers: c.Workers,
				PartedAt: c.PartedAt, Followed: c.Followed, Passes: c.Passes, Narrowed: c.Narrowed, Width: c.Width, Halved: c.Halved,
				Elapsed: time.Duration(c.ElapsedMS * float64(time.Millisecond)), DemandTime: time.Duration(c.DemandsMS * float64(time.Millisecond))}}
	}
	whole, err := knightstour.MergeDP(parts...)
	if err != nil {
		return err
	}
	out.Count, out.ByLength, out.Workers, out.ElapsedMS, out.DemandsMS = whole.Tours, whole.ByLength, 0, 0, 0
	out.PeakStates, out.PeakBytes, out.Passes, out.Narrowed = whole.Work.PeakStates, whole.Work.PeakBytes, whole.Work.Passes, whole.Work.Narrowed
	out.States, out.Resumed, out.Shard, out.Shards, out.PartedAt, out.Followed = nil, 0, 0, 1, 0, 0
	out.StatesPerSecond = 0 // each shard's is its own machine's
	for _, c := range counts {
		out.Tasks = max(out.Tasks, c.Tasks) // the squares, in every shard alike
		out.Nodes += c.Nodes
		out.Workers += c.Workers // the workers of all the machines
		out.ElapsedMS = max(out.ElapsedMS, c.ElapsedMS)
	}
	return nil
}

// mergeEnum merges the shards of an enumeration into out with MergeStats,
// job naming the count they are of.
func mergeEnum(out *countResult, counts []*countResult, job string) error {
	parts := make([]knightstour.Stats, len(counts))
	for i, c := range counts {
		parts[i] = knightstour.Stats{Job: job, Tours: c.Count, Shard: c.Shard, Shards: c.Shards, Work: knightstour.Work{
			Nodes: c.Nodes, Tasks: c.Tasks, AllTasks: c.AllTasks, Workers: c.Workers, Elapsed: time.Duration(c.ElapsedMS * float64(time.Millisecond))}}
	}
	whole, err := knightstour.MergeStats(parts...)
	if err != nil {
		return err
	}
	out.Count, out.Nodes, out.Tasks = whole.Tours, whole.Work.Nodes, whole.Work.Tasks
	out.Shard, out.Shards, out.Workers, out.ElapsedMS = 0, 1, 0, 0
	for _, c := range counts {
		out.Workers += c.Workers
		out.ElapsedMS = max(out.ElapsedMS, c.ElapsedMS)
	}
	return nil
}

// checkByLength reports an error unless the counts of the shorter boards
// that c, a count with -all-lengths, holds are as many as first's, none
// negative, and the last its count of the whole board.
func checkByLength(c, first *countResult) error {
	n := len(c.ByLength)
	switch {
	case n != len(first.ByLength):
		return fmt.Errorf("counts %d lengths, shard %d/%d %d", n, first.Shard, first.Shards, len(first.ByLength))
	case n == 0:
		return nil
	case c.ByLength[n-1] == nil || c.ByLength[n-1].Cmp(c.Count) != 0:
		return fmt.Errorf("counts %v tours of the whole board by length and %v in all", c.ByLength[n-1], c.Count)
	}
	for k, m := range c.ByLength {
		if m == nil || m.Sign() < 0 {
			return fmt.Errorf("has a negative count for length %d, %v", k+1, m)
		}
	}
	return nil
}

// decodeStrict decodes the JSON object raw into v, a pointer to a struct,
// refusing what encoding/json lets through and a forged file could use: a
// key given twice (the last would win), a key that names a field only when
// case is ignored ("Rows" for "rows"), and a key of no field.
func decodeStrict(raw []byte, v any) error {
	names := map[string]bool{}
	t := reflect.TypeOf(v).Elem()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" {
			name = t.Field(i).Name
		}
		names[name] = true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil {
		return err
	} else if tok != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch {
		case !names[key]:
			return fmt.Errorf("unknown key %q", key)
		case seen[key]:
			return fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return json.Unmarshal(raw, v)
}
