package frontier

import (
	"math/bits"
	"sync"
)

// The lean step keeps memory near one dense layer: each worker stages its
// new states per group, a few dozen at a time, and adds them to that
// group's hash table under the group's lock; the tables are packed into
// dense groups when the step is done. Every insertion is a probe into a
// table far larger than the processor's cache, so the step reads ahead:
// see stager.flush.

// A table collects one group of the next layer: open addressing with
// linear probing over entries of 1+k words. A slot holds its key plus one,
// so that the zeroed memory of a new table is all empty slots (no key is
// 2^64-1: keys use at most 62 bits).
type table struct {
	mu    sync.Mutex
	slots []uint64
	size  int // slots
	n     int // entries
	// groupBits is how many high bits of a hash pick the group: the slot
	// comes from the bits below them.
	groupBits uint
	k         int
	// The workers lock neighbouring tables at the same time: padding
	// keeps each table's lock and counts on cache lines of its own.
	_ [64]byte
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
	freeWords(old)
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
	freeWords(t.slots)
	t.slots, t.size, t.n = nil, 0, 0
}

// stageEntries is how many new states a worker gathers for one group
// before it takes the group's lock and adds them to the table.
const stageEntries = 256

// A stager gathers one worker's new states per group of the next layer
// and adds them to the group's table in batches, so that the lock is
// taken once per batch.
type stager struct {
	tables []table // groups lo, lo+1, ... of the next layer
	lo     int
	buf    []uint64 // per group, stageEntries entries of 1+k words
	n      []int32  // entries staged per group
	shift  uint     // 64 - log2(groups); 64 for one group
	k      int
	mem    *memory
	// overflow and overLimit record a count too wide for k limbs and a
	// table that could not grow within the memory limit.
	overflow, overLimit bool
	// touched sums the slots flush reads ahead, so that the compiler
	// keeps the reads.
	touched uint64
}

// newStager returns a stager for the groups lo, lo+1, ... of tables: it
// drops the states of other groups, which another pass of the step keeps.
func newStager(tables []table, lo int, shift uint, k int, mem *memory) *stager {
	return &stager{tables: tables, lo: lo, buf: make([]uint64, len(tables)*stageEntries*(k+1)), n: make([]int32, len(tables)),
		shift: shift, k: k, mem: mem}
}

// bytes is the memory of the stager's buffers.
func (s *stager) bytes() int64 { return int64(len(s.buf))*8 + int64(len(s.n))*4 }

func (s *stager) emit(key, h uint64, val []uint64) {
	g := -s.lo
	if s.shift < 64 {
		g += int(h >> s.shift)
	}
	if uint(g) >= uint(len(s.tables)) || s.overLimit {
		return // another pass's, or the step has failed
	}
	stride := s.k + 1
	at := (g*stageEntries + int(s.n[g])) * stride
	s.buf[at] = key
	copy(s.buf[at+1:at+stride], val[:s.k])
	if s.n[g]++; s.n[g] == stageEntries {
		s.flush(g)
	}
}

// flush adds group g's staged states to its table. The table is far
// larger than the processor's caches, so every insertion would wait for
// memory in turn; instead flush first reads the first slot of every
// staged key, loads that do not depend on each other and so overlap, and
// then inserts into slots that are mostly in cache.
func (s *stager) flush(g int) {
	stride := s.k + 1
	t := &s.tables[g]
	lo, n := g*stageEntries*stride, int(s.n[g])
	t.mu.Lock()
	// Grow first, so that the home slots read ahead stay valid.
	for 16*(t.n+n) > maxLoad*t.size {
		if !t.grow(s.mem) {
			s.overLimit = true
			s.n[g] = 0
			t.mu.Unlock()
			return
		}
	}
	var home [stageEntries]int
	var touch uint64
	for j := range n {
		home[j] = t.slot(hashKey(s.buf[lo+j*stride]))
		touch += t.slots[home[j]]
	}
	s.touched += touch
	for j := range n {
		at := lo + j*stride
		if t.insertAt(home[j], s.buf[at], s.buf[at+1:at+stride]) {
			s.overflow = true
		}
	}
	t.mu.Unlock()
	s.n[g] = 0
}

// flushAll adds every staged state to the tables.
func (s *stager) flushAll() {
	for g, n := range s.n {
		if n > 0 {
			s.flush(g)
		}
	}
}
