package compact

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// TestCompactBlocks encodes groups of states with counts of one and two
// limbs, small and large, in both key orders, and decodes every block
// back: the same states, in key order.
func TestCompactBlocks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	m := mix.New(61) // the keys of boards 8 wide
	for _, c := range []Coding{Varint, Rice} {
		for _, o := range []Order{{}, {&m}} {
			for _, stride := range []int{2, 3} {
				testCompactBlocks(t, rng, o, stride, c)
			}
		}
	}
}

func testCompactBlocks(t *testing.T, rng *rand.Rand, o Order, stride int, c Coding) {
	t.Helper()
	var e Encoder // one for all: a giant group's buffers go, the others' stay
	for _, n := range []int{1, 2, BlockStates - 1, BlockStates, BlockStates + 1, 3*BlockStates + 17, keepStates + 1} {
		entries := make([]uint64, n*stride)
		seen := map[uint64]bool{} // a group's keys are distinct
		for i := range entries {
			switch {
			case i%stride == 0:
				for entries[i] = rng.Uint64() >> (3 + rng.IntN(61)); seen[entries[i]]; {
					entries[i] = rng.Uint64() >> (3 + rng.IntN(61))
				}
				seen[entries[i]] = true
			case rng.IntN(10) == 0:
				entries[i] = rng.Uint64()
			default:
				entries[i] = rng.Uint64N(1000)
			}
		}
		data, blocks := e.Encode(entries, stride, o, c)
		if want := (n + BlockStates - 1) / BlockStates; len(blocks) != want {
			t.Fatalf("%d states: %d blocks, want %d", n, len(blocks), want)
		}
		var got []uint64
		for b, at := range blocks {
			end := int64(len(data))
			if b+1 < len(blocks) {
				end = blocks[b+1]
			}
			out := make([]uint64, min(BlockStates, n-b*BlockStates)*stride)
			m, err := Decode(data[at:end], out, stride, o, c)
			if err != nil || int64(m) != end-at {
				t.Fatalf("%d states, block %d: %v, took %d of %d bytes", n, b, err, m, end-at)
			}
			got = append(got, out...)
		}
		want := states(entries, stride)
		slices.SortFunc(want, func(a, b []uint64) int { return cmp.Compare(o.value(a[0]), o.value(b[0])) })
		if g := states(got, stride); !slices.EqualFunc(g, want, slices.Equal) {
			t.Fatalf("%v order, coding %q, stride %d, %d states: decoded states differ", o, c, stride, n)
		}
		if kept := cap(e.order) > 0; kept != (n <= keepStates) {
			t.Errorf("%d states: the encoder kept its buffers: %v", n, kept)
		}
		// A block cut short, or with a byte more, is refused.
		if n > 1 {
			end := int64(len(data))
			if len(blocks) > 1 {
				end = blocks[1]
			}
			out := make([]uint64, min(BlockStates, n)*stride)
			if _, err := Decode(data[:end-1], out, stride, o, c); err == nil {
				t.Errorf("%d states: a block cut short decoded", n)
			}
		}
	}
}

func states(entries []uint64, stride int) [][]uint64 {
	var out [][]uint64
	for i := 0; i < len(entries); i += stride {
		out = append(out, entries[i:i+stride])
	}
	return out
}

// BenchmarkEncode encodes a group of 2^14 states, the lean step's groups,
// in each coding, reporting ns/state and the bytes a state takes.
func BenchmarkEncode(b *testing.B) {
	const n, stride = 1 << 14, 2
	rng := rand.New(rand.NewPCG(5, 6))
	entries := make([]uint64, n*stride)
	for i := range n {
		entries[i*stride], entries[i*stride+1] = rng.Uint64()>>3, rng.Uint64N(1<<20)
	}
	for _, c := range []Coding{Varint, Rice} {
		b.Run(codingName(c), func(b *testing.B) {
			var e Encoder
			var size int
			for b.Loop() {
				data, _ := e.Encode(entries, stride, Order{}, c)
				size = len(data)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/state")
			b.ReportMetric(float64(size)/n, "bytes/state")
		})
	}
}

// codingName names a coding for a test or benchmark.
func codingName(c Coding) string {
	if c == Varint {
		return "varints"
	}
	return c.String()
}

// TestReadUvarint checks readUvarint against binary.Uvarint on the varint
// of a value of every width, followed by bytes at random and cut at every
// length, and on bytes at random, which include varints too long and
// varints cut short.
func TestReadUvarint(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var inputs [][]byte
	for width := range 65 {
		for range 20 {
			v := rng.Uint64() >> (64 - width)
			if width == 0 {
				v = 0
			}
			b := binary.AppendUvarint(nil, v)
			for range rng.IntN(10) {
				b = append(b, byte(rng.Uint32()))
			}
			for cut := range len(b) + 1 {
				inputs = append(inputs, b[:cut])
			}
		}
	}
	for range 20000 {
		b := make([]byte, rng.IntN(14))
		for i := range b {
			b[i] = byte(rng.Uint32()) | byte(rng.IntN(2))<<7 // top bits set more often than not
		}
		inputs = append(inputs, b)
	}
	for _, b := range inputs {
		gv, gn := readUvarint(b)
		wv, wn := binary.Uvarint(b)
		if gv != wv || gn != wn {
			t.Fatalf("readUvarint(% x) = %d, %d; binary.Uvarint gives %d, %d", b, gv, gn, wv, wn)
		}
	}
}

// BenchmarkDecodeBlock decodes the blocks of a group of 2^14 states as a
// pass reads them from a compact layer of 8 rows: mixes that share their
// top bits (2^44 apart at most), and counts of two limbs, mostly small,
// reporting ns/state; and, as on the widest squares of 8x12 with free
// ends, counts past 64 bits, whose low limbs are full ("/wide").
func BenchmarkDecodeBlock(b *testing.B) {
	const n, stride = 1 << 14, 3
	rng := rand.New(rand.NewPCG(5, 6))
	m := mix.New(61)
	o := Order{m: &m}
	entries := make([]uint64, n*stride)
	wide := make([]uint64, n*stride)
	for i := range n {
		entries[i*stride] = m.Unmix(0x1234<<44 | rng.Uint64N(1<<44))
		entries[i*stride+1] = rng.Uint64N(1 << (4 * rng.IntN(8)))
		wide[i*stride] = entries[i*stride]
		wide[i*stride+1], wide[i*stride+2] = rng.Uint64(), rng.Uint64N(1<<10)
	}
	for _, c := range []Coding{Varint, Rice} {
		b.Run(codingName(c), func(b *testing.B) { benchDecodeBlock(b, entries, stride, o, c) })
		b.Run(codingName(c)+"/wide", func(b *testing.B) { benchDecodeBlock(b, wide, stride, o, c) })
	}
}

func benchDecodeBlock(b *testing.B, entries []uint64, stride int, o Order, c Coding) {
	n := len(entries) / stride
	var e Encoder
	data, blocks := e.Encode(entries, stride, o, c)
	out := make([]uint64, BlockStates*stride)
	for b.Loop() {
		for i, at := range blocks {
			states := min(BlockStates, n-i*BlockStates)
			if _, err := Decode(data[at:], out[:states*stride], stride, o, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/state")
	b.ReportMetric(float64(len(data))/float64(n), "bytes/state")
}

// TestSortByValue orders values spread evenly over 64 bits, values that
// share their top bits (as mixes of one group do), values all in one
// bucket of the counting pass, and a mix of those, and checks the order
// against a comparison sort.
func TestSortByValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tt := range []struct {
		name string
		hash func(i int) uint64
	}{
		{"even", func(int) uint64 { return rng.Uint64() }},
		{"top bits shared", func(int) uint64 { return 0x1234<<44 | rng.Uint64()>>20 }},
		{"one bucket", func(int) uint64 { return rng.Uint64() >> 40 }},
		{"some clustered", func(i int) uint64 { return rng.Uint64() >> (40 * (i % 2)) }},
	} {
		for _, n := range []int{0, 1, 2, 17, 1000, 1 << 14} {
			var e Encoder
			seen := map[uint64]bool{} // the hashes of distinct keys
			for i := range n {
				h := tt.hash(i)
				for seen[h] {
					h = tt.hash(i)
				}
				seen[h] = true
				e.order = append(e.order, sortable{h, i})
			}
			want := slices.Clone(e.order)
			slices.SortFunc(want, func(a, b sortable) int { return cmp.Compare(a.h, b.h) })
			e.sortByValue()
			if !slices.Equal(e.order, want) {
				t.Errorf("%s, %d hashes: not in order", tt.name, n)
			}
		}
	}
}

// TestRecodeLayer, given KNIGHTSTOUR_RECODE (a layer file of varint
// blocks of states of one limb, such as an older checkpoint's, then its
// key order, "hash" or "mix"), reads its first blocks (up to 60,000), writes each again
// as a Rice block, reads that back, and reports the bytes a state of
// both, the figures docs/performance.md gives:
//
//	KNIGHTSTOUR_RECODE="/data/ckpt.53-0.layer mix" go test -run TestRecodeLayer -v ./internal/frontier/compact
func TestRecodeLayer(t *testing.T) {
	file, order, ok := strings.Cut(os.Getenv("KNIGHTSTOUR_RECODE"), " ")
	if !ok {
		t.Skip(`KNIGHTSTOUR_RECODE="FILE hash|mix" measures a layer file`)
	}
	var o Order
	if order == "mix" {
		m := mix.New(61) // any bijection of the values: the keys of 8 rows
		o = MixOrder(&m)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var e Encoder
	var varints, rice, states int64
	out := make([]uint64, 2*BlockStates)
	back := make([]uint64, 2*BlockStates)
	for range 60000 {
		size, err := binary.ReadUvarint(r)
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		data := binary.AppendUvarint(nil, size)
		data = append(data, make([]byte, size)...)
		if _, err := io.ReadFull(r, data[len(data)-int(size):]); err != nil {
			t.Fatal(err)
		}
		n := 0 // the states of the block: a difference and a limb each
		for body := data[len(data)-int(size):]; len(body) > 0; n++ {
			_, a := binary.Uvarint(body)
			_, b := binary.Uvarint(body[max(a, 0):])
			if a <= 0 || b <= 0 || n == BlockStates {
				t.Fatalf("block %d is not of varints of states of one limb", states/BlockStates)
			}
			body = body[a+b:]
		}
		if _, err := Decode(data, out[:2*n], 2, o, Varint); err != nil {
			t.Fatal(err)
		}
		coded, _ := e.Encode(out[:2*n], 2, o, Rice)
		if _, err := Decode(coded, back[:2*n], 2, o, Rice); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out[:2*n], back[:2*n]) {
			t.Fatalf("a block of %d states read back otherwise", n)
		}
		varints, rice, states = varints+int64(len(data)), rice+int64(len(coded)), states+int64(n)
	}
	t.Logf("%d states: %.3f bytes a state as varints, %.3f as Rice codes (%.1f%%)",
		states, float64(varints)/float64(states), float64(rice)/float64(states), 100*float64(rice)/float64(varints))
}
