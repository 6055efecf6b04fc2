package knightstour

import (
	"context"
	"math/big"
	"slices"
)

// Canonical returns the representative of t's shape: of the tours that the
// board's symmetries and reading t backwards make of it, the one whose
// squares, numbered row by row, come first in lexicographic order. Two
// tours have the same shape exactly when their canonical forms are equal.
// kind says what t is taken as. A closed tour taken as Closed is the same
// cycle from any of its squares, so Canonical also chooses the starting
// square; taken as Open, it is the path it is, and only the symmetries and
// reversal apply, as they do to an open tour whatever kind is asked:
// Canonical(t, t.Kind()) takes every tour as what it is.
func Canonical(t Tour, kind Kind) Tour {
	return canonical(t, kind == Closed && t.closed())
}

// sameShape reports whether a and b are the same tour up to the board's
// symmetries and reversal, and, when both are closed, the choice of
// starting square.
func sameShape(a, b Tour) bool {
	if a.rows != b.rows || a.cols != b.cols || a.Len() != b.Len() {
		return false
	}
	ca, cb := Canonical(a, Closed), Canonical(b, Closed)
	return slices.Equal(ca.squares, cb.squares) && slices.Equal(ca.wide, cb.wide)
}

func canonical(t Tour, cycle bool) Tour {
	if t.Len() == 0 {
		return t
	}
	if t.wide != nil {
		return Tour{rows: t.rows, cols: t.cols, wide: canonicalOf[uint32](t, cycle)}
	}
	return Tour{rows: t.rows, cols: t.cols, squares: canonicalOf[uint16](t, cycle)}
}

// canonicalOf is canonical in the tour's own width of square.
func canonicalOf[S uint16 | uint32](t Tour, cycle bool) []S {
	n := t.Len()
	best := make([]S, n)
	cand := make([]S, n)
	mapped := make([]S, n)
	first := true
	for _, s := range symmetries(t.rows, t.cols) {
		for i := range n {
			c := s.apply(t.At(i), t.rows, t.cols)
			mapped[i] = S(c.Row*t.cols + c.Col)
		}
		// Each reading starts at 0 and goes forwards or backwards: for a
		// cycle from where square 0 lies, since the smallest sequence
		// starts with the smallest square.
		at := 0
		if cycle {
			at = slices.Index(mapped, 0)
		}
		for _, dir := range []int{1, -1} {
			start := at
			if !cycle && dir < 0 {
				start = n - 1
			}
			for i := range cand {
				cand[i] = mapped[((start+dir*i)%n+n)%n]
			}
			if first || slices.Compare(cand, best) < 0 {
				copy(best, cand)
				first = false
			}
		}
	}
	return best
}

// Unique counts the tours of an R x C board up to the board's symmetries
// and reversal (and, for closed tours, the starting square): every open
// tour from every square, or every closed tour, counted once per shape. It
// enumerates the tours from one square of each class of squares that the
// symmetries map onto each other, so it is for small boards: 5x5 takes
// milliseconds, 6x6 open a few seconds. It takes the options of
// RunCensus.
func Unique(ctx context.Context, rows, cols int, opts ...CensusOption) (*big.Int, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	probe, err := NewSolver(rows, cols, pick[SolverOption](opts)...)
	if err != nil {
		return nil, err
	}
	classes := orbits(rows, cols)
	if probe.cfg.closed {
		classes = classes[:1] // every closed tour passes through every square
	}
	seen := make(map[string]struct{})
	for _, class := range classes {
		s, err := NewSolver(rows, cols, append(pick[SolverOption](opts), WithStart(class[0]))...)
		if err != nil {
			return nil, err
		}
		for t, err := range s.All(ctx) {
			if err != nil {
				return nil, err
			}
			key := canonical(t, probe.cfg.closed).squares
			seen[string(u16bytes(key))] = struct{}{}
		}
	}
	return big.NewInt(int64(len(seen))), nil
}

func u16bytes(sq []uint16) []byte {
	b := make([]byte, 2*len(sq))
	for i, s := range sq {
		b[2*i], b[2*i+1] = byte(s>>8), byte(s)
	}
	return b
}
