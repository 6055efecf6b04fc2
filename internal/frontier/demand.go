package frontier

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/euler1758/knightstour/internal/pool"
)

// A demand is the degree-only view of a counting state: for each window
// square, how many more edges it needs (0, 1 or 2), and the z-state,
// packed as the squares needing one (bits 0..16), the squares needing two
// (bits 17..33) and z (from bit 34). It forgets which ends are joined, so
// many counting states share one demand.
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
const (
	demandTwoShift = 17
	demandZShift   = 34
	demandMask     = 1<<demandTwoShift - 1
)

func packDemand(one, two uint32, z int) uint64 {
	return uint64(one) | uint64(two)<<demandTwoShift | uint64(z)<<demandZShift
}

// unpackDemand inverts packDemand.
func unpackDemand(d uint64) (one, two uint32, z int) {
	return uint32(d & demandMask), uint32(d >> demandTwoShift & demandMask), int(d >> demandZShift)
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
			_ = freeWords(fl.words) // refused, the pages stay mapped: nothing to undo
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

// demandChoices is the most demands one step makes from one: square v
// takes no edge, one of four, or two of four.
const demandChoices = 11

// demandStep adds square v to the demand d (the demand after square v-1)
// in every way the counting step could, and writes to out each demand
// after v that passes the same checks as the counting step's finish,
// returning how many. After the last square, it writes 0 for each way
// that ends a tour.
func (r *counter) demandStep(v int, d uint64, notEnd *[4]uint32, out *[demandChoices]uint64) int {
	f, st := r.f, &r.f.shifts[v]
	s := uint(f.slots)
	one, two, z := unpackDemand(d)
	room := 2
	if v == r.start {
		one |= 1 << s // the start's other edge goes to z
		room = 1
	} else {
		two |= 1 << s
	}
	var cand [4]uint32
	nc := 0
	for _, p := range st.back[:st.nback] {
		if (one|two)>>p&1 != 0 {
			cand[nc] = 1 << p
			nc++
		}
	}
	n := 0
	if c, ok := r.settle(v, one, two, z, notEnd); ok {
		out[n] = c
		n++
	}
	self := uint32(1) << s
	for i := range nc {
		o, t := takeEdge(one, two, self|cand[i])
		if c, ok := r.settle(v, o, t, z, notEnd); ok {
			out[n] = c
			n++
		}
		if room < 2 {
			continue
		}
		for j := i + 1; j < nc; j++ {
			o2, t2 := takeEdge(o, t, self|cand[j])
			if c, ok := r.settle(v, o2, t2, z, notEnd); ok {
				out[n] = c
				n++
			}
		}
	}
	return n
}

// takeEdge takes one from the demands of the two ends of an edge, the
// bits of m.
func takeEdge(one, two, m uint32) (uint32, uint32) {
	// A square needing two now needs one; one needing one, none.
	return one ^ m, two &^ m
}

// settle applies the checks of the counting step's finish to the demands
// of positions 0..slots after square v took its edges, and retires the
// squares with no later neighbour, each taking an edge from z. It returns
// the demand after v, or 0 after the last square, and false where no tour
// can follow.
func (r *counter) settle(v int, one, two uint32, z int, notEnd *[4]uint32) (uint64, bool) {
	st := &r.f.shifts[v]
	if two&st.retire != 0 || bits.OnesCount32(two&st.thin) > zLeft[z] || two&st.thin&notEnd[z] != 0 {
		return 0, false
	}
	for m := one & st.retire; m != 0; m &= m - 1 {
		p := bits.TrailingZeros32(m)
		if zLeft[z] == 0 || notEnd[z]>>p&1 != 0 {
			return 0, false
		}
		z = r.zAfter(z, st.black>>p&1)
	}
	if bits.OnesCount32(two&st.thin) > zLeft[z] {
		return 0, false
	}
	if v == r.f.n-1 {
		return 0, zLeft[z] == 0
	}
	return packDemand(st.shiftMask(one&^st.retire), st.shiftMask(two), z), true
}

// endsBoard reports whether a tour can end with demand d, as it does when
// the board is cut after the square d follows (endBoard): no square needs
// two more edges, and the squares needing one are the path's ends still
// to join z.
func endsBoard(d uint64) bool {
	one, two, z := unpackDemand(d)
	return two == 0 && bits.OnesCount32(one) == zLeft[z]
}

// viability runs the demand passes: forward from the first demand to find
// those that occur, then backward to keep those that can be finished.
// Where no tour exists at all, no demand after the first square is
// viable, and the count drops every state.
func (r *counter) viability(ctx context.Context, first uint64) (*viability, error) {
	occur := make([]demandList, r.f.n) // occur[v]: the demands after square v
	defer func() {
		for i := range occur {
			occur[i].free()
		}
	}()
	gather, err := r.demandsForward(ctx, first, occur)
	if err != nil {
		return nil, err
	}
	return r.demandsBackward(ctx, occur, gather)
}

// demandsForward finds, square by square from the first, the demands the
// squares added so far can leave (occur[v] after square v). It returns its
// buffer, for the backward pass to reuse.
func (r *counter) demandsForward(ctx context.Context, first uint64, occur []demandList) ([]uint64, error) {
	f, workers := r.f, r.cfg.Workers
	var made chunkBufs
	var gather []uint64 // a square's demands, before they are kept at their size
	seen := newKeySet(0)
	cur := []uint64{first}
	for v := range f.n - 1 {
		notEnd := r.notEnd(&f.shifts[v])
		bufs := made.ready(chunksOf(len(cur)))
		err := inChunks(ctx, len(cur), workers, func(c, lo, hi int) {
			var out [demandChoices]uint64
			buf := bufs[c]
			for _, d := range cur[lo:hi] {
				n := r.demandStep(v, d, &notEnd, &out)
				buf = append(buf, out[:n]...)
			}
			bufs[c] = buf
		})
		if err != nil {
			return nil, err
		}
		seen.reset(len(cur))
		gather = gather[:0]
		for _, buf := range bufs {
			if err := ctx.Err(); err != nil { // millions of demands, a chunk at a time
				return nil, err
			}
			for _, d := range buf {
				if seen.add(d) {
					gather = append(gather, d)
				}
			}
		}
		occur[v] = keepDemands(gather)
		if !r.mem.grab(int64(len(gather)) * 8) {
			return nil, r.demandMemoryError(v)
		}
		cur = occur[v].ds
		r.demanded.Add(1)
	}
	return gather, nil
}

// demandsBackward keeps, square by square from the last, the demands after
// each square from which the rest of the board can still be finished: the
// filters the count drops states by.
func (r *counter) demandsBackward(ctx context.Context, occur []demandList, gather []uint64) (_ *viability, err error) {
	f, workers := r.f, r.cfg.Workers
	var kept chunkBufs
	// The backward pass looks up exact sets: a filter's false positives
	// would make more demands viable at each step back.
	vb := &viability{after: make([]*filter, f.n)}
	defer func() {
		if err != nil {
			vb.free()
		}
	}()
	vb.after[f.n-1] = newFilter([]uint64{0}, f.varies(f.n-1))
	after := newKeySet(1)
	after.add(0)
	for v := f.n - 1; v >= 1; v-- {
		notEnd := r.notEnd(&f.shifts[v])
		ds := occur[v-1].ds
		bufs := kept.ready(chunksOf(len(ds)))
		err := inChunks(ctx, len(ds), workers, func(c, lo, hi int) {
			var out [demandChoices]uint64
			live := bufs[c]
			for _, d := range ds[lo:hi] {
				n := r.demandStep(v, d, &notEnd, &out)
				for _, c := range out[:n] {
					if after.has(c) {
						live = append(live, d)
						break
					}
				}
			}
			bufs[c] = live
		})
		if err != nil {
			return nil, err
		}
		live := gather[:0]
		for _, k := range bufs {
			live = append(live, k...)
		}
		// With all lengths, a board cut after square v-1, the end of a
		// column, is finished there too: the demands it can end from are
		// viable whatever follows.
		if r.cfg.AllLengths && v%f.w == 0 {
			for _, d := range ds {
				if endsBoard(d) {
					live = append(live, d) // some twice: a filter and a keySet take that
				}
			}
		}
		gather = live
		vb.after[v-1] = newFilter(live, f.varies(v-1))
		if !r.mem.grab(int64(len(vb.after[v-1].words)) * 8) {
			return nil, r.demandMemoryError(v - 1)
		}
		after.reset(len(live))
		for i, d := range live {
			if i%(1<<16) == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			after.add(d)
		}
		r.mem.release(int64(len(ds)) * 8)
		occur[v-1].free()
		r.demanded.Add(1)
	}
	return vb, nil
}

// A demandList is the demands after one square, kept to the end of the
// backward pass: tens of millions of them a square on 8 rows.
type demandList struct {
	ds     []uint64
	mapped bool // from allocWords, as a large filter is (see filter.mapped)
}

// keepDemands returns a copy of ds at its size, from the kernel when it
// is large: on the Go heap, the collector would let as much garbage grow
// beside the lists before it ran, memory no limit sees.
func keepDemands(ds []uint64) demandList {
	if len(ds) >= mappedFilterWords {
		if w, err := allocWords(len(ds)); err == nil {
			copy(w, ds)
			return demandList{ds: w, mapped: true}
		}
	}
	return demandList{ds: append([]uint64(nil), ds...)}
}

// free gives back the list's memory; it may be called again.
func (l *demandList) free() {
	if l.mapped {
		_ = freeWords(l.ds) // refused, the pages stay mapped: nothing to undo
	}
	*l = demandList{}
}

// chunkBufs holds a buffer for each chunk of a pass over the demands of a
// square (inChunks), kept from one square to the next, so that the passes
// do not leave their buffers' worth of garbage at every square.
type chunkBufs struct{ bufs [][]uint64 }

// ready returns empty buffers for chunks chunks; the pass's chunk c
// appends to the c-th.
func (cb *chunkBufs) ready(chunks int) [][]uint64 {
	for len(cb.bufs) < chunks {
		cb.bufs = append(cb.bufs, nil)
	}
	bufs := cb.bufs[:chunks]
	for i := range bufs {
		bufs[i] = bufs[i][:0]
	}
	return bufs
}

func (r *counter) demandMemoryError(v int) error {
	return fmt.Errorf("%w: the demands after square %d of %d take more than %d bytes; raise the memory limit (-memory, WithMemoryLimit) or use a machine with more memory",
		ErrMemoryLimit, v+1, r.f.n, r.mem.limit)
}

// chunkDemands is how many demands a worker takes at a time.
const chunkDemands = 1 << 12

func chunksOf(n int) int { return (n + chunkDemands - 1) / chunkDemands }

// inChunks calls fn on the chunks of 0..n, chunk c from lo to hi, on up
// to workers goroutines (the worker pool), and stops early if ctx is done.
func inChunks(ctx context.Context, n, workers int, fn func(c, lo, hi int)) error {
	return pool.Run(ctx, workers, chunksOf(n), func(_, c int) error {
		fn(c, c*chunkDemands, min(n, (c+1)*chunkDemands))
		return nil
	})
}

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
	// mapped says that words come from the kernel (allocWords), not the
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
		if w, err := allocWords(size); err == nil {
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
	h := hashKey(key)
	i := int(h >> 61) // the word in the line
	if fl.shift < 64 {
		i += int(hashKey(key&^fl.vary)>>fl.shift) * lineWords
	}
	return i, 1<<(h&63) | 1<<(h>>6&63)
}

func (fl *filter) has(key uint64) bool {
	i, m := fl.locate(key)
	return fl.words[i]&m == m
}

// varies returns the bits of the demands after square v that can differ
// between the demands that v makes from one demand: those of the new
// square and of its earlier neighbours (a demand after v has shifted them
// down by one), and z.
func (f *board) varies(v int) uint64 {
	st := &f.shifts[v]
	m := uint64(3) << demandZShift
	for _, p := range append([]int8{int8(f.slots)}, st.back[:st.nback]...) {
		if q := st.next[p]; q >= 0 {
			m |= (1<<demandTwoShift + 1) << q
		}
	}
	return m
}

// emptyKey marks a free slot of a keySet; no demand packs to it, as
// demands use at most 36 bits.
const emptyKey = ^uint64(0)

// keySet is a set of 64-bit keys other than emptyKey: open addressing with
// linear probing.
type keySet struct {
	slots []uint64
	n     int
}

func newKeySet(n int) *keySet {
	s := &keySet{}
	s.reset(n)
	return s
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

func (s *keySet) has(key uint64) bool {
	mask := uint64(len(s.slots) - 1)
	for i := hashKey(key) & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case key:
			return true
		case emptyKey:
			return false
		}
	}
}

// add inserts key and reports whether it was new.
func (s *keySet) add(key uint64) bool {
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, 2*len(old))
		for i := range s.slots {
			s.slots[i] = emptyKey
		}
		s.n = 0
		for _, k := range old {
			if k != emptyKey {
				s.add(k)
			}
		}
	}
	mask := uint64(len(s.slots) - 1)
	i := hashKey(key) & mask
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
