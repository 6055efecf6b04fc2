package frontier

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// MaxWidth is the widest shorter side a count handles: the counter walks
// along the longer side, and its states describe the last two columns and
// a bit of the shorter side, up to 2w+1 squares with SweepRows and 2w with
// the narrow sweeps. A state's key is one 64-bit word, which holds up to
// 18 squares (keys.go): 8 wide with SweepRows, 9 with the narrow sweeps.
const MaxWidth = 9

// maxSquares bounds the board, so that square indices fit an int32 with
// room to spare.
const maxSquares = 1 << 24

// Sweep is the order in which a count adds the squares of each column.
type Sweep int

const (
	// SweepRows adds each column's squares row by row. A state describes
	// the window of the last 2w+1 squares added, which slides on by one
	// square a step.
	SweepRows Sweep = iota
	// SweepNarrow adds each column's odd rows upwards, then its even rows
	// downwards, then its last row. Then at most 2w of the squares added
	// still have neighbours to come (the frontier), one fewer than the
	// window of SweepRows holds at most, and fewer at most squares: a
	// state describes only the frontier, and a count has fewer states.
	SweepNarrow
	// SweepNarrowDown adds each column's rows from the one below the last
	// downwards two at a time, then the others upwards, then its last row:
	// a frontier as narrow as SweepNarrow's, but other states (7x7 from
	// the corner: 87.0 million states in all against 88.0), so that a count
	// made with each checks the other at about the same cost.
	SweepNarrowDown
)

func (s Sweep) String() string {
	switch s {
	case SweepRows:
		return "rows"
	case SweepNarrow:
		return "narrow"
	case SweepNarrowDown:
		return "narrow-down"
	}
	return fmt.Sprintf("Sweep(%d)", int(s))
}

// board lays a board out for counting: squares are numbered column by
// column along the longer side, w to a column, so that a square's earlier
// neighbours are among the 2w+1 squares just before it. The state of a
// partial count describes a window of squares: with SweepRows the last
// 2w+1 added, with SweepNarrow the frontier, the squares added that still
// have neighbours to come.
type board struct {
	w, l       int   // width (the shorter side) and length
	n          int   // squares
	slots      int   // the window: 2w+1 squares, or the largest frontier
	transposed bool  // the count's columns are the board's rows
	rows       []int // the row of the i-th square added in a column
	rank       []int // the inverse of rows
	shifts     []shift
	packed     bool   // 4 bits a slot fit in 64 bits; otherwise digits (keys.go)
	zInKey     bool   // a packed key has room for z above its nibbles
	nibbles    uint64 // the bits of a packed key that hold its nibbles
	// radix and place give the digit of each window position in a key
	// that is not packed (keys.go): its radix, and the product of the
	// radices below it; span is the product of all of them.
	radix, place [MaxSlots]uint64
	span         uint64
	demandShift  uint      // where a demand's squares needing two begin (filter.go)
	mixer        mix.Mixer // on the bits keys take
}

// shift is what adding square v (the square numbered v) does to the window.
// The working array has slots+1 positions: 0..slots-1 for the window
// before v, and slots for v itself. The window after v is made of some of
// those positions, in order: with SweepRows positions 1..slots, with
// SweepNarrow those whose squares still have neighbours to come, after
// as many empty positions (done) as make up slots.
type shift struct {
	back   [4]int8 // window positions of v's earlier neighbours
	nback  int8    //
	retire uint32  // positions whose last neighbour is v: they leave now
	thin   uint32  // positions with one neighbour later than v: an unused square there needs z
	black  uint32  // positions of squares of colour 1, (row+col) odd
	// from gives, for each position of the window after v, the position
	// before it whose square it holds (a position that holds done, for an
	// empty one); next gives, for each position, where its square goes,
	// or -1 if it leaves.
	from [MaxSlots]int8
	next [MaxSlots + 1]int8
	// drop is the positions that leave (squares that retire, and empty
	// positions), and pad the empty positions the window after v starts
	// with: shiftMask and shiftWindow take them out and put them in.
	drop uint32
	pad  uint8
	// mirror, where mirrored is set, gives for each position of the window
	// after v the position of the square that reflecting the board across
	// its length (row r to row w-1-r) puts there. It is set where the
	// reflection maps onto themselves both the squares still to add and
	// the window after v: where the rows of v's column added so far are
	// their own reflection (reflects), and the window holds whole columns
	// and those rows, as the narrow sweeps' windows do. SweepRows' never
	// do: they hold part of a third column.
	mirror   [MaxSlots]int8
	mirrored bool
	// flips and fixed, where mirrored is set on a board of at most 16
	// squares a window, are mirror on a packed key: the nibbles that
	// stay, and for each distance the nibbles that move up by it, whose
	// places' nibbles move down by as much (reflectNibbles).
	flips  [maxFlips]nibbleFlip
	nflips uint8
	fixed  uint64
	// mfrom is from for the reflection of the window after v: the position
	// before v whose square's state each position takes (encodeFrom).
	mfrom [MaxSlots]int8
}

// MaxSlots bounds the squares a window holds: 2*MaxWidth+1, the window
// of SweepRows on a board MaxWidth wide. Keys hold at most maxKeySlots.
const MaxSlots = 2*MaxWidth + 1

// shiftMask moves a mask of positions before v to those after it.
func (st *shift) shiftMask(m uint32) uint32 {
	for d := st.drop; d != 0; {
		q := 31 - bits.LeadingZeros32(d)
		d &^= 1 << q
		low := uint32(1)<<q - 1
		m = m&low | m>>1&^low
	}
	return m << st.pad
}

// shiftWindow moves a packed window after v (four bits a position,
// positions 0..slots) to the window after v, whose empty positions it
// fills with done.
func (st *shift) shiftWindow(x window) uint64 {
	if st.drop == 1 && st.pad == 0 { // the rows sweep, once past the first squares
		return x.lo>>4 | x.hi<<60
	}
	lo, hi := x.lo, x.hi
	for d := st.drop; d != 0; {
		q := 31 - bits.LeadingZeros32(d)
		d &^= 1 << q
		if q >= 16 { // the new square, in hi, leaves
			hi = 0
			continue
		}
		low := uint64(1)<<(4*q) - 1
		lo = lo&low | (lo>>4|hi<<60)&^low
		hi = 0
	}
	pad := 4 * uint(st.pad)
	return lo<<pad | nibbleLow&(1<<pad-1)
}

func newBoard(rows, cols int, sweep Sweep, across bool) (*board, error) {
	w, l := min(rows, cols), max(rows, cols)
	if across {
		w, l = l, w
		if w > MaxWidth {
			return nil, fmt.Errorf("%w: counting by frontier across a board handles boards up to %d squares on the longer side, not %dx%d",
				ErrTooWide, MaxWidth, rows, cols)
		}
	}
	if w > MaxWidth {
		return nil, fmt.Errorf("%w: counting by frontier handles boards up to %d squares on the shorter side, not %dx%d",
			ErrTooWide, MaxWidth, rows, cols)
	}
	if l > maxSquares/w {
		return nil, fmt.Errorf("%w: %dx%d has more than %d squares", ErrTooWide, rows, cols, maxSquares)
	}
	f := &board{w: w, l: l, n: w * l, slots: 2*w + 1, transposed: w != rows}
	f.rows = sweepRows(w, sweep)
	f.rank = make([]int, w)
	for i, r := range f.rows {
		f.rank[r] = i
	}
	last := make([]int, f.n) // the last square to be added among u and its neighbours
	for u := range f.n {
		last[u] = u
		for _, t := range f.neighbours(u) {
			last[u] = max(last[u], t)
		}
	}
	win := f.windows(sweep, last)
	if f.slots > maxKeySlots {
		return nil, fmt.Errorf("%w: counting by frontier with the %s sweep handles boards up to %d squares on the shorter side, and the narrow sweeps %d, not %dx%d",
			ErrTooWide, sweep, MaxWidth-1, MaxWidth, rows, cols)
	}
	f.setRadices()
	f.demandShift = uint(max(base11Slots, f.slots))
	f.pack(4*f.slots <= 64)
	f.makeSteps(win, last)
	return f, nil
}

// neighbours returns the squares a jump from square v, in the board's
// numbering.
func (f *board) neighbours(v int) []int {
	w, c, r := f.w, v/f.w, f.rows[v%f.w]
	var out []int
	for _, d := range [8][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
		if cc, rr := c+d[0], r+d[1]; cc >= 0 && cc < f.l && rr >= 0 && rr < w {
			out = append(out, cc*w+f.rank[rr])
		}
	}
	return out
}

// windows returns, for each square v, the window before it: its squares,
// -1 where empty; and sets the slots of a window. last[u] is the last
// square to be added among u and its neighbours.
func (f *board) windows(sweep Sweep, last []int) [][]int {
	// win[v] is the window before square v: its squares, -1 where empty.
	win := make([][]int, f.n+1)
	if sweep == SweepRows {
		for v := range win {
			for p := range f.slots {
				win[v] = append(win[v], max(v-f.slots+p, -1))
			}
		}
	} else {
		var front []int
		f.slots = 0
		for v := range f.n + 1 {
			win[v] = front
			f.slots = max(f.slots, len(front))
			if v == f.n {
				break
			}
			var after []int
			for _, u := range append(slices.Clone(front), v) {
				if last[u] > v {
					after = append(after, u)
				}
			}
			front = after
		}
		for v, fr := range win {
			win[v] = append(slices.Repeat([]int{-1}, f.slots-len(fr)), fr...)
		}
	}
	return win
}

// makeSteps fills the steps of the board from its windows: where each
// square of a window goes in the next, and what the square added finds.
func (f *board) makeSteps(win [][]int, last []int) {
	w := f.w
	f.shifts = make([]shift, f.n)
	for v := range f.n {
		st := &f.shifts[v]
		at := append(slices.Clone(win[v]), v) // the square at each position
		for _, t := range f.neighbours(v) {
			if t < v {
				st.back[st.nback] = int8(slices.Index(at, t))
				st.nback++
			}
		}
		for p, u := range at {
			st.next[p] = -1 // until the window after v says where it goes
			if u < 0 {
				continue
			}
			if (u/w+f.rows[u%w])%2 == 1 {
				st.black |= 1 << p
			}
			later := 0
			for _, t := range f.neighbours(u) {
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
		for i, u := range win[v+1] {
			if u < 0 {
				st.pad++
				continue
			}
			p := slices.Index(at, u)
			st.from[i], st.next[p] = int8(p), int8(i)
		}
		for p := range at { // empty positions, and squares that retire
			if st.next[p] < 0 {
				st.drop |= 1 << p
			}
		}
		for i := range int(st.pad) { // empty positions take a position that holds done
			st.from[i] = int8(bits.TrailingZeros32(st.drop))
		}
		if v+1 < f.n && f.reflects(v) {
			st.mirrored = f.mirrorOf(win[v+1], &st.mirror)
			for i := range f.slots {
				st.mfrom[st.mirror[i]] = st.from[i]
			}
			if st.mirrored && f.slots <= maxFlips {
				st.setFlips(f.slots)
			}
		}
	}
}

// reflects reports whether the rows of v's column added up to v are their
// own reflection across the board's length, as they are at the end of
// every column: then so are the squares still to add. The narrow sweep
// adds odd rows first, and is there within a column too: on 8 rows after
// rows 1 to 6, on 7 after rows 1, 3 and 5 and after rows 1 to 5, on 6
// after rows 1 to 4.
func (f *board) reflects(v int) bool {
	added := f.rows[:v%f.w+1]
	for _, r := range added {
		if !slices.Contains(added, f.w-1-r) {
			return false
		}
	}
	return true
}

// mirrorOf sets mirror to where reflecting the board across its length
// takes each position of the window win (empty positions stay), and
// reports whether the reflection maps the squares of win onto themselves.
func (f *board) mirrorOf(win []int, mirror *[MaxSlots]int8) bool {
	for p, u := range win {
		mirror[p] = int8(p)
		if u < 0 {
			continue
		}
		q := slices.Index(win, f.reflection(u))
		if q < 0 {
			return false
		}
		mirror[p] = int8(q)
	}
	return true
}

// reflection returns the square that reflecting the board across its
// length takes square u to: the same column, row w-1-r for row r.
func (f *board) reflection(u int) int {
	return u - u%f.w + f.rank[f.w-1-f.rows[u%f.w]]
}

// sweepRows returns the order in which sweep adds the rows of a column w
// squares wide.
func sweepRows(w int, sweep Sweep) []int {
	var rows []int
	switch sweep {
	case SweepRows:
		for r := range w {
			rows = append(rows, r)
		}
		return rows
	case SweepNarrowDown:
		for r := w - 2; r >= 0; r -= 2 {
			rows = append(rows, r)
		}
		for r := (w - 1) % 2; r < w-1; r += 2 { // the other parity
			rows = append(rows, r)
		}
		return append(rows, w-1)
	}
	for r := 1; r < w-1; r += 2 {
		rows = append(rows, r)
	}
	for r := w - 2; r >= 0; r-- {
		if r%2 == 0 {
			rows = append(rows, r)
		}
	}
	return append(rows, w-1)
}

// index returns the number of the square in row r, column c in the
// order the count adds squares.
func (f *board) index(r, c int) int {
	if f.transposed {
		r, c = c, r
	}
	return c*f.w + f.rank[r]
}

// stays reports whether window position q before square v is one and
// stays in the window after v.
func (f *board) stays(v, q int) bool {
	return v >= 0 && v < f.n && q >= 0 && q < f.slots && f.shifts[v].next[q] >= 0
}

// colour returns the colour of square v, 1 where (row+col) is odd.
func (f *board) colour(v int) int {
	return (v/f.w + f.rows[v%f.w]) % 2
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
		best = max(best, s[1]*f.w+f.rank[s[0]])
		if f.w == f.l { // a square board may also be turned over its diagonal
			best = max(best, s[0]*f.w+f.rank[s[1]])
		}
	}
	return best
}

// maxFlips is the most squares of a window whose reflection
// reflectNibbles makes: those of a packed key.
const maxFlips = 16

// A nibbleFlip swaps the nibbles of mask with those by places above them.
type nibbleFlip struct {
	mask uint64
	by   uint
}

// setFlips sets flips and fixed from mirror, for a window of slots
// positions.
func (st *shift) setFlips(slots int) {
	st.nflips, st.fixed = 0, 0
	for p := range slots {
		q := int(st.mirror[p])
		switch {
		case q == p:
			st.fixed |= 15 << (4 * p)
		case q > p:
			i := slices.IndexFunc(st.flips[:st.nflips], func(fl nibbleFlip) bool { return fl.by == uint(q-p) })
			if i < 0 {
				i = int(st.nflips)
				st.flips[i], st.nflips = nibbleFlip{by: uint(q - p)}, st.nflips+1
			}
			st.flips[i].mask |= 15 << (4 * p)
		}
	}
}

// reflectNibbles moves the nibble of each position p of a packed key's
// window to position mirror[p]: a few shifts and masks, where a loop over
// the positions took 7% of 7x7 from the corner.
func (st *shift) reflectNibbles(word uint64) uint64 {
	out := word & st.fixed
	for _, fl := range st.flips[:st.nflips] {
		out |= (word&fl.mask)<<(4*fl.by) | word>>(4*fl.by)&fl.mask
	}
	return out
}

// reflectZ returns the z-state of the reflection across the board's
// length of a state with z-state z. On an even width the reflection swaps
// the colours, and so the z-states that name the colour of the end still
// to come (1 and 3); on an odd width it keeps the colours and z.
func (f *board) reflectZ(z int) int {
	if f.w%2 == 0 && z%2 == 1 {
		return 4 - z
	}
	return z
}
