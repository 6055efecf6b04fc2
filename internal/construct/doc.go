// Package construct builds one knight's tour on a board of any size, in
// time and memory linear in its squares, with no budget to run out of. A board at
// least 5 squares on each side is cut into blocks 5 to 11 squares a side,
// each with a closed tour through four "ports" near its corners (from a
// table found once by search); neighbouring blocks' tours are joined by
// swapping a port jump of each for two jumps between them, along every
// band of blocks and down one column, which makes one cycle, or one path
// from the start on a board with an odd number of squares. Strips 3 or 4
// squares wide, where blocks do not fit, get an exact frontier search over
// the strip's columns that keeps one way to reach each state and then
// walks back. The package speaks in squares numbered row*cols+col; the
// root package's Construct checks the board and start and wraps the squares
// in a Tour.
package construct

import (
	"context"
	"errors"
	"fmt"
)

// Square is a square of the board: row and column from the top left.
type Square struct{ Row, Col int }

// String writes the square as {row,col}.
func (s Square) String() string { return fmt.Sprintf("{%d,%d}", s.Row, s.Col) }

// ErrNoTour reports that no tour of the kind asked for starts on the
// square; ErrGaveUp that the block plan found no cut of an odd board with
// a path from the start (the root package checks the theorems first, so it
// does not happen on a board that has such a tour).
var (
	ErrNoTour = errors.New("construct: no tour from this square")
	ErrGaveUp = errors.New("construct: no plan of blocks")
)

// Tour returns the squares of a tour of rows x cols from start, in order,
// each as row*cols+col: closed if closed is true. workers goroutines share
// the work of large boards. It returns ctx's error soon after ctx is done.
func Tour(ctx context.Context, rows, cols int, start Square, closed bool, workers int) ([]uint32, error) {
	if rows*cols == 1 {
		return []uint32{0}, nil
	}
	if min(rows, cols) < 5 {
		return constructStrip(ctx, rows, cols, start, closed)
	}
	p, err := planBlocks(ctx, rows, cols, start)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, ErrNoTour
	}
	next, err := p.links(ctx, workers)
	if err != nil {
		return nil, err
	}
	return trace(ctx, rows, cols, next, start)
}
