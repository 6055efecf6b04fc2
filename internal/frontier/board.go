package frontier

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// MaxWidth is the widest shorter side a count handles: the counter walks
// along the longer side, and its states describe the last two columns and
// a bit of the shorter side, 2w+1 squares. At width 8 those are 17
// squares, the most that still fit a state into one 64-bit word.
const MaxWidth = 8

// maxSquares bounds the board, so that square indices fit an int32 with
// room to spare.
const maxSquares = 1 << 24

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

// board lays a board out for counting: squares are numbered column by
// column along the longer side, w to a column, so that a square's earlier
// neighbours are the 2w+1 squares just before it. The state of a partial
// count describes that window.
type board struct {
	w, l       int  // width (the shorter side) and length
	n          int  // squares
	slots      int  // 2w+1: the window
	transposed bool // the board has more rows than columns
	steps      []step
	packed     bool   // 4 bits a slot fit in 64 bits; otherwise base 11
	pow11      uint64 // 11^slots
	mixer      mixer  // on the bits keys take
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

func newBoard(rows, cols int) (*board, error) {
	w, l := rows, cols
	if rows > cols {
		w, l = cols, rows
	}
	if w > MaxWidth {
		return nil, fmt.Errorf("%w: counting by frontier handles boards up to %d squares on the shorter side, not %dx%d",
			ErrTooWide, MaxWidth, rows, cols)
	}
	if l > maxSquares/w {
		return nil, fmt.Errorf("%w: %dx%d has more than %d squares", ErrTooWide, rows, cols, maxSquares)
	}
	f := &board{w: w, l: l, n: w * l, slots: 2*w + 1, transposed: rows > cols}
	f.packed = 4*f.slots+2 <= 64
	f.pow11 = 1
	for range f.slots {
		f.pow11 *= 11
	}
	keyBits := uint(4*f.slots + 2) // the slots' nibbles and z, below 4
	if !f.packed {
		keyBits = uint(bits.Len64(4*f.pow11 - 1))
	}
	f.mixer = newMixer(keyBits)
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

// index returns the number of the square in row r, column c in the
// order the count adds squares.
func (f *board) index(r, c int) int {
	if f.transposed {
		return r*f.w + c
	}
	return c*f.w + r
}

// latest returns the largest index, in the frontier's order, of the
// squares that c maps to under the symmetries of the board. Every image
// of a start square starts as many tours, and the count has far fewer
// states when the start comes late: until then the path is free to begin
// anywhere, which the demands prune well, while a start added early pins
// one end of every partial path to it.
func (f *board) latest(r, col int) int {
	if f.transposed {
		r, col = col, r
	}
	best := 0
	for _, s := range [][2]int{{r, col}, {f.w - 1 - r, col}, {r, f.l - 1 - col}, {f.w - 1 - r, f.l - 1 - col}} {
		best = max(best, s[1]*f.w+s[0])
		if f.w == f.l { // a square board may also be turned over its diagonal
			best = max(best, s[0]*f.w+s[1])
		}
	}
	return best
}

// encode packs window positions 1..slots of a (the window after adding a
// square) and the z-state into a key. It renames the pair labels in order
// of first appearance, so that equal states get equal keys whatever labels
// their steps made up. The step on bytes (expand, finish) uses it on boards
// 8 wide, in base 11; on packed boards it only makes the first state, and
// the step there packs its own words (packed.go).
func (f *board) encode(a *[18]uint8, z int) (key uint64) {
	if f.packed {
		var word uint64
		for p := 1; p <= f.slots; p++ {
			word |= uint64(a[p]) << (4 * (p - 1))
		}
		return relabel(word) | uint64(z)<<(4*f.slots)
	}
	// code[c] is one more than the new code of c, or 0 while c is unseen;
	// codes below slotLabel keep their value. Labels are under 48: those
	// decoded start at slotLabel, those link makes at 24. The loop has no
	// branches: whether a label is new is not predictable.
	code := [48]uint8{slotFree + 1, slotDone + 1, slotToZ + 1}
	next := uint8(slotLabel + 1)
	for p := f.slots; p >= 1; p-- { // base 11 packs from the far end, so labels are named from there
		c := a[p]
		r := code[c]
		fresh := (r - 1) >> 7 // 1 if unseen
		r += fresh * next
		next += fresh
		code[c] = r
		key = key*11 + uint64(r-1)
	}
	return key + uint64(z)*f.pow11
}

// decode unpacks a base-11 key (a board 8 wide; packed boards never
// unpack) into window positions 0..slots-1 of a and returns the z-state,
// the positions of squares with no edge yet, and those of the ends of
// pieces of path (one edge).
func (f *board) decode(key uint64, a *[18]uint8) (z int, free, ends uint32) {
	if f.slots == 17 {
		return decode17(key, a)
	}
	for p := 0; p < f.slots; p++ {
		a[p] = uint8(key % 11)
		key /= 11
	}
	z = int(key)
	for p := 0; p < f.slots; p++ {
		c := uint32(a[p])
		free |= (c - 1) >> 31 << p          // c == slotFree
		ends |= (1 - (c>>1-1)>>31) & 1 << p // c >= slotToZ
	}
	return z, free, ends
}

// triples holds, for each number below 11^3, its three base-11 digits
// (a byte each) and what those squares need: bit 24+i is set if digit i
// is slotFree, bit 28+i if it is an end of a piece of path. decode17
// reads a key three digits a lookup; the table (10.6 KB) stays in the
// processor's first-level cache.
var triples = func() (t [1331]uint32) {
	for n := range t {
		for i, d := 0, n; i < 3; i, d = i+1, d/11 {
			c := uint32(d % 11)
			t[n] |= c << (8 * i)
			if c == slotFree {
				t[n] |= 1 << (24 + i)
			}
			if c >= slotToZ {
				t[n] |= 1 << (28 + i)
			}
		}
	}
	return t
}()

// decode17 is decode for keys of 17 squares (boards 8 wide), which the
// steps of 8-row counts decode once a state: a table lookup for three
// digits at a time takes about a third of the work of a division and
// two tests for each.
func decode17(key uint64, a *[18]uint8) (z int, free, ends uint32) {
	for p := 0; p < 15; p += 3 {
		t := triples[key%1331]
		key /= 1331
		binary.LittleEndian.PutUint32(a[p:], t) // the fourth byte is the next triple's
		free |= t >> 24 & 7 << p
		ends |= t >> 28 & 7 << p
	}
	t := triples[key] // two digits and z, below 4*11^2
	binary.LittleEndian.PutUint16(a[15:], uint16(t))
	return int(t >> 16 & 0xff), free | t>>24&3<<15, ends | t>>28&3<<15
}
