package frontier

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecode checks the table-driven decoding of keys against a digit at
// a time, on random keys and the largest: keys of 17 squares in base 11
// (decode17), of 18 whose digits grow (decode18), and of fewer in base 11.
func TestDecode(t *testing.T) {
	t.Parallel()
	type decoded struct {
		Squares    slotCodes
		Z          int
		Free, Ends uint32
	}
	for _, c := range []struct {
		cfg   Config
		slots int
		top   uint64 // the radix of the last position
	}{
		{Config{Rows: 8, Cols: 9}, 17, 11},
		{Config{Rows: 9, Cols: 9, Sweep: SweepNarrow}, 18, 4},
		{Config{Rows: 9, Cols: 4, Sweep: SweepNarrowDown, Across: true}, 18, 4},
		{Config{Rows: 7, Cols: 9}, 15, 11},
		{Config{Rows: 8, Cols: 8, Sweep: SweepNarrow}, 16, 11},
	} {
		f := mustBoard(t, c.cfg)
		f.pack(false)
		if f.slots != c.slots || f.radix[f.slots-1] != c.top || f.radix[0] != 11+uint64(c.slots/18) {
			t.Fatalf("%+v: %d slots, radices %v, want %d slots up to %d", c.cfg, f.slots, f.radix, c.slots, c.top)
		}
		rng := rand.New(rand.NewPCG(11, 12))
		keys := []uint64{0, 1, 4*f.span - 1, f.span, 3 * f.span}
		for range 10000 {
			keys = append(keys, rng.Uint64N(4*f.span))
		}
		for _, key := range keys {
			var got, want decoded
			got.Z, got.Free, got.Ends = f.decode(key, &got.Squares)
			k := key
			for p := range f.slots {
				c := uint8(k % f.radix[p])
				want.Squares[p], k = c, k/f.radix[p]
				if c == slotFree {
					want.Free |= 1 << p
				}
				if c >= slotToZ {
					want.Ends |= 1 << p
				}
			}
			want.Z = int(k)
			got.Squares[f.slots] = 0 // decode may leave a byte there for the new square to take
			if want != got {
				t.Fatalf("%dx%d, key %d (-digit by digit +decode):\n%s", c.cfg.Rows, c.cfg.Cols, key, cmp.Diff(want, got))
			}
		}
	}
}

// TestKeys encodes random windows of boards whose keys are not packed, up
// to the most pairs of ends their squares hold (nine on 18 squares), their
// labels as a step leaves them (encodeFrom), and checks that each key is
// the one made digit by digit (encodeGrowing), that decoding gives back
// the window with its labels named in order from the far end, and that
// every key, z-state included, stays below 4*span, the bits the board's
// mixer takes.
func TestKeys(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{Rows: 9, Cols: 9, Sweep: SweepNarrow},
		{Rows: 9, Cols: 5, Sweep: SweepNarrow, Across: true},
		{Rows: 8, Cols: 9},
		{Rows: 8, Cols: 8, Sweep: SweepNarrow},
		{Rows: 6, Cols: 7},
	} {
		f := mustBoard(t, cfg)
		f.pack(false)
		rng := rand.New(rand.NewPCG(13, 14))
		var from [MaxSlots]int8
		for i := range from {
			from[i] = int8(i)
		}
		for range 20000 {
			var a slotCodes
			pairs := rng.IntN(f.slots/2 + 1)
			if rng.IntN(4) == 0 {
				pairs = f.slots / 2
			}
			// Labels as a step leaves them: named by decode, in any
			// order, and at times one pair made by linkSlots.
			perm, names := rng.Perm(f.slots), rng.Perm(pairs)
			linked, link := -1, uint8(24+rng.IntN(f.slots+1))
			if pairs > 0 && rng.IntN(2) == 0 {
				linked = rng.IntN(pairs)
			}
			for i, p := range perm {
				switch {
				case i/2 == linked:
					a[p] = link
				case i < 2*pairs:
					a[p] = uint8(slotLabel + names[i/2])
				default:
					a[p] = uint8(rng.IntN(slotLabel))
				}
			}
			z := rng.IntN(4)
			key := f.encodeFrom(&a, z, &from)
			if digits := f.encodeGrowing(&a, z, &from); key != digits {
				t.Fatalf("%+v: window %v, z %d: key %d, digit by digit %d", cfg, a[:f.slots], z, key, digits)
			}
			if key >= 4*f.span || key>>f.mixer.Bits() != 0 {
				t.Fatalf("%+v: window %v: key %d, past 4*span %d", cfg, a[:f.slots], key, 4*f.span)
			}
			var got slotCodes
			gz, _, _ := f.decode(key, &got)
			got[f.slots] = 0
			want := a
			named := map[uint8]uint8{}
			for p := f.slots - 1; p >= 0; p-- {
				if c := a[p]; c >= slotLabel {
					if _, ok := named[c]; !ok {
						named[c] = uint8(slotLabel + len(named))
					}
					want[p] = named[c]
				}
			}
			if want != got || gz != z { // cmp.Diff only to tell how: 20,000 of its calls take seconds
				t.Fatalf("%+v: window %v, z %d: decoded z %d (-want +got):\n%s", cfg, a[:f.slots], z, gz, cmp.Diff(want, got))
			}
		}
	}
}

// BenchmarkDecodeKey decodes keys of 8x8 states (17 squares, in base
// 11), which every state of a layer goes through once a step.
func BenchmarkDecodeKey(b *testing.B) { benchDecode(b, 8, 8, SweepRows) }

// BenchmarkDecodeKey18 decodes keys of 9x9 states by the narrow sweep (18
// squares, their digits growing: decode18).
func BenchmarkDecodeKey18(b *testing.B) { benchDecode(b, 9, 9, SweepNarrow) }

func benchDecode(b *testing.B, rows, cols int, sweep Sweep) {
	f, windows := randomWindows(b, rows, cols, sweep)
	keys := make([]uint64, len(windows))
	for i := range windows {
		keys[i] = f.encode(&windows[i], i&3, &f.shifts[f.n-1])
	}
	var sum uint32
	var a slotCodes
	for b.Loop() {
		for _, key := range keys {
			z, free, ends := f.decode(key, &a)
			sum += uint32(z) + free + ends + uint32(a[f.slots-1])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
	if sum == 1 {
		b.Log(sum)
	}
}

// BenchmarkEncodeKey encodes windows of 8x8 states (17 squares, in base
// 11), the step's most frequent call on boards 8 wide.
func BenchmarkEncodeKey(b *testing.B) { benchEncode(b, 8, 8, SweepRows) }

// BenchmarkEncodeKey18 encodes windows of 9x9 states by the narrow sweep
// (18 squares).
func BenchmarkEncodeKey18(b *testing.B) { benchEncode(b, 9, 9, SweepNarrow) }

// BenchmarkEncodeKey16 encodes windows of 8x8 states by the narrow sweep
// (16 squares, in base 11), as counts with free ends on boards 8 wide
// keep them: 16 nibbles leave no room for z.
func BenchmarkEncodeKey16(b *testing.B) { benchEncode(b, 8, 8, SweepNarrow) }

// BenchmarkEncodePairs16 encodes windows of 16 squares whose labels are
// pairs, 2 to 7 of them and one at times made by linkSlots, as the wide
// squares of 8 x n with free ends hold them.
func BenchmarkEncodePairs16(b *testing.B) {
	f, windows := randomWindows(b, 8, 8, SweepNarrow)
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range windows {
		pairWindow(&windows[i], f.slots, 2+rng.IntN(6), rng)
	}
	benchWindows(b, f, windows)
}

// pairWindow fills positions 1..slots of a with pairs labels, a tenth of
// them made by linkSlots, one square leading to z at most, and the rest
// free or done.
func pairWindow(a *slotCodes, slots, pairs int, rng *rand.Rand) {
	pos := rng.Perm(slots)
	for i, j := range rng.Perm(8)[:pairs] {
		c := uint8(slotLabel + j)
		if rng.IntN(10) == 0 {
			c = 24
		}
		a[1+pos[2*i]], a[1+pos[2*i+1]] = c, c
	}
	for k, p := range pos[2*pairs:] {
		switch {
		case k == 0 && rng.IntN(2) == 0:
			a[1+p] = slotToZ
		case rng.IntN(2) == 0:
			a[1+p] = slotFree
		default:
			a[1+p] = slotDone
		}
	}
}

// TestLesserKey checks that, in the steps that keep one of a state and
// its reflection, the key a worker keeps is the lesser of the state's and
// its reflection's, as both keys read plainly: the z-state weighs most in
// a key, so the one whose z-state is the lesser (reflectionRule). The
// rule so picks one of each pair, whichever of the two the step made.
func TestLesserKey(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		sweep      Sweep
	}{
		{8, 8, SweepNarrow},     // 16 squares in base 11
		{8, 8, SweepNarrowDown}, // another order of the rows
		{9, 9, SweepNarrow},     // 18 squares, their digits growing
		{7, 9, SweepNarrow},     // an odd width, whose reflection keeps z
		{6, 6, SweepNarrow},     // a packed board, in digits as Base11 has it
	} {
		f, windows := randomWindows(t, c.rows, c.cols, c.sweep)
		rng := rand.New(rand.NewPCG(13, 14))
		for i := range windows[:128] {
			pairWindow(&windows[i], f.slots, rng.IntN(min(8, f.slots/2)+1), rng)
		}
		mirrored := 0
		for v := range f.shifts {
			st := &f.shifts[v]
			if !st.mirrored {
				continue
			}
			mirrored++
			w := &worker{r: &counter{f: f}, st: st}
			for i := range windows[:256] {
				a := &windows[i]
				for z := range 4 {
					got, want := w.lesserKey(a, z), min(f.encodeFrom(a, z, &st.from), f.encodeFrom(a, f.reflectZ(z), &st.mfrom))
					if got != want {
						t.Fatalf("%dx%d, %v, square %d: window %v, z %d: kept %d, want %d", c.rows, c.cols, c.sweep, v, a[:f.slots+1], z, got, want)
					}
				}
			}
		}
		if mirrored == 0 {
			t.Errorf("%dx%d, %v: no step keeps reflections", c.rows, c.cols, c.sweep)
		}
	}
}

// BenchmarkLesserKey16 makes the key a step that keeps one of a state and
// its reflection keeps (worker.lesserKey), of windows of 16 squares as
// BenchmarkEncodePairs16's, a third of them with one end: at the second
// last square of a column of 8x8 with free ends.
func BenchmarkLesserKey16(b *testing.B) {
	f, windows := randomWindows(b, 8, 8, SweepNarrow)
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range windows {
		pairWindow(&windows[i], f.slots, 2+rng.IntN(6), rng)
	}
	w := &worker{r: &counter{f: f}, st: &f.shifts[3*8+5]}
	if !w.st.mirrored {
		b.Fatal("the step keeps no reflections")
	}
	var sum uint64
	for b.Loop() {
		for i := range windows {
			sum += w.lesserKey(&windows[i], i%3)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(windows)), "ns/key")
	if sum == 1 {
		b.Log(sum)
	}
}

func benchEncode(b *testing.B, rows, cols int, sweep Sweep) {
	f, windows := randomWindows(b, rows, cols, sweep)
	benchWindows(b, f, windows)
}

func benchWindows(b *testing.B, f *board, windows []slotCodes) {
	var sum uint64
	for b.Loop() {
		for i := range windows {
			sum += f.encode(&windows[i], i&3, &f.shifts[f.n-1])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(windows)), "ns/key")
	if sum == 1 {
		b.Log(sum)
	}
}

// randomWindows returns a board, its keys in digits, and 1024 windows of
// its squares drawn at random, half of them done, about as in the middle
// of a count.
func randomWindows(b testing.TB, rows, cols int, sweep Sweep) (*board, []slotCodes) {
	f, err := newBoard(rows, cols, sweep, false)
	if err != nil {
		b.Fatal(err)
	}
	f.pack(false)
	rng := rand.New(rand.NewPCG(9, 10))
	windows := make([]slotCodes, 1024)
	for i := range windows {
		for p := 1; p <= f.slots; p++ {
			switch c := rng.IntN(10); {
			case c < 5:
				windows[i][p] = slotDone
			case c < 7:
				windows[i][p] = slotFree
			case c < 8:
				windows[i][p] = slotToZ
			default:
				windows[i][p] = uint8(slotLabel + rng.IntN(8))
			}
		}
	}
	return f, windows
}

// TestClassOfDigits checks that a classifier reads the kinds of the
// squares of keys in digits, base 11 and growing, as the windows they
// were made from hold them.
func TestClassOfDigits(t *testing.T) {
	for _, cfg := range []Config{
		{Rows: 8, Cols: 8, Sweep: SweepRows},
		{Rows: 9, Cols: 9, Sweep: SweepNarrow},
	} {
		f, windows := randomWindows(t, cfg.Rows, cfg.Cols, cfg.Sweep)
		st := &f.shifts[f.n-1]
		for _, pos := range [][]int{{0}, {f.slots - 1}, {3, 9, f.slots - 2}} {
			c := &classifier{f: f}
			c.setPositions(pos)
			for i := range windows {
				want := 0
				for _, p := range pos {
					want = 3*want + kind(uint64(windows[i][st.from[p]]))
				}
				if got := c.class(f.encode(&windows[i], i&3, st)); got != want {
					t.Fatalf("%dx%d, positions %v, window %v: class %d, want %d", cfg.Rows, cfg.Cols, pos, windows[i], got, want)
				}
			}
		}
	}
}

// TestNeeds11 checks needs11 against the digits of keys made digit by
// digit, and against decode, for every number of squares a key in base 11
// holds and every z-state, the digits drawn at random and at their edges.
func TestNeeds11(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for slots := 1; slots <= base11Slots; slots++ {
		f := &board{slots: slots}
		f.setRadices()
		for i := range 3000 {
			key, digits := randomKey11(rng, slots, i, i&3)
			var wantFree, wantEnds uint32
			for p, c := range digits {
				switch {
				case c == slotFree:
					wantFree |= 1 << p
				case c >= slotToZ:
					wantEnds |= 1 << p
				}
			}
			free, ends := needs11(key, slots)
			var a slotCodes
			_, dFree, dEnds := f.decode(key, &a)
			got, want := [4]uint32{free, ends, dFree, dEnds}, [4]uint32{wantFree, wantEnds, wantFree, wantEnds}
			if got != want {
				t.Fatalf("%d squares, key %d: free and ends by needs11, then by decode (-want +got):\n%s", slots, key, cmp.Diff(want, got))
			}
		}
	}
}

// randomKey11 returns a key of slots digits in base 11 and z-state z, and
// its digits, the lowest first: drawn at random, but all 0 for i 0 and all
// 10 for i 1, the edges of a digit.
func randomKey11(rng *rand.Rand, slots, i, z int) (uint64, []uint64) {
	var key, place uint64 = 0, 1
	digits := make([]uint64, slots)
	for p := range digits {
		switch i {
		case 0:
			digits[p] = 0
		case 1:
			digits[p] = 10
		default:
			digits[p] = uint64(rng.IntN(11))
		}
		key += digits[p] * place
		place *= 11
	}
	return key + uint64(z)*place, digits
}

// BenchmarkNeeds16 reads what the squares of keys of 16 squares in base 11
// need, as a layer of 8 rows with free ends is written (kindsOfDigits):
// by needs11, and by decode as it did before.
func BenchmarkNeeds16(b *testing.B) {
	f, windows := randomWindows(b, 8, 8, SweepNarrow)
	keys := make([]uint64, len(windows))
	for i := range windows {
		keys[i] = f.encode(&windows[i], i&3, &f.shifts[f.n-1])
	}
	for _, by := range []string{"needs11", "decode"} {
		b.Run(by, func(b *testing.B) {
			var sum uint32
			var a slotCodes
			for b.Loop() {
				for _, key := range keys {
					var free, ends uint32
					if by == "decode" {
						_, free, ends = f.decode(key, &a)
					} else {
						free, ends = needs11(key, f.slots)
					}
					sum += free ^ ends
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
			if sum == 1 {
				b.Log(sum)
			}
		})
	}
}
