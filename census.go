package knightstour

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Census holds the number of tours from every square of a board: directed
// open tours, or with WithClosed directed closed tours.
type Census struct {
	Rows, Cols int
	Closed     bool
	counts     []uint64 // per square, row by row
	Nodes      uint64
	Elapsed    time.Duration
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
	c := &Census{Rows: rows, Cols: cols, Closed: probe.cfg.closed, counts: make([]uint64, rows*cols)}
	for _, class := range orbits(rows, cols) {
		s, err := NewSolver(rows, cols, append(pick[SolverOption](opts), WithStart(class[0]))...)
		if err != nil {
			return nil, err
		}
		st, err := s.Count(ctx)
		c.Nodes += st.Nodes
		if err != nil {
			return nil, err
		}
		for _, sq := range class {
			c.counts[sq.Row*cols+sq.Col] = st.Tours
		}
	}
	c.Elapsed = time.Since(begin)
	return c, nil
}

// At returns the number of directed tours that start on square c.
func (c *Census) At(sq Coordinate) uint64 {
	if !sq.Contains(c.Rows, c.Cols) {
		return 0
	}
	return c.counts[sq.Row*c.Cols+sq.Col]
}

// Directed returns the number of directed tours from all squares: every
// tour counted once for each square it can start on and each direction.
func (c *Census) Directed() uint64 {
	var total uint64
	for _, n := range c.counts {
		total += n
	}
	return total
}

// Undirected returns the number of tours as paths or cycles without a
// direction or a start: an open tour is found from both its ends, so
// Directed/2; a closed tour from all n squares in both directions, so
// Directed/(2n).
func (c *Census) Undirected() uint64 {
	if c.Closed {
		return c.Directed() / uint64(2*c.Rows*c.Cols)
	}
	return c.Directed() / 2
}

// String prints the count from every square as a grid, like the seeds'
// 5x5 table (304 56 64 ...), and the totals.
func (c *Census) String() string {
	width := 1
	for _, n := range c.counts {
		width = max(width, len(strconv.FormatUint(n, 10)))
	}
	var sb strings.Builder
	for r := range c.Rows {
		for k := range c.Cols {
			if k > 0 {
				sb.WriteByte(' ')
			}
			s := strconv.FormatUint(c.counts[r*c.Cols+k], 10)
			sb.WriteString(strings.Repeat(" ", width-len(s)) + s)
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "%dx%d %s tours: %d directed, %d undirected\n", c.Rows, c.Cols, kindOf(c.Closed), c.Directed(), c.Undirected())
	return sb.String()
}
