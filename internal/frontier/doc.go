// Package frontier counts knight's tours by dynamic programming over a
// frontier (the transfer-matrix method; Knuth's DYNAHAM). It numbers the
// squares column by column along the longer side and adds them one at a
// time. A partial solution is a set of jumps among the squares added so
// far; all that matters for its future is the state of the squares added
// that still have neighbours to come (the frontier): for each, whether it
// has no jump yet, is done, or ends a piece of path, and which two ends
// belong to one piece. Added row by row (SweepRows), a column's squares
// leave a frontier of up to 2w+1 squares (w is the shorter side), and a
// state describes the window of the last 2w+1 squares added; added odd
// rows first (SweepNarrow, or SweepNarrowDown, which starts from the row
// below the last and goes down), they leave at most 2w, and a state
// describes only those, which on 8 rows halves the states. Open tours become cycles through an
// imaginary square z joined to both ends of the path. A layer maps each
// state to the number of partial solutions in it, and a step turns one
// layer into the next; the count is the number in the whole-tour state
// after the last square. The cost follows the number of states, which
// grows exponentially with the width and linearly with the length, never
// with the number of tours.
//
// Before counting, a cheaper pass over degree demands (how many more jumps
// each window square needs, without the pairing) finds which demands the
// rest of the board can still meet; the count drops every state whose
// demand cannot, before it stores it.
//
// The package speaks in rows, columns and square indices; the root package
// turns its options and coordinates into a Config and its Result into a
// DPCount.
package frontier
