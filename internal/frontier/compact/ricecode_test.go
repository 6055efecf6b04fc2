package compact

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// A bitOp is one value written with a bitWriter: a Rice code with
// parameter k, or, where raw is set, its k low bits as they are.
type bitOp struct {
	v   uint64
	k   uint
	raw bool
}

// randomBitOps returns Rice codes of every parameter, of values near
// their mean, far past it (escapes) and at the ends of the range, mixed
// with raw bits of every width a write takes.
func randomBitOps(rng *rand.Rand, n int) []bitOp {
	ops := make([]bitOp, n)
	for i := range ops {
		k := uint(rng.IntN(64))
		switch rng.IntN(6) {
		case 0:
			ops[i] = bitOp{v: rng.Uint64() & (1<<(1+rng.IntN(56)) - 1), k: uint(1 + rng.IntN(56)), raw: true}
			ops[i].v &= 1<<ops[i].k - 1
		case 1:
			ops[i] = bitOp{v: rng.Uint64(), k: k} // mostly escapes
		case 2:
			ops[i] = bitOp{v: []uint64{0, 1, ^uint64(0), riceEscape<<k - 1, riceEscape << k}[rng.IntN(5)], k: k}
			if k > 57 {
				ops[i].v = rng.Uint64()
			}
		default:
			ops[i] = bitOp{v: rng.Uint64N(3 << k), k: k} // a quotient of 0 to 2
		}
	}
	return ops
}

// TestRiceCodes writes Rice codes and raw bits with a bitWriter and reads
// them back with a bitReader: the same values, and the reader at the end;
// and checks that every shorter cut of the bytes is found short.
func TestRiceCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for round := range 200 {
		ops := randomBitOps(rng, 1+rng.IntN(100))
		var w bitWriter
		for _, op := range ops {
			if op.raw {
				w.write(op.v, op.k)
			} else {
				w.rice(op.v, op.k)
			}
		}
		w.flush()
		read := func(data []byte) ([]bitOp, *bitReader) {
			r := &bitReader{data: data}
			got := make([]bitOp, len(ops))
			for i, op := range ops {
				got[i] = op
				if op.raw {
					got[i].v = r.read(op.k)
				} else {
					got[i].v = r.rice(op.k)
				}
			}
			return got, r
		}
		got, r := read(w.buf)
		if diff := cmp.Diff(ops, got, cmp.AllowUnexported(bitOp{})); diff != "" {
			t.Fatalf("round %d (-written +read):\n%s", round, diff)
		}
		if !r.end() {
			t.Fatalf("round %d: the reader is not at the end of %d bytes", round, len(w.buf))
		}
		for cut := range len(w.buf) {
			if _, r := read(w.buf[:cut]); !r.bad {
				t.Fatalf("round %d: %d of %d bytes read without running short", round, cut, len(w.buf))
			}
		}
	}
}

// TestZigzag checks that unzigzag inverts zigzag and that zigzag orders
// values by their distance from 0.
func TestZigzag(t *testing.T) {
	var got []uint64
	for d := -64; d <= 64; d++ {
		if unzigzag(zigzag(d)) != d {
			t.Fatalf("unzigzag(zigzag(%d)) = %d", d, unzigzag(zigzag(d)))
		}
		got = append(got, zigzag(d))
	}
	want := []uint64{127, 125, 123}
	if diff := cmp.Diff(want, got[:3]); diff != "" {
		t.Errorf("zigzag(-64 ..) (-want +got):\n%s", diff)
	}
}

// FuzzDecodeBlock decodes bytes as a compact block of either coding: an
// error or states, never a panic or a hang.
func FuzzDecodeBlock(f *testing.F) {
	rng := rand.New(rand.NewPCG(13, 14))
	m := mix.New(61)
	for _, c := range []Coding{Varint, Rice} {
		for _, stride := range []int{2, 3} {
			entries := make([]uint64, 40*stride)
			for i := range entries {
				entries[i] = rng.Uint64N(1 << (4 * rng.IntN(16)))
				if i%stride == 0 {
					entries[i] = m.Unmix(uint64(i)<<40 | rng.Uint64N(1<<40))
				}
			}
			var e Encoder
			data, _ := e.Encode(entries, stride, Order{&m}, c)
			f.Add(data, uint8(stride), uint8(c))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, stride, coding uint8) {
		s := 2 + int(stride)%3
		out := make([]uint64, min(BlockStates, 64)*s)
		for _, n := range []int{1, 40, 64} {
			if n, err := Decode(data, out[:n*s], s, Order{&m}, Coding(coding%2)); err == nil && n > len(data) {
				t.Fatalf("decoded %d bytes of %d", n, len(data))
			}
		}
	})
}
