package frontier

import "testing"

// TestMixer checks that unmix inverts mix at every width a board's keys
// take, on keys at the edges and spread between them, and that mixes stay
// below the width.
func TestMixer(t *testing.T) {
	for bits := uint(minCountBits); bits <= 62; bits++ {
		m := newMixer(bits)
		keys := []uint64{0, 1, 2, m.mask, m.mask - 1, m.mask / 2}
		for i := range uint64(1000) {
			keys = append(keys, hashKey(i)&m.mask)
		}
		for _, key := range keys {
			h := m.mix(key)
			if h > m.mask {
				t.Fatalf("%d bits: mix(%#x) = %#x, past the width", bits, key, h)
			}
			if back := m.unmix(h); back != key {
				t.Fatalf("%d bits: unmix(mix(%#x)) = %#x", bits, key, back)
			}
		}
	}
}
