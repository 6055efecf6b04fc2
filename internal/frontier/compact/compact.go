// Package compact writes the groups of states of a layer file compact, and
// reads them back: 16 bytes a state in memory (a key and a count) take 5
// to 9 on disk. Within a group, the states are sorted by a bijection of
// their keys, the group's key order (Order), and cut into blocks of
// BlockStates states, the pieces a step reads one at a time. A block
// holds its length in bytes and then its states: the first one's value,
// and for each the difference from the last value and the limbs of its
// count, as Rice codes (Rice; files written before them hold every value
// and limb as an unsigned varint, Varint). The order is the bijection
// that chose the group: mix.Hash for a buffered step's groups, the
// board's Mixer for a lean step's. The values of a group then share their top bits and are spread
// evenly below them, so the differences take about log2(span / states)
// bits, where span is what the group's values range over: 2^44 for a
// group of 8x8 (61-bit mixes, 2^17 groups), about 4 bytes for 20,000
// states, where the full 64 bits of a hash would take 7. Counts are mostly
// small (8x8 from the corner, after square 43: 1.5 bytes on average). A
// layer takes about a third of the disk and of the disk's bandwidth it
// took as raw entries, which is what lets the widest layers of 8 rows fit
// on a disk of 80 GB.
//
// Sorting and coding cost time: 7x7 from the corner with its layers on
// disk took 17% longer with every layer compact (110 s against 94, and
// 0.41 GB of disk at the peak against 0.84), and they took a quarter of
// the time of the buffered steps of 8x9 in passes (perf, square 39). So
// a count makes compact only the layers that its disk could run short of.
package compact

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// keepStates is the most states a group may have for the buffers that
// pack it to stay for the next (Encoder.Encode).
const keepStates = 1 << 16

// ErrCorrupt reports a block that is not one Encode wrote: torn,
// truncated or forged.
var ErrCorrupt = errors.New("layer file corrupt")

// An Order is the bijection on keys that orders the states of a compact
// group: mix.Hash (the zero Order) or a board's Mixer (MixOrder).
type Order struct{ m *mix.Mixer }

// MixOrder returns the Order of the mixes of m.
func MixOrder(m *mix.Mixer) Order { return Order{m} }

// BlockStates is how many states a block holds, all but a group's last:
// a reader of a group decodes it a block at a time.
const BlockStates = 1 << 12

// value returns key's place in the order.
func (o Order) value(key uint64) uint64 {
	if o.m == nil {
		return mix.Hash(key)
	}
	return o.m.Mix(key)
}

// key inverts value.
func (o Order) key(value uint64) uint64 {
	if o.m == nil {
		return mix.Unhash(value)
	}
	return o.m.Unmix(value)
}

// String names the order as a checkpoint does: "hash" or "mix".
func (o Order) String() string {
	if o.m == nil {
		return "hash"
	}
	return "mix"
}

// An Encoder turns groups of entries into blocks, keeping its buffers
// from one group to the next; each worker has its own.
type Encoder struct {
	order, spare []sortable
	starts       []int32 // bucket starts, for sortByValue
	buf          []byte
	body         []byte // one block's body, before its length goes in front
	blocks       []int64
}

// sortable is an entry's value in the key order and its place in the
// group.
type sortable struct {
	h  uint64
	at int
}

// Encode returns the blocks of the group of entries (stride words each),
// in key order o and coding c, and the offset of each block from the
// first; the slices are the Encoder's, valid until its next call.
func (e *Encoder) Encode(entries []uint64, stride int, o Order, c Coding) (data []byte, blocks []int64) {
	n := len(entries) / stride
	e.order = e.order[:0]
	for i := range n {
		e.order = append(e.order, sortable{o.value(entries[i*stride]), i * stride})
	}
	e.sortByValue()
	e.buf = e.buf[:0]
	blocks = e.blocks[:0]
	body := e.body
	for lo := 0; lo < n; lo += BlockStates {
		blocks = append(blocks, int64(len(e.buf)))
		body = body[:0]
		if c == Rice {
			body = encodeRice(body, e.order[lo:min(n, lo+BlockStates)], entries, stride)
		} else {
			last := uint64(0)
			for _, s := range e.order[lo:min(n, lo+BlockStates)] {
				body = binary.AppendUvarint(body, s.h-last)
				last = s.h
				for _, limb := range entries[s.at+1 : s.at+stride] {
					body = binary.AppendUvarint(body, limb)
				}
			}
		}
		e.buf = binary.AppendUvarint(e.buf, uint64(len(body)))
		e.buf = append(e.buf, body...)
	}
	// Kept: new ones for every group were most of a step's garbage (8x10
	// from the corner: 3 GB in 5 minutes). But not those of a giant group:
	// groups are made by demand, and one can hold millions of states,
	// whose buffers (40 bytes a state) would stay for the rest of the
	// count beside its states (8x10: 170 MB of the 570 MB the heap held).
	e.body, e.blocks = body, blocks
	data = e.buf
	if n > keepStates {
		*e = Encoder{}
	}
	return data, blocks
}

// sortByValue orders e.order by value. The values of a group are spread
// evenly over what they range over, so one counting pass on the top bits
// of that range, into about as many buckets as there are states, leaves
// buckets of one or two states to order among themselves: several times
// quicker than a comparison sort (BenchmarkEncode), which took a third of
// the time of packing a layer to disk. A bucket that is large all the
// same, were the values ever to cluster, gets a comparison sort of its
// own.
func (e *Encoder) sortByValue() {
	n := len(e.order)
	if n < 2 {
		return
	}
	lo, hi := e.order[0].h, e.order[0].h
	for _, s := range e.order {
		lo, hi = min(lo, s.h), max(hi, s.h)
	}
	width := uint(bits.Len(uint(n)))
	shift := uint(max(0, bits.Len64(hi-lo)-int(width)))
	if cap(e.starts) < 1<<width+1 {
		e.starts = make([]int32, 1<<width+1)
	}
	starts := e.starts[:1<<width+1]
	clear(starts)
	for _, s := range e.order {
		starts[(s.h-lo)>>shift+1]++
	}
	for b := 1; b < len(starts); b++ {
		starts[b] += starts[b-1]
	}
	if cap(e.spare) < n {
		e.spare = make([]sortable, n)
	}
	out := e.spare[:n]
	for _, s := range e.order {
		b := (s.h - lo) >> shift
		out[starts[b]] = s
		starts[b]++
	}
	// starts[b] is now where bucket b ends, and bucket b begins where
	// bucket b-1 ends.
	from := 0
	for _, end := range starts[:1<<width] {
		bucket := out[from:end]
		from = int(end)
		switch {
		case len(bucket) < 2:
		case len(bucket) <= 16:
			for i := 1; i < len(bucket); i++ {
				for j := i; j > 0 && bucket[j].h < bucket[j-1].h; j-- {
					bucket[j], bucket[j-1] = bucket[j-1], bucket[j]
				}
			}
		default:
			slices.SortFunc(bucket, func(a, b sortable) int { return cmp.Compare(a.h, b.h) })
		}
	}
	e.order, e.spare = out, e.order
}

// Decode fills entries (states of stride words) from the block at the
// start of data, in key order o and coding c, and returns the bytes the
// block took. data holds at least the block's length and body; a block
// that does not fill entries exactly, or that is cut short, returns an
// error that wraps ErrCorrupt.
func Decode(data []byte, entries []uint64, stride int, o Order, c Coding) (int, error) {
	size, head := binary.Uvarint(data)
	if head <= 0 || size > uint64(len(data)-head) {
		return 0, fmt.Errorf("%w: a layer block of %d bytes in %d", ErrCorrupt, size, len(data)-head)
	}
	body := data[head : head+int(size)]
	if c == Rice {
		if err := decodeRice(body, entries, stride, o); err != nil {
			return 0, err
		}
		return head + int(size), nil
	}
	last := uint64(0)
	for i := 0; i < len(entries); i += stride {
		d, m := readUvarint(body)
		if m <= 0 {
			return 0, fmt.Errorf("%w: a layer block ends after %d of %d states", ErrCorrupt, i/stride, len(entries)/stride)
		}
		body = body[m:]
		last += d
		entries[i] = o.key(last)
		for j := i + 1; j < i+stride; j++ {
			limb, m := readUvarint(body)
			if m <= 0 {
				return 0, fmt.Errorf("%w: a layer block ends in a count", ErrCorrupt)
			}
			body = body[m:]
			entries[j] = limb
		}
	}
	if len(body) != 0 {
		return 0, fmt.Errorf("%w: a layer block holds %d bytes more than its states", ErrCorrupt, len(body))
	}
	return head + int(size), nil
}

// readUvarint is binary.Uvarint without a branch on each byte: where the
// varint ends within the next 8 bytes, as all but the widest do, it loads
// them as one word, finds the end by the first clear top bit, and packs
// the 7-bit groups together in three steps. A pass reads three varints a
// state of every block of the layer, of lengths that vary at random,
// where binary.Uvarint branches on every byte: BenchmarkDecodeBlock took
// 32 to 37 ns a state against 34 to 42.
func readUvarint(b []byte) (uint64, int) {
	if len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if stops := ^x & 0x8080808080808080; stops != 0 {
			n := bits.TrailingZeros64(stops)/8 + 1
			x &= 1<<(8*n) - 1 // 0 - 1 for all 8 bytes: every bit
			x &= 0x7f7f7f7f7f7f7f7f
			x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
			x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
			x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
			return x, n
		}
	}
	return binary.Uvarint(b)
}
