package frontier

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// The lean step keeps memory near one dense layer: each worker stages its
// new states per bucket of groups, a few hundred at a time, and adds them
// to the groups' hash tables under the bucket's lock; the tables are packed into
// dense groups when the step is done. Every insertion is a probe into a
// table far larger than the processor's cache, so the step reads ahead:
// see stager.flush.

// A table collects one group of the next layer: open addressing with
// linear probing. The top bits of a state's mix (see mix.Mixer) name its
// group, so a slot keeps only the bits below them (the mix is a bijection:
// it gives back the key). How a slot keeps the state's count is the
// table's layout (countLayout).
type table struct {
	slots []uint64
	size  int // slots
	n     int // entries
	// countBits is 64 less the bits of a mix below the group's: the
	// slot's bits for a count in the small layout, and the shift that
	// brings the bits of a mix below the group's to the top of a word,
	// where slot takes them.
	countBits uint
	k         int
	layout    countLayout
	wide      wideCounts
}

// A countLayout is how the slots of a table keep their states' counts.
type countLayout int8

const (
	// smallCounts keeps a slot in one word: the bits of the mix below the
	// group's, and in the countBits bits left over, the group's and those
	// no key uses, the state's count while it is below wideMark. A count
	// that outgrows them moves to the table's wide counts and leaves
	// wideMark in its slot. Where counts are mostly small (8x8 from the
	// corner, after square 44: 99.9% below 2^20) a state takes 8 bytes
	// where a key and a count took 16, and the same memory holds twice the
	// states: half the passes. A slot of zero is empty, since no count is
	// zero.
	smallCounts countLayout = iota
	// fullCounts keeps a slot in 1+k words: the bits of the mix below the
	// group's plus one (so that zero is empty), then the count's k limbs.
	// Counts grow with every square, and where most outgrow a slot's bits
	// each insertion waits for memory twice, for the slot and for the
	// wide count, and a state takes 8 bytes for its slot and 16 for its
	// wide count: in square 51 of 8x12 with free ends (21 bits for a
	// count), looking up wide counts took a quarter of the step's time.
	// See chooseLayout.
	fullCounts
)

// String names the layout.
func (l countLayout) String() string {
	switch l {
	case smallCounts:
		return "small counts"
	case fullCounts:
		return "full counts"
	}
	return fmt.Sprintf("countLayout(%d)", int(l))
}

// minCountBits is the fewest bits a slot gives a count: the lean step
// makes groups enough for them.
const minCountBits = 8

// maxLoad is the fill, in 1/16ths, at which a table grows, by half: with
// linear probing a search for a missing key gets slow as tables fill up,
// while a low fill wastes memory on every state.
const maxLoad = 13

// slotWords returns the words of a slot of a table of layout l with counts
// of k limbs.
func (l countLayout) slotWords(k int) int {
	if l == fullCounts {
		return 1 + k
	}
	return 1
}

// slot returns where the probe for a state of hash h starts, as a slot.
// Only the bits of h below the group's count, so a slot's own bits find
// it again.
func (t *table) slot(h uint64) int {
	hi, _ := bits.Mul64(h<<t.countBits, uint64(t.size))
	return int(hi)
}

// home returns the index in t.slots of the word where the probe for a
// state of hash h starts.
func (t *table) home(h uint64) int {
	return t.slot(h) * t.layout.slotWords(t.k)
}

// wideMark is the count in a slot whose count is among the wide ones.
func (t *table) wideMark() uint64 { return 1<<t.countBits - 1 }

// insertAt adds count val (k limbs) to the entry of the state of mix h,
// whose home is word i (home), making the entry if there is none, in a
// table with room for it (flush grows the table first). It reports a
// count too wide for k limbs, and false in ok if the wide counts could
// not grow within the memory limit.
func (t *table) insertAt(i int, h uint64, val []uint64, sp *memory.Space) (overflow, ok bool) {
	if t.layout == fullCounts {
		return t.insertFull(i, h, val), true
	}
	c, wide := t.settle(i, h, val)
	if !wide {
		return false, true
	}
	return t.wide.add(t.rem(h), c, val, sp)
}

// rem returns the bits of mix h that a slot of small counts keeps: those
// below the group's.
func (t *table) rem(h uint64) uint64 { return h << t.countBits >> t.countBits }

// settle is the part of insertAt in a table of small counts that touches
// only the slots: it adds val to the slot's count where the sum fits, and
// otherwise marks the slot wide and reports in wide that c and val are
// still to be added to the state's wide count (t.wide.add), c being the
// count the slot held. flush reads the wide counts ahead between the two.
func (t *table) settle(i int, h uint64, val []uint64) (c uint64, wide bool) {
	cb := t.countBits
	rem, mark := t.rem(h), t.wideMark()
	small := val[0] < mark
	for _, l := range val[1:t.k] {
		small = small && l == 0
	}
	for {
		s := t.slots[i]
		switch {
		case s == 0:
			t.n++
			if small {
				t.slots[i] = rem<<cb | val[0]
				return 0, false
			}
			t.slots[i] = rem<<cb | mark
			return 0, true
		case s>>cb != rem:
			if i++; i == t.size {
				i = 0
			}
			continue
		}
		c := s & mark
		switch {
		case c == mark:
			return 0, true
		case small && c+val[0] < mark:
			t.slots[i] = s + val[0]
			return 0, false
		}
		t.slots[i] = s | mark
		return c, true
	}
}

// insertFull is insertAt in a table of full counts.
func (t *table) insertFull(i int, h uint64, val []uint64) (overflow bool) {
	cb, k := t.countBits, t.k
	tag := h<<cb>>cb + 1
	end := t.size * (1 + k)
	for {
		switch t.slots[i] {
		case 0:
			t.n++
			t.slots[i] = tag
			copy(t.slots[i+1:i+1+k], val[:k])
			return false
		case tag:
			if k == 1 {
				var carry uint64
				t.slots[i+1], carry = bits.Add64(t.slots[i+1], val[0], 0)
				return carry != 0
			}
			return addLimbs(t.slots[i+1:i+1+k], val[:k])
		}
		if i += 1 + k; i == end {
			i = 0
		}
	}
}

// grow moves the table into one half as large again.
func (t *table) grow(sp *memory.Space) bool {
	old, oldSize := t.slots, t.size
	sw := t.layout.slotWords(t.k)
	words := (max(memory.PageWords, (oldSize+oldSize/2)*sw) + memory.PageWords - 1) / memory.PageWords * memory.PageWords
	slots, ok := sp.Alloc(words)
	if !ok {
		return false
	}
	size := words / sw
	t.slots, t.size = slots, size
	cb := t.countBits
	for at := 0; at < oldSize*sw; at += sw {
		s := old[at]
		if s == 0 {
			continue
		}
		rem := s >> cb // the bits of the mix below the group's
		if t.layout == fullCounts {
			rem = s - 1
		}
		j := t.slot(rem) * sw
		for slots[j] != 0 {
			if j += sw; j == size*sw {
				j = 0
			}
		}
		copy(slots[j:j+sw], old[at:at+sw])
	}
	if old != nil {
		sp.Give(old)
	}
	return true
}

// pack writes the table's entries, dense (a key and k limbs each), into
// dense, which holds exactly (1+k)*t.n words, and frees the table; g is
// the table's group and m the mixer of the keys.
func (t *table) pack(dense []uint64, g int, m mix.Mixer, sp *memory.Space) {
	stride := t.k + 1
	cb, mark := t.countBits, t.wideMark()
	top := uint64(g) << (64 - cb)
	j := 0
	if t.layout == fullCounts {
		for at := 0; at < t.size*stride; at += stride {
			if s := t.slots[at]; s != 0 {
				dense[j] = m.Unmix(top | (s - 1))
				copy(dense[j+1:j+stride], t.slots[at+1:at+stride])
				j += stride
			}
		}
		t.free(sp)
		return
	}
	for _, s := range t.slots[:t.size] {
		if s == 0 {
			continue
		}
		rem := s >> cb
		dense[j] = m.Unmix(top | rem)
		val := dense[j+1 : j+stride]
		if c := s & mark; c != mark {
			val[0] = c
			clear(val[1:])
		} else {
			copy(val, t.wide.entry(rem, t.k))
		}
		j += stride
	}
	t.free(sp)
}

func (t *table) free(sp *memory.Space) {
	if t.slots != nil {
		sp.Give(t.slots)
	}
	t.slots, t.size, t.n = nil, 0, 0
	t.wide.free(sp)
}

// wideCounts holds the counts of a table that outgrew their slots, each
// under the bits of its state's hash that its slot keeps: open addressing
// with linear probing over entries of 1+k words, the bits plus one (so
// that zeroed memory is all empty entries) and the limbs. They live in
// the pass's space, as the tables do.
type wideCounts struct {
	slots   []uint64
	size, n int
}

// add adds c and val (k limbs) to the count of rem, making it if there is
// none. It reports a count too wide for k limbs, and false in ok if it
// needed more memory than the limit leaves.
func (w *wideCounts) add(rem, c uint64, val []uint64, sp *memory.Space) (overflow, ok bool) {
	k := len(val)
	if 16*(w.n+1) > maxLoad*w.size && !w.grow(k, sp) {
		return false, false
	}
	e := w.entry(rem, k)
	if e == nil {
		e = w.make(rem, k)
	}
	var carry uint64
	e[0], carry = bits.Add64(e[0], c, 0)
	for i := 1; carry != 0 && i < k; i++ {
		e[i], carry = bits.Add64(e[i], 0, carry)
	}
	return carry != 0 || addLimbs(e, val), true
}

// home returns the first entry to look at for rem, as a word index.
func (w *wideCounts) home(rem uint64, k int) int {
	hi, _ := bits.Mul64(mix.Hash(rem), uint64(w.size))
	return int(hi) * (k + 1)
}

// entry returns the limbs of rem's count, or nil if it has none.
func (w *wideCounts) entry(rem uint64, k int) []uint64 {
	if w.size == 0 {
		return nil
	}
	stride, end := k+1, w.size*(k+1)
	for i := w.home(rem, k); ; {
		switch w.slots[i] {
		case 0:
			return nil
		case rem + 1:
			return w.slots[i+1 : i+stride]
		}
		if i += stride; i == end {
			i = 0
		}
	}
}

// make makes a zero count for rem, which has none, and returns its limbs.
func (w *wideCounts) make(rem uint64, k int) []uint64 {
	stride, end := k+1, w.size*(k+1)
	i := w.home(rem, k)
	for w.slots[i] != 0 {
		if i += stride; i == end {
			i = 0
		}
	}
	w.slots[i] = rem + 1
	w.n++
	return w.slots[i+1 : i+stride]
}

// reserve gives wide counts that have none room for n of them before
// they grow, in whole pages: where a table's wide counts are many, growing
// them from nothing moves each about twice, and each move waits for
// memory as an insertion does.
func (w *wideCounts) reserve(n, k int, sp *memory.Space) bool {
	words := wideWords(n, k)
	slots, ok := sp.Alloc(words)
	if !ok {
		return false
	}
	w.slots, w.size, w.n = slots, words/(k+1), 0
	return true
}

// wideWords returns the words reserve takes for n wide counts of k limbs.
func wideWords(n, k int) int {
	return (n*16/maxLoad*(k+1) + memory.PageWords - 1) / memory.PageWords * memory.PageWords
}

// grow moves the wide counts into one half as large again.
func (w *wideCounts) grow(k int, sp *memory.Space) bool {
	old, oldSize := w.slots, w.size
	stride := k + 1
	words := (max(memory.PageWords, (oldSize+oldSize/2)*stride) + memory.PageWords - 1) / memory.PageWords * memory.PageWords
	slots, ok := sp.Alloc(words)
	if !ok {
		return false
	}
	size := words / stride
	w.slots, w.size, w.n = slots, size, 0
	for i := 0; i < oldSize*stride; i += stride {
		if old[i] != 0 {
			copy(w.make(old[i]-1, k), old[i+1:i+stride])
		}
	}
	if old != nil {
		sp.Give(old)
	}
	return true
}

func (w *wideCounts) free(sp *memory.Space) {
	if w.slots != nil {
		sp.Give(w.slots)
	}
	w.slots, w.size, w.n = nil, 0, 0
}

// A worker gathers a batch of new states for one bucket of groups before
// it takes the bucket's lock and adds them to the groups' tables: 256,
// or, once the groups fill all maxStageBuckets buckets (layers of 16
// million states and more, whose tables are far larger than the
// processor's caches), 1024. A flush waits for memory once for each
// table a batch touches, to read its header, and its reads ahead overlap
// as many slots as the batch has states: four times the batch takes a
// fifth less time a state (BenchmarkLeanInsert), for 24 MiB more of staging
// buffers with 2 workers, while on small layers the buffers would weigh
// on the bytes a state.
const (
	stageEntries    = 256
	maxStageEntries = 1024
)

// stageBatch returns the batch of a stager with buckets buckets.
func stageBatch(buckets int) int {
	if buckets >= maxStageBuckets {
		return maxStageEntries
	}
	return stageEntries
}

// maxStageBuckets bounds the buckets a worker stages into. A worker
// writes each new state to the end of its bucket's buffer; with few
// buckets the ends of all the buffers stay in the processor's cache, where
// with one buffer per group (tens of thousands of them, for billions of
// states) every new state would wait for memory twice, once to be staged
// and once to be inserted.
const maxStageBuckets = 1 << 10

// maxBucketGroups is the most groups a bucket holds.
const maxBucketGroups = 1 << maxGroupBits / maxStageBuckets

// A bucket is the lock of a run of neighbouring groups: a worker adding a
// batch to their tables holds it. The padding keeps each lock on a cache
// line of its own.
type bucket struct {
	mu sync.Mutex
	_  [56]byte
}

// A stager gathers one worker's new states per bucket of groups of the
// next layer and adds them to the groups' tables in batches, so that a
// lock is taken once per batch.
type stager struct {
	tables  []table // groups lo, lo+1, ... of the next layer
	buckets []bucket
	lo      int
	buf     []uint64 // per bucket, batch entries of 1+k words
	batch   int      // stageBatch
	n       []int32  // entries staged per bucket
	shift   uint     // the bits of a mix less log2(groups): a mix shifted by it is its group
	bshift  uint     // log2 of the groups in a bucket
	k       int
	sp      *memory.Space
	// overflow and overLimit record a count too wide for k limbs and a
	// table that could not grow within the memory limit.
	overflow, overLimit bool
	// touched sums the slots flush reads ahead, so that the compiler
	// keeps the reads.
	touched uint64
	_       apart
}

// stageBuckets returns the buckets for n groups and the log2 of the
// groups in each.
func stageBuckets(n int) ([]bucket, uint) {
	bshift := uint(0)
	for n>>bshift > maxStageBuckets {
		bshift++
	}
	return make([]bucket, (n+1<<bshift-1)>>bshift), bshift
}

// stageWords returns the words of a worker's staging buffer, for buckets
// buckets and counts of k limbs.
func stageWords(buckets, k int) int { return buckets * stageBatch(buckets) * (k + 1) }

// newStager returns a stager for the groups lo, lo+1, ... of tables, under
// the locks of buckets (from stageBuckets, shared by all workers): it
// drops the states of other groups, which another pass of the step keeps.
// It stages into buf, of stageWords(len(buckets), k) words.
func newStager(tables []table, buckets []bucket, bshift uint, lo int, shift uint, k int, sp *memory.Space, buf []uint64) *stager {
	return &stager{tables: tables, buckets: buckets, lo: lo, buf: buf, batch: stageBatch(len(buckets)),
		n: make([]int32, len(buckets)), shift: shift, bshift: bshift, k: k, sp: sp}
}

// group returns the index in s.tables of the group of a state of mix h;
// outside them if the state is another pass's.
func (s *stager) group(h uint64) int {
	return int(h>>s.shift) - s.lo
}

// emit stages a new state of mix h and count val.
func (s *stager) emit(h uint64, val []uint64) {
	g := s.group(h)
	if uint(g) >= uint(len(s.tables)) || s.overLimit {
		return // another pass's, or the step has failed
	}
	b := g >> s.bshift
	stride := s.k + 1
	at := (b*s.batch + int(s.n[b])) * stride
	s.buf[at] = h // the tables keep mixes, which stand for their keys
	if s.k == 1 {
		s.buf[at+1] = val[0] // nearly always: no call to copy
	} else {
		copy(s.buf[at+1:at+stride], val[:s.k])
	}
	if s.n[b]++; int(s.n[b]) == s.batch {
		s.flush(b)
	}
}

// flush adds bucket b's staged states to their tables. The tables are far
// larger than the processor's caches, so every insertion would wait for
// memory in turn; instead flush first reads the first slot of every
// staged key, loads that do not depend on each other and so overlap, and
// then inserts into slots that are mostly in cache.
func (s *stager) flush(b int) {
	stride := s.k + 1
	lo, n := b*s.batch*stride, int(s.n[b])
	s.n[b] = 0
	var hash [maxStageEntries]uint64
	var group [maxStageEntries]int32
	mu := &s.buckets[b].mu
	mu.Lock()
	defer mu.Unlock()
	// Grow first, so that the home slots read ahead stay valid: each
	// table the batch touches gets room for the batch's states in it.
	var in [maxBucketGroups]int32
	local := 1<<s.bshift - 1
	for j := range n {
		h := s.buf[lo+j*stride]
		hash[j], group[j] = h, int32(s.group(h))
		in[int(group[j])&local]++
	}
	for j := range n {
		g := int(group[j])
		if in[g&local] == 0 {
			continue // grown already
		}
		t := &s.tables[g]
		for 16*(t.n+int(in[g&local])) > maxLoad*t.size {
			if !t.grow(s.sp) {
				s.overLimit = true
				return
			}
		}
		in[g&local] = 0
	}
	var home [maxStageEntries]int
	var touch uint64
	for j := range n {
		t := &s.tables[group[j]]
		home[j] = t.home(hash[j])
		touch += t.slots[home[j]]
	}
	// A state whose count outgrows its slot waits for memory once more, for
	// its wide count: settle the slots first, then read the wide counts
	// ahead as the slots were, then add to them.
	var pending [maxStageEntries]int32 // the staged states still to add to wide counts
	var held [maxStageEntries]uint64   // the counts their slots held
	np := 0
	for j := range n {
		at := lo + j*stride
		t := &s.tables[group[j]]
		if t.layout == fullCounts {
			s.overflow = t.insertFull(home[j], hash[j], s.buf[at+1:at+stride]) || s.overflow
			continue
		}
		if c, wide := t.settle(home[j], hash[j], s.buf[at+1:at+stride]); wide {
			pending[np], held[np] = int32(j), c
			np++
		}
	}
	for _, j := range pending[:np] {
		if w := &s.tables[group[j]].wide; w.size > 0 {
			touch += w.slots[w.home(s.tables[group[j]].rem(hash[j]), s.k)]
		}
	}
	s.touched += touch
	for q, j := range pending[:np] {
		at := lo + int(j)*stride
		t := &s.tables[group[j]]
		overflow, ok := t.wide.add(t.rem(hash[j]), held[q], s.buf[at+1:at+stride], s.sp)
		if !ok {
			s.overLimit = true
			return
		}
		s.overflow = s.overflow || overflow
	}
}

// flushAll adds every staged state to the tables.
func (s *stager) flushAll() {
	for b, n := range s.n {
		if n > 0 {
			s.flush(b)
		}
	}
}
