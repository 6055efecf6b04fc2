package knightstour

import (
	"fmt"
	"strconv"
	"strings"
)

// Coordinate is a square of a board, counted from the top-left corner as in
// the seed's C++ program: Row 0 is the top row and Col 0 the left column, so
// the lower-left corner of an R x C board is Coordinate{R-1, 0}.
type Coordinate struct {
	Row, Col int
}

// contains reports whether c lies on a board of the given size.
func (c Coordinate) contains(rows, cols int) bool {
	return c.Row >= 0 && c.Row < rows && c.Col >= 0 && c.Col < cols
}

// String formats c as the seed prints it, for example "{2,0}".
func (c Coordinate) String() string {
	return "{" + strconv.Itoa(c.Row) + "," + strconv.Itoa(c.Col) + "}"
}

// Algebraic formats c in chess notation on a board with the given number of
// rows: files a, b, c, ... from the left, ranks 1, 2, ... from the bottom, so
// the lower-left square is "a1". It fails for boards wider than 26 columns,
// which have no single-letter file, and for squares off the board.
func (c Coordinate) Algebraic(rows, cols int) (string, error) {
	if cols > 26 {
		return "", fmt.Errorf("%w: algebraic notation covers at most 26 columns, board has %d", ErrBadSize, cols)
	}
	if !c.contains(rows, cols) {
		return "", fmt.Errorf("%w: %v on a %dx%d board", ErrOffBoard, c, rows, cols)
	}
	return string(rune('a'+c.Col)) + strconv.Itoa(rows-c.Row), nil
}

// ParseCoordinate reads a square of an R x C board written either in the
// seed's form "{row,col}" (spaces allowed around the numbers) or in algebraic
// notation such as "a1" (the lower-left square). It rejects every other
// spelling, and squares off the board, with ErrOffBoard.
func ParseCoordinate(s string, rows, cols int) (Coordinate, error) {
	c, err := parseCoordinate(strings.TrimSpace(s), rows)
	if err != nil {
		return Coordinate{}, err
	}
	if !c.contains(rows, cols) {
		return Coordinate{}, fmt.Errorf("%w: %q is %v, outside the %dx%d board", ErrOffBoard, s, c, rows, cols)
	}
	return c, nil
}

func parseCoordinate(s string, rows int) (Coordinate, error) {
	bad := func() (Coordinate, error) {
		return Coordinate{}, fmt.Errorf(`%w: %q (want "{row,col}" such as "{2,0}", or algebraic such as "a1")`, ErrOffBoard, s)
	}
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		r, c, ok := strings.Cut(s[1:len(s)-1], ",")
		if !ok {
			return bad()
		}
		row, err1 := strconv.Atoi(strings.TrimSpace(r))
		col, err2 := strconv.Atoi(strings.TrimSpace(c))
		if err1 != nil || err2 != nil {
			return bad()
		}
		return Coordinate{row, col}, nil
	}
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' {
		return bad()
	}
	for _, ch := range s[1:] {
		if ch < '0' || ch > '9' {
			return bad()
		}
	}
	rank, err := strconv.Atoi(s[1:])
	if err != nil || rank < 1 {
		return bad()
	}
	return Coordinate{rows - rank, int(s[0] - 'a')}, nil
}
