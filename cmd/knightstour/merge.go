package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"reflect"
	"strings"

	"github.com/euler1758/knightstour"
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
		return fmt.Sprintf("tours %dx%d from %s, order %s, closed %v, free ends %v, method %s, sweep %q", c.Rows, c.Cols, c.Start, c.Order, c.Closed, c.Free, c.Method, c.Sweep)
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

// mergeTours adds up the results of the shards of one count of tours.
func mergeTours(results []shardResult) (*countResult, error) {
	counts := make([]*countResult, len(results))
	for i, r := range results {
		counts[i] = r.tours
	}
	if err := checkParts(counts); err != nil {
		return nil, fmt.Errorf("cannot merge: %w", err)
	}
	out := *results[0].tours
	out.Count, out.Nodes, out.Tasks, out.Workers, out.ElapsedMS, out.Shard, out.Shards = new(big.Int), 0, 0, 0, 0, 0, 1
	// The states after each square are one shard's; the whole count's
	// are not the sum (shards reach some states alike). What one shard
	// kept at most, and took, is what a machine running one needs.
	out.States, out.PeakStates, out.PeakBytes, out.Passes, out.Narrowed, out.Resumed = nil, 0, 0, 0, 0, 0
	out.ByLength = make([]*big.Int, len(counts[0].ByLength))
	for i := range out.ByLength {
		out.ByLength[i] = new(big.Int)
	}
	for _, r := range results {
		c := r.tours
		out.Count.Add(out.Count, c.Count)
		out.Nodes += c.Nodes
		if c.Method == "dp" {
			out.Tasks = max(out.Tasks, c.Tasks) // the squares, in every shard alike
		} else {
			out.Tasks += c.Tasks
		}
		out.Workers += c.Workers
		out.ElapsedMS = max(out.ElapsedMS, c.ElapsedMS)
		out.PeakStates, out.PeakBytes, out.Passes = max(out.PeakStates, c.PeakStates), max(out.PeakBytes, c.PeakBytes), max(out.Passes, c.Passes)
		out.Narrowed += c.Narrowed
		for i, n := range c.ByLength {
			out.ByLength[i].Add(out.ByLength[i], n)
		}
	}
	if len(out.ByLength) == 0 {
		out.ByLength = nil
	}
	return &out, nil
}

// checkParts reports an error unless counts are the shards of one count,
// each once, each whole (no -limit), and, as far as their numbers can
// tell, each labelled as the shard it is: the tasks of an enumeration's
// shards add up to the tasks its tree was cut into, and the states a
// frontier count's shards followed add up to the states where they
// parted.
func checkParts(counts []*countResult) error {
	ids := make([]shard.ID, len(counts))
	first := counts[0]
	tasks, followed := 0, 0
	for i, c := range counts {
		label := shard.ID{Index: c.Shard, Count: c.Shards}
		ids[i] = label
		switch {
		case c.Count == nil:
			return fmt.Errorf("shard %v has no count", label)
		case c.Count.Sign() < 0:
			return fmt.Errorf("shard %v has a negative count, %v", label, c.Count)
		case c.Shards > knightstour.MaxShards:
			return fmt.Errorf("shard %v: no count splits into more than %d shards", label, knightstour.MaxShards)
		case c.Limit != 0:
			return fmt.Errorf("shard %v was limited (-limit): it is not a whole count", label)
		case c.Workers < 1 || !(c.ElapsedMS >= 0) || c.Tasks < 0:
			return fmt.Errorf("shard %v: %d workers, %d tasks, %v ms: not a result a count printed", label, c.Workers, c.Tasks, c.ElapsedMS)
		case c.Method == "enum" && c.Count.Cmp(new(big.Int).Lsh(new(big.Int).SetUint64(c.Nodes), 1)) > 0:
			// Every tour ends a path of the search tree at a node of its
			// own; a closed tour read backwards is counted with it, so a
			// count is at most twice the nodes.
			return fmt.Errorf("shard %v: %v tours from %d nodes of the search", label, c.Count, c.Nodes)
		case c.Shards > 1 && c.Free && c.Method != "dp":
			// A census by enumeration is never split; a file that says
			// otherwise holds a whole count under a shard's label.
			return fmt.Errorf("shard %v: a count of tours with free ends by enumeration is never split into shards", label)
		case c.Method == "enum" && !c.Free && (c.AllTasks < 1 || c.AllTasks != first.AllTasks || c.Tasks < 0 || c.Tasks > c.AllTasks):
			return fmt.Errorf("shard %v: %d tasks of a tree cut into %d, where shard %d/%d says %d", label, c.Tasks, c.AllTasks, first.Shard, first.Shards, first.AllTasks)
		case c.Method == "dp" && c.Shards == 1 && c.PartedAt != 0:
			return fmt.Errorf("shard %v parted its states after square %d: it is a part of a split count, not a whole one", label, c.PartedAt)
		case c.Method == "dp" && c.Shards > 1 && (c.PartedAt < 1 || c.PartedAt > len(c.States) || c.PartedAt != first.PartedAt || c.Followed < 0):
			return fmt.Errorf("shard %v parted after square %d, shard %d/%d after square %d", label, c.PartedAt, first.Shard, first.Shards, first.PartedAt)
		case c.Method == "dp" && c.Shards > 1 && c.States[c.PartedAt-1] != first.States[c.PartedAt-1]:
			return fmt.Errorf("shard %v had %d states where the shards parted, shard %d/%d %d", label, c.States[c.PartedAt-1], first.Shard, first.Shards, first.States[c.PartedAt-1])
		}
		if err := checkByLength(c, first); err != nil {
			return fmt.Errorf("shard %v: %w", label, err)
		}
		tasks += c.Tasks
		followed += c.Followed
	}
	if err := shard.Complete(ids); err != nil {
		return err
	}
	switch {
	case first.Method == "enum" && !first.Free && tasks != first.AllTasks:
		return fmt.Errorf("the shards walked %d tasks of a tree cut into %d: a shard is not the part its label says", tasks, first.AllTasks)
	case first.Method == "dp" && first.Shards > 1 && followed != first.States[first.PartedAt-1]:
		return fmt.Errorf("the shards followed %d of the %d states where they parted: a shard is not the part its label says", followed, first.States[first.PartedAt-1])
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
