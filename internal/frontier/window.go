package frontier

import "math/bits"

// The packed state: for boards whose states describe at most 16 squares
// (up to 7 wide, and 8 wide with the narrow sweeps) a state is one 64-bit
// word, 4 bits a square (a nibble), and the step works on it with
// whole-word operations (packed.go) instead of unpacking it into bytes.

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

// nibbleLow has the lowest bit of every nibble set.
const nibbleLow = 0x1111111111111111

// A window is a state with the square being added, packed: positions
// 0..15 in lo, and position 16 in hi, where a board 8 wide puts the new
// square after the 16 of its state. The branch on the word is nearly
// always taken the same way, and costs less than working on both words
// with shifts the compiler cannot bound (7x7 from the corner, one run
// after the other: 25.0 and 26.5 s so, 26.4 and 25.0 s with the branch,
// 21.6 to 26.7 s before windows).
type window struct{ lo, hi uint64 }

// nib returns the code of the square at position p.
func (x window) nib(p int) uint64 {
	if p < 16 {
		return x.lo >> (4 * uint(p) & 63) & 15
	}
	return x.hi
}

// set returns x with the code at position p replaced by c.
func (x window) set(p int, c uint64) window {
	if p < 16 {
		s := 4 * uint(p) & 63
		x.lo = x.lo&^(15<<s) | c<<s
	} else {
		x.hi = c
	}
	return x
}

// nibbleZeros returns the highest bit of each nibble of x that is zero.
func nibbleZeros(x uint64) uint64 {
	const low3 = 0x7777777777777777
	return ^((x&low3 + low3) | x | low3)
}

// partner returns the position of the other square of x holding label c,
// given that position p holds it: 16, the new square, when no other
// position of lo does.
func (x window) partner(p int, c uint64) int {
	same := nibbleZeros(x.lo^c*nibbleLow) &^ (8 << (4 * p))
	return bits.TrailingZeros64(same) / 4
}

// far returns the position of the other end of the piece of path that
// ends at position p, p itself for a square with no edge, or -1 for z.
func (x window) far(p int) int {
	switch c := x.nib(p); c {
	case slotFree:
		return p
	case slotToZ:
		return -1
	default:
		return x.partner(p, c)
	}
}

// squeeze gathers the lowest bits of the 16 nibbles of x into 16 bits.
func squeeze(x uint64) uint32 {
	x &= nibbleLow
	x = (x | x>>3) & 0x0303030303030303
	x = (x | x>>6) & 0x000f000f000f000f
	x = (x | x>>12) & 0x000000ff000000ff
	return uint32((x | x>>24) & 0xffff)
}

// spread puts bit i of m at bit 4i, the lowest of nibble i: the inverse
// of squeeze.
func spread(m uint32) uint64 {
	x := uint64(m & 0xffff)
	x = (x | x<<24) & 0x000000ff000000ff
	x = (x | x<<12) & 0x000f000f000f000f
	x = (x | x<<6) & 0x0303030303030303
	return (x | x<<3) & nibbleLow
}

// nibbleKindBits returns, in the two low bits of each nibble of word, the
// kind of its square (kind): 0 no edge, 1 done, 3 the end of a piece of
// path.
func nibbleKindBits(word uint64) uint64 {
	used := (word | word>>1 | word>>2 | word>>3) & nibbleLow
	end := (word>>1 | word>>2 | word>>3) & nibbleLow
	return used | end<<1
}

// nibbleKinds returns the positions of word (as bits) that hold no edge
// yet and those that hold the end of a piece of path.
func nibbleKinds(word uint64) (free, ends uint32) {
	return squeeze(^(word | word>>1 | word>>2 | word>>3)), squeeze(word>>1 | word>>2 | word>>3)
}

// link adds the edge a-b to x, where fa and fb are the far ends of a and
// b (far), labelling a newly joined pair with fresh, a label no canonical
// state uses. It reports whether the edge closes the cycle (which must
// then be the whole tour) and false if it closes a cycle that cannot be
// one.
func (x window) link(a, b, fa, fb int, fresh uint64, closed bool) (out window, complete, ok bool) {
	if fa == b || fa < 0 && fb < 0 {
		if closed != (fa == b) {
			return x, false, false
		}
		return x.set(a, slotDone).set(b, slotDone), true, true
	}
	if x.nib(a) != slotFree {
		x = x.set(a, slotDone)
	}
	if x.nib(b) != slotFree {
		x = x.set(b, slotDone)
	}
	switch {
	case fa < 0:
		x = x.set(fb, slotToZ)
	case fb < 0:
		x = x.set(fa, slotToZ)
	default:
		x = x.set(fa, fresh).set(fb, fresh)
	}
	return x, false, true
}

// reverseNibbles reverses the order of the 16 nibbles of word.
func reverseNibbles(word uint64) uint64 {
	word = bits.ReverseBytes64(word)
	return word>>4&0x0f0f0f0f0f0f0f0f | word&0x0f0f0f0f0f0f0f0f<<4
}

// Labels link makes: canonical states use labels from slotLabel up to
// slotLabel+7, as 16 positions hold at most 8 pairs.
const (
	freshFirst  = 15
	freshSecond = 14
)

// relabel renames the labels of word in order of first appearance, so
// that equal states get equal keys whatever labels their steps made up.
func relabel(word uint64) uint64 {
	b0, b1 := word&nibbleLow, word>>1&nibbleLow
	high := (word>>2 | word>>3) & nibbleLow
	labels := high | b0&b1 // codes from 3 on
	// The labels are cleared at once and each pair ORed in: clearing
	// each pair's nibbles as it is named chained every pair's work to the
	// last's, and took 24 to 28 ns a word (BenchmarkRelabel) against 14
	// to 16.
	out := word &^ (labels * 15)
	next := uint64(slotLabel)
	for labels != 0 {
		p := bits.TrailingZeros64(labels)
		c := word >> p & 15
		pair := nibbleZeros(word^c*nibbleLow) >> 3 // the low bits of both ends
		labels &^= pair
		out |= pair * next
		next++
	}
	return out
}
