package frontier

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// sums keeps aside, under each key, the sum of the counts added to it.
type sums map[uint64]*big.Int

func (s sums) add(key uint64, val []uint64) {
	if s[key] == nil {
		s[key] = new(big.Int)
	}
	s[key].Add(s[key], limbsToBig(val))
}

// equal reports whether s and o hold the same sums: what cmp.Diff with
// bigEqual tells, many times faster on a table's states.
func (s sums) equal(o sums) bool {
	return maps.EqualFunc(s, o, func(a, b *big.Int) bool { return a.Cmp(b) == 0 })
}

// bigEqual compares big numbers by value in cmp.Diff.
func bigEqual() cmp.Option { return cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 }) }

// TestTable adds states to the tables of each layout, counts small and
// large and of one or two limbs, many times each so that small counts
// outgrow their slots, and checks the packed entries against sums kept
// aside. It adds them one at a time (insertAt), and through a stager as
// the lean step does: flush settles a batch's slots before it adds to the
// wide counts, so a state may meet its own wide count made earlier in the
// same batch.
func TestTable(t *testing.T) {
	const group, groupBits = 5, 3 // the top 3 bits of a mix
	for _, tt := range []struct {
		countBits uint
		k         int
		layout    countLayout
	}{
		{minCountBits, 1, smallCounts},
		{20, 1, smallCounts},
		{minCountBits, 2, smallCounts},
		{minCountBits, 1, fullCounts},
		{20, 1, fullCounts},
		{minCountBits, 2, fullCounts},
		{20, 3, fullCounts},
	} {
		for _, way := range []string{"insertAt", "stager"} {
			name := fmt.Sprintf("%v, %d count bits, %d limbs, by %s", tt.layout, tt.countBits, tt.k, way)
			mem := memory.NewBudget(1 << 30)
			sp := memory.NewSpace(mem, 1)
			m := mix.New(64 - tt.countBits + groupBits)
			tables := make([]table, 1<<groupBits)
			for i := range tables {
				tables[i] = table{countBits: tt.countBits, k: tt.k, layout: tt.layout}
			}
			tab := &tables[group]
			buckets, bshift := stageBuckets(len(tables))
			stage := newStager(tables, buckets, bshift, 0, m.Bits()-groupBits, tt.k, sp, make([]uint64, stageWords(len(buckets), tt.k)))
			rng := rand.New(rand.NewPCG(1, uint64(tt.countBits)))
			want := sums{}
			var keys []uint64
			for len(keys) < 3000 {
				key := rng.Uint64() & (1<<m.Bits() - 1)
				if h := m.Mix(key); h>>(m.Bits()-groupBits) == group {
					keys = append(keys, key)
				}
			}
			val := make([]uint64, tt.k)
			overflowed := false
			for i := range 20000 {
				key := keys[rng.IntN(len(keys))]
				clear(val)
				switch i % 4 {
				case 0:
					val[0] = 1
				case 1:
					val[0] = rng.Uint64N(300) + 1
				case 2:
					val[0] = rng.Uint64()
				case 3:
					val[0] = rng.Uint64()
					val[tt.k-1] |= 1 // a second limb where there is one
				}
				want.add(key, val)
				overflow := want[key].BitLen() > 64*tt.k
				if overflow {
					want[key].SetBit(want[key], 64*tt.k, 0) // what the limbs keep
					overflowed = true
				}
				h := m.Mix(key)
				if way == "stager" {
					stage.emit(h, val)
					continue
				}
				for 16*(tab.n+1) > maxLoad*tab.size {
					if !tab.grow(sp) {
						t.Fatalf("%s: grow: out of memory", name)
					}
				}
				got, ok := tab.insertAt(tab.home(h), h, val, sp)
				if !ok {
					t.Fatalf("%s: insert: out of memory", name)
				}
				if got != overflow {
					t.Fatalf("%s: key %#x: overflow %v at %v", name, key, got, want[key])
				}
			}
			if way == "stager" {
				stage.flushAll()
				if stage.overLimit || stage.overflow != overflowed {
					t.Fatalf("%s: over the limit %v, overflow %v, want %v", name, stage.overLimit, stage.overflow, overflowed)
				}
			}
			got := sums{}
			for g := range tables {
				dense := make([]uint64, tables[g].n*(tt.k+1))
				tables[g].pack(dense, g, m, sp)
				for j := 0; j < len(dense); j += tt.k + 1 {
					got[dense[j]] = limbsToBig(dense[j+1 : j+1+tt.k])
				}
			}
			sp.Free()
			if !want.equal(got) {
				t.Errorf("%s (-want +got):\n%s", name, cmp.Diff(want, got, bigEqual()))
			}
			if used := mem.Used(); used != 0 {
				t.Errorf("%s: %d bytes still counted after pack", name, used)
			}
		}
	}
}

// BenchmarkLeanInsert stages and adds random new states to the tables of
// 2^16 groups, as the lean step does on the wide squares of 8 rows, where
// the tables (0.8 GB here with small counts, up to 2.4 GB with wide ones)
// are far larger than the processor's caches: the memory-bound half of
// the step, alone. Each layout gets counts that fit a slot of small
// counts, counts that do not, and a fifth that do not, as the counts of 8
// rows with free ends outgrow them a column at a time. It reports
// ns/state and the tables' bytes/state.
func BenchmarkLeanInsert(b *testing.B) {
	for _, bb := range []struct {
		name   string
		layout countLayout
		wide   int // every wide-th state's count outgrows a slot of small counts
	}{
		{"small/fit", smallCounts, 0},
		{"small/wide", smallCounts, 1},
		{"small/fifth", smallCounts, 5},
		{"full/fit", fullCounts, 0},
		{"full/wide", fullCounts, 1},
		{"full/fifth", fullCounts, 5},
	} {
		b.Run(bb.name, func(b *testing.B) { benchLeanInsert(b, bb.layout, bb.wide) })
	}
}

func benchLeanInsert(b *testing.B, layout countLayout, wide int) {
	const gbits, perGroup = 16, 1 << 10
	groups := 1 << gbits
	m := mix.New(61)
	mem := memory.NewBudget(1 << 40)
	size := (perGroup*16/maxLoad*23/20 + memory.PageWords) / memory.PageWords * memory.PageWords
	words := size * layout.slotWords(1)
	wideCounts := 0 // as the lean step reserves them (leanPass)
	if layout == smallCounts && wide > 0 {
		wideCounts = perGroup / wide * 23 / 20
	}
	rng := rand.New(rand.NewPCG(1, 2))
	val := []uint64{1}
	used := int64(0)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		sp := memory.NewSpace(mem, 2)
		sp.Ready(context.Background(), (words+wideWords(wideCounts, 1))*groups)
		tables := make([]table, groups)
		for i := range tables {
			tables[i].countBits, tables[i].k, tables[i].layout = 64-m.Bits()+gbits, 1, layout
			tables[i].slots, _ = sp.Alloc(words)
			tables[i].size = size
			if wideCounts > 0 {
				tables[i].wide.reserve(wideCounts, 1, sp)
			}
		}
		buckets, bshift := stageBuckets(groups)
		s := newStager(tables, buckets, bshift, 0, m.Bits()-gbits, 1, sp, make([]uint64, stageWords(len(buckets), 1)))
		b.StartTimer()
		for i := range groups * perGroup {
			val[0] = 1
			if wide > 0 && i%wide == 0 {
				val[0] = 1 << 40
			}
			s.emit(rng.Uint64()&(1<<m.Bits()-1), val)
		}
		s.flushAll()
		b.StopTimer()
		if s.overLimit {
			b.Fatal("over the limit")
		}
		used = mem.Used()
		for i := range tables {
			tables[i].free(sp)
		}
		sp.Free()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*groups*perGroup), "ns/state")
	b.ReportMetric(float64(used)/float64(groups*perGroup), "bytes/state")
}

// TestGroupingByDemand checks that grouping by demand gives keys with the
// same kinds of squares and z one group, however their ends are paired,
// and tells apart keys whose kinds differ.
func TestGroupingByDemand(t *testing.T) {
	by := grouping{byDemand: true, zShift: 4 * 13}
	key := func(z uint64, codes ...uint64) uint64 {
		k := z << (4 * 13)
		for p, c := range codes {
			k |= c << (4 * p)
		}
		return k
	}
	same := [][2]uint64{
		{key(0, 3, 3, 4, 4), key(0, 3, 4, 4, 3)},
		{key(1, 2, 3, 1, 3, 0), key(1, 3, 3, 1, 2, 0)},
		{key(3, 0, 1, 5, 6, 5, 6), key(3, 0, 1, 2, 3, 4, 3)},
	}
	differ := [][2]uint64{
		{key(0, 3, 3, 0, 1), key(0, 3, 3, 1, 0)},
		{key(0, 3, 3), key(1, 3, 3)},
		{key(2, 3, 3), key(3, 3, 3)},
		{key(0, 2, 1), key(0, 1, 2)},
	}
	var got, want []bool
	for _, p := range same {
		got, want = append(got, by.hash(p[0]) == by.hash(p[1])), append(want, true)
	}
	for _, p := range differ {
		got, want = append(got, by.hash(p[0]) == by.hash(p[1])), append(want, false)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("same group (-want +got):\n%s", diff)
	}
}

// TestRecycle checks that slabs freed while the memory recycles wait as
// spare, still counted, that the arena takes them again, and that they
// give way to an allocation the limit would otherwise refuse.
func TestRecycle(t *testing.T) {
	const words = minSlabWords
	mem := memory.NewBudget(5 * words * 8)
	a := &arena{mem: mem, slabWords: words}
	mem.StartRecycling()
	var gs []group
	for range 4 { // four slabs, each of one group
		g, ok := a.alloc(words / 4)
		if !ok {
			t.Fatal("alloc refused within the limit")
		}
		gs = append(gs, g)
		a.release() // seal it: the next group takes a slab of its own
	}
	first := &gs[0].entries[0]
	for _, g := range gs {
		a.free(g)
	}
	if got, want := mem.Used(), int64(4*words*8); got != want {
		t.Errorf("used with 4 spare slabs: %d, want %d", got, want)
	}
	g, ok := a.alloc(words / 4)
	if !ok {
		t.Fatal("alloc refused with spare slabs")
	}
	if got := mem.Used(); got != 4*words*8 {
		t.Errorf("used after taking a spare slab: %d, want %d", got, 4*words*8)
	}
	if ptr := &g.entries[0]; ptr != first && ptr != &gs[1].entries[0] && ptr != &gs[2].entries[0] && ptr != &gs[3].entries[0] {
		t.Error("alloc took a fresh slab while spare ones waited")
	}
	// Two slabs' worth more passes the limit unless the spares go.
	big, ok := mem.Alloc(2 * words)
	if !ok {
		t.Fatal("alloc refused: the spare slabs did not give way")
	}
	if got := mem.Spared(); got != 0 {
		t.Errorf("%d bytes still spare after an allocation needed them", got)
	}
	mem.Free(big)
	// A grab (the lean step's tables, the demand filters) that would pass
	// the limit makes them give way too.
	a.release() // seal g's slab: it goes to spare with g
	a.free(g)
	if mem.Spared() == 0 {
		t.Fatal("no spare slab to give way")
	}
	if !mem.Grab(5 * words * 8) {
		t.Fatal("grab refused: the spare slabs did not give way")
	}
	if got := mem.Spared(); got != 0 {
		t.Errorf("%d bytes still spare after a grab needed them", got)
	}
	mem.Release(5 * words * 8)
	mem.StopRecycling()
	mem.DropSpare()
	a.release()
	if got := mem.Used(); got != 0 {
		t.Errorf("used at the end: %d bytes", got)
	}
}

// TestCarve checks that each worker carves from a slab of its own, that
// a trimmed group gives its tail to the worker's next group, that a group
// trimmed to nothing is no group, and that every slab goes back once its
// groups are freed.
func TestCarve(t *testing.T) {
	const words = minSlabWords
	mem := memory.NewBudget(8 * words * 8)
	a := &arena{mem: mem, slabWords: words}
	if got, want := a.carvable(), words/4; got != want {
		t.Errorf("carvable: %d, want %d", got, want)
	}
	var gs []group
	carve := func(wi, n, keep int) group {
		t.Helper()
		g, ok := a.carve(wi, n)
		if !ok {
			t.Fatalf("carve(%d, %d) refused within the limit", wi, n)
		}
		for i := range g.entries {
			g.entries[i] = uint64(wi)<<32 | uint64(len(gs))
		}
		a.trim(wi, &g, keep)
		if g.words != keep || len(g.entries) != keep || cap(g.entries) != keep {
			t.Fatalf("trimmed to %d: words %d, len %d, cap %d", keep, g.words, len(g.entries), cap(g.entries))
		}
		gs = append(gs, g)
		return g
	}
	a0 := carve(0, 100, 40)
	b0 := carve(1, 100, 100)
	a1 := carve(0, 100, 10)
	if a0.slab == b0.slab {
		t.Error("two workers carved from one slab")
	}
	if &a0.slab.words[40] != &a1.entries[0] { // a0 is its slab's first group
		t.Error("the next group does not start where the trimmed one ends")
	}
	if g := carve(0, 50, 0); g.slab != nil || g.entries != nil {
		t.Errorf("a group trimmed to nothing: %+v", g)
	}
	gs = gs[:len(gs)-1]
	// A group larger than the room left takes a new slab; the old one,
	// sealed, goes back with its last group.
	var last group
	for range 4 { // 50 words and four quarters: more than a slab
		last = carve(0, words/4, words/4)
	}
	if last.slab == a0.slab {
		t.Error("a slab carved past its end")
	}
	for _, g := range gs {
		for _, e := range g.entries {
			if e != g.entries[0] {
				t.Fatal("a group's words were overwritten by another's")
			}
		}
	}
	for _, g := range gs {
		a.free(g)
	}
	a.release()
	if got := mem.Used(); got != 0 {
		t.Errorf("used at the end: %d bytes", got)
	}
}

// TestArenaConcurrent has four workers carve, allocate, trim and free
// groups at once, as a step's workers do, with slabs small enough that
// they often need a new one at the same moment (the arena maps it
// without its lock, so two may race to replace the shared slab). No
// group may overlap another, and every slab must go back at the end.
// Run it with -race.
func TestArenaConcurrent(t *testing.T) {
	t.Parallel() // its own memory accountant
	const words = minSlabWords
	mem := memory.NewBudget(1 << 30)
	a := &arena{mem: mem, slabWords: words}
	const workers = 4
	kept := make([][]group, workers)
	var wg sync.WaitGroup
	for wi := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(wi), 7))
			var mine []group
			for i := range 1500 {
				var g group
				var ok bool
				switch n := 1 + rng.IntN(words/4); rng.IntN(4) {
				case 0: // larger than a quarter slab: a slab of its own
					g, ok = a.alloc(words/4 + n)
				case 1: // the shared slab, full after a few: a new one often
					g, ok = a.alloc(words/8 + n/2)
				default:
					if g, ok = a.carve(wi, n); ok {
						a.trim(wi, &g, rng.IntN(n+1))
					}
				}
				if !ok {
					t.Errorf("worker %d: refused within the limit", wi)
					return
				}
				for j := range g.entries {
					g.entries[j] = uint64(wi)<<32 | uint64(i)
				}
				if g.words > 0 {
					mine = append(mine, g)
				}
				if len(mine) > 20 && rng.IntN(2) == 0 { // free one at random, checked first
					k := rng.IntN(len(mine))
					if !sameWords(mine[k].entries) {
						t.Errorf("worker %d: a group was overwritten", wi)
						return
					}
					a.free(mine[k])
					mine[k] = mine[len(mine)-1]
					mine = mine[:len(mine)-1]
				}
			}
			kept[wi] = mine
		}()
	}
	wg.Wait()
	for _, mine := range kept {
		for _, g := range mine {
			if !sameWords(g.entries) {
				t.Fatal("a group was overwritten")
			}
			a.free(g)
		}
	}
	a.release()
	if got := mem.Used(); got != 0 {
		t.Errorf("used at the end: %d bytes", got)
	}
}

// sameWords reports whether every word of w is its first.
func sameWords(w []uint64) bool {
	for _, x := range w {
		if x != w[0] {
			return false
		}
	}
	return true
}
