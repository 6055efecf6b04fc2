package frontier

import (
	"context"
	"iter"
	"math/bits"

	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/frontier/mix"
	"github.com/euler1758/knightstour/internal/pool"
)

// A demand is the degree-only view of a counting state: for each window
// square, how many more edges it needs (0, 1 or 2), and the z-state,
// packed as the squares needing one (bit p for window position p), the
// squares needing two (from bit board.demandShift) and z (from twice
// that). The shift is 17, or 18 on boards whose windows hold 18 squares.
// It forgets which ends are joined, so many counting states share one
// demand.
//
// Most counting states are dead ends: near the far end of the board only a
// few percent of them can still become a tour (on 6x6 from the corner,
// 96 thousand of the 1.7 million at the widest step). Whether the squares
// left can meet the demands is a far smaller question, with far fewer
// states, and a counting state whose demand cannot be met is dead. So
// CountDP first finds, by a forward and a backward pass over demands, the
// demands from which the rest of the board can be finished, and keeps only
// the counting states with such a demand: about an eighth of them at the
// widest step on 6x6.

// packDemand packs a demand from its squares needing one and two edges
// and its z-state.
func (f *board) packDemand(one, two uint32, z int) uint64 {
	return uint64(one) | uint64(two)<<f.demandShift | uint64(z)<<(2*f.demandShift)
}

// unpackDemand inverts packDemand.
func (f *board) unpackDemand(d uint64) (one, two uint32, z int) {
	mask := uint64(1)<<f.demandShift - 1
	return uint32(d & mask), uint32(d >> f.demandShift & mask), int(d >> (2 * f.demandShift))
}

// viability holds, for each square v, the demands after adding v from
// which the board can still be finished, ignoring how the pieces of path
// join.
type viability struct {
	after []*filter
}

// free returns the memory of the filters mapped from the kernel.
func (vb *viability) free() {
	if vb == nil {
		return
	}
	for i, fl := range vb.after {
		if fl != nil && fl.mapped {
			_ = memory.FreeWords(fl.words) // refused, the pages stay mapped: nothing to undo
		}
		vb.after[i] = nil
	}
}

// bytes is the memory the filters take; 0 for nil.
func (vb *viability) bytes() int64 {
	if vb == nil {
		return 0
	}
	var n int64
	for _, fl := range vb.after {
		n += int64(len(fl.words)) * 8
	}
	return n
}

// viable reports whether the demand d after square v can be finished; now
// and then it says yes to one that cannot (see filter).
func (vb *viability) viable(v int, d uint64) bool { return vb.after[v].has(d) }

// A demandList is the demands after one square, kept to the end of the
// backward pass: tens of millions of them a square on 8 rows, up to 57
// million on 9x9 from the corner (1.2 billion over its squares). It keeps
// each in 32 bits, two to a word, half what a packed demand takes: the
// need of each window square (0, 1 or 2) as a digit in base 3, and z
// (with pairBit, up to 7) above the digits of 18 squares (8*3^18 < 2^32).
type demandList struct {
	words  []uint64
	n      int
	shift  uint // the board's demandShift, to pack the demands again
	mapped bool // from AllocWords, as a large filter is (see filter.mapped)
}

// pow3x18 is 3^18, the numbers of the needs of 18 squares.
const pow3x18 = 387420489

// keepDemands returns a list of the demands of parts, one part after the
// other, from the kernel when it is large: on the Go heap, the collector
// would let as much garbage grow beside the lists before it ran, memory no
// limit sees.
func (f *board) keepDemands(parts ...[]uint64) demandList {
	n := 0
	for _, ds := range parts {
		n += len(ds)
	}
	l := demandList{n: n, shift: f.demandShift}
	size := (n + 1) / 2
	if size >= mappedFilterWords {
		if w, err := memory.AllocWords(size); err == nil {
			l.words, l.mapped = w, true
		}
	}
	if l.words == nil {
		l.words = make([]uint64, size)
	}
	mask := uint64(1)<<l.shift - 1
	i := 0
	for _, ds := range parts {
		for _, d := range ds {
			one, two, z := d&mask, d>>l.shift&mask, d>>(2*l.shift)
			code := z*pow3x18 + needsCode(uint32(one), uint32(two))
			l.words[i/2] |= code << (32 * uint(i%2))
			i++
		}
	}
	return l
}

// needsCode returns the needs of a demand's squares, one more edge at the
// bits of one and two at those of two, as a number in base 3: the first
// square's the lowest digit.
func needsCode(one, two uint32) uint64 {
	var c uint64
	for k := range 3 {
		s := 6 * uint(k)
		c += uint64(sixNeeds[one>>s&63|two>>s&63<<6]) * pow729[k]
	}
	return c
}

// pow729 is 729^k, the place of the needs of squares 6k..6k+5.
var pow729 = [3]uint64{1, 729, 729 * 729}

// at returns the i-th demand of l.
func (l *demandList) at(i int) uint64 {
	code := l.words[i/2] >> (32 * uint(i%2)) & 0xffffffff
	z, rest := code/pow3x18, code%pow3x18
	var one, two uint64
	for k := range 3 {
		t := uint64(sixDigits[rest%729])
		rest /= 729
		one |= t & 63 << (6 * k)
		two |= t >> 6 << (6 * k)
	}
	return one | two<<l.shift | z<<(2*l.shift)
}

// bytes is the memory the list takes.
func (l *demandList) bytes() int64 { return int64(len(l.words)) * 8 }

// free gives back the list's memory; it may be called again.
func (l *demandList) free() {
	if l.mapped {
		_ = memory.FreeWords(l.words) // refused, the pages stay mapped: nothing to undo
	}
	*l = demandList{}
}

// sixNeeds maps the needs of six squares, the squares needing one (bits
// 0..5) and those needing two (bits 6..11), to their number in base 3,
// the first square the lowest digit; sixDigits maps it back.
var sixNeeds, sixDigits = func() (n *[1 << 12]uint16, d *[729]uint16) {
	n, d = new([1 << 12]uint16), new([729]uint16)
	for v := range 729 {
		var bits uint16
		for i, x := 0, v; i < 6; i, x = i+1, x/3 {
			switch x % 3 {
			case 1:
				bits |= 1 << i
			case 2:
				bits |= 1 << (6 + i)
			}
		}
		n[bits], d[v] = uint16(v), bits
	}
	return n, d
}()

// filter is a set of keys that answers has with no false negatives and
// about 1% false positives (a Bloom filter of two bits a key, both in one
// 64-bit word, 32 bits a key): a fraction of the memory of a hash table.
// A false positive only keeps a state that a later step drops.
//
// The counting step asks about the up to eleven demands one state can
// make, which differ only in the squares the step joins and in z: the
// filter places a key's word in a line of eight words (a cache line) chosen by
// the key without those bits, so that the eleven questions wait for memory
// once, not eleven times.
type filter struct {
	words []uint64
	shift uint   // 64 - log2(lines); 64 for one line
	vary  uint64 // the bits that do not choose the line
	// mapped says that words come from the kernel (AllocWords), not the
	// Go heap: large filters, a gigabyte on 8x9, would let the collector
	// leave as much garbage beside them before it runs, memory the
	// count's limit does not see (8x9 at -memory 18G held 21 GB).
	mapped bool
}

// mappedFilterWords is the size from which a filter or a list of demands
// is mapped from the kernel.
const mappedFilterWords = 1 << 17

// lineWords is the words of a line of a filter: a cache line.
const lineWords = 8

func newFilter(keys []uint64, vary uint64) *filter {
	size := lineWords
	for size*64 < 32*len(keys) {
		size *= 2
	}
	fl := &filter{shift: uint(64 - bits.TrailingZeros(uint(size/lineWords))), vary: vary}
	if size >= mappedFilterWords {
		if w, err := memory.AllocWords(size); err == nil {
			fl.words, fl.mapped = w, true
		}
	}
	if fl.words == nil {
		fl.words = make([]uint64, size)
	}
	for _, key := range keys {
		i, m := fl.locate(key)
		fl.words[i] |= m
	}
	return fl
}

// locate returns the word and the two bits of key.
func (fl *filter) locate(key uint64) (int, uint64) {
	h := mix.Hash(key)
	i := int(h >> 61) // the word in the line
	if fl.shift < 64 {
		i += int(mix.Hash(key&^fl.vary)>>fl.shift) * lineWords
	}
	return i, 1<<(h&63) | 1<<(h>>6&63)
}

func (fl *filter) has(key uint64) bool {
	i, m := fl.locate(key)
	return fl.words[i]&m == m
}

// emptyKey marks a free slot of a keySet; no demand packs to it, as
// demands use at most 38 bits.
const emptyKey = ^uint64(0)

// keySet is a set of 64-bit keys other than emptyKey: open addressing with
// linear probing.
type keySet struct {
	slots []uint64
	n     int
}

// reset empties the set and sizes it for about n keys.
func (s *keySet) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if len(s.slots) < size || len(s.slots) > 8*size {
		s.slots = make([]uint64, size)
	}
	s.slots = s.slots[:cap(s.slots)]
	for i := range s.slots {
		s.slots[i] = emptyKey
	}
	s.n = 0
}

// has reports whether the set holds key, whose mix.Hash is h.
func (s *keySet) has(key, h uint64) bool {
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case key:
			return true
		case emptyKey:
			return false
		}
	}
}

// add inserts key, whose mix.Hash is h, and reports whether it was new.
func (s *keySet) add(key, h uint64) bool {
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, 2*len(old))
		for i := range s.slots {
			s.slots[i] = emptyKey
		}
		s.n = 0
		for _, k := range old {
			if k != emptyKey {
				s.add(k, mix.Hash(k))
			}
		}
	}
	mask := uint64(len(s.slots) - 1)
	i := h & mask
	for s.slots[i] != emptyKey {
		if s.slots[i] == key {
			return false
		}
		i = (i + 1) & mask
	}
	s.slots[i] = key
	s.n++
	return true
}

// keyShards is a keySet in parts, a key's part chosen by the top bits of
// its hash, so that workers fill the parts at once, each its own. The
// demand passes keep the demands of a square in one: a single keySet,
// filled by one worker, made their longest part that ran alone. On 8x8
// with free ends and all lengths, 2 workers, the forward pass took 3 min
// 1 s with one set, 2 min 3 to 6 s in 4 parts and 1 min 36 s in 16.
type keyShards [keyParts]keySet

// keyParts is the number of parts of a keyShards, and so the most workers
// that fill one at once. It is fixed, not the number of workers, so that
// the demands a pass gathers part by part come in the same order however
// many workers there are.
const keyParts = 1 << keyPartBits

const keyPartBits = 4

func keyPart(h uint64) int { return int(h >> (64 - keyPartBits)) }

// reset empties the set and sizes it for about n keys.
func (ks *keyShards) reset(n int) {
	for i := range ks {
		ks[i].reset(n / keyParts)
	}
}

func (ks *keyShards) has(key uint64) bool {
	h := mix.Hash(key)
	return ks[keyPart(h)].has(key, h)
}

// add inserts key and reports whether it was new: one key, where fill
// takes many on many workers.
func (ks *keyShards) add(key uint64) bool {
	h := mix.Hash(key)
	return ks[keyPart(h)].add(key, h)
}

// part returns the part of the set that holds key.
func (ks *keyShards) part(key uint64) int { return keyPart(mix.Hash(key)) }

// partPieces yields the keys of part i of lists, those of lists[j] for
// each j%keyParts == i, in order, in pieces of at most 1<<16: a fill looks
// at its context between pieces, as lists may hold millions.
func partPieces(lists [][]uint64, i int) iter.Seq[[]uint64] {
	return func(yield func([]uint64) bool) {
		for j := i; j < len(lists); j += keyParts {
			list := lists[j]
			for lo := 0; lo < len(list); lo += 1 << 16 {
				if !yield(list[lo:min(len(list), lo+1<<16)]) {
					return
				}
			}
		}
	}
}

// fill adds the keys of lists to the set, where lists[j] holds keys of
// part j%keyParts only (keyShards.part), a part on each of up to workers
// workers (the worker pool). Unless fresh is nil, it sets fresh[i] to the
// keys new to part i, in the order of lists, reusing its array. It stops
// early if ctx is done.
func (ks *keyShards) fill(ctx context.Context, workers int, lists [][]uint64, fresh *[keyParts][]uint64) error {
	return fillParts(ctx, workers, lists, fresh, nil, func(i int, piece, out []uint64, keep bool) []uint64 {
		s := &ks[i]
		for _, k := range piece {
			if s.add(k, mix.Hash(k)) && keep {
				out = append(out, k)
			}
		}
		return out
	})
}

// fillParts fills a set of keyParts parts from lists, a part on each of
// up to workers workers (the worker pool): for part i, begin(i) unless
// begin is nil, then add on each piece of the part's keys (partPieces),
// which appends to out the keys new to the set where keep; fresh[i], unless
// fresh is nil, gets them, reusing its array. A piece, not a key, goes
// through the function value, so the sets' own loops stay tight. It stops
// early if ctx is done.
func fillParts(ctx context.Context, workers int, lists [][]uint64, fresh *[keyParts][]uint64, begin func(i int), add func(i int, piece, out []uint64, keep bool) []uint64) error {
	return pool.Run(ctx, workers, keyParts, func(_, i int) error {
		if begin != nil {
			begin(i)
		}
		var out []uint64
		if fresh != nil {
			out = fresh[i][:0]
		}
		for piece := range partPieces(lists, i) {
			if err := ctx.Err(); err != nil {
				return err
			}
			out = add(i, piece, out, fresh != nil)
		}
		if fresh != nil {
			fresh[i] = out
		}
		return nil
	})
}
