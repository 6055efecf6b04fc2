package knightstour

// symmetry is a rotation or reflection of the board. An R x C board is
// mapped onto itself by identity, rotate180, mirrorLeftRight and
// mirrorUpDown; a square board also by rotate90, rotate270, transpose and
// antiTranspose. A symmetry maps knight's tours to knight's tours.
type symmetry uint8

// The eight symmetries of a square.
const (
	identity        symmetry = iota
	rotate90                 // a quarter turn clockwise
	rotate180                // a half turn
	rotate270                // a quarter turn anticlockwise
	mirrorLeftRight          // columns reversed
	mirrorUpDown             // rows reversed
	transpose                // rows become columns (main diagonal)
	antiTranspose            // reflection in the other diagonal
)

var symmetryNames = [...]string{"identity", "rotate 90", "rotate 180", "rotate 270", "mirror left-right", "mirror up-down", "transpose", "anti-transpose"}

// String names the symmetry, for example "rotate 90".
func (s symmetry) String() string {
	if int(s) < len(symmetryNames) {
		return symmetryNames[s]
	}
	return "invalid symmetry"
}

// symmetries returns the symmetries that map an R x C board onto itself:
// all eight for a square board, otherwise the four that keep its shape.
func symmetries(rows, cols int) []symmetry {
	if rows == cols {
		return []symmetry{identity, rotate90, rotate180, rotate270, mirrorLeftRight, mirrorUpDown, transpose, antiTranspose}
	}
	return []symmetry{identity, rotate180, mirrorLeftRight, mirrorUpDown}
}

// apply returns the image of square c of an R x C board. For the four
// symmetries that turn the board a quarter or reflect it in a diagonal the
// image lies on a C x R board.
func (s symmetry) apply(c Coordinate, rows, cols int) Coordinate {
	r, k := c.Row, c.Col
	switch s {
	case rotate90:
		return Coordinate{k, rows - 1 - r}
	case rotate180:
		return Coordinate{rows - 1 - r, cols - 1 - k}
	case rotate270:
		return Coordinate{cols - 1 - k, r}
	case mirrorLeftRight:
		return Coordinate{r, cols - 1 - k}
	case mirrorUpDown:
		return Coordinate{rows - 1 - r, k}
	case transpose:
		return Coordinate{k, r}
	case antiTranspose:
		return Coordinate{cols - 1 - k, rows - 1 - r}
	}
	return c
}

// orbits groups the squares of an R x C board into classes of squares that
// the board's symmetries map onto each other; each class is listed with its
// smallest square first.
func orbits(rows, cols int) [][]Coordinate {
	seen := make([]bool, rows*cols)
	var out [][]Coordinate
	for i := range rows * cols {
		if seen[i] {
			continue
		}
		c := Coordinate{i / cols, i % cols}
		var orbit []Coordinate
		for _, s := range symmetries(rows, cols) {
			d := s.apply(c, rows, cols)
			if j := d.Row*cols + d.Col; !seen[j] {
				seen[j] = true
				orbit = append(orbit, d)
			}
		}
		out = append(out, orbit)
	}
	return out
}
