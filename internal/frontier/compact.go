package frontier

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// Layers on disk are compact: 16 bytes a state in memory (a key and a
// count) take about 5.5 on disk. Within a group, the states are sorted by
// their keys' hashes (hashKey is a bijection, so a hash stands for its
// key) and cut into blocks of chunkStates states, the pieces the next step
// reads one at a time. A block holds its length in bytes and then, for
// each state, the difference from the last hash and the limbs of its
// count, all as unsigned varints: the hashes of a group are spread evenly,
// so the differences take about log2(2^64 / states) bits, 4 bytes for a
// layer of 1.5 billion, and counts are mostly small (8x8 from the corner,
// after square 43: 1.5 bytes on average). A layer takes about a third of
// the disk and of the disk's bandwidth it took as raw entries, which is
// what lets the widest layers of 8 rows fit on a disk of 80 GB.
//
// Sorting and coding cost time: 7x7 from the corner with its layers on
// disk took 17% longer with every layer compact (110 s against 94, and
// 0.41 GB of disk at the peak against 0.84). So only layers expected to
// hold compactStates or more are compact, where disk is what runs short.

// compactStates is the size of the smallest layer kept compact on disk.
const compactStates = 1 << 26

// unhashKey inverts hashKey.
func unhashKey(h uint64) uint64 {
	h ^= h>>31 ^ h>>62
	h *= 0x319642b2d24d8ec3 // the inverse of 0x94d049bb133111eb modulo 2^64
	h ^= h>>27 ^ h>>54
	h *= 0x96de1b173f119089 // the inverse of 0xbf58476d1ce4e5b9
	return h ^ h>>30 ^ h>>60
}

// encoder turns groups of entries into blocks; each worker has its own.
type encoder struct {
	order, spare []sortable
	starts       []int32 // bucket starts, for sortByHash
	buf          []byte
}

// sortable is an entry's hash and its place in the group.
type sortable struct {
	h  uint64
	at int
}

// encode returns the blocks of the group of entries (stride words each),
// and the offset of each block from the first; the slices are the
// encoder's, valid until its next call.
func (e *encoder) encode(entries []uint64, stride int) (data []byte, blocks []int64) {
	n := len(entries) / stride
	e.order = e.order[:0]
	for i := range n {
		e.order = append(e.order, sortable{hashKey(entries[i*stride]), i * stride})
	}
	e.sortByHash()
	e.buf = e.buf[:0]
	var body []byte
	for lo := 0; lo < n; lo += chunkStates {
		blocks = append(blocks, int64(len(e.buf)))
		body = body[:0]
		last := uint64(0)
		for _, s := range e.order[lo:min(n, lo+chunkStates)] {
			body = binary.AppendUvarint(body, s.h-last)
			last = s.h
			for _, limb := range entries[s.at+1 : s.at+stride] {
				body = binary.AppendUvarint(body, limb)
			}
		}
		e.buf = binary.AppendUvarint(e.buf, uint64(len(body)))
		e.buf = append(e.buf, body...)
	}
	return e.buf, blocks
}

// sortByHash orders e.order by hash. The hashes of a group are spread
// evenly over all 64 bits, so one counting pass on their top bits, into
// about as many buckets as there are states, leaves buckets of one or two
// states to order among themselves: several times quicker than a
// comparison sort (BenchmarkEncode), which took a third of the time of
// packing a layer to disk. A bucket that is large all the same, were the
// hashes ever to cluster, gets a comparison sort of its own.
func (e *encoder) sortByHash() {
	n := len(e.order)
	width := uint(bits.Len(uint(n)))
	shift := 64 - width
	if cap(e.starts) < 1<<width+1 {
		e.starts = make([]int32, 1<<width+1)
	}
	starts := e.starts[:1<<width+1]
	clear(starts)
	for _, s := range e.order {
		starts[s.h>>shift+1]++
	}
	for b := 1; b < len(starts); b++ {
		starts[b] += starts[b-1]
	}
	if cap(e.spare) < n {
		e.spare = make([]sortable, n)
	}
	out := e.spare[:n]
	for _, s := range e.order {
		b := s.h >> shift
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

// decodeBlock fills entries (states of stride words) from the block at
// the start of data, which holds at least its length and body, and
// returns the bytes the block took.
func decodeBlock(data []byte, entries []uint64, stride int) (int, error) {
	size, head := binary.Uvarint(data)
	if head <= 0 || size > uint64(len(data)-head) {
		return 0, fmt.Errorf("%w: a layer block of %d bytes in %d", ErrCheckpoint, size, len(data)-head)
	}
	body := data[head : head+int(size)]
	last := uint64(0)
	for i := 0; i < len(entries); i += stride {
		d, m := binary.Uvarint(body)
		if m <= 0 {
			return 0, fmt.Errorf("%w: a layer block ends after %d of %d states", ErrCheckpoint, i/stride, len(entries)/stride)
		}
		body = body[m:]
		last += d
		entries[i] = unhashKey(last)
		for j := i + 1; j < i+stride; j++ {
			limb, m := binary.Uvarint(body)
			if m <= 0 {
				return 0, fmt.Errorf("%w: a layer block ends in a count", ErrCheckpoint)
			}
			body = body[m:]
			entries[j] = limb
		}
	}
	if len(body) != 0 {
		return 0, fmt.Errorf("%w: a layer block holds %d bytes more than its states", ErrCheckpoint, len(body))
	}
	return head + int(size), nil
}
