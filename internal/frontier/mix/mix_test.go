package mix

import (
	"math/rand/v2"
	"testing"
)

// TestMixer checks that unmix inverts mix at every width a board's keys
// take, on keys at the edges and spread between them, and that mixes stay
// below the width.
func TestMixer(t *testing.T) {
	for bits := uint(8); bits <= 62; bits++ { // from a table's least bits for counts
		m := New(bits)
		keys := []uint64{0, 1, 2, m.mask, m.mask - 1, m.mask / 2}
		for i := range uint64(1000) {
			keys = append(keys, Hash(i)&m.mask)
		}
		for _, key := range keys {
			h := m.Mix(key)
			if h > m.mask {
				t.Fatalf("%d bits: mix(%#x) = %#x, past the width", bits, key, h)
			}
			if back := m.Unmix(h); back != key {
				t.Fatalf("%d bits: unmix(mix(%#x)) = %#x", bits, key, back)
			}
		}
	}
}

// BenchmarkUnmix unmixes 8x8 keys (61 bits), which every pass of a lean
// step does for every state of the layer it reads, its classes' or not.
func BenchmarkUnmix(b *testing.B) {
	m := New(61)
	values := make([]uint64, 1024)
	for i := range values {
		values[i] = Hash(uint64(i)) & m.mask
	}
	var sum uint64
	for b.Loop() {
		for _, v := range values {
			sum += m.Unmix(v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(values)), "ns/key")
	if sum == 1 {
		b.Log(sum)
	}
}

// TestNibbleMixer checks that the mixer of keys of 16 nibbles gives them
// back, for keys whose nibbles are all below 11, and keeps their mixes
// below 2^56.
func TestNibbleMixer(t *testing.T) {
	m := NewNibbles()
	keys := []uint64{0, 0xaaaaaaaaaaaaaaaa, 0x1111111111111111, 0xa000000000000000, 0x000000000000000a}
	for i := range uint64(5000) {
		var key uint64
		for h, p := Hash(i), 0; p < 16; p, h = p+1, h/11 {
			key |= h % 11 << (4 * p)
		}
		keys = append(keys, key)
	}
	for _, key := range keys {
		h := m.Mix(key)
		if h >= 1<<nibbleBits {
			t.Fatalf("mix(%#x) = %#x, past 56 bits", key, h)
		}
		if back := m.Unmix(h); back != key {
			t.Fatalf("unmix(mix(%#x)) = %#x", key, back)
		}
	}
}

// TestUnhash checks that Unhash inverts Hash, on keys at the edges and at
// random.
func TestUnhash(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range append([]uint64{0, 1, 1 << 63, ^uint64(0)}, func() []uint64 {
		var ks []uint64
		for range 1000 {
			ks = append(ks, rng.Uint64())
		}
		return ks
	}()...) {
		if got := Unhash(Hash(k)); got != k {
			t.Fatalf("Unhash(Hash(%#x)) = %#x", k, got)
		}
	}
}
