package knightstour

// Exists reports, without searching, whether an R x C board has a knight's
// tour of the given kind (closed tours are open tours too). It applies, with m <= n the two sides:
//
//   - Schwenk (1991): a closed tour exists unless m and n are both odd,
//     m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8;
//   - for open tours: a tour exists on 1x1, 3x4, 3 x n with n >= 7,
//     4 x n with n >= 5, and every board whose sides are both at least 5.
//
// The tests check both statements against exhaustive search on every board
// up to 6x6.
func Exists(rows, cols int, kind Kind) bool {
	m, n := min(rows, cols), max(rows, cols)
	if m < 1 {
		return false
	}
	if kind == Closed {
		switch {
		case m%2 == 1 && n%2 == 1, m == 1, m == 2, m == 4:
			return false
		case m == 3:
			return n != 4 && n != 6 && n != 8
		}
		return true
	}
	switch m {
	case 1:
		return n == 1
	case 2:
		return false
	case 3:
		return n == 4 || n >= 7
	case 4:
		return n >= 5
	}
	return true
}

// StartPossible reports whether the colour argument allows a tour from
// start: every jump changes the square's colour, so on a board with an odd
// number of squares a tour has one more square of the corners' colour than
// of the other and must start (and end) on it; a closed tour has even
// length and needs an even board. It is a quick necessary condition, not a
// guarantee: on 3 x n and 4 x n boards some squares of the right colour
// start no tour either (4x5: none from its middle rows).
func StartPossible(rows, cols int, start Coordinate, kind Kind) bool {
	if !start.contains(rows, cols) {
		return false
	}
	if rows*cols%2 == 0 {
		return true
	}
	return kind == Open && (start.Row+start.Col)%2 == 0
}
