package knightstour

import (
	"fmt"
	"strconv"
	"strings"
)

// maxSquares is the largest number of squares a Board, Tour or Solver
// handles: squares are stored in two bytes each.
const maxSquares = 1 << 16

// Board is a tour's R x C grid of move numbers (Tour.Board), as in the
// seed's KnightProblemBoard: the square entered by the n-th move holds n,
// so the start square holds 1. The zero Board has no squares.
type Board struct {
	rows, cols int
	cells      []int
}

// At returns the move number on square c, or 0 if c is not visited or lies
// off the board.
func (b *Board) At(c Coordinate) int {
	if !c.contains(b.rows, b.cols) {
		return 0
	}
	return b.cells[c.Row*b.cols+c.Col]
}

// String prints the grid as the seed does: one line per row, move numbers
// right-aligned in columns of width 4 (wider on boards with more than 9999
// squares), separated by a space.
func (b *Board) String() string {
	width := max(4, len(strconv.Itoa(b.rows*b.cols)))
	var sb strings.Builder
	sb.Grow(b.rows * b.cols * (width + 1))
	for r := range b.rows {
		for c := range b.cols {
			if c > 0 {
				sb.WriteByte(' ')
			}
			s := strconv.Itoa(b.cells[r*b.cols+c])
			sb.WriteString(strings.Repeat(" ", width-len(s)))
			sb.WriteString(s)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// checkSize rejects sides below 1 and boards of more than maxSquares squares.
func checkSize(rows, cols int) error { return checkSizeUpTo(rows, cols, maxSquares) }

// checkSizeUpTo rejects sides below 1 and boards of more than limit
// squares, the latter without overflowing rows*cols.
func checkSizeUpTo(rows, cols, limit int) error {
	if rows < 1 || cols < 1 {
		return fmt.Errorf("%w: %dx%d (both sides must be at least 1)", ErrBadSize, rows, cols)
	}
	if rows > limit || cols > limit || rows*cols > limit {
		return fmt.Errorf("%w: %dx%d is too large: more than %d squares", ErrBadSize, rows, cols, limit)
	}
	return nil
}
