package queens

import "slices"

// Every solution has exactly one queen on each border of the board: one in
// the top row, one in the bottom row, one in the left column and one in the
// right column (a queen in a corner is on two borders). Those four queens
// are the solution's constellation. The eight rotations and reflections of
// the board map solutions to solutions and constellations to
// constellations, so the solutions of all the constellations of one orbit
// are equally many: the count searches one constellation per orbit (the
// one with the smallest key) and weighs its solutions by the orbit's size,
// 1, 2, 4 or 8. No solution is compared with its rotations, and the queens
// of the border rows and columns are known before the search starts, which
// prunes the rows between them early.

// constellation is the four border queens: the columns of the queens in
// the top and bottom rows and the rows of the queens in the left and right
// columns.
type constellation struct {
	top, bottom, left, right int
}

// square is a square of the board, by row and column.
type square struct{ row, col int }

// queens returns the constellation's distinct queens: four, or three or
// two when corners hold queens of two borders.
func (k constellation) queens(n int) queenSet {
	var out queenSet
	for _, q := range [4]square{{0, k.top}, {n - 1, k.bottom}, {k.left, 0}, {k.right, n - 1}} {
		if !slices.Contains(out.all(), q) {
			out.squares[out.n] = q
			out.n++
		}
	}
	return out
}

// queenSet is up to four squares, without a slice to allocate.
type queenSet struct {
	squares [4]square
	n       int
}

// all returns the squares of the set.
func (s *queenSet) all() []square { return s.squares[:s.n] }

// valid reports whether k is the border of some placement: a queen in a
// corner counts for both its borders, and no two queens attack each other.
func (k constellation) valid(n int) bool {
	last := n - 1
	if (k.top == 0) != (k.left == 0) || (k.top == last) != (k.right == 0) ||
		(k.bottom == 0) != (k.left == last) || (k.bottom == last) != (k.right == last) {
		return false
	}
	set := k.queens(n)
	qs := set.all()
	for i, p := range qs {
		for _, q := range qs[:i] {
			if attack(p, q) {
				return false
			}
		}
	}
	return true
}

// attack reports whether queens on squares p and q attack each other.
func attack(p, q square) bool {
	dr, dc := p.row-q.row, p.col-q.col
	return dr == 0 || dc == 0 || dr == dc || dr == -dc
}

// symmetry is one of the board's eight rotations and reflections, as a map
// of squares.
type symmetry func(n int, s square) square

// symmetries lists the board's rotations and reflections, the identity
// first.
var symmetries = [8]symmetry{
	func(n int, s square) square { return s },
	func(n int, s square) square { return square{s.col, n - 1 - s.row} },         // a quarter turn
	func(n int, s square) square { return square{n - 1 - s.row, n - 1 - s.col} }, // a half turn
	func(n int, s square) square { return square{n - 1 - s.col, s.row} },         // three quarters
	func(n int, s square) square { return square{s.row, n - 1 - s.col} },         // left to right
	func(n int, s square) square { return square{n - 1 - s.row, s.col} },         // top to bottom
	func(n int, s square) square { return square{s.col, s.row} },                 // about the diagonal
	func(n int, s square) square { return square{n - 1 - s.col, n - 1 - s.row} }, // about the other one
}

// image returns the constellation that f maps k to.
func (k constellation) image(n int, f symmetry) constellation {
	var out constellation
	set := k.queens(n)
	for _, q := range set.all() {
		q = f(n, q)
		switch {
		case q.row == 0:
			out.top = q.col
		case q.row == n-1:
			out.bottom = q.col
		}
		switch {
		case q.col == 0:
			out.left = q.row
		case q.col == n-1:
			out.right = q.row
		}
	}
	return out
}

// key orders constellations: the orbit's member with the smallest key is
// the one searched.
func (k constellation) key(n int) int {
	return ((k.top*n+k.bottom)*n+k.left)*n + k.right
}

// constellations returns one constellation per orbit of the valid ones for
// an n x n board, n >= 4, each with the size of its orbit, in the order of
// their keys. It returns nothing if stop reports true, which it asks once
// per column of the top queen.
func constellations(n int, stop func() bool) (ks []constellation, weights []int) {
	for top := range n {
		if stop() {
			return nil, nil
		}
		for bottom := range n {
			for left := range n {
				for right := range n {
					k := constellation{top, bottom, left, right}
					if !k.valid(n) {
						continue
					}
					if w, ok := k.orbit(n); ok {
						ks = append(ks, k)
						weights = append(weights, w)
					}
				}
			}
		}
	}
	return ks, weights
}

// orbit returns the size of k's orbit, and whether k has the smallest key
// in it; it gives up as soon as an image has a smaller one.
func (k constellation) orbit(n int) (int, bool) {
	own := k.key(n)
	var keys [8]int
	for i, f := range symmetries {
		if keys[i] = k.image(n, f).key(n); keys[i] < own {
			return 0, false
		}
	}
	slices.Sort(keys[:])
	return len(slices.Compact(keys[:])), true
}
