package frontier

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// The buffered step is the fast one where memory is plentiful: workers
// write every new state of the step, unmerged, into bins per bucket (a
// run of groups), and then take a bucket at a time, sort its states into
// their groups, and merge one group at a time, whose table then fits in
// the processor's cache. Adding a state costs an append and a cached probe
// instead of a probe into a table far larger than the cache (about 50 ns
// on the development machine), but the step holds all its unmerged states
// at once: two to three times the next layer's entries. The buckets are
// few (maxBuckets), so that the ends of the bins being filled stay in
// cache too: with one bin per group, on a large layer nearly every
// append missed the cache.

// maxBuckets bounds the buckets of a buffered step: 2^maxBucketBits.
const (
	maxBucketBits = 8
	maxBuckets    = 1 << maxBucketBits
)

// A grouping picks the group of a buffered step's state: the top bits of
// hash(key). It can pick by the state's demand alone (the kind of each
// window square, and z), so that the states of a group share a few
// demands: the next step looks up what each demand allows in a small memo
// (worker.options), and where a group's states have as many demands as
// states, more than half the lookups on 7x7 miss it and go to the demand
// filters. Equal keys have equal demands, so they still meet in one group.
// Packed keys tell their demand at a glance; keys in digits are decoded
// (digits), and only where grouping them so costs no disk (groupingRule).
type grouping struct {
	byDemand bool
	zShift   uint // where z lies in a key, above the window's nibbles
	// digits, where keys are digits (board.decode), tells their demands.
	digits *board
	// mix, where keys in digits go to disk compact, is the board's mixer,
	// whose mix of a key (its top bits first) is the hash (groupsByMix).
	mix *mix.Mixer
	// next, where not nil, tells the class of a key by which the next
	// step's passes will read it: the top nextBits bits of the hash, the
	// rest of it shifted down below them (groupsByNextClass).
	next     *classifier
	nextBits uint
}

// A groupingRule is how a buffered step groups the new states, as a
// checkpoint of a step under way records it (stepPart.Grouping).
type groupingRule int

const (
	// groupsAsKeys groups packed keys by demand and keys in digits by
	// hash: the rule of checkpoints that record none.
	groupsAsKeys groupingRule = iota
	// groupsByDemand groups keys in digits by demand too.
	groupsByDemand
	// groupsByMix groups keys in digits by their mix (the board's mixer,
	// as the lean step groups them) where the layer goes to disk compact,
	// and orders each group on disk by it: the mix of a key of 8 rows
	// takes 61 bits where mix.Hash spreads the keys over 64, so that each
	// difference in a compact group takes 3 bits fewer.
	groupsByMix
	// groupsByNextClass groups keys in digits of a compact layer first by
	// the class the next step's passes will read them by (the layer's
	// parts: classParts), then by mix, so that each pass of the next step
	// reads only the groups of its classes, and the groups no pass left
	// reads give their disk back at once (giveback.go). Grouped by the
	// classes of the passes that made them, the layers of 8 x 6 with free
	// ends in passes of a tenth were read 9.5 times each, and each stayed
	// whole to its step's end beside the next; grouped so, 2 times, and
	// the two took 0.68 of the disk. A group of one class holds a 27th of
	// the states of its range of mixes, whose differences take a few bits
	// more: the layers took 7% more (TestDiskPeak).
	groupsByNextClass
)

// grouping returns the rule by which a buffered step groups the new
// states of f: by demand, unless its keys are digits and the layer it
// makes goes to disk compact, where they go by their mix. A compact group
// is sorted by its key order, and where its states share no top bits of
// it, each takes as many more bits as the group's hash has: two bytes a
// state more on the widest layers. Grouped
// by demand, 9x5 with free ends across (18 squares) took 135 s on one
// worker against 187.
func (f *board) grouping(compact bool) groupingRule {
	switch {
	case f.packed:
		return groupsAsKeys
	case compact:
		return groupsByMix
	}
	return groupsByDemand
}

func (g grouping) hash(key uint64) uint64 {
	if g.next != nil {
		return uint64(g.next.class(key))<<(64-g.nextBits) | g.mix.Mix(key)<<(64-g.mix.Bits())>>g.nextBits
	}
	if g.mix != nil {
		return g.mix.Mix(key) << (64 - g.mix.Bits())
	}
	if g.digits != nil {
		var a slotCodes
		z, free, ends := g.digits.decode(key, &a)
		return mix.Hash(uint64(free) | uint64(ends)<<20 | uint64(z)<<40)
	}
	if !g.byDemand {
		return mix.Hash(key)
	}
	// What nibbleKinds tells, left a bit a nibble where it lies: squeezing
	// the bits together made 7x7 from the corner take 10% longer.
	x := key & (1<<g.zShift - 1)
	used, end := (x|x>>1|x>>2|x>>3)&nibbleLow, (x>>1|x>>2|x>>3)&nibbleLow
	return mix.Hash(used | end<<1 | key&^(1<<g.zShift-1))
}

// An emitter collects one worker's new states, unmerged, per bucket: a
// key followed by its k limbs, in bins from a pool, so that a buffer
// never grows by copying.
type emitter struct {
	full  [][][]uint64 // per bucket: the bins filled
	cur   [][]uint64   // per bucket: the bin being filled
	shift uint         // 64 - log2(buckets); 64 for one bucket
	k     int
	by    grouping
	pool  *binPool
	// lo and hi are the groups whose states the emitter keeps, by the
	// top gbits of their hash: the rest are other passes'.
	lo, hi uint64
	gbits  uint
	// overLimit records that a bin took memory beyond the limit.
	overLimit bool
	// kept is how many states the emitter has kept since keep.
	kept int64
	// nar, when not nil, is the narrowing of the pass, and end the first
	// bucket the emitter no longer keeps: its number of buckets until the
	// pass narrows.
	nar *narrowing
	end int
	// Where keys leave room above their bits (markKeys), the emitter
	// writes into each key, from bit markAt, the group it takes within
	// its bucket (of 2^sub), and counts the states of each group of the
	// step: the merge then sorts a bucket into its groups in one pass
	// over its bins, and hashes no key again (merger.sortMarked). On 7x7
	// from the corner, the pass that hashed each key to count its group
	// took 9% of the count's processor time. markAt is 0 where keys are
	// not marked.
	markAt uint
	sub    uint
	counts []uint32 // per group of the step: the states kept
	_      apart    // kept and counts are written for every state
}

// keep makes the emitter keep only the states of groups [lo, hi) of
// 2^gbits: all of them, with no test on each state, where they are all.
// nar, when not nil, lets the pass narrow.
func (e *emitter) keep(lo, hi int, gbits uint, nar *narrowing) {
	if lo == 0 && hi == 1<<gbits {
		gbits = 0
	}
	e.lo, e.hi, e.gbits = uint64(lo), uint64(hi), gbits
	e.kept = 0
	clear(e.counts)
	e.nar, e.end = nar, len(e.cur)
	if nar != nil {
		e.end = int(nar.end.Load())
	}
}

// A narrowing lets a buffered pass whose bins reach the memory limit make
// fewer groups instead of being dropped: the pass gives up its last
// buckets of groups, the workers' emitters stop keeping their states and
// give their bins back, and the groups given up become a pass of their
// own. Only a pass of a step whose layer stays whole to its end can
// narrow: the pass made later reads the layer again. A pass dropped when
// nearly all of it was made had to be made again whole: square 58 of 8x12
// from the corner took 20 minutes where the squares beside it took 2 to
// 7.
type narrowing struct {
	end   atomic.Int64 // the first bucket given up
	first int64        // the pass's first bucket
	sub   uint         // log2 of the groups in a bucket
	hi    int          // the pass's end, in groups
}

// newNarrowing returns the narrowing of a pass of groups [lo, hi), whose
// buckets hold 2^sub groups each; nil if the pass is within one bucket,
// with none to give up.
func newNarrowing(lo, hi int, sub uint) *narrowing {
	first, end := lo>>sub, (hi-1)>>sub+1
	if end-first < 2 {
		return nil
	}
	n := &narrowing{first: int64(first), sub: sub, hi: hi}
	n.end.Store(int64(end))
	return n
}

// narrow gives up the second half of the buckets before end, the end an
// emitter knew, and reports whether the pass has buckets to give up: a
// pass narrowed by another worker meanwhile is not narrowed again, but
// the emitter follows it and tries its bin again.
func (n *narrowing) narrow(end int) bool {
	if int64(end)-n.first < 2 {
		return n.end.Load() < int64(end)
	}
	n.end.CompareAndSwap(int64(end), n.first+(int64(end)-n.first)/2)
	return true
}

// groups returns the end of the groups the pass still makes.
func (n *narrowing) groups() int {
	return min(n.hi, int(n.end.Load())<<n.sub)
}

// follow makes the emitter give up the buckets the pass gave up since it
// last looked, their bins back to the pool, and with them, where keys are
// marked, the counts of their groups: the merge checks each bucket's bins
// against its counts.
func (e *emitter) follow() {
	end := int(e.nar.end.Load())
	if end >= e.end {
		return
	}
	var bins [][]uint64
	for b := end; b < e.end; b++ {
		bins = e.take(b, bins)
	}
	if e.markAt != 0 {
		clear(e.counts[end<<e.sub : e.end<<e.sub])
	}
	e.pool.put(bins)
	e.end = end
}

func newEmitter(buckets int, shift uint, k int, by grouping, pool *binPool) *emitter {
	return &emitter{full: make([][][]uint64, buckets), cur: make([][]uint64, buckets), shift: shift, k: k, by: by, pool: pool}
}

// markKeys makes the emitter mark each key with its group within its
// bucket (2^sub groups), from bit markAt, the lowest bit no key uses, and
// count the states of each group; it leaves keys unmarked where fewer
// than sub bits are free above markAt, or where a bucket is one group.
func (e *emitter) markKeys(markAt, sub uint) {
	if sub == 0 || markAt+sub > 64 {
		return
	}
	e.markAt, e.sub = markAt, sub
	e.counts = make([]uint32, len(e.cur)<<sub)
}

func (e *emitter) emit(key uint64, val []uint64) {
	if h, ok := e.bucket(key); ok {
		e.put(h, key, val)
	}
}

// bucket returns the hash that places a state of the given key (by.hash),
// and false if the state is another pass's. By demand, a key's labels do
// not change its hash: the packed step asks before it renames them
// (finishPacked).
func (e *emitter) bucket(key uint64) (uint64, bool) {
	if e.shift >= 64 {
		return 0, true
	}
	h := e.by.hash(key)
	if e.gbits > 0 {
		if grp := h >> (64 - e.gbits); grp < e.lo || grp >= e.hi {
			return 0, false
		}
	}
	return h, int(h>>e.shift) < e.end
}

// put adds a state, whose hash bucket returned, to its bucket. Where the
// pool has no bin left for it and the pass can narrow, the pass narrows
// until the state is no longer its or a bin is free.
func (e *emitter) put(h, key uint64, val []uint64) {
	g := int(h >> e.shift) // 0 for one bucket: shift is 64
	s := e.cur[g]
	if len(s)+e.k+1 > cap(s) {
		if e.nar != nil {
			if e.follow(); g >= e.end {
				return // another worker narrowed the pass
			}
		}
		if s != nil {
			e.full[g], e.cur[g] = append(e.full[g], s), nil
		}
		var ok bool
		s, ok = e.pool.tryGet()
		for !ok && e.nar != nil && e.nar.narrow(e.end) {
			if e.follow(); g >= e.end {
				return
			}
			s, ok = e.pool.tryGet()
		}
		if !ok {
			s, _ = e.pool.get()
			e.overLimit = true
		}
	}
	e.kept++
	if e.markAt != 0 {
		grp := h >> (e.shift - e.sub) // the step's group: bucket and group within it
		key |= grp & (1<<e.sub - 1) << e.markAt
		e.counts[grp]++
	}
	if e.k == 1 {
		e.cur[g] = append(s, key, val[0])
		return
	}
	s = append(s, key)
	e.cur[g] = append(s, val[:e.k]...)
}

// take appends bucket g's bins to parts and forgets them.
func (e *emitter) take(g int, parts [][]uint64) [][]uint64 {
	parts = append(parts, e.full[g]...)
	if e.cur[g] != nil {
		parts = append(parts, e.cur[g])
	}
	e.full[g], e.cur[g] = nil, nil
	return parts
}

// A binPool hands out the bins emitters fill and takes them back after
// a merge, so that later buckets reuse memory instead of allocating and
// zeroing it again. Its bins are carved from an arena of their own, kept
// from one buffered step to the next, and go back to the kernel when a
// step goes lean, when the count ends, or, some, where the merge buffers
// need their room (leave): from the Go heap they would linger as garbage
// until a collection, and the process would hold up to twice the memory
// the count records.
type binPool struct {
	mu    sync.Mutex
	free  [][]uint64
	made  []group
	words int
	arena *arena
}

// binEntries is how many states a bin holds.
const binEntries = 1024

func newBinPool(k int, mem *memory.Budget) *binPool {
	a := &arena{mem: mem}
	a.sizeFor(int(min(maxSlabWords*32, mem.Limit()/8))) // slabs of 8 MiB, fewer under a small limit
	return &binPool{words: binEntries * (k + 1), arena: a}
}

// get returns an empty bin; false, with a bin from the Go heap that
// the count can finish its step with, if the memory limit is reached.
func (p *binPool) get() ([]uint64, bool) {
	if b, ok := p.tryGet(); ok {
		return b, true
	}
	// A word more than the pool's own bins, so that put knows it.
	return make([]uint64, 0, p.words+1), false
}

// tryGet returns an empty bin, or false if the memory limit is reached.
func (p *binPool) tryGet() ([]uint64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b[:0], true
	}
	g, ok := p.arena.alloc(p.words)
	if !ok {
		return nil, false
	}
	p.made = append(p.made, g)
	return g.entries[:0], true
}

// held returns the bytes of the bins the pool made.
func (p *binPool) held() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return int64(len(p.made)) * int64(p.words) * 8
}

// put takes back bins. It drops those get made on the Go heap past the
// memory limit: a step made in passes drops a pass that passed the limit
// and makes it again as two, whose bins must all be counted.
func (p *binPool) put(bins [][]uint64) {
	p.mu.Lock()
	for _, b := range bins {
		if cap(b) == p.words {
			p.free = append(p.free, b)
		}
	}
	p.mu.Unlock()
}

// leave makes the pool's bins leave room bytes below the memory limit,
// for the merge buffers of the passes that fill them, which are counted
// even past it (merger.grow): new bins stop short of it, and bins the
// pool holds beyond it go back to the kernel, newest first. The buffered
// step calls it at its start, when every bin is free; bins in use, if
// any, are left alone.
func (p *binPool) leave(room int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.arena.mu.Lock()
	p.arena.room = room
	p.arena.mu.Unlock()
	mem := p.arena.mem
	if mem.Held()+room <= mem.Limit() || len(p.free) != len(p.made) {
		return // room enough, or bins in use
	}
	// A slab goes back once its last bin does, so the bins go one by one,
	// newest first, until the room is there; the free list is then the
	// bins kept.
	for len(p.made) > 0 && mem.Held()+room > mem.Limit() {
		g := p.made[len(p.made)-1]
		p.made = p.made[:len(p.made)-1]
		p.arena.free(g)
		p.arena.dropEmptyCur()
	}
	p.free = p.free[:0]
	for _, g := range p.made {
		p.free = append(p.free, g.entries[:0])
	}
}

// release returns the memory of every bin the pool made.
func (p *binPool) release() {
	p.mu.Lock()
	for _, g := range p.made {
		p.arena.free(g)
	}
	p.arena.release()
	p.free, p.made = nil, nil
	p.mu.Unlock()
}

// A merger adds up equal states of one group: open addressing with linear
// probing, reused from group to group. The table holds where each key's
// state went in the output, which is in order of first appearance: so the
// output needs no pass over the table's empty slots.
//
// Its buffers (table, out and sorted) grow to the largest bucket and group
// of a step, tens of megabytes a worker on 8 rows, and come from the
// count's memory (mapped and counted against its limit), not from the Go
// heap, where the collector would let as much garbage stand beside them
// uncounted; free returns them.
type merger struct {
	table []uint64 // a key's hash in the high bits, its place in out below: 0 empty
	out   []uint64 // distinct entries of 1+k words, in order of first appearance
	k     int
	by    grouping
	mem   *memory.Budget
	// sorted and at hold a bucket's states sorted into its groups, and
	// where each group starts.
	sorted []uint64
	at     []int
	of     []uint16 // the group of each state of the bucket
	counts []uint32 // the states of each group of the bucket, where keys are marked
	_      apart    // of is appended to for every state
}

// grow returns w with room for n words, from m.mem: w itself if it has
// the room, or else new words, twice as many at least, w's given back
// (its contents are not kept: the callers write the words afresh).
// The words are counted even past the memory limit: the bins of the pass
// being merged fit it, and a pass dropped at this point would have
// written part of the next layer (the passes after have the less room).
func (m *merger) grow(w []uint64, n int) ([]uint64, error) {
	if cap(w) >= n {
		return w[:n], nil
	}
	// w goes first: counted beside the new words for a moment, it made
	// peaks past the limit.
	m.mem.Free(w)
	nw, err := m.mem.AllocPast(max(n, 2*cap(w)))
	if err != nil {
		return nil, err
	}
	return nw[:n], nil
}

// bytes returns the memory of the merger's buffers.
func (m *merger) bytes() int64 {
	if m == nil {
		return 0
	}
	return int64(cap(m.table)+cap(m.out)+cap(m.sorted)) * 8
}

// free gives the merger's buffers back to the count's memory.
func (m *merger) free() {
	for _, w := range [][]uint64{m.table, m.out, m.sorted} {
		m.mem.Free(w)
	}
	m.table, m.out, m.sorted = nil, nil, nil
}

// sortBucket sorts the states of a bucket's bins into its groups, of
// which there are 1<<sub, picked by the bits of the hash below the
// bucket's own (shift is 64 less the bits of bucket and group): one
// streaming pass, not a probe per state into a table out of cache. Group
// i of the bucket is m.sorted[m.at[i]:m.at[i+1]].
func (m *merger) sortBucket(parts [][]uint64, shift, sub uint) error {
	stride := m.k + 1
	groups := 1 << sub
	if cap(m.at) < groups+1 {
		m.at = make([]int, groups+1)
	}
	m.at = m.at[:groups+1]
	clear(m.at)
	count := m.at[1:]
	mask := uint64(groups - 1)
	m.of = m.of[:0] // each state's group, so that each key is hashed once
	for _, p := range parts {
		for j := 0; j < len(p); j += stride {
			g := uint16(m.by.hash(p[j]) >> shift & mask)
			m.of = append(m.of, g)
			count[g]++
		}
	}
	n := 0
	for i, c := range count {
		count[i] = n * stride
		n += c
	}
	var err error
	if m.sorted, err = m.grow(m.sorted, n*stride); err != nil {
		return err
	}
	e := 0
	for _, p := range parts {
		if stride == 2 { // a key and one limb, nearly always: no call to copy
			for j := 0; j+1 < len(p); j += 2 {
				g := m.of[e]
				e++
				at := count[g]
				m.sorted[at], m.sorted[at+1] = p[j], p[j+1]
				count[g] += 2
			}
			continue
		}
		for j := 0; j < len(p); j += stride {
			g := m.of[e]
			e++
			copy(m.sorted[count[g]:count[g]+stride], p[j:j+stride])
			count[g] += stride
		}
	}
	// count[i] is now where group i ends, so at[i+1]: at[0] is 0.
	return nil
}

// sortMarked is sortBucket for states whose keys carry their group
// within the bucket from bit markAt (emitter.markKeys), where counts holds
// how many states each of the bucket's groups has: one pass, and the marks
// cleared. It fails if the bins hold other than counts says.
func (m *merger) sortMarked(parts [][]uint64, counts []uint32, markAt uint) error {
	stride := m.k + 1
	groups := len(counts)
	if cap(m.at) < groups+1 {
		m.at = make([]int, groups+1)
	}
	m.at = m.at[:groups+1]
	m.at[0] = 0
	next := m.at[1:] // where the next state of each group goes, then where it ends
	n := 0
	for i, c := range counts {
		next[i] = n
		n += int(c) * stride
	}
	if n != wordsIn(parts) {
		return fmt.Errorf("frontier: a bucket's bins hold %d words, its groups' counts %d", wordsIn(parts), n)
	}
	var err error
	if m.sorted, err = m.grow(m.sorted, n); err != nil {
		return err
	}
	mask := uint64(groups - 1)
	unmark := ^(mask << markAt)
	for _, p := range parts {
		if stride == 2 {
			for j := 0; j+1 < len(p); j += 2 {
				key := p[j]
				g := key >> markAt & mask
				at := next[g]
				m.sorted[at], m.sorted[at+1] = key&unmark, p[j+1]
				next[g] += 2
			}
			continue
		}
		for j := 0; j < len(p); j += stride {
			g := p[j] >> markAt & mask
			at := next[g]
			copy(m.sorted[at:at+stride], p[j:j+stride])
			m.sorted[at] &= unmark
			next[g] += stride
		}
	}
	return nil
}

// mergeMul spreads keys over a merge table (mergeInto) by one
// multiplication, whose high bits depend on every bit of the key: a key's
// place in the table is the product's top bits, and its tag, which spares
// most probes that miss a look at the output, the top 32. Its low bits
// depend on the key's low bits alone and would probe more. The table is
// the merge's own, so any even spread will do: mix.Hash's two
// multiplications and three shifts took 4% of 7x7 from the corner.
const mergeMul = 0x9e3779b97f4a7c15

// placeBits is how many low bits of a merge table slot hold a place; the
// key's hash fills the rest, so that most probes that miss need not look
// at the output.
const placeBits = 32

// wordsIn returns the words of the entries in parts.
func wordsIn(parts [][]uint64) int {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	return n
}

// merge adds up the entries of all workers' bins for one group and
// returns the distinct entries, valid until the next merge; overflow if a
// count does not fit in k limbs (errOverflow).
func (m *merger) merge(parts [][]uint64) (out []uint64, err error) {
	if m.out, err = m.grow(m.out, wordsIn(parts)); err != nil {
		return nil, err
	}
	return m.mergeInto(parts, m.out[:0])
}

// mergeInto is merge into out, which has room for every word of parts,
// and returns out with the distinct entries.
func (m *merger) mergeInto(parts [][]uint64, out []uint64) (_ []uint64, err error) {
	k := m.k
	stride := k + 1
	entries := wordsIn(parts) / stride
	size := 16
	for size < 2*entries {
		size *= 2
	}
	// The table only grows: groups of one step differ in size by tens of
	// times, and a small group uses the start of a large table.
	if m.table, err = m.grow(m.table, size); err != nil {
		return nil, err
	}
	table := m.table[:size]
	clear(table)
	overflow := false
	mask := uint64(size - 1)
	shift := 64 - uint(bits.TrailingZeros(uint(size)))
	places := 0 // the entries in out
	for _, p := range parts {
		for j := 0; j < len(p); j += stride {
			key := p[j]
			h := key * mergeMul
			tag := h &^ (1<<placeBits - 1) // never 0 with the place: places start at 1
			i := h >> shift
			for {
				slot := table[i]
				if slot == 0 {
					places++
					table[i] = tag | uint64(places)
					if k == 1 {
						out = append(out, key, p[j+1])
					} else {
						out = append(out, p[j:j+stride]...)
					}
					break
				}
				if slot&^(1<<placeBits-1) == tag {
					if at := (int(slot&(1<<placeBits-1)) - 1) * stride; out[at] == key {
						if k == 1 {
							var carry uint64
							out[at+1], carry = bits.Add64(out[at+1], p[j+1], 0)
							overflow = overflow || carry != 0
						} else if addLimbs(out[at+1:at+stride], p[j+1:j+stride]) {
							overflow = true
						}
						break
					}
				}
				i = (i + 1) & mask
			}
		}
	}
	if overflow {
		return nil, errOverflow
	}
	return out, nil
}
