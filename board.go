package knightstour

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSquares is the largest number of squares a Board, Tour or Solver
// handles: squares are stored in two bytes each.
const MaxSquares = 1 << 16

// Board is an R x C grid of move numbers, as in the seed's
// KnightProblemBoard: 0 marks a square not yet visited, n > 0 the square
// entered by the n-th move (the start square is 1).
type Board struct {
	rows, cols int
	cells      []int
}

// NewBoard returns an empty R x C board. Sizes below 1 and boards of more
// than MaxSquares squares give ErrBadSize.
func NewBoard(rows, cols int) (*Board, error) {
	if err := checkSize(rows, cols); err != nil {
		return nil, err
	}
	return &Board{rows: rows, cols: cols, cells: make([]int, rows*cols)}, nil
}

// Rows returns the number of rows.
func (b *Board) Rows() int { return b.rows }

// Cols returns the number of columns.
func (b *Board) Cols() int { return b.cols }

// At returns the move number on square c, or 0 if c is not visited or lies
// off the board.
func (b *Board) At(c Coordinate) int {
	if !c.Contains(b.rows, b.cols) {
		return 0
	}
	return b.cells[c.Row*b.cols+c.Col]
}

// Set writes move number n on square c; it fails with ErrOffBoard if c is
// not on the board, and with ErrMisuse if n is not 0 (not visited) to
// the number of squares.
func (b *Board) Set(c Coordinate, n int) error {
	if !c.Contains(b.rows, b.cols) {
		return fmt.Errorf("%w: %v on a %dx%d board", ErrOffBoard, c, b.rows, b.cols)
	}
	if n < 0 || n > b.rows*b.cols {
		return fmt.Errorf("%w: move number %d on a %dx%d board", ErrMisuse, n, b.rows, b.cols)
	}
	b.cells[c.Row*b.cols+c.Col] = n
	return nil
}

// Clear marks every square as not visited (the seed's clearBoard).
func (b *Board) Clear() { clear(b.cells) }

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

// checkSize rejects sides below 1 and boards of more than MaxSquares squares.
func checkSize(rows, cols int) error { return checkSizeUpTo(rows, cols, MaxSquares) }

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
