package knightstour

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Census holds the number of tours from every square of a board: directed
// open tours, or with WithClosed directed closed tours.
type Census struct {
	Rows, Cols int
	Kind       Kind
	// Directed is the number of directed tours from all squares: every
	// tour counted once for each square it can start on and each
	// direction.
	Directed *big.Int
	// Undirected is the number of tours as paths or cycles without a
	// direction or a start: an open tour is found from both its ends, so
	// Directed/2; a closed tour from all n squares in both directions, so
	// Directed/(2n).
	Undirected *big.Int
	// Work says how the searches went: their nodes, workers and time.
	Work   Work
	counts []*big.Int // per square, row by row
}

// RunCensus counts the tours from every square of an R x C board. It
// searches from one square of each class of squares that the board's
// symmetries map onto each other (6 classes instead of 36 squares on 6x6)
// and copies the count to the others. It takes the options of NewSolver
// (its workers count each class in parallel) but WithStart, WithLimit and
// WithShard, which would leave squares or tours out of a total that looks
// whole: those are not CensusOptions, and do not compile here.
func RunCensus(ctx context.Context, rows, cols int, opts ...CensusOption) (*Census, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	probe, err := NewSolver(rows, cols, pick[SolverOption](opts)...)
	if err != nil {
		return nil, err
	}
	begin := time.Now()
	c := &Census{Rows: rows, Cols: cols, Kind: kindOf(probe.cfg.closed), counts: make([]*big.Int, rows*cols)}
	for _, class := range orbits(rows, cols) {
		s, err := NewSolver(rows, cols, append(pick[SolverOption](opts), WithStart(class[0]))...)
		if err != nil {
			return nil, err
		}
		st, err := s.Count(ctx)
		c.Work.Nodes += st.Work.Nodes
		if err != nil {
			return nil, err
		}
		for _, sq := range class {
			c.counts[sq.Row*cols+sq.Col] = st.Tours
		}
	}
	c.Directed = new(big.Int)
	for _, n := range c.counts {
		c.Directed.Add(c.Directed, n)
	}
	ends := int64(2) // an open tour is found from both its ends
	if c.Kind == Closed {
		ends = int64(2 * rows * cols) // a cycle from every square, both ways
	}
	c.Undirected = new(big.Int).Quo(c.Directed, big.NewInt(ends))
	c.Work.Elapsed = time.Since(begin)
	return c, nil
}

// At returns the number of directed tours that start on square sq, 0 for a
// square off the board.
func (c *Census) At(sq Coordinate) *big.Int {
	if !sq.contains(c.Rows, c.Cols) || len(c.counts) != c.Rows*c.Cols {
		return new(big.Int)
	}
	return new(big.Int).Set(c.counts[sq.Row*c.Cols+sq.Col])
}

// String prints the count from every square as a grid, like the seeds'
// 5x5 table (304 56 64 ...), and the totals.
func (c *Census) String() string {
	width := 1
	for _, n := range c.counts {
		width = max(width, len(n.String()))
	}
	var sb strings.Builder
	for r := range c.Rows {
		for k := range c.Cols {
			if k > 0 {
				sb.WriteByte(' ')
			}
			s := c.At(Coordinate{r, k}).String()
			sb.WriteString(strings.Repeat(" ", width-len(s)) + s)
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "%dx%d %s tours: %v directed, %v undirected\n", c.Rows, c.Cols, c.Kind, c.Directed, c.Undirected)
	return sb.String()
}
