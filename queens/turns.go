package queens

// The constellation method counts every solution without telling the
// classes of symmetry apart. Burnside's lemma gives the number of classes
// from the solutions that each symmetry leaves unchanged: no reflection
// leaves a solution of n >= 2 unchanged (two of its queens would share a
// row, a column or a diagonal), so
//
//	unique = (total + 2*quarter + half) / 8,
//
// where quarter counts the solutions a quarter turn leaves unchanged (a
// three-quarter turn leaves the same ones) and half those a half turn
// does. Classes of 2 are made of quarter-turn solutions, classes of 4 of
// the other half-turn ones, classes of 8 of the rest. A solution that a
// turn leaves unchanged is fixed by a quarter or a half of its queens, so
// both counts are searches over a quarter or half of the rows: a blink
// beside the count itself.

// turns counts the solutions for n that a quarter turn and a half turn of
// the board leave unchanged.
type turns struct {
	n                 int
	cols, sums, diffs uint64 // the columns and diagonals (row+col, col-row+n-1) taken
	rows              uint64 // the rows taken
	quarter, half     uint64
	stop              func() bool
	stopped           bool
}

// countTurns returns the solutions for n that a quarter turn and a half
// turn leave unchanged, or stopped = true if stop reported true first.
func countTurns(n int, stop func() bool) (quarter, half uint64, stopped bool) {
	t := turns{n: n, stop: stop}
	if n%2 == 1 { // the centre is its own image under every turn: it needs a queen
		c := n / 2
		t.put(square{c, c})
	}
	t.halfTurn(0)
	t.quarterTurn(0)
	return t.quarter, t.half, t.stopped
}

// free reports whether a queen on s would be attacked by none placed.
func (t *turns) free(s square) bool {
	return t.rows&(1<<uint(s.row)) == 0 && t.cols&(1<<uint(s.col)) == 0 &&
		t.sums&(1<<uint(s.row+s.col)) == 0 && t.diffs&(1<<uint(s.col-s.row+t.n-1)) == 0
}

// put places a queen on s, or takes it away if it is there.
func (t *turns) put(s square) {
	t.rows ^= 1 << uint(s.row)
	t.cols ^= 1 << uint(s.col)
	t.sums ^= 1 << uint(s.row+s.col)
	t.diffs ^= 1 << uint(s.col-s.row+t.n-1)
}

// placeAll places the queens of orbit (distinct squares) if none attacks
// another or one placed before, and reports whether it did.
func (t *turns) placeAll(orbit []square) bool {
	for i, s := range orbit {
		if !t.free(s) {
			for _, p := range orbit[:i] {
				t.put(p)
			}
			return false
		}
		t.put(s)
	}
	return true
}

// halfTurn counts the half-turn solutions with rows 0..row-1 and their
// images placed: row r's queen on column c brings one on n-1-r, n-1-c.
func (t *turns) halfTurn(row int) {
	n := t.n
	if 2*row >= n-1 { // rows above the middle, and the centre, are placed
		t.half++
		return
	}
	if t.stopCheck(row) {
		return
	}
	for col := range n {
		orbit := [2]square{{row, col}, {n - 1 - row, n - 1 - col}}
		if t.placeAll(orbit[:]) {
			t.halfTurn(row + 1)
			t.put(orbit[0])
			t.put(orbit[1])
		}
	}
}

// quarterTurn counts the quarter-turn solutions with the rows below row
// still to fill: the first empty row's queen on column c brings the three
// others of its orbit.
func (t *turns) quarterTurn(row int) {
	n := t.n
	for row < n && t.rows&(1<<uint(row)) != 0 {
		row++
	}
	if row == n {
		t.quarter++
		return
	}
	if t.stopCheck(row) {
		return
	}
	for col := range n {
		s := square{row, col}
		orbit := [4]square{s, symmetries[1](n, s), symmetries[2](n, s), symmetries[3](n, s)}
		if t.placeAll(orbit[:]) {
			t.quarterTurn(row + 1)
			for _, p := range orbit {
				t.put(p)
			}
		}
	}
}

// stopCheck reads the stop function in the first rows only, where a
// subtree is large enough for the call not to matter, and reports whether
// to stop.
func (t *turns) stopCheck(row int) bool {
	if t.stopped || row < 3 && t.stop() {
		t.stopped = true
	}
	return t.stopped
}
