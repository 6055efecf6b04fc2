package frontier

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClassBySplits checks a classifier with splits against its rules
// read the slow way, and board.codeAt against the windows: every key
// matches the rules of exactly one class,
// the one class tells, and a group of that one state holds that class
// alone; keys packed (6x6 by rows), in base 11 (8 rows) and in growing
// digits (9 rows).
func TestClassBySplits(t *testing.T) {
	for _, cfg := range []Config{
		{Rows: 6, Cols: 6, Sweep: SweepRows},
		{Rows: 8, Cols: 8, Sweep: SweepRows},
		{Rows: 9, Cols: 9, Sweep: SweepNarrow},
	} {
		f, windows := randomWindows(t, cfg.Rows, cfg.Cols, cfg.Sweep)
		st := &f.shifts[f.n-1]
		last := f.slots - 2
		for _, pt := range []partition{
			{pos: []int{3}, splits: []classSplit{{2, 5}}},
			// A class split, one of its parts split again, and a class
			// split by a position another class was split by.
			{pos: []int{3, 9, last}, splits: []classSplit{{26, 5}, {27, 7}, {0, 5}, {28, 1}, {31, 4}}},
			{splits: []classSplit{{0, 4}, {2, 6}}},
		} {
			rules, ok := pt.rules()
			if !ok || !f.validPartition(f.n/2, pt) {
				t.Fatalf("%dx%d: partition %v refused", cfg.Rows, cfg.Cols, pt)
			}
			c := &classifier{f: f}
			c.setPartition(pt)
			if len(rules) != c.count() {
				t.Fatalf("%v: %d rules for %d classes", pt, len(rules), c.count())
			}
			for i := range windows {
				var want []int
				for cl, rule := range rules {
					if !slices.ContainsFunc(rule, func(r posKind) bool { return kind(uint64(windows[i][st.from[r.pos]])) != r.kind }) {
						want = append(want, cl)
					}
				}
				key := f.encode(&windows[i], i&3, st)
				for q := range f.slots {
					if got, want := kind(f.codeAt(key, q)), kind(uint64(windows[i][st.from[q]])); got != want {
						t.Fatalf("%dx%d, window %v: kind %d at position %d, want %d", cfg.Rows, cfg.Cols, windows[i], got, q, want)
					}
				}
				got := c.class(key)
				if len(want) != 1 || got != want[0] {
					t.Fatalf("%dx%d %v, window %v: class %d, want the one of %v", cfg.Rows, cfg.Cols, pt, windows[i], got, want)
				}
				if held := c.holds(f.kindsOf([]uint64{key, 1}, 2)); held != 1<<got {
					t.Fatalf("%dx%d %v, one state of class %d: holds %b", cfg.Rows, cfg.Cols, pt, got, held)
				}
			}
		}
	}
}

// TestPartitionRefused checks that partitions a checkpoint could name
// but the classifier cannot tell are refused.
func TestPartitionRefused(t *testing.T) {
	f, err := newBoard(6, 6, SweepRows, false)
	if err != nil {
		t.Fatal(err)
	}
	v := f.n / 2
	var many []classSplit // 27 classes and 19 splits: 65 classes
	for cl := range 19 {
		many = append(many, classSplit{cl, 5})
	}
	for _, tt := range []struct {
		name string
		pt   partition
	}{
		{"four positions", partition{pos: []int{3, 4, 5, 6}}},
		{"a position twice", partition{pos: []int{3, 3}}},
		{"a position outside the window", partition{pos: []int{3}, splits: []classSplit{{0, 99}}}},
		{"a split by the class's own position", partition{pos: []int{3, 4}, splits: []classSplit{{1, 4}}}},
		{"a split by a position its part was split by", partition{pos: []int{3}, splits: []classSplit{{1, 4}, {3, 4}}}},
		{"a split of a class to come", partition{pos: []int{3}, splits: []classSplit{{3, 4}}}},
		{"a split of no class", partition{pos: []int{3}, splits: []classSplit{{-1, 4}}}},
		{"65 classes", partition{pos: []int{1, 2, 3}, splits: many}},
	} {
		if f.validPartition(v, tt.pt) {
			t.Errorf("%s: %v valid", tt.name, tt.pt)
		}
	}
	if ok := f.validPartition(v, partition{pos: []int{1, 2, 3}, splits: many[:18]}); !ok {
		t.Errorf("64 classes refused")
	}
}

// TestRefineSplitsLargeClasses plans passes of at most a third of the
// next layer over random keys, whose kinds are far from even (an end is
// 14 codes of 16, and the class of ends at three positions two thirds of
// the keys): the classes too large for a pass are split, no pass
// keeps a range of groups, each class is made once, and each pass's
// share is its classes' share of the sample.
func TestRefineSplitsLargeClasses(t *testing.T) {
	f, err := newBoard(6, 6, SweepRows, false)
	if err != nil {
		t.Fatal(err)
	}
	const groups, part = 64, 0.35
	sm := samples(f)[1]
	check := func(name string, passes []pass, c *classifier) {
		t.Helper()
		coversOnce(t, passes, c, groups, part)
		if len(c.splits) == 0 {
			t.Errorf("%s: no class split, passes %+v", name, passes)
		}
		shares := c.shares(sm)
		for _, p := range passes {
			if p.lo != 0 || p.hi != groups {
				t.Errorf("%s: a pass %+v of a range of groups", name, p)
			}
			sum := 0.0
			for m := p.classes; m != 0; m &= m - 1 {
				sum += shares[bits.TrailingZeros64(m)]
			}
			if p.share > part+1e-9 {
				t.Errorf("%s: a pass %+v above %v", name, p, part)
			}
			if d := sum - p.share; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s: a pass %+v whose classes hold %v of the sample", name, p, sum)
			}
		}
	}
	passes, c := planPasses(f, 20, sm, part, groups, nil, untouched(&f.shifts[20], f.slots))
	check("planned", passes, c)

	// The layer before made in one pass of all 27 classes of three
	// positions: the classes split without the groups to read.
	cp := &classParts{partition: partition{pos: []int{3, 5, 9}}}
	cur := &layer{n: 64 * 10}
	for range 64 {
		cur.groups = append(cur.groups, group{words: 2 * 10})
	}
	cp.add(0, 64, 1<<27-1)
	passes, c = alignedPasses(f, cp, cur, 2, &sample{keys: sm.keys}, part, groups, everyPosition(f))
	if diff := cmp.Diff([]int{3, 5, 9}, c.pos); diff != "" {
		t.Errorf("aligned: positions (-want +got):\n%s", diff)
	}
	sm = &sample{keys: sm.keys}
	check("aligned", passes, c)
}

// TestClassTable checks the classes a classTable tells against those the
// divisions tell, on keys of 16 squares (8 rows by the narrow sweep, as
// with free ends) and of 17 (8 rows by rows), every digit and z-state
// drawn at random and at their edges, for partitions drawn at random:
// up to three positions, then up to eight splits.
func TestClassTable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 14))
	for _, sweep := range []Sweep{SweepNarrow, SweepRows} {
		f, err := newBoard(8, 12, sweep, false)
		if err != nil {
			t.Fatal(err)
		}
		f.pack(false)
		keys := make([]uint64, 4000)
		for i := range keys {
			keys[i], _ = randomKey11(rng, f.slots, i, rng.IntN(4))
		}
		tables := 0
		for range 300 {
			pt := partition{pos: rng.Perm(f.slots)[:rng.IntN(maxClassPositions+1)]}
			for range rng.IntN(9) {
				next := pt.clone()
				next.splits = append(next.splits, classSplit{rng.IntN(pt.count()), rng.IntN(f.slots)})
				if _, ok := next.rules(); ok {
					pt = next
				}
			}
			c := &classifier{f: f}
			c.setPartition(pt)
			if c.table == nil {
				if n := len(pt.positions()); n > 0 && n <= maxTablePositions {
					t.Fatalf("%d squares, partition %v: no table", f.slots, pt)
				}
				continue
			}
			tables++
			slow := *c
			slow.table = nil
			for _, key := range keys {
				if got, want := c.class(key), slow.class(key); got != want {
					t.Fatalf("%d squares, partition %v, key %d: class %d by the table, %d by division", f.slots, pt, key, got, want)
				}
			}
		}
		if tables < 200 {
			t.Errorf("%d squares: %d partitions of 300 told by a table", f.slots, tables)
		}
	}
}

// TestChooseClasses checks chooseClasses, which weighs each candidate
// position by the kinds of the sample's keys there, against choosing by a
// classifier for each candidate (the same positions and shares), and
// refine, which keeps the class of each key as it splits classes: each
// part holds the share that the classes of its keys, told again by
// division, give it, and the classifier's table tells what its divisions
// tell. Keys packed (6x6 by rows) and in
// base 11 (8x12 by the narrow sweep), weighed by states, by the states
// they made, and by states where they made none.
func TestChooseClasses(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 16))
	packed, err := newBoard(6, 6, SweepRows, false)
	if err != nil {
		t.Fatal(err)
	}
	base11, err := newBoard(8, 12, SweepNarrow, false)
	if err != nil {
		t.Fatal(err)
	}
	base11.pack(false)
	keys11 := make([]uint64, 5000)
	for i := range keys11 {
		keys11[i], _ = randomKey11(rng, base11.slots, i, rng.IntN(4))
	}
	boards := []struct {
		f    *board
		keys []uint64
	}{{packed, randomKeys(packed)}, {base11, keys11}}
	refined := 0 // the refines that split a class
	for _, b := range boards {
		for si, sm := range samples(b.f) {
			sm.keys = b.keys
			keep := everyPosition(b.f)
			for _, part := range []float64{0, 0.02, 0.35} {
				for _, seed := range [][]int{nil, {keep[2], keep[5]}} {
					name := fmt.Sprintf("%d squares, sample %d, part %v, seed %v", b.f.slots, si, part, seed)
					c, shares := chooseClasses(b.f, keep, sm, part, seed)
					wantC, wantShares := chooseClassesByClassifiers(b.f, keep, sm, part, seed)
					if diff := cmp.Diff(wantC.pos, c.pos); diff != "" {
						t.Errorf("%s: positions (-by classifiers +by kinds):\n%s", name, diff)
					}
					if diff := cmp.Diff(wantShares, shares); diff != "" {
						t.Errorf("%s: shares (-by classifiers +by kinds):\n%s", name, diff)
					}
					// Each part refine returns holds the share of the sample
					// that the classes of its keys, told again by division,
					// give it.
					cl := slices.Index(shares, slices.Max(shares))
					parts := c.refine(cl, shares[cl], part/4, keep, sm)
					slow := c.byDivision()
					told := slow.shares(sm)
					for _, p := range parts {
						sum := 0.0
						for m := p.classes; m != 0; m &= m - 1 {
							sum += told[bits.TrailingZeros64(m)]
						}
						if d := sum - p.share; d > 1e-9 || d < -1e-9 {
							t.Errorf("%s: refined, classes %b of share %v, told again %v", name, p.classes, p.share, sum)
						}
					}
					if len(c.splits) > 0 {
						refined++
					}
					if b.f == base11 && c.table == nil && len(c.positions()) <= maxTablePositions {
						t.Errorf("%s: refined, no table", name)
					}
					if w, g := slow.classesOf(b.keys), c.classesOf(b.keys); !slices.Equal(w, g) {
						t.Errorf("%s: refined classes (-by division +by c):\n%s", name, cmp.Diff(w, g))
					}
				}
			}
		}
	}
	if refined < 4 {
		t.Errorf("%d refines split a class, want 4 or more", refined)
	}
	t.Logf("%d refines split a class", refined)
}

// chooseClassesByClassifiers is chooseClasses by a classifier for each
// candidate position.
func chooseClassesByClassifiers(f *board, keep []int, sm *sample, part float64, seed []int) (*classifier, []float64) {
	var best *classifier
	shares := []float64{1}
	if len(seed) > 0 {
		best = &classifier{f: f}
		best.setPositions(seed)
		shares = best.shares(sm)
	}
	for len(shares) == 1 || len(best.pos) < maxClassPositions && slices.Max(shares) > part {
		var pick *classifier
		var pickShares []float64
		for _, p := range keep {
			var pos []int
			if best != nil {
				if slices.Contains(best.pos, p) {
					continue
				}
				pos = slices.Clone(best.pos)
			}
			c := &classifier{f: f}
			c.setPositions(append(pos, p))
			sh := c.shares(sm)
			if pick == nil || slices.Max(sh) < slices.Max(pickShares) {
				pick, pickShares = c, sh
			}
		}
		if pick == nil {
			break
		}
		best, shares = pick, pickShares
	}
	if best == nil {
		return &classifier{f: f}, []float64{1}
	}
	return best, shares
}

// byDivision returns a copy of c that tells classes by division.
func (c *classifier) byDivision() *classifier {
	d := &classifier{f: c.f, partition: c.partition.clone()}
	d.rules, _ = d.partition.rules()
	return d
}
