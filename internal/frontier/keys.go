package frontier

import (
	"encoding/binary"
	"math/bits"

	"github.com/euler1758/knightstour/internal/frontier/mix"
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
// read them as words (sameBytes).
type slotCodes [slotCodesLen]uint8

// slotCodesLen is MaxSlots+1 rounded up to whole words. A copy of a
// slotCodes then stores 16 bytes at 0 and at 8, and each word sameBytes
// reads from the copy lies within the last store that wrote to it, which
// the processor hands on to the read at once. At 20 bytes the stores
// were at 0 and at 4, and the read of the first word, half in each,
// waited for both to reach the cache: BenchmarkFar/copy took 13.5 to
// 15.6 ns an end, against 5.4 to 6.4 at 24 bytes.
const slotCodesLen = (MaxSlots + 1 + 7) &^ 7

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
// takes the state of position from[i] of a, and the z-state. a holds the
// labels decode names (from slotLabel) and at most one pair made by
// linkSlots (from 24): of a step's two edges, the second relabels the
// piece the first made.
func (f *board) encodeFrom(a *slotCodes, z int, from *[MaxSlots]int8) uint64 {
	if f.slots <= base11Slots {
		return f.encode11(a, z, from)
	}
	return f.encodeGrowing(a, z, from)
}

// encode11 is encodeFrom for keys in base 11. The codes go into nibbles,
// positions 0..15 in one word and position 16 alone, with linkSlots'
// labels as linkNibble; the labels are renamed a pair at a time from the
// far end, as relabel does from the near one; and the word's 16 digits
// become one number by pairs, then fours, then eights (as decimal digits
// are parsed eight at a time), so that no multiplication waits for the one
// before. Digit by digit, its labels renamed through a table
// (encodeGrowing), a key took twice as long: BenchmarkEncodeKey16 69 ns
// against 33, BenchmarkEncodeKey (17 squares) 75 against 51.
func (f *board) encode11(a *slotCodes, z int, from *[MaxSlots]int8) uint64 {
	// A byte a position, gathered with shifts by constants: a loop
	// shifting by 4*i took twice as long, and bytes stored to an array
	// and read back as words wait for the stores.
	lo := uint64(a[from[0]]) | uint64(a[from[1]])<<8 | uint64(a[from[2]])<<16 | uint64(a[from[3]])<<24 |
		uint64(a[from[4]])<<32 | uint64(a[from[5]])<<40 | uint64(a[from[6]])<<48 | uint64(a[from[7]])<<56
	hi := uint64(a[from[8]]) | uint64(a[from[9]])<<8 | uint64(a[from[10]])<<16 | uint64(a[from[11]])<<24 |
		uint64(a[from[12]])<<32 | uint64(a[from[13]])<<40 | uint64(a[from[14]])<<48 | uint64(a[from[15]])<<56
	word := (nibblesOf(lo) | nibblesOf(hi)<<32) & f.nibbles // positions past the window: not the board's
	var top uint64                                          // position 16's code
	if f.slots > 16 {
		top = uint64(min(a[from[16]], linkNibble))
	}
	labels := (word>>2 | word>>3 | word&(word>>1)) & nibbleLow // the low bit of each code from slotLabel on
	out := word &^ (labels * 15)
	next := uint64(slotLabel)
	if top >= slotLabel { // named first, with the square it pairs with
		pair := nibbleZeros(word^top*nibbleLow) >> 3
		labels &^= pair
		out |= pair * next
		top = next
		next++
	}
	for labels != 0 {
		p := 63 - bits.LeadingZeros64(labels)
		c := word >> p & 15
		pair := nibbleZeros(word^c*nibbleLow) >> 3
		labels &^= pair
		out |= pair * next
		next++
	}
	return digits11(out) + top*f.place[16] + uint64(z)*f.span
}

// linkNibble is the nibble encode11 gives the labels linkSlots makes (24
// and on): above those decode names, slotLabel to slotLabel+7.
const linkNibble = slotLabel + 8

// nibblesOf returns the eight bytes of x, codes of a window below 48, as
// eight nibbles, linkSlots' labels (16 and on) as linkNibble.
func nibblesOf(x uint64) uint64 {
	const lowBits = 0x0101010101010101
	linked := (x>>4 | x>>5) & lowBits
	x = x&^(linked*0xff) | linked*linkNibble
	x = (x | x>>4) & 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}

// digits11 returns the number whose base-11 digits are the nibbles of x,
// each below 11, nibble i that of 11^i.
func digits11(x uint64) uint64 {
	const (
		lowNibbles = 0x0f0f0f0f0f0f0f0f
		lowBytes   = 0x00ff00ff00ff00ff
		lowPairs   = 0x0000ffff0000ffff
	)
	x = x&lowNibbles + x>>4&lowNibbles*11                 // bytes below 11^2
	x = x&lowBytes + x>>8&lowBytes*(11*11)                // 16-bit lanes below 11^4
	x = x&lowPairs + x>>16&lowPairs*(11*11*11*11)         // 32-bit lanes below 11^8
	return x&0xffffffff + x>>32*(11*11*11*11*11*11*11*11) // below 11^16
}

// encodeGrowing is encodeFrom digit by digit, for keys whose digits' radix
// grows (more than 17 squares).
func (f *board) encodeGrowing(a *slotCodes, z int, from *[MaxSlots]int8) (key uint64) {
	// code[c] is one more than the new code of label c, or 0 while c is
	// unseen; free, done and z keep their codes. Labels are under 48: those
	// decoded start at slotLabel, those link makes at 24. The loop has no
	// branches, as whether a label is new is not predictable. The codes
	// below slotLabel are written to a sink (codeSink), not back to their
	// own entry, whose next read would wait for that write: the median of
	// BenchmarkEncodeKey18 went from 57-70 ns a key to 42-48.
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
func (f *board) reflectKey(key uint64, u int) uint64 {
	st := &f.shifts[u]
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
		f.mixer = mix.New(uint(bits.Len64(4*f.span - 1))) // z below 4
	case f.zInKey:
		f.mixer = mix.New(uint(4*f.slots + 2))
	default:
		f.mixer = mix.NewNibbles()
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

// quads holds, for each number below 11^4, what its four base-11 digits'
// squares need: bit i is set if digit i is slotFree, bit 4+i if it is an
// end of a piece of path. needs11 reads a key four digits a lookup.
var quads = func() (t [11 * 11 * 11 * 11]uint8) {
	for n := range t {
		d := n
		for i := range 4 {
			switch c := d % 11; {
			case c == slotFree:
				t[n] |= 1 << i
			case c >= slotToZ:
				t[n] |= 1 << (4 + i)
			}
			d /= 11
		}
	}
	return t
}()

// needs11 returns what decode returns of a key in base 11 (at most
// base11Slots squares) but its codes: the positions of the squares with
// no edge yet and of the ends of pieces of path. A layer's kinds
// (kindsOfDigits) need no more of each state it writes, and decode took
// 14% of a wide square of 8x12 with free ends there (perf, square 39),
// where each of its five lookups waits for the division before it: here
// the low eight digits and the rest are worked on apart, four digits a
// lookup.
func needs11(key uint64, slots int) (free, ends uint32) {
	p := 0
	if slots >= 8 {
		lo := uint32(key % (11 * 11 * 11 * 11 * 11 * 11 * 11 * 11))
		key /= 11 * 11 * 11 * 11 * 11 * 11 * 11 * 11
		a, b := uint32(quads[lo%14641]), uint32(quads[lo/14641])
		free, ends, p = a&15|b&15<<4, a>>4|b>>4<<4, 8
	}
	for ; p+4 <= slots; p += 4 {
		t := uint32(quads[key%14641])
		key /= 14641
		free |= t & 15 << p
		ends |= t >> 4 << p
	}
	if r := slots - p; r > 0 {
		// The last r digits and z, below 4*11^r: one lookup, whose digits
		// from r on (those of z) are masked off.
		t, m := uint32(quads[key]), uint32(1)<<r-1
		free |= t & m << p
		ends |= t >> 4 & m << p
	}
	return free, ends
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
