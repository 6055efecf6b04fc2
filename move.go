package knightstour

import (
	"fmt"
	"strconv"
)

// Move is one knight jump: DRow rows down and DCol columns to the right.
// The eight knight jumps are the moves with {|DRow|, |DCol|} = {1, 2}.
type Move struct {
	DRow, DCol int
}

// String formats m as "(2,1)", the way the seeds list their jump tables.
func (m Move) String() string {
	return "(" + strconv.Itoa(m.DRow) + "," + strconv.Itoa(m.DCol) + ")"
}

func (m Move) isKnight() bool {
	a, b := abs(m.DRow), abs(m.DCol)
	return a == 1 && b == 2 || a == 2 && b == 1
}

// SeedOrder returns the default move order, the order in which the search
// tries the jumps from each square: (2,1) (1,2) (-2,1) (-1,2) (2,-1) (1,-2)
// (-2,-1) (-1,-2), as the C++ program this package started from does (its
// nextKnightMoves). It fixes the order in which tours are listed (so that
// listings match that program's, line for line) and which tour First finds;
// it changes no count. Tour files write each jump as its index in it.
func SeedOrder() []Move {
	return []Move{{2, 1}, {1, 2}, {-2, 1}, {-1, 2}, {2, -1}, {1, -2}, {-2, -1}, {-1, -2}}
}

// WirthOrder returns the jump table of the Pascal program of seed 002 (after
// Wirth): (2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1), the eight
// jumps in turn around the compass.
func WirthOrder() []Move {
	return []Move{{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}}
}

// validateOrder checks that order lists each of the eight knight jumps
// exactly once. A shorter or repeated list would search a different problem,
// so it is rejected with ErrBadOption.
func validateOrder(order []Move) error {
	if len(order) != 8 {
		return fmt.Errorf("%w: invalid move order: %d jumps given, want all 8 knight jumps once each", ErrBadOption, len(order))
	}
	seen := make(map[Move]bool, 8)
	for _, m := range order {
		if !m.isKnight() {
			return fmt.Errorf("%w: invalid move order: %v is not a knight jump", ErrBadOption, m)
		}
		if seen[m] {
			return fmt.Errorf("%w: invalid move order: %v is listed twice", ErrBadOption, m)
		}
		seen[m] = true
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
