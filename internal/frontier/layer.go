package frontier

import (
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"
)

// layer holds the states of a count after some squares were added, and the
// number of partial solutions in each: split into buckets by the high bits
// of the key's hash, so that merging equal states touches one small bucket
// at a time, in cache, instead of one huge table at random. A count takes k
// 64-bit limbs, least significant first.
type layer struct {
	keys [][]uint64 // per bucket
	vals [][]uint64 // per bucket, k limbs per key
	n    int
}

// memory accounts for the bytes of the states and buffers of one count, so
// that it can stop with ErrMemoryLimit before the machine runs out.
type memory struct {
	limit      int64
	used, peak atomic.Int64
}

// grab records bytes as used and reports whether the total is within the
// limit.
func (m *memory) grab(bytes int64) bool {
	u := m.used.Add(bytes)
	for {
		p := m.peak.Load()
		if u <= p || m.peak.CompareAndSwap(p, u) {
			break
		}
	}
	return u <= m.limit
}

func (m *memory) release(bytes int64) { m.used.Add(-bytes) }

// hashKey scrambles a key (the splitmix64 finaliser): the high bits pick
// the bucket, the low bits the slot within it.
func hashKey(key uint64) uint64 {
	key ^= key >> 30
	key *= 0xbf58476d1ce4e5b9
	key ^= key >> 27
	key *= 0x94d049bb133111eb
	return key ^ key>>31
}

// emitter collects one worker's new states, unmerged, per bucket: a key
// followed by its k limbs, in blocks from a pool, so that a buffer never
// grows by copying.
type emitter struct {
	full  [][][]uint64 // per bucket: the blocks filled
	cur   [][]uint64   // per bucket: the block being filled
	shift uint         // 64 - log2(buckets)
	k     int
	pool  *blockPool
	// overLimit records that a block took memory beyond the limit.
	overLimit bool
}

func newEmitter(buckets, k int, pool *blockPool) *emitter {
	return &emitter{full: make([][][]uint64, buckets), cur: make([][]uint64, buckets),
		shift: uint(64 - bits.TrailingZeros(uint(buckets))), k: k, pool: pool}
}

func (e *emitter) emit(key, h uint64, val []uint64) {
	b := 0
	if e.shift < 64 {
		b = int(h >> e.shift)
	}
	s := e.cur[b]
	if len(s)+e.k+1 > cap(s) {
		if s != nil {
			e.full[b] = append(e.full[b], s)
		}
		var ok bool
		if s, ok = e.pool.get(); !ok {
			e.overLimit = true
		}
	}
	if e.k == 1 {
		e.cur[b] = append(s, key, val[0])
		return
	}
	s = append(s, key)
	e.cur[b] = append(s, val[:e.k]...)
}

// take appends bucket b's blocks to parts and forgets them.
func (e *emitter) take(b int, parts [][]uint64) [][]uint64 {
	parts = append(parts, e.full[b]...)
	if e.cur[b] != nil {
		parts = append(parts, e.cur[b])
	}
	e.full[b], e.cur[b] = nil, nil
	return parts
}

// blockPool hands out the blocks emitters fill and takes them back after
// a merge, so that later buckets and steps reuse memory instead of
// allocating and zeroing it again. Its blocks count as used memory from
// their allocation to the end of the count.
type blockPool struct {
	mu    sync.Mutex
	free  [][]uint64
	words int
	mem   *memory
}

// blockEntries is how many states a block holds.
const blockEntries = 1024

func newBlockPool(k int, mem *memory) *blockPool {
	return &blockPool{words: blockEntries * (k + 1), mem: mem}
}

// get returns an empty block; false if allocating it passed the memory
// limit.
func (p *blockPool) get() ([]uint64, bool) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return b[:0], true
	}
	p.mu.Unlock()
	return make([]uint64, 0, p.words), p.mem.grab(int64(p.words) * 8)
}

func (p *blockPool) put(blocks [][]uint64) {
	p.mu.Lock()
	p.free = append(p.free, blocks...)
	p.mu.Unlock()
}

// bytes is the memory a layer's states take.
func (l *layer) bytes(k int) int64 { return int64(l.n) * int64(8+8*k) }

// merger adds up equal states of one bucket: open addressing with linear
// probing, reused from bucket to bucket. The table holds where each key's
// state went in the output, which is in order of first appearance: so
// the output needs no pass over the table's empty slots.
type merger struct {
	table []uint64 // a key in the high bits, its place in out below: 0 empty
	keys  []uint64 // out: distinct keys, in order of first appearance
	vals  []uint64 // out: their counts, k limbs each
	k     int
}

// placeBits is how many low bits of a merge table slot hold a place; the
// key's hash fills the rest, so that most probes that miss need not look
// at the output.
const placeBits = 32

// merge adds up the entries of all workers' buffers for one bucket and
// returns the distinct keys and their counts, valid until the next merge;
// overflow if a count does not fit in k limbs.
func (m *merger) merge(parts [][]uint64) (keys, vals []uint64, overflow bool) {
	k := m.k
	entries := 0
	for _, p := range parts {
		entries += len(p) / (k + 1)
	}
	size := 16
	for size < 2*entries {
		size *= 2
	}
	if len(m.table) < size || len(m.table) > 8*size {
		m.table = make([]uint64, size)
	}
	table := m.table[:size]
	clear(table)
	if cap(m.keys) < entries {
		m.keys, m.vals = make([]uint64, 0, entries), make([]uint64, 0, entries*k)
	}
	out, outv := m.keys[:0], m.vals[:0]
	mask := uint64(size - 1)
	for _, p := range parts {
		for j := 0; j < len(p); j += k + 1 {
			key := p[j]
			h := hashKey(key)
			tag := h &^ (1<<placeBits - 1) // never 0 with the place: places start at 1
			i := h & mask
			for {
				slot := table[i]
				if slot == 0 {
					table[i] = tag | uint64(len(out)+1)
					out = append(out, key)
					if k == 1 {
						outv = append(outv, p[j+1])
					} else {
						outv = append(outv, p[j+1:j+1+k]...)
					}
					break
				}
				if slot&^(1<<placeBits-1) == tag {
					if at := int(slot&(1<<placeBits-1)) - 1; out[at] == key {
						if k == 1 {
							var carry uint64
							outv[at], carry = bits.Add64(outv[at], p[j+1], 0)
							overflow = overflow || carry != 0
						} else if addLimbs(outv[at*k:at*k+k], p[j+1:j+1+k]) {
							overflow = true
						}
						break
					}
				}
				i = (i + 1) & mask
			}
		}
	}
	m.keys, m.vals = out, outv
	return out, outv, overflow
}

// addLimbs adds src to dst (both little-endian limbs, src at least as
// long as dst) and reports whether the sum overflowed.
func addLimbs(dst, src []uint64) (overflow bool) {
	var carry uint64
	for i := range dst {
		dst[i], carry = bits.Add64(dst[i], src[i], carry)
	}
	return carry != 0
}

// limbsToBig converts little-endian limbs to a big.Int.
func limbsToBig(limbs []uint64) *big.Int {
	z := new(big.Int)
	for i := len(limbs) - 1; i >= 0; i-- {
		z.Lsh(z, 64)
		z.Or(z, new(big.Int).SetUint64(limbs[i]))
	}
	return z
}
