package knightstour

import "fmt"

// MaxFrontierWidth is the widest board side CountDP handles: the counter
// walks along the longer side, and its states describe the last two
// columns and a bit of the shorter side, 2w+1 squares. At width 8 those are
// 17 squares, the most that still fit a state into one 64-bit word.
const MaxFrontierWidth = 8

// Slot codes of a frontier square in a counting state. A square's degree
// counts its path edges plus, for open tours, its edges to an imaginary
// square z that is joined to both ends of the path, so that an open tour is
// a cycle through z, and a closed tour a cycle without it.
const (
	slotFree  = 0 // no edge yet: the square needs two more
	slotDone  = 1 // two edges, or no longer on the frontier: it takes no more
	slotToZ   = 2 // one edge; the other end of its piece of path is z
	slotLabel = 3 // one edge; codes from here on pair the two ends of a piece
)

// frontier lays a board out for counting: squares are numbered column by
// column along the longer side, w to a column, so that a square's earlier
// neighbours are the 2w+1 squares just before it. The state of a partial
// count describes that window.
type frontier struct {
	w, l       int  // width (the shorter side) and length
	n          int  // squares
	slots      int  // 2w+1: the window
	transposed bool // the board has more rows than columns
	steps      []step
	packed     bool   // 4 bits a slot fit in 64 bits; otherwise base 11
	pow11      uint64 // 11^slots
}

// step is what adding square v (the square numbered v) does to the window.
// The working array has slots+1 positions: 0..slots-1 for the squares
// v-slots..v-1, and slots for v itself.
type step struct {
	back   [4]int8 // window positions of v's earlier neighbours
	nback  int8    //
	retire uint32  // positions whose last neighbour is v: they leave now
	thin   uint32  // positions with one neighbour later than v: an unused square there needs z
	black  uint32  // positions of squares of colour 1, (row+col) odd
}

func newFrontier(rows, cols int) (*frontier, error) {
	w, l := rows, cols
	if rows > cols {
		w, l = cols, rows
	}
	if w > MaxFrontierWidth {
		return nil, fmt.Errorf("%w: counting by frontier handles boards up to %d squares on the shorter side, not %dx%d",
			ErrTooLarge, MaxFrontierWidth, rows, cols)
	}
	if l > MaxSquares/w {
		return nil, fmt.Errorf("%w: %dx%d has more than %d squares", ErrTooLarge, rows, cols, MaxSquares)
	}
	f := &frontier{w: w, l: l, n: w * l, slots: 2*w + 1, transposed: rows > cols}
	f.packed = 4*f.slots+2 <= 64
	f.pow11 = 1
	for range f.slots {
		f.pow11 *= 11
	}
	nb := func(v int) []int { // neighbours of square v in this numbering
		c, r := v/w, v%w
		var out []int
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			if cc, rr := c+d[0], r+d[1]; cc >= 0 && cc < l && rr >= 0 && rr < w {
				out = append(out, cc*w+rr)
			}
		}
		return out
	}
	last := make([]int, f.n) // the last square to be added among u and its neighbours
	for u := range f.n {
		last[u] = u
		for _, t := range nb(u) {
			last[u] = max(last[u], t)
		}
	}
	f.steps = make([]step, f.n)
	for v := range f.n {
		st := &f.steps[v]
		base := v - f.slots // the square at position 0
		for _, t := range nb(v) {
			if t < v {
				st.back[st.nback] = int8(t - base)
				st.nback++
			}
		}
		for p := 0; p <= f.slots; p++ {
			u := base + p
			if u < 0 {
				continue
			}
			if (u/w+u%w)%2 == 1 {
				st.black |= 1 << p
			}
			later := 0
			for _, t := range nb(u) {
				if t > v {
					later++
				}
			}
			if later == 1 {
				st.thin |= 1 << p
			}
			if last[u] == v {
				st.retire |= 1 << p
			}
		}
	}
	return f, nil
}

// index returns the number of a board square in the frontier's order.
func (f *frontier) index(c Coordinate) int {
	if f.transposed {
		return c.Row*f.w + c.Col
	}
	return c.Col*f.w + c.Row
}

// labeller renames pair labels in order of first appearance, so that
// equal states get equal keys whatever labels their steps made up.
type labeller struct {
	rename [64]uint8
	next   uint8
}

func (l *labeller) code(c uint8) uint8 {
	if c < slotLabel {
		return c
	}
	if l.rename[c] == 0 {
		l.rename[c] = slotLabel + l.next
		l.next++
	}
	return l.rename[c]
}

// encode packs window positions 1..slots of a (the window after adding a
// square) and the z-state into a key, with the labels renamed.
func (f *frontier) encode(a *[18]uint8, z int) (key uint64) {
	var l labeller
	if f.packed {
		for p := 1; p <= f.slots; p++ {
			key |= uint64(l.code(a[p])) << (4 * (p - 1))
		}
		return key | uint64(z)<<(4*f.slots)
	}
	for p := f.slots; p >= 1; p-- { // base 11 packs from the far end, so labels are named from there
		key = key*11 + uint64(l.code(a[p]))
	}
	return key + uint64(z)*f.pow11
}

// decode unpacks a key into window positions 0..slots-1 of a and returns
// the z-edges left and the positions of squares with no edge yet.
func (f *frontier) decode(key uint64, a *[18]uint8) (zleft int, free uint32) {
	if f.packed {
		for p := 0; p < f.slots; p++ {
			c := uint8(key & 15)
			a[p] = c
			if c == slotFree {
				free |= 1 << p
			}
			key >>= 4
		}
		return int(key), free
	}
	for p := 0; p < f.slots; p++ {
		c := uint8(key % 11)
		a[p] = c
		if c == slotFree {
			free |= 1 << p
		}
		key /= 11
	}
	return int(key), free
}
