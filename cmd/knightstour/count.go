package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// countResult is the JSON that 'count -json' prints: one object, so that
// results from many runs (or machines) can be collected line by line.
type countResult struct {
	Rows      int     `json:"rows"`
	Cols      int     `json:"cols"`
	Start     string  `json:"start"`
	Algebraic string  `json:"start_algebraic,omitempty"`
	Order     string  `json:"order"`
	Count     uint64  `json:"count"`
	Nodes     uint64  `json:"nodes"`
	Tasks     int     `json:"tasks"`
	Workers   int     `json:"workers"`
	Limit     int     `json:"limit,omitempty"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

func runCount(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("count", "knightstour count [flags] RxC", stderr).withLimit()
	asJSON := c.fs.Bool("json", false, "print one JSON object")
	s, progress, err := c.setup(args, "", stderr)
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
		Rows: rows, Cols: cols, Start: s.Start().String(), Order: fmt.Sprint(s.Order()),
		Count: st.Tours, Nodes: st.Nodes, Tasks: st.Tasks, Workers: st.Workers, Limit: *c.limit,
		ElapsedMS: float64(st.Elapsed) / float64(time.Millisecond),
	}
	res.Algebraic, _ = s.Start().Algebraic(rows, cols)
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	kind := ""
	if s.Closed() {
		kind = "closed "
	}
	fmt.Fprintf(stdout, "%d %stours of %dx%d from %s\n", st.Tours, kind, rows, cols, describe(s.Start(), rows, cols))
	if s.Closed() && rows*cols%2 == 1 {
		fmt.Fprintln(stdout, "(a closed tour needs an even number of squares: every jump changes colour)")
		return nil
	}
	fmt.Fprintf(stdout, "%d nodes, %s ms, %d workers\n", st.Nodes, millis(st.Elapsed), st.Workers)
	return nil
}
