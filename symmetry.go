package knightstour

// Symmetry is a rotation or reflection of the board. An R x C board is
// mapped onto itself by Identity, Rotate180, MirrorLeftRight and
// MirrorUpDown; a square board also by Rotate90, Rotate270, Transpose and
// AntiTranspose. A symmetry maps knight's tours to knight's tours.
type Symmetry uint8

// The eight symmetries of a square.
const (
	Identity        Symmetry = iota
	Rotate90                 // a quarter turn clockwise
	Rotate180                // a half turn
	Rotate270                // a quarter turn anticlockwise
	MirrorLeftRight          // columns reversed
	MirrorUpDown             // rows reversed
	Transpose                // rows become columns (main diagonal)
	AntiTranspose            // reflection in the other diagonal
)

var symmetryNames = [...]string{"identity", "rotate 90", "rotate 180", "rotate 270", "mirror left-right", "mirror up-down", "transpose", "anti-transpose"}

// String names the symmetry, for example "rotate 90".
func (s Symmetry) String() string {
	if int(s) < len(symmetryNames) {
		return symmetryNames[s]
	}
	return "invalid symmetry"
}

// Symmetries returns the symmetries that map an R x C board onto itself:
// all eight for a square board, otherwise the four that keep its shape.
func Symmetries(rows, cols int) []Symmetry {
	if rows == cols {
		return []Symmetry{Identity, Rotate90, Rotate180, Rotate270, MirrorLeftRight, MirrorUpDown, Transpose, AntiTranspose}
	}
	return []Symmetry{Identity, Rotate180, MirrorLeftRight, MirrorUpDown}
}

// Apply returns the image of square c of an R x C board. For the four
// symmetries that turn the board a quarter or reflect it in a diagonal the
// image lies on a C x R board.
func (s Symmetry) Apply(c Coordinate, rows, cols int) Coordinate {
	r, k := c.Row, c.Col
	switch s {
	case Rotate90:
		return Coordinate{k, rows - 1 - r}
	case Rotate180:
		return Coordinate{rows - 1 - r, cols - 1 - k}
	case Rotate270:
		return Coordinate{cols - 1 - k, r}
	case MirrorLeftRight:
		return Coordinate{r, cols - 1 - k}
	case MirrorUpDown:
		return Coordinate{rows - 1 - r, k}
	case Transpose:
		return Coordinate{k, r}
	case AntiTranspose:
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
		for _, s := range Symmetries(rows, cols) {
			d := s.Apply(c, rows, cols)
			if j := d.Row*cols + d.Col; !seen[j] {
				seen[j] = true
				orbit = append(orbit, d)
			}
		}
		out = append(out, orbit)
	}
	return out
}
