package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"time"

	"github.com/euler1758/knightstour"
)

// censusResult is the JSON that 'census -json' prints.
type censusResult struct {
	Rows       int          `json:"rows"`
	Cols       int          `json:"cols"`
	Closed     bool         `json:"closed"`
	PerSquare  [][]*big.Int `json:"per_square"`
	Directed   *big.Int     `json:"directed"`
	Undirected *big.Int     `json:"undirected"`
	Unique     *big.Int     `json:"unique,omitempty"`
	Nodes      uint64       `json:"nodes"`
	ElapsedMS  float64      `json:"elapsed_ms"`
}

// runCensus counts the tours from every square, and with -unique also the
// tours up to symmetry.
func runCensus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newCommon("census", stderr, "start")
	asJSON := c.fs.Bool("json", false, "print one JSON object")
	unique := c.fs.Bool("unique", false, "also count the tours up to symmetry (small boards: it enumerates them)")
	rows, cols, ch, err := c.parse(args, "")
	if err != nil {
		return err
	}
	opts, err := optionsFor[knightstour.CensusOption](ch, "census")
	if err != nil {
		return usageError{err, c.hint()}
	}
	progress := newProgressLine(stderr)
	if !c.quiet {
		opts = append(opts, knightstour.WithProgress(250*time.Millisecond, progress.show))
	}
	census, err := knightstour.RunCensus(ctx, rows, cols, opts...)
	progress.done()
	if err != nil {
		return usageErrorIf(err, c)
	}
	res := censusResult{
		Rows: rows, Cols: cols, Closed: census.Kind == knightstour.Closed, Directed: census.Directed, Undirected: census.Undirected,
		Nodes: census.Work.Nodes, ElapsedMS: float64(census.Work.Elapsed) / float64(time.Millisecond),
	}
	for r := range rows {
		row := make([]*big.Int, cols)
		for k := range row {
			row[k] = census.At(knightstour.Coordinate{Row: r, Col: k})
		}
		res.PerSquare = append(res.PerSquare, row)
	}
	if *unique {
		n, err := knightstour.Unique(ctx, rows, cols, opts...)
		progress.done()
		if err != nil {
			return err
		}
		res.Unique = n
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprint(stdout, census)
	if res.Unique != nil {
		fmt.Fprintf(stdout, "%s up to symmetry\n", grouped(res.Unique))
	}
	fmt.Fprintf(stdout, "%s, %s ms\n", count(census.Work.Nodes, "node", "nodes"), millis(census.Work.Elapsed))
	return nil
}
