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

// BenchmarkUnmix unmixes 8x8 keys (61 bits), which every pass of a lean
// step does for every state of the layer it reads, its classes' or not.
func BenchmarkUnmix(b *testing.B) {
	f := mustBoard(b, Config{Rows: 8, Cols: 8})
	values := make([]uint64, 1024)
	for i := range values {
		values[i] = hashKey(uint64(i)) & f.mixer.mask
	}
	var sum uint64
	for b.Loop() {
		for _, v := range values {
			sum += f.mixer.unmix(v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(values)), "ns/key")
	if sum == 1 {
		b.Log(sum)
	}
}
