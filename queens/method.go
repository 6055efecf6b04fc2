package queens

import "fmt"

// Method is a way of counting. Both methods give the same totals and
// classes; they differ in speed and in how the work is cut into tasks, so
// the shards of one count must all use the same method.
type Method uint8

const (
	// Auto, the default, is Constellations from n = autoFrom on, where it
	// is the faster, and Classic below, where its setting up would cost
	// more than it saves. A Result names the method used, never Auto.
	Auto Method = iota
	// Constellations places the queens of the four borders first, one
	// arrangement per class of symmetry weighed by the size of its class,
	// and then fills the frame between them, always at the row or column
	// with the fewest open squares.
	Constellations
	// Classic fills the board row by row from the top, with the symmetry
	// used through bounds on the queens of the first rows and a check of
	// the rotations of each solution found.
	Classic
)

// methods lists the methods by their names.
var methods = [...]string{Auto: "auto", Constellations: "constellations", Classic: "classic"}

// autoFrom is the smallest n that Auto counts by constellations. Below it
// the constellation method's setting up (listing the constellations,
// cutting the work units) outweighs its gain: on one worker, n = 14 took
// 0.03 s either way and n = 15 0.16 s against 0.22 s (2026-11-26).
const autoFrom = 15

// Resolve returns the method m stands for on an n x n board: m itself, or
// the one Auto picks.
func (m Method) Resolve(n int) Method {
	if m != Auto {
		return m
	}
	if n >= autoFrom {
		return Constellations
	}
	return Classic
}

// String returns the method's name: "auto", "constellations" or "classic".
func (m Method) String() string {
	if int(m) < len(methods) {
		return methods[m]
	}
	return fmt.Sprintf("Method(%d)", uint8(m))
}

// ParseMethod returns the method named s, as String gives it.
func ParseMethod(s string) (Method, error) {
	for m, name := range methods {
		if s == name {
			return Method(m), nil
		}
	}
	return 0, fmt.Errorf("%w: method %q (want auto, constellations or classic)", ErrBadOption, s)
}
