package knightstour

import (
	"fmt"
	"strings"
)

// Tour is a knight's tour: every square of an R x C board visited once, in
// order. It stores each square in two bytes on boards of up to 65,536
// squares, so the values of a Tours collection share one compact array,
// and in four bytes on the larger boards that Construct builds. The zero
// Tour has no squares.
//
// A Tour handed out while streaming (Solver.All) may share memory with the
// search and is valid only until the next one arrives: Clone it to keep it.
type Tour struct {
	rows, cols int
	squares    []uint16 // row*cols+col of each square, in visiting order
	wide       []uint32 // the same, on boards of more than maxSquares squares
}

// NewTour checks that path is a knight's tour of an R x C board and returns
// it as a Tour: it has R*C squares, each on the board and visited once, and
// each step is a knight's jump. A board of a bad size gives ErrBadSize; a
// path that is not a tour gives a *TourError.
func NewTour(rows, cols int, path []Coordinate) (Tour, error) {
	if _, err := validate(rows, cols, path); err != nil {
		return Tour{}, err
	}
	sq := make([]uint16, len(path))
	for i, c := range path {
		sq[i] = uint16(c.Row*cols + c.Col)
	}
	return Tour{rows: rows, cols: cols, squares: sq}, nil
}

// Rows returns the number of rows of the tour's board.
func (t Tour) Rows() int { return t.rows }

// Cols returns the number of columns of the tour's board.
func (t Tour) Cols() int { return t.cols }

// Len returns the number of squares in the tour.
func (t Tour) Len() int { return len(t.squares) + len(t.wide) }

// At returns the i-th square of the tour, counting from 0, or {-1,-1},
// a square on no board, if i is out of range (as for every i of the zero
// Tour).
func (t Tour) At(i int) Coordinate {
	if i < 0 || i >= t.Len() {
		return Coordinate{-1, -1}
	}
	s := t.index(i)
	return Coordinate{s / t.cols, s % t.cols}
}

// index returns the i-th square as row*cols+col.
func (t Tour) index(i int) int {
	if t.wide != nil {
		return int(t.wide[i])
	}
	return int(t.squares[i])
}

// coordinates returns the squares of the tour in order, in a new slice.
func (t Tour) coordinates() []Coordinate {
	out := make([]Coordinate, t.Len())
	for i := range out {
		out[i] = t.At(i)
	}
	return out
}

// closed reports whether the last square is a knight's jump from the first,
// so that the tour can be walked as a cycle. A one-square tour is not closed.
func (t Tour) closed() bool {
	if t.Len() < 2 {
		return false
	}
	a, b := t.At(0), t.At(t.Len()-1)
	return Move{b.Row - a.Row, b.Col - a.Col}.isKnight()
}

// Clone returns a copy of t that shares no memory with it.
func (t Tour) Clone() Tour {
	if t.wide != nil {
		t.wide = append([]uint32(nil), t.wide...)
		return t
	}
	t.squares = append([]uint16(nil), t.squares...)
	return t
}

// Board returns the tour as a grid of move numbers, 1 for the first square.
func (t Tour) Board() *Board {
	b := &Board{rows: t.rows, cols: t.cols, cells: make([]int, t.rows*t.cols)}
	for i := range t.Len() {
		b.cells[t.index(i)] = i + 1
	}
	return b
}

// String formats the tour as the seed lists its solutions:
// "{2,0} {1,2} {0,0} ...".
func (t Tour) String() string {
	var sb strings.Builder
	sb.Grow(t.Len() * 7)
	for i := range t.Len() {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(t.At(i).String())
	}
	return sb.String()
}

// TourError says why a sequence of squares is not a knight's tour. It
// is found with errors.As.
type TourError struct {
	Index  int    // position in the sequence where the check failed, or -1
	Reason string // what is wrong there
}

// Error says where the sequence stops being a tour and why.
func (e *TourError) Error() string {
	if e.Index < 0 {
		return "knightstour: not a knight's tour: " + e.Reason
	}
	return fmt.Sprintf("knightstour: not a knight's tour: move %d: %s", e.Index+1, e.Reason)
}

// validate checks that path is a knight's tour of an R x C board: it has
// R*C squares, each on the board and visited once, and each step is a
// knight's jump. It also reports whether the tour is closed (its last square
// is a jump from its first). A board of a bad size gives ErrBadSize; a path
// that is not a tour gives a *TourError.
func validate(rows, cols int, path []Coordinate) (closed bool, err error) {
	if err := checkSize(rows, cols); err != nil {
		return false, err
	}
	if len(path) != rows*cols {
		return false, &TourError{-1, fmt.Sprintf("%d squares, a %dx%d board has %d", len(path), rows, cols, rows*cols)}
	}
	seen := make([]bool, rows*cols)
	for i, c := range path {
		if !c.contains(rows, cols) {
			return false, &TourError{i, fmt.Sprintf("%v is off the board", c)}
		}
		if seen[c.Row*cols+c.Col] {
			return false, &TourError{i, fmt.Sprintf("%v is visited twice", c)}
		}
		seen[c.Row*cols+c.Col] = true
		if i > 0 {
			p := path[i-1]
			if !(Move{c.Row - p.Row, c.Col - p.Col}).isKnight() {
				return false, &TourError{i, fmt.Sprintf("%v to %v is not a knight's jump", p, c)}
			}
		}
	}
	t := Tour{rows: rows, cols: cols, squares: make([]uint16, len(path))}
	for i, c := range path {
		t.squares[i] = uint16(c.Row*cols + c.Col)
	}
	return t.closed(), nil
}

// check verifies that t visits every square of its board once by knight's
// jumps, with about one bit of memory a square, so it can check the tours
// of boards too large for a list of coordinates. seen, a bit a square, is
// scratch: a reader of many tours gives every tour the same. A tour that
// is not one gives a *TourError.
func (t Tour) check(seen []uint64) error {
	n := t.rows * t.cols
	if t.Len() != n || n == 0 {
		return &TourError{-1, fmt.Sprintf("%d squares, a %dx%d board has %d", t.Len(), t.rows, t.cols, n)}
	}
	clear(seen)
	prev := -1
	for i := range n {
		s := t.index(i)
		if s < 0 || s >= n {
			return &TourError{i, fmt.Sprintf("square %d is off the board", s)}
		}
		if seen[s/64]&(1<<(s%64)) != 0 {
			return &TourError{i, fmt.Sprintf("%v is visited twice", t.At(i))}
		}
		seen[s/64] |= 1 << (s % 64)
		if prev >= 0 {
			dr, dc := s/t.cols-prev/t.cols, s%t.cols-prev%t.cols
			if !(Move{dr, dc}).isKnight() {
				return &TourError{i, fmt.Sprintf("%v to %v is not a knight's jump", t.At(i-1), t.At(i))}
			}
		}
		prev = s
	}
	return nil
}

// Kind says whether a tour, or every tour of a file, is open or closed.
type Kind int

const (
	// Open tours end anywhere.
	Open Kind = iota
	// Closed tours end a knight's jump from where they start: cycles.
	Closed
)

// kindOf returns Closed if closed is true, else Open.
func kindOf(closed bool) Kind {
	if closed {
		return Closed
	}
	return Open
}

// String names the kind: "open" or "closed".
func (k Kind) String() string {
	switch k {
	case Open:
		return "open"
	case Closed:
		return "closed"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Kind returns Closed for a closed tour, Open for an open one.
func (t Tour) Kind() Kind { return kindOf(t.closed()) }
