package knightstour

import (
	"math/big"
	"math/bits"
	"sync/atomic"
)

// emptyKey marks a free slot of a merge table; no state encodes to it, as
// keys use at most 63 bits.
const emptyKey = ^uint64(0)

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

// bytes is the memory a layer's states take.
func (l *layer) bytes(k int) int64 { return int64(l.n) * int64(8+8*k) }

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
// followed by its k limbs.
type emitter struct {
	buf   [][]uint64
	shift uint // 64 - log2(buckets)
	k     int
	bytes int64 // capacity of buf, for the memory account
}

func newEmitter(buckets, k int) *emitter {
	return &emitter{buf: make([][]uint64, buckets), shift: uint(64 - bits.TrailingZeros(uint(buckets))), k: k}
}

func (e *emitter) emit(key, h uint64, val []uint64) {
	b := 0
	if e.shift < 64 {
		b = int(h >> e.shift)
	}
	s := e.buf[b]
	if c := cap(s); len(s)+e.k+1 > c {
		s = append(make([]uint64, 0, max(2*c, 64*(e.k+1))), s...)
		e.bytes += int64(cap(s)-c) * 8
	}
	if e.k == 1 {
		e.buf[b] = append(s, key, val[0])
		return
	}
	s = append(s, key)
	e.buf[b] = append(s, val[:e.k]...)
}

// merger adds up equal states of one bucket: open addressing with linear
// probing, reused from bucket to bucket.
type merger struct {
	keys []uint64
	vals []uint64
	k    int
}

// merge adds up the entries of all workers' buffers for one bucket and
// returns the distinct keys and their counts; overflow if a count does
// not fit in k limbs.
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
	if len(m.keys) < size || len(m.keys) > 8*size {
		m.keys, m.vals = make([]uint64, size), make([]uint64, size*k)
	}
	tk, tv := m.keys[:size], m.vals[:size*k]
	for i := range tk {
		tk[i] = emptyKey
	}
	mask := uint64(size - 1)
	n := 0
	for _, p := range parts {
		for j := 0; j < len(p); j += k + 1 {
			key := p[j]
			i := hashKey(key) & mask
			for tk[i] != key && tk[i] != emptyKey {
				i = (i + 1) & mask
			}
			if tk[i] == emptyKey {
				tk[i] = key
				copy(tv[int(i)*k:int(i)*k+k], p[j+1:j+1+k])
				n++
			} else if addLimbs(tv[int(i)*k:int(i)*k+k], p[j+1:j+1+k]) {
				overflow = true
			}
		}
	}
	keys, vals = make([]uint64, 0, n), make([]uint64, 0, n*k)
	for i, key := range tk {
		if key != emptyKey {
			keys = append(keys, key)
			vals = append(vals, tv[i*k:i*k+k]...)
		}
	}
	return keys, vals, overflow
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
