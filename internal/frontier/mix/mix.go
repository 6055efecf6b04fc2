// Package mix scrambles the keys of states: Hash over all 64 bits, and a
// Mixer within the width of one board's keys. Both are bijections with
// their inverses (Unhash, Mixer.Unmix), so that a key's scramble can
// stand for the key: its top bits pick the group a state goes to, and
// compact layers keep states in the order of their scrambles.
package mix

// A Mixer scrambles the keys of one board within their own width: a
// bijection on the numbers below 2^bits, where bits is how many the
// board's keys take (61 for a board 8 wide swept row by row, 17 squares
// in base 11 and z). Keys of 16 nibbles fill 64 bits, but each nibble is
// below 11: the Mixer reads them in base 11 first (56 bits), so that they
// too leave a table's slot bits for a count.
// The lean step's tables use it where Hash spreads keys over all 64
// bits: a table keeps the bits of a state's mix below the group's, and the
// 64-bits bits no key uses go to the state's count with the group's bits
// (20 bits for a count on 8x8 in 2^17 groups, where Hash would leave 17).
//
// Each of its steps is a bijection on bits-bit numbers: a shift to the
// right xored in (the top bits stay, and give back the rest) and a product
// with an odd number modulo 2^bits. The products carry every bit upwards
// and the shifts bring the top bits down, so the top bits, the group,
// depend on every bit of the key.
type Mixer struct {
	bits       uint
	mask       uint64
	shift      uint   // of each xorshift: half the width
	inv1, inv2 uint64 // the multipliers' inverses
	nibbles    bool   // keys are 16 nibbles, each below 11
}

// The multipliers of the splitmix64 finaliser, used modulo 2^bits.
const (
	mixMul1 = 0xbf58476d1ce4e5b9
	mixMul2 = 0x94d049bb133111eb
)

// New returns the Mixer of keys of bits bits.
func New(bits uint) Mixer {
	return Mixer{bits: bits, mask: 1<<bits - 1, shift: (bits + 1) / 2, inv1: inverse(mixMul1), inv2: inverse(mixMul2)}
}

// NewNibbles returns the Mixer of keys of 16 nibbles, each below 11.
func NewNibbles() Mixer {
	m := New(nibbleBits)
	m.nibbles = true
	return m
}

// nibbleBits is how many bits 16 digits in base 11 take.
const nibbleBits = 56

// Bits returns the width of the keys m mixes, and of their mixes.
func (m Mixer) Bits() uint { return m.bits }

// Mix returns the mix of key, a number below 2^Bits.
func (m Mixer) Mix(key uint64) uint64 {
	if m.nibbles {
		key = nibblesToBase11(key)
	}
	key ^= key >> m.shift
	key = key * mixMul1 & m.mask
	key ^= key >> m.shift
	key = key * mixMul2 & m.mask
	return key ^ key>>m.shift
}

// Unmix inverts Mix. Each xorshift is its own inverse: the shift is at
// least half the width, so shifting twice leaves nothing.
func (m Mixer) Unmix(h uint64) uint64 {
	h ^= h >> m.shift
	h = h * m.inv2 & m.mask
	h ^= h >> m.shift
	h = h * m.inv1 & m.mask
	h ^= h >> m.shift
	if m.nibbles {
		h = base11ToNibbles(h)
	}
	return h
}

// pow11x4 is 11^4, the base-11 numbers of four nibbles.
const pow11x4 = 11 * 11 * 11 * 11

// nibblesToBase11 reads the 16 nibbles of word, each below 11, as the
// digits of a number in base 11, four at a time through quadDigits.
func nibblesToBase11(word uint64) uint64 {
	v := uint64(quadDigits[word>>48])
	v = v*pow11x4 + uint64(quadDigits[word>>32&0xffff])
	v = v*pow11x4 + uint64(quadDigits[word>>16&0xffff])
	return v*pow11x4 + uint64(quadDigits[word&0xffff])
}

// base11ToNibbles inverts nibblesToBase11.
func base11ToNibbles(v uint64) uint64 {
	var word uint64
	for i := range 4 {
		word |= uint64(quadNibbles[v%pow11x4]) << (16 * i)
		v /= pow11x4
	}
	return word
}

// quadDigits maps four nibbles, each below 11, to their number in base 11
// (the lowest nibble the lowest digit); quadNibbles maps it back. Together
// 157 KB, in the processor's second-level cache.
var quadDigits, quadNibbles = func() (d *[1 << 16]uint16, n *[pow11x4]uint16) {
	d, n = new([1 << 16]uint16), new([pow11x4]uint16)
	for v := range pow11x4 {
		var word uint16
		for i, x := 0, v; i < 4; i, x = i+1, x/11 {
			word |= uint16(x%11) << (4 * i)
		}
		d[word], n[v] = uint16(v), word
	}
	return d, n
}()

// inverse returns the inverse of odd a modulo 2^64 (so also modulo any
// smaller power of two), by Newton's iteration: each step doubles the
// correct low bits, from the three that a itself gets right.
func inverse(a uint64) uint64 {
	x := a
	for range 5 {
		x *= 2 - a*x
	}
	return x
}

// Hash scrambles a key over 64 bits (the splitmix64 finaliser): its
// high bits pick a state's group in the buffered step, and it orders the
// states of a compact layer and picks a shard's states. The lean step's
// tables mix keys within their own width instead (Mixer).
func Hash(key uint64) uint64 {
	key ^= key >> 30
	key *= 0xbf58476d1ce4e5b9
	key ^= key >> 27
	key *= 0x94d049bb133111eb
	return key ^ key>>31
}

// Unhash inverts Hash.
func Unhash(h uint64) uint64 {
	h ^= h>>31 ^ h>>62
	h *= 0x319642b2d24d8ec3 // the inverse of 0x94d049bb133111eb modulo 2^64
	h ^= h>>27 ^ h>>54
	h *= 0x96de1b173f119089 // the inverse of 0xbf58476d1ce4e5b9
	return h ^ h>>30 ^ h>>60
}
