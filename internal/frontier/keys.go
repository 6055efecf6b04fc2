package frontier

import (
	"encoding/binary"
	"math/bits"
)

// Keys of states the step works on as bytes (expand, finish): boards
// whose states describe more than 16 squares, and counts with free ends
// on boards of an even number of squares 8 wide, where 16 nibbles leave
// no room for z. A key is a number in mixed radix: the code of each
// window position is a digit, position 0 the least significant, and the
// z-state multiplies the span of those digits (board.span).
//
// Up to 17 squares every digit is in base 11: codes 0 to 10, eight pairs
// of labels, and 4*11^17 < 2^64. Past that base 11 no longer fits, and 18
// squares may hold nine pairs, whose labels need 12 codes. But labels are
// named in the order they first appear from the far end of the window
// (encodeFrom), so the j-th square from there (j from 0) holds free, done,
// z, one of the at most j labels before it, or a new one: a code below
// 4+j. Its digit's radix grows with j, up to 12, and the digits of 18
// squares span 4*5*...*11 * 12^10, about 4.1e17: with z, below 2^61.

// base11Slots is the most squares a key in base 11 holds beside its
// z-state.
const base11Slots = 17

// maxKeySlots is the most squares a key holds: 18, the frontier of the
// narrow sweeps on a board 9 wide.
const maxKeySlots = 18

// slotCodes holds the codes of a window's positions 0..slots-1 and of
// the square being added at position slots, a byte each, with room to
// read the last ones as one word (sameBytes).
type slotCodes [MaxSlots + 1]uint8

// setRadices sets the radix of each window position's digit in a key and
// the span of the digits of all of them (see above).
func (f *board) setRadices() {
	f.span = 1
	for p := range f.slots {
		r := uint64(11)
		if f.slots > base11Slots {
			r = uint64(min(4+f.slots-1-p, 12))
		}
		f.radix[p], f.place[p] = r, f.span
		f.span *= r
	}
}

// encode packs the window after square v (st is v's shift: positions 1..slots
// of a, or those that st keeps) and the z-state into a key. It renames the
// pair labels in order of first appearance, so that equal states get equal
// keys whatever labels their steps made up. The step on bytes (expand,
// finish) uses it on boards whose keys are not packed; on packed boards it
// only makes the first state, and the step there packs its own words
// (packed.go).
func (f *board) encode(a *slotCodes, z int, st *shift) (key uint64) {
	if f.packed {
		var word uint64
		for p := 1; p <= f.slots; p++ {
			word |= uint64(a[p]) << (4 * (p - 1))
		}
		return f.withZ(relabel(word), z)
	}
	return f.encodeFrom(a, z, &st.from)
}

// encodeFrom packs, in the board's digits, the window whose position i
// takes the state of position from[i] of a, and the z-state.
func (f *board) encodeFrom(a *slotCodes, z int, from *[MaxSlots]int8) (key uint64) {
	// code[c] is one more than the new code of label c, or 0 while c is
	// unseen; free, done and z keep their codes. Labels are under 48: those
	// decoded start at slotLabel, those link makes at 24. The loop has no
	// branches, as whether a label is new is not predictable. The codes
	// below slotLabel are written to a sink (codeSink), not back to their
	// own entry, whose next read would wait for that write: the median of
	// BenchmarkEncodeKey18 went from 57-70 ns a key to 42-48, of
	// BenchmarkEncodeKey16 from 63 to 51; for 17 squares two comparisons
	// of three told no difference, the third 15% more.
	code := [64]uint8{slotFree + 1, slotDone + 1, slotToZ + 1}
	next := uint8(slotLabel + 1)
	for i := f.slots - 1; i >= 0; i-- { // keys pack from the far end, so labels are named from there
		c := a[from[i]] & 63
		r := code[c]
		unseen := uint8(int8(r-1) >> 7) // all ones if r is 0
		r |= unseen & next
		next -= unseen
		code[c|uint8(int8(c-slotLabel)>>7)&codeSink] = r // below slotLabel, to the sink
		key = key*f.radix[i] + uint64(r-1)
	}
	return key + uint64(z)*f.span
}

// reflectKey returns the key of the reflection of the state key of the
// layer after square u, whose window is its own reflection
// (shift.mirrored), on a board of odd width, where the reflection keeps
// the colours and so the z-state.
func (r *counter) reflectKey(key uint64, u int) uint64 {
	f, st := r.f, &r.f.shifts[u]
	if f.packed {
		z := 0
		if f.zInKey {
			z = int(key >> (4 * f.slots))
		}
		return f.withZ(relabel(st.reflectNibbles(key&f.nibbles)), z)
	}
	var a slotCodes
	z, _, _ := f.decode(key, &a)
	return f.encodeFrom(&a, z, &st.mirror)
}

// codeSink is the entry of encodeFrom's table of codes that takes the
// writes no label needs.
const codeSink = 63

// pack sets whether the board's keys are packed in nibbles (where they
// fit) or in digits (setRadices), and the mixer of those keys.
func (f *board) pack(packed bool) {
	f.packed, f.zInKey = packed && 4*f.slots <= 64, 4*f.slots+2 <= 64
	f.nibbles = 1<<(4*f.slots) - 1 // all 64 bits for 16 slots
	switch {
	case !f.packed:
		f.mixer = newMixer(uint(bits.Len64(4*f.span - 1))) // z below 4
	case f.zInKey:
		f.mixer = newMixer(uint(4*f.slots + 2))
	default:
		f.mixer = newNibbleMixer()
	}
}

// withZ returns the packed key of a window's nibbles and z-state: z above
// the nibbles where there is room; where there is none, the nibbles tell
// it (worker.zOf).
func (f *board) withZ(word uint64, z int) uint64 {
	if !f.zInKey {
		return word
	}
	return word | uint64(z)<<(4*f.slots)
}

// decode unpacks a key that is not packed (packed boards never unpack)
// into window positions 0..slots-1 of a and returns the z-state, the
// positions of squares with no edge yet, and those of the ends of pieces
// of path (one edge).
func (f *board) decode(key uint64, a *slotCodes) (z int, free, ends uint32) {
	switch f.slots {
	case 17:
		return decode17(key, a)
	case 18:
		return decode18(key, a)
	}
	p := 0
	for ; p+3 <= f.slots; p += 3 {
		t := triples[key%1331]
		key /= 1331
		binary.LittleEndian.PutUint32(a[p:], t) // the fourth byte is the next triple's, or the new square's
		free |= t >> 24 & 7 << p
		ends |= t >> 28 & 7 << p
	}
	// One or two digits left, and z: below 4*11^2.
	rest := uint(f.slots - p)
	t := triples[key]
	for i := range int(rest) {
		a[p+i] = uint8(t >> (8 * i))
	}
	m := uint32(1)<<rest - 1
	return int(t >> (8 * rest) & 0xff), free | t>>24&m<<p, ends | t>>28&m<<p
}

// triples holds, for each number below 11^3, its three base-11 digits
// (a byte each) and what those squares need: bit 24+i is set if digit i
// is slotFree, bit 28+i if it is an end of a piece of path. decode17
// reads a key three digits a lookup; the table (10.6 KB) stays in the
// processor's first-level cache.
var triples = func() (t [1331]uint32) {
	fillDigits(t[:], 11, 11, 11)
	return t
}()

// fillDigits fills t, which has one entry for each number below the
// product of radices, with the digits of each number in those radices
// (the first the least significant, a byte each) and what their squares
// need, as in triples.
func fillDigits(t []uint32, radices ...uint32) {
	for n := range t {
		d := uint32(n)
		for i, r := range radices {
			c := d % r
			d /= r
			t[n] |= c << (8 * i)
			if c == slotFree {
				t[n] |= 1 << (24 + i)
			}
			if c >= slotToZ {
				t[n] |= 1 << (28 + i)
			}
		}
	}
}

// decode17 is decode for keys of 17 squares (boards 8 wide), which the
// steps of 8-row counts decode once a state: a table lookup for three
// digits at a time takes about a third of the work of a division and
// two tests for each.
func decode17(key uint64, a *slotCodes) (z int, free, ends uint32) {
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

// The tables of decode18: the digits of positions 0..9 in base 12, three
// at a time, and those of positions 10..17 in radices 11 down to 4.
var (
	twelves = func() (t [12 * 12 * 12]uint32) {
		fillDigits(t[:], 12, 12, 12)
		return t
	}()
	digits11to9 = func() (t [11 * 10 * 9]uint32) {
		fillDigits(t[:], 11, 10, 9)
		return t
	}()
	digits8to6 = func() (t [8 * 7 * 6]uint32) {
		fillDigits(t[:], 8, 7, 6)
		return t
	}()
	digits5to4 = func() (t [5 * 4]uint32) {
		fillDigits(t[:], 5, 4)
		return t
	}()
)

// decode18 is decode for keys of 18 squares (boards 9 wide by a narrow
// sweep), a table lookup for up to three digits at a time, each divisor
// a constant.
func decode18(key uint64, a *slotCodes) (z int, free, ends uint32) {
	for p := 0; p < 9; p += 3 {
		t := twelves[key%(12*12*12)]
		key /= 12 * 12 * 12
		binary.LittleEndian.PutUint32(a[p:], t) // the fourth byte is the next digit's
		free |= t >> 24 & 7 << p
		ends |= t >> 28 & 7 << p
	}
	t := twelves[key%12] // position 9 alone
	key /= 12
	a[9] = uint8(t)
	free |= t >> 24 & 1 << 9
	ends |= t >> 28 & 1 << 9
	t = digits11to9[key%(11*10*9)]
	key /= 11 * 10 * 9
	binary.LittleEndian.PutUint32(a[10:], t)
	free |= t >> 24 & 7 << 10
	ends |= t >> 28 & 7 << 10
	t = digits8to6[key%(8*7*6)]
	key /= 8 * 7 * 6
	binary.LittleEndian.PutUint32(a[13:], t)
	free |= t >> 24 & 7 << 13
	ends |= t >> 28 & 7 << 13
	t = digits5to4[key%(5*4)]
	key /= 5 * 4
	binary.LittleEndian.PutUint16(a[16:], uint16(t))
	return int(key), free | t>>24&3<<16, ends | t>>28&3<<16
}
