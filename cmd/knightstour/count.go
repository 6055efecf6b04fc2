package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/euler1758/knightstour"
)

// countResult is the JSON that 'count -json' prints: one object, so that
// results from many runs (or machines) can be collected line by line.
type countResult struct {
	Kind      string  `json:"kind"` // "tours"
	Rows      int     `json:"rows"`
	Cols      int     `json:"cols"`
	Start     string  `json:"start"`
	Algebraic string  `json:"start_algebraic,omitempty"`
	Order     string  `json:"order"`
	Closed    bool    `json:"closed"`
	Count     uint64  `json:"count"`
	Nodes     uint64  `json:"nodes"`
	Tasks     int     `json:"tasks"`
	Workers   int     `json:"workers"`
	Limit     int     `json:"limit,omitempty"`
	Shard     int     `json:"shard"`
	Shards    int     `json:"shards"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

func runCount(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("count", "knightstour count [flags] RxC", stderr).withLimit()
	asJSON := c.fs.Bool("json", false, "print one JSON object")
	var shard shardFlag
	c.fs.Var(&shard, "shard", "count only shard i of n, for example 0/4; add the -json results with 'knightstour merge'")
	s, progress, err := c.setup(args, "", stderr, func() ([]knightstour.Option, error) {
		if !shard.set() {
			return nil, nil
		}
		if *c.limit > 0 {
			return nil, fmt.Errorf("-limit and -shard do not go together: a shard's first tours are not the search's")
		}
		return []knightstour.Option{knightstour.WithShard(shard.i, shard.n)}, nil
	})
	if err != nil {
		return err
	}
	rows, cols := s.Rows(), s.Cols()
	st, err := s.Count(ctx)
	progress.done()
	if err != nil {
		return err
	}
	res := countResult{
		Kind: "tours", Rows: rows, Cols: cols, Start: s.Start().String(), Order: fmt.Sprint(s.Order()), Closed: s.Closed(),
		Count: st.Tours, Nodes: st.Nodes, Tasks: st.Tasks, Workers: st.Workers, Limit: *c.limit,
		Shard: shard.i, Shards: max(1, shard.n), ElapsedMS: float64(st.Elapsed) / float64(time.Millisecond),
	}
	res.Algebraic, _ = s.Start().Algebraic(rows, cols)
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	kind := ""
	if s.Closed() {
		kind = "closed "
	}
	part := ""
	if shard.set() {
		part = fmt.Sprintf(" (shard %d of %d)", shard.i, shard.n)
	}
	fmt.Fprintf(stdout, "%d %stours of %dx%d from %s%s\n", st.Tours, kind, rows, cols, describe(s.Start(), rows, cols), part)
	if s.Closed() && rows*cols%2 == 1 {
		fmt.Fprintln(stdout, "(a closed tour needs an even number of squares: every jump changes colour)")
		return nil
	}
	fmt.Fprintf(stdout, "%d nodes, %s ms, %d workers\n", st.Nodes, millis(st.Elapsed), st.Workers)
	return nil
}
