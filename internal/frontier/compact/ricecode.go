package compact

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// Rice blocks: how the compact blocks of layer files write their states.
// A block's values are its first state's, whole, and then the differences
// from one state's to the next, which are spread about evenly over a
// known range: a Rice code (the quotient by 2^k in unary, the remainder
// in k bits) takes each in about log2 of their mean plus 2 bits, where a
// varint takes the bits rounded up to a multiple of 7, and 5 bytes for
// the 29 to 30 bits of the widest layers of 8 rows. A count is its length
// in bits, Rice coded as its distance from the block's middle length, and
// the bits below its top one. On a file of the layer after square 55 of
// 8x12 with free ends (in hash order, its first 118 million states),
// varints take 8.92 bytes a state and Rice codes 7.76 (TestRecodeLayer);
// counts grow by about 9 bits a column, and what two layers take on disk
// is what bounds the boards a count of 8 rows reaches on a disk of 80 GB. The codes cost time, a few per cent of a wide square's:
// BenchmarkDecodeBlock takes 24 ns a state against 13 to 14 for varints,
// BenchmarkEncode 28 to 29 against 19.
//
// A block's body is its first value in 8 bytes, little-endian; a byte
// for the Rice parameter of the differences; for each limb of a count, a
// byte for the Rice parameter of its lengths and one for their middle
// (the limbs apart: once counts pass 64 bits, most states' high limbs
// are short or zero and their low limbs 64 bits long); then, bit-packed
// from the lowest bit of each byte, for each state the difference from
// the last (none for the first) and the length and low bits of each limb
// of its count. The last byte is padded with zero bits.

// Coding is how the compact blocks of a layer file write their states.
type Coding uint8

const (
	// Varint writes differences and limbs as unsigned varints: the
	// files of checkpoints written before Rice.
	Varint Coding = iota
	// Rice writes them as Rice codes, bit-packed (ricecode.go).
	Rice
)

// String names the coding as a checkpoint records it: "" for varints,
// which a record without one means.
func (c Coding) String() string {
	if c == Rice {
		return "rice"
	}
	return ""
}

// riceEscape is the longest quotient a Rice code writes in unary: a value
// whose quotient is larger writes riceEscape ones and then its 64 bits, so
// that a value far from its block's mean (or a forged block) costs 64
// bits, not billions.
const riceEscape = 48

// riceHead returns the bytes of a Rice block's body before its bits, for
// states of stride words.
func riceHead(stride int) int { return 9 + 2*(stride-1) }

// A limbCode is how a Rice block codes one limb of its counts: the Rice
// parameter of the distance of each one's length from mid.
type limbCode struct {
	k   uint
	mid int
}

// A bitWriter appends bits to buf, from the lowest bit of each byte.
type bitWriter struct {
	buf []byte
	acc uint64 // the bits not yet in buf, n of them
	n   uint
}

// write appends the b low bits of v, b at most 56.
func (w *bitWriter) write(v uint64, b uint) {
	if w.n+b > 64 {
		// The whole bytes of acc go to buf: all 8 are appended, and those
		// not whole taken back.
		w.buf = binary.LittleEndian.AppendUint64(w.buf, w.acc)
		w.buf = w.buf[:len(w.buf)-8+int(w.n/8)]
		w.acc >>= w.n &^ 7
		w.n &= 7
	}
	w.acc |= (v & (1<<b - 1)) << w.n
	w.n += b
}

// rice appends v as a Rice code with parameter k, at most 63.
func (w *bitWriter) rice(v uint64, k uint) {
	q := v >> k
	switch {
	case q < riceEscape && q+1+uint64(k) <= 56: // q ones, a zero, the k low bits: one write
		w.write(1<<q-1|v<<(q+1), uint(q)+1+k)
	case q < riceEscape:
		w.write(1<<q-1, uint(q)+1)
		w.write(v, min(k, 32))
		if k > 32 {
			w.write(v>>32, k-32)
		}
	default:
		w.write(1<<riceEscape-1, riceEscape)
		w.write(v, 32)
		w.write(v>>32, 32)
	}
}

// flush appends the bits left, the last byte padded with zeros.
func (w *bitWriter) flush() {
	for ; w.n > 0; w.n -= min(w.n, 8) {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
	}
	w.acc = 0
}

// A bitReader reads the bits a bitWriter wrote. Reading past the end of
// data sets bad and reads zeros, so that a torn or forged block is an
// error, never a panic.
type bitReader struct {
	data []byte
	pos  int    // the next byte of data to load
	acc  uint64 // bits loaded and not yet read, n of them
	n    uint
	bad  bool
}

// fill loads whole bytes into acc until it holds more than 56 bits or
// data ends. Where 8 bytes are left it loads them all as one word and
// counts those that fit whole: acc then holds bits past n, which later
// loads write again as they are, and which no read counts.
func (r *bitReader) fill() {
	if r.pos+8 <= len(r.data) {
		r.acc |= binary.LittleEndian.Uint64(r.data[r.pos:]) << r.n
		took := (63 - r.n) / 8
		r.pos += int(took)
		r.n += 8 * took
		return
	}
	for r.n <= 56 && r.pos < len(r.data) {
		r.acc |= uint64(r.data[r.pos]) << r.n
		r.pos++
		r.n += 8
	}
	r.acc &= 1<<r.n - 1 // nothing past n: the unread bits are all there is (end)
}

// read returns the next b bits, b at most 56.
func (r *bitReader) read(b uint) uint64 {
	if r.n < b {
		r.fill()
		if r.n < b {
			r.bad = true
			return 0
		}
	}
	v := r.acc & (1<<b - 1)
	r.acc >>= b
	r.n -= b
	return v
}

// rice reads a value bitWriter.rice wrote with parameter k.
func (r *bitReader) rice(k uint) uint64 {
	if r.n < 57 {
		r.fill()
	}
	// The usual code: its ones, its zero and its low bits all loaded.
	if q := uint(bits.TrailingZeros64(^r.acc)); q+1+k <= r.n && q < riceEscape {
		v := uint64(q)<<k | r.acc>>(q+1)&(1<<k-1)
		r.acc >>= q + 1 + k
		r.n -= q + 1 + k
		return v
	}
	q := uint(0)
	for {
		if r.n == 0 {
			r.fill()
			if r.n == 0 {
				r.bad = true
				return 0
			}
		}
		// None of the bits past n count, loaded ahead or not.
		ones := min(uint(bits.TrailingZeros64(^r.acc)), r.n)
		if q+ones >= riceEscape { // an escape: riceEscape ones, then 64 bits
			r.acc >>= riceEscape - q
			r.n -= riceEscape - q
			return r.read(32) | r.read(32)<<32
		}
		if ones < r.n { // the zero that ends the unary is loaded
			q += ones
			r.acc >>= ones + 1
			r.n -= ones + 1
			break
		}
		q += r.n
		r.acc, r.n = 0, 0
	}
	v := uint64(q) << k
	if k > 32 {
		return v | r.read(32) | r.read(k-32)<<32
	}
	return v | r.read(k)
}

// end reports whether the reader read all of data, but for the zero bits
// that pad its last byte.
func (r *bitReader) end() bool {
	return !r.bad && r.pos == len(r.data) && r.n < 8 && r.acc == 0
}

// riceParam returns the Rice parameter that codes values of the given sum
// and number in the fewest bits, about log2 of their mean.
func riceParam(sum uint64, n int) uint {
	if n == 0 || sum == 0 {
		return 0
	}
	mean := sum / uint64(n)
	if mean == 0 {
		return 0
	}
	return uint(min(63, bits.Len64(mean)-1))
}

// zigzag maps 0, -1, 1, -2, 2, ... to 0, 1, 2, 3, 4, ...
func zigzag(d int) uint64 {
	if d < 0 {
		return uint64(-2*d - 1)
	}
	return uint64(2 * d)
}

// unzigzag inverts zigzag.
func unzigzag(u uint64) int {
	if u&1 != 0 {
		return -int(u>>1) - 1
	}
	return int(u >> 1)
}

// encodeRice appends to dst the body of a Rice block of the states in
// order (their values, sorted) with their limbs in entries (stride words
// a state, the key first).
func encodeRice(dst []byte, order []sortable, entries []uint64, stride int) []byte {
	var sum uint64
	for i := 1; i < len(order); i++ {
		sum += order[i].h - order[i-1].h
	}
	dst = binary.LittleEndian.AppendUint64(dst, order[0].h)
	kd := riceParam(sum, len(order)-1)
	dst = append(dst, byte(kd))
	var codes [8]limbCode
	lc := codes[:0]
	for j := 1; j < stride; j++ {
		// The middle length of limb j, and the Rice parameter of the
		// distances from it.
		var lengths [65]int
		for _, s := range order {
			lengths[bits.Len64(entries[s.at+j])]++
		}
		mid, seen := 0, 0
		for l, c := range lengths {
			if seen += c; 2*seen >= len(order) {
				mid = l
				break
			}
		}
		var far uint64
		for l, c := range lengths {
			far += uint64(c) * zigzag(l-mid)
		}
		c := limbCode{riceParam(far, len(order)), mid}
		lc = append(lc, c)
		dst = append(dst, byte(c.k), byte(c.mid))
	}
	w := bitWriter{buf: dst}
	for i, s := range order {
		if i > 0 {
			w.rice(s.h-order[i-1].h, kd)
		}
		for j, limb := range entries[s.at+1 : s.at+stride] {
			l := bits.Len64(limb)
			w.rice(zigzag(l-lc[j].mid), lc[j].k)
			if l > 1 { // the top bit goes without saying
				w.write(limb, min(uint(l-1), 32))
				if l > 33 {
					w.write(limb>>32, uint(l-33))
				}
			}
		}
	}
	w.flush()
	return w.buf
}

// decodeRice fills entries (states of stride words) from the body of a
// Rice block, in key order o. Its loop reads the usual codes itself, from
// a word of bits in a local variable, and leaves the rest to a bitReader:
// through the reader's methods, each code loaded and stored the reader's
// fields, and decoding took 27 to 31 ns a state (BenchmarkDecodeBlock)
// against 23 to 25.
func decodeRice(body []byte, entries []uint64, stride int, o Order) error {
	head := riceHead(stride)
	if len(body) < head {
		return fmt.Errorf("%w: a layer block of %d bytes, short of its head", ErrCorrupt, len(body))
	}
	last := binary.LittleEndian.Uint64(body)
	kd := uint(body[8])
	var codes [8]limbCode
	lc := codes[:0]
	if stride-1 > len(codes) {
		lc = make([]limbCode, 0, stride-1)
	}
	for j := 1; j < stride; j++ {
		lc = append(lc, limbCode{uint(body[7+2*j]), int(body[8+2*j])})
	}
	if kd > 63 || slices.ContainsFunc(lc, func(c limbCode) bool { return c.k > 63 || c.mid > 64 }) {
		return fmt.Errorf("%w: a layer block with codes % x", ErrCorrupt, body[8:head])
	}
	data := body[head:]
	r := bitReader{data: data} // for what the loop leaves to it
	var acc uint64             // bits loaded and not yet read, n of them
	var n uint
	pos := 0 // the next byte of data to load
	for i := 0; i < len(entries); i += stride {
		for j := i; j < i+stride; j++ {
			if j == 0 {
				entries[0] = o.key(last)
				continue
			}
			if n < 57 && pos+8 <= len(data) { // as bitReader.fill
				acc |= binary.LittleEndian.Uint64(data[pos:]) << n
				took := (63 - n) / 8
				pos += int(took)
				n += 8 * took
			}
			var c limbCode
			k := kd
			if j > i {
				c = lc[j-i-1]
				k = c.k
			}
			var v uint64
			if q := uint(bits.TrailingZeros64(^acc)); q+1+k <= n && q < riceEscape {
				v = uint64(q)<<k | acc>>(q+1)&(1<<k-1)
				acc >>= q + 1 + k
				n -= q + 1 + k
			} else {
				r.pos, r.acc, r.n = pos, acc, n
				v = r.rice(k)
				pos, acc, n = r.pos, r.acc, r.n
			}
			if j == i { // the difference from the last state's value
				if v == 0 || last+v < last {
					return fmt.Errorf("%w: a layer block's states out of order", ErrCorrupt)
				}
				last += v
				entries[i] = o.key(last)
				continue
			}
			l := c.mid + unzigzag(v) // the length of the limb
			var limb uint64
			switch {
			case l < 0 || l > 64:
				return fmt.Errorf("%w: a count of %d bits in a layer block", ErrCorrupt, l)
			case l == 1:
				limb = 1
			case l > 1:
				b := uint(l - 1) // the bits below its top one
				if n < b && pos+8 <= len(data) {
					acc |= binary.LittleEndian.Uint64(data[pos:]) << n
					took := (63 - n) / 8
					pos += int(took)
					n += 8 * took
				}
				if b <= n {
					limb = acc & (1<<b - 1)
					acc >>= b
					n -= b
				} else {
					r.pos, r.acc, r.n = pos, acc, n
					limb = r.read(min(b, 32))
					if b > 32 {
						limb |= r.read(b-32) << 32
					}
					pos, acc, n = r.pos, r.acc, r.n
				}
				limb |= 1 << b
			}
			entries[j] = limb
		}
		if r.bad {
			return fmt.Errorf("%w: a layer block ends after %d of %d states", ErrCorrupt, i/stride, len(entries)/stride)
		}
	}
	r.pos, r.acc, r.n = pos, acc, n
	if !r.end() {
		return fmt.Errorf("%w: a layer block holds more than its states", ErrCorrupt)
	}
	return nil
}
