package frontier

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// relabelByWalk is relabel as a walk over the word, pair after pair in
// order of first appearance: slower, and plain enough to check it by.
func relabelByWalk(word uint64) uint64 {
	out, next := word, uint64(slotLabel)
	var renamed uint64 // a bit for each position renamed
	for p := 0; p < 64; p += 4 {
		c := word >> p & 15
		if c < slotLabel || renamed>>p&1 != 0 {
			continue
		}
		for q := p; q < 64; q += 4 {
			if word>>q&15 == c {
				out = out&^(15<<q) | next<<q
				renamed |= 1 << q
			}
		}
		next++
	}
	return out
}

// randomWord returns a packed word as a step leaves it before relabel:
// free, done and to-z squares, and pairs of ends whose labels are any of
// those a canonical word and link use, with up to two fresh ones.
func randomWord(rng *rand.Rand) uint64 {
	wordLabels := []uint64{slotLabel, slotLabel + 1, slotLabel + 2, slotLabel + 3,
		slotLabel + 4, slotLabel + 5, slotLabel + 6, slotLabel + 7,
		freshSecond, freshFirst}
	var word uint64
	order := rng.Perm(16)
	labels := rng.Perm(len(wordLabels))
	pairs := rng.IntN(9)
	for i := range pairs {
		c := wordLabels[labels[i%len(labels)]]
		word |= c<<(4*order[2*i]) | c<<(4*order[2*i+1])
	}
	for _, p := range order[2*pairs:] {
		word |= uint64(rng.IntN(slotLabel)) << (4 * p)
	}
	return word
}

// TestRelabel checks relabel against relabelByWalk on words with every
// number of pairs, and on the words at the edges: none, all free, eight
// pairs of fresh and canonical labels.
func TestRelabel(t *testing.T) {
	words := []uint64{0, 0x1111111111111111, 0x2222222222222222,
		0xeeffeeff33443344, 0xa9876543a9876543, 0xfea98765fea98765,
		0x3030303030303030 | 0xf00000000000000f}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		words = append(words, randomWord(rng))
	}
	for _, w := range words {
		if got, want := relabel(w), relabelByWalk(w); got != want {
			t.Fatalf("relabel(%016x) = %016x, want %016x", w, got, want)
		}
	}
}

// TestRelabelCanonical checks that relabel gives a canonical word back
// unchanged, and that it names each pair by a label of its own.
func TestRelabelCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		w := relabel(randomWord(rng))
		if again := relabel(w); again != w {
			t.Fatalf("relabel(%016x) = %016x, not canonical", w, again)
		}
		for c := uint64(slotLabel); c < 16; c++ {
			if n := bits.OnesCount64(nibbleZeros(w ^ c*nibbleLow)); n != 0 && n != 2 {
				t.Fatalf("%016x holds label %d %d times", w, c, n)
			}
		}
	}
}

// BenchmarkRelabel renames the labels of words like those a step makes.
func BenchmarkRelabel(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	words := make([]uint64, 1024)
	for i := range words {
		words[i] = randomWord(rng)
	}
	var sum uint64
	for b.Loop() {
		for _, w := range words {
			sum += relabel(w)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
	if sum == 1 {
		b.Log(sum)
	}
}

// TestNibbleBits checks the moves between a bit a square and a nibble a
// square: spread undoes squeeze, and nibbleKindBits tells each square's
// kind as kind does.
func TestNibbleBits(t *testing.T) {
	for _, m := range []uint32{0, 1, 0x8000, 0xffff, 0xa5a5, 0x1234, 0x8001} {
		if got := squeeze(spread(m)); got != m {
			t.Errorf("squeeze(spread(%#x)) = %#x", m, got)
		}
	}
	word := uint64(0xfedcba9876543210)
	var want, got []int
	for p := range 16 {
		want = append(want, []int{0, 1, 3}[kind(word>>(4*p)&15)])
		got = append(got, int(nibbleKindBits(word)>>(4*p)&15))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nibbleKindBits(%#x) (-want +got):\n%s", word, diff)
	}
}

// reflectByWalk moves the nibbles of word one at a time, as
// reflectNibbles does at once.
func reflectByWalk(word uint64, mirror *[MaxSlots]int8, slots int) uint64 {
	var out uint64
	for p := range slots {
		out |= (word >> (4 * p) & 15) << (4 * uint(mirror[p]))
	}
	return out
}

// TestReflectNibbles checks reflectNibbles against moving each nibble in
// turn, at every step of packed boards whose window is its own reflection.
func TestReflectNibbles(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, cfg := range []Config{
		{Rows: 7, Cols: 7, Sweep: SweepNarrow},
		{Rows: 7, Cols: 9, Sweep: SweepNarrowDown},
		{Rows: 8, Cols: 8, Sweep: SweepNarrow},
		{Rows: 5, Cols: 6, Sweep: SweepNarrow},
		{Rows: 6, Cols: 6, Sweep: SweepNarrowDown},
		{Rows: 3, Cols: 4, Sweep: SweepNarrow},
	} {
		f := mustBoard(t, cfg)
		steps := 0
		for v := range f.n {
			st := &f.shifts[v]
			if !st.mirrored {
				continue
			}
			steps++
			mask := uint64(1)<<(4*f.slots) - 1
			if f.slots == 16 {
				mask = ^uint64(0)
			}
			for range 200 {
				w := randomWord(rng) & mask
				if got, want := st.reflectNibbles(w), reflectByWalk(w, &st.mirror, f.slots); got != want {
					t.Fatalf("%dx%d %v, square %d: reflectNibbles(%016x) = %016x, want %016x", cfg.Rows, cfg.Cols, cfg.Sweep, v, w, got, want)
				}
			}
		}
		if steps == 0 {
			t.Errorf("%dx%d %v: no step whose window is its own reflection", cfg.Rows, cfg.Cols, cfg.Sweep)
		}
	}
}

// TestLinked checks linked and pairSet against the candidates taken, one
// at a time, for every set of pairs of four candidates and every set of
// single edges.
func TestLinked(t *testing.T) {
	for x := range 1 << 16 {
		ps := pairSet(x)
		for one := range uint32(16) {
			want := one
			for i := range 4 {
				var with uint32
				for j := range 4 {
					if x>>(4*i+j)&1 != 0 {
						with |= 1 << j
					}
				}
				if got := ps.of(i); got != with {
					t.Fatalf("pairSet(%#x).of(%d) = %b, want %b", x, i, got, with)
				}
				if with != 0 {
					want |= 1<<i | with
				}
			}
			if got := linked(one, ps); got != want {
				t.Fatalf("linked(%b, %#x) = %b, want %b", one, x, got, want)
			}
		}
	}
}
