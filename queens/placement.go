package queens

import (
	"errors"
	"fmt"
	"strings"
)

// MaxN is the largest board the package takes. Counts for n near it would
// take years, but the bitmasks and the uint64 totals hold them.
const MaxN = 32

// Errors returned by the package; test with errors.Is.
var (
	// ErrBadN reports an n outside 1..MaxN.
	ErrBadN = errors.New("queens: n out of range")
	// ErrBadOption reports an option with a value it cannot take.
	ErrBadOption = errors.New("queens: invalid option")
	// ErrInvalid reports a placement in which queens attack each other.
	ErrInvalid = errors.New("queens: not a solution")
	// ErrMisuse reports a call the package cannot serve as made: a nil
	// context or a nil option.
	ErrMisuse = errors.New("queens: misuse")
	// ErrMerge reports results that cannot be added up.
	ErrMerge = errors.New("queens: cannot merge")
	// ErrResult reports a Result that no count gives: counts that
	// contradict each other, or a shard or tasks out of range.
	ErrResult = errors.New("queens: not a valid result")
)

func checkN(n int) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("%w: %d (want 1 to %d)", ErrBadN, n, MaxN)
	}
	return nil
}

// Placement is a solution: the column of the queen in each row, counting
// from 0, so that Placement{1, 3, 0, 2} is the first solution for n = 4.
type Placement []int

// String formats p as its columns, "1 3 0 2".
func (p Placement) String() string {
	var sb strings.Builder
	for i, c := range p {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprint(&sb, c)
	}
	return sb.String()
}

// Board draws p with "Q" for a queen and "." for an empty square, one line
// per row.
func (p Placement) Board() string {
	var sb strings.Builder
	for _, c := range p {
		for k := range p {
			if k > 0 {
				sb.WriteByte(' ')
			}
			if k == c {
				sb.WriteByte('Q')
			} else {
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Validate checks that p places len(p) queens, one per row, on columns
// 0..len(p)-1, none attacking another along a column or a diagonal.
func Validate(p Placement) error {
	n := len(p)
	if err := checkN(n); err != nil {
		return err
	}
	for r, c := range p {
		if c < 0 || c >= n {
			return fmt.Errorf("%w: row %d: column %d is off the %dx%d board", ErrInvalid, r, c, n, n)
		}
		for r2 := range r {
			c2 := p[r2]
			if c2 == c || r-r2 == c-c2 || r-r2 == c2-c {
				return fmt.Errorf("%w: the queens in rows %d and %d attack each other", ErrInvalid, r2, r)
			}
		}
	}
	return nil
}
