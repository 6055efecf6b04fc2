package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"

	"github.com/euler1758/knightstour/internal/shard"
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
		return fmt.Sprintf("tours %dx%d from %s, order %s, closed %v, free ends %v, method %s", c.Rows, c.Cols, c.Start, c.Order, c.Closed, c.Free, c.Method)
	}
	return fmt.Sprintf("queens n=%d", r.queens.N)
}

// runMerge adds the JSON results of the shards of one count, read from
// the files named or from stdin, and prints the whole count's JSON. It
// refuses results of different searches, and a shard missing or repeated.
func runMerge(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hint := "usage: knightstour merge [FILE...]   (JSON results of 'count -shard i/n -json' or 'queens -shard i/n -json'; stdin if no FILE)\n"
	if err := fs.Parse(args); err != nil {
		return usageError{err, hint}
	}
	var results []shardResult
	read := func(name string, r io.Reader) error {
		dec := json.NewDecoder(r)
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); errors.Is(err, io.EOF) {
				return nil
			} else if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			var kind struct {
				Kind string `json:"kind"`
			}
			var res shardResult
			if err := json.Unmarshal(raw, &kind); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			var err error
			switch kind.Kind {
			case "tours":
				res.tours = new(countResult)
				err = json.Unmarshal(raw, res.tours)
			case "queens":
				res.queens = new(queensResult)
				err = json.Unmarshal(raw, res.queens)
			default:
				err = fmt.Errorf("not a result of count -json or queens -json (kind %q)", kind.Kind)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			results = append(results, res)
		}
	}
	if fs.NArg() == 0 {
		if err := read("stdin", os.Stdin); err != nil {
			return err
		}
	}
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = read(name, f)
		f.Close()
		if err != nil {
			return err
		}
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
			q := r.queens
			parts = append(parts, queens.Result{N: q.N, Total: q.Total, Unique: q.Unique, C2: q.C2, C4: q.C4, C8: q.C8, Tasks: q.Tasks, Shard: q.Shard, Shards: q.Shards})
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
	ids := make([]shard.ID, len(results))
	for i, r := range results {
		if r.tours.Limit != 0 {
			return fmt.Errorf("shard %d/%d was limited (-limit): it is not a whole count", r.tours.Shard, r.tours.Shards)
		}
		if r.tours.Shards > 1 && r.tours.Free && r.tours.Method != "dp" {
			// A census by enumeration is never split; a file that says
			// otherwise holds a whole count under a shard's label.
			return fmt.Errorf("shard %d/%d: a count of tours with free ends by enumeration is never split into shards", r.tours.Shard, r.tours.Shards)
		}
		ids[i] = shard.ID{Index: r.tours.Shard, Count: r.tours.Shards}
	}
	if err := shard.Complete(ids); err != nil {
		return fmt.Errorf("cannot merge: %w", err)
	}
	out := *results[0].tours
	out.Count, out.Nodes, out.Tasks, out.Workers, out.ElapsedMS, out.Shard, out.Shards = new(big.Int), 0, 0, 0, 0, 0, 1
	for _, r := range results {
		c := r.tours
		if c.Count == nil {
			return fmt.Errorf("shard %d/%d has no count", c.Shard, c.Shards)
		}
		out.Count.Add(out.Count, c.Count)
		out.Nodes += c.Nodes
		out.Tasks += c.Tasks
		out.Workers += c.Workers
		out.ElapsedMS = max(out.ElapsedMS, c.ElapsedMS)
	}
	return json.NewEncoder(stdout).Encode(out)
}
