package frontier

import (
	"math/bits"
	"sync"
)

// The lean step keeps memory near one dense layer: each worker stages its
// new states per bucket of groups, a few hundred at a time, and adds them
// to the groups' hash tables under the bucket's lock; the tables are packed into
// dense groups when the step is done. Every insertion is a probe into a
// table far larger than the processor's cache, so the step reads ahead:
// see stager.flush.

// A table collects one group of the next layer: open addressing with
// linear probing over entries of 1+k words. A slot holds its key plus one,
// so that the zeroed memory of a new table is all empty slots (no key is
// 2^64-1: keys use at most 62 bits).
type table struct {
	slots []uint64
	size  int // slots
	n     int // entries
	// groupBits is how many high bits of a hash pick the group: the slot
	// comes from the bits below them.
	groupBits uint
	k         int
}

// maxLoad is the fill, in 1/16ths, at which a table grows, by half: with
// linear probing a search for a missing key gets slow as tables fill up,
// while a low fill wastes memory on every state.
const maxLoad = 13

// slot returns where the probe for a key of hash h starts: the word
// index of its home slot.
func (t *table) slot(h uint64) int {
	hi, _ := bits.Mul64(h<<t.groupBits, uint64(t.size))
	return int(hi) * (t.k + 1)
}

// insertAt adds count val (k limbs) to the entry for key, whose home
// slot is i, making the entry if there is none, in a table with room for
// it (flush grows the table first). It reports whether the count
// overflowed.
func (t *table) insertAt(i int, key uint64, val []uint64) (overflow bool) {
	stride := t.k + 1
	end := t.size * stride
	for {
		s := t.slots[i]
		if s == 0 {
			t.slots[i] = key + 1
			copy(t.slots[i+1:i+stride], val[:t.k])
			t.n++
			return false
		}
		if s == key+1 {
			if t.k == 1 {
				var carry uint64
				t.slots[i+1], carry = bits.Add64(t.slots[i+1], val[0], 0)
				return carry != 0
			}
			return addLimbs(t.slots[i+1:i+stride], val)
		}
		if i += stride; i == end {
			i = 0
		}
	}
}

// grow moves the table into one half as large again.
func (t *table) grow(mem *memory) bool {
	old, oldSize := t.slots, t.size
	size := max(64, oldSize+oldSize/2)
	stride := t.k + 1
	slots, ok := mem.alloc(size * stride)
	if !ok {
		return false
	}
	t.slots, t.size = slots, size
	for i := 0; i < oldSize*stride; i += stride {
		s := old[i]
		if s == 0 {
			continue
		}
		j := t.slot(hashKey(s - 1))
		for slots[j] != 0 {
			if j += stride; j == size*stride {
				j = 0
			}
		}
		copy(slots[j:j+stride], old[i:i+stride])
	}
	mem.release(int64(cap(old)) * 8)
	mem.unmap(old)
	return true
}

// pack writes the table's entries, dense (keys as they are), into dense,
// which holds exactly (1+k)*t.n words, and frees the table.
func (t *table) pack(dense []uint64, mem *memory) {
	stride := t.k + 1
	j := 0
	for i := 0; i < t.size*stride; i += stride {
		if s := t.slots[i]; s != 0 {
			dense[j] = s - 1
			copy(dense[j+1:j+stride], t.slots[i+1:i+stride])
			j += stride
		}
	}
	t.free(mem)
}

func (t *table) free(mem *memory) {
	mem.release(int64(cap(t.slots)) * 8)
	mem.unmap(t.slots)
	t.slots, t.size, t.n = nil, 0, 0
}

// stageEntries is how many new states a worker gathers for one bucket
// of groups before it takes the bucket's lock and adds them to the
// groups' tables.
const stageEntries = 256

// maxStageBuckets bounds the buckets a worker stages into. A worker
// writes each new state to the end of its bucket's buffer; with few
// buckets the ends of all the buffers stay in the processor's cache, where
// with one buffer per group (tens of thousands of them, for billions of
// states) every new state would wait for memory twice, once to be staged
// and once to be inserted.
const maxStageBuckets = 1 << 10

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
	tables []table // groups lo, lo+1, ... of the next layer
	// rest, when not nil, takes the new states of the groups after
	// them, for the later passes of the step.
	rest    *runWriter
	buckets []bucket
	lo      int
	buf     []uint64 // per bucket, stageEntries entries of 1+k words
	n       []int32  // entries staged per bucket
	shift   uint     // 64 - log2(groups); 64 for one group
	bshift  uint     // log2 of the groups in a bucket
	k       int
	mem     *memory
	// overflow and overLimit record a count too wide for k limbs and a
	// table that could not grow within the memory limit.
	overflow, overLimit bool
	// touched sums the slots flush reads ahead, so that the compiler
	// keeps the reads.
	touched uint64
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

// newStager returns a stager for the groups lo, lo+1, ... of tables, under
// the locks of buckets (from stageBuckets, shared by all workers): it
// drops the states of other groups, which another pass of the step keeps.
func newStager(tables []table, buckets []bucket, bshift uint, lo int, shift uint, k int, mem *memory) *stager {
	return &stager{tables: tables, buckets: buckets, lo: lo, buf: make([]uint64, len(buckets)*stageEntries*(k+1)),
		n: make([]int32, len(buckets)), shift: shift, bshift: bshift, k: k, mem: mem}
}

// group returns the index in s.tables of the group of a state of hash h;
// outside them if the state is another pass's.
func (s *stager) group(h uint64) int {
	g := -s.lo
	if s.shift < 64 {
		g += int(h >> s.shift)
	}
	return g
}

func (s *stager) emit(key, h uint64, val []uint64) {
	g := s.group(h)
	if uint(g) >= uint(len(s.tables)) || s.overLimit {
		if s.rest != nil && g >= len(s.tables) {
			s.rest.add(g+s.lo, key, val[:s.k])
		}
		return // another pass's, or the step has failed
	}
	b := g >> s.bshift
	stride := s.k + 1
	at := (b*stageEntries + int(s.n[b])) * stride
	s.buf[at] = key
	copy(s.buf[at+1:at+stride], val[:s.k])
	if s.n[b]++; s.n[b] == stageEntries {
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
	lo, n := b*stageEntries*stride, int(s.n[b])
	s.n[b] = 0
	var hash [stageEntries]uint64
	var group [stageEntries]int32
	mu := &s.buckets[b].mu
	mu.Lock()
	defer mu.Unlock()
	// Grow first, so that the home slots read ahead stay valid: each
	// table the batch touches gets room for the whole batch.
	for j := range n {
		h := hashKey(s.buf[lo+j*stride])
		hash[j], group[j] = h, int32(s.group(h))
		t := &s.tables[group[j]]
		for 16*(t.n+n) > maxLoad*t.size {
			if !t.grow(s.mem) {
				s.overLimit = true
				return
			}
		}
	}
	var home [stageEntries]int
	var touch uint64
	for j := range n {
		t := &s.tables[group[j]]
		home[j] = t.slot(hash[j])
		touch += t.slots[home[j]]
	}
	s.touched += touch
	for j := range n {
		at := lo + j*stride
		if s.tables[group[j]].insertAt(home[j], s.buf[at], s.buf[at+1:at+stride]) {
			s.overflow = true
		}
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
