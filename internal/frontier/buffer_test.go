package frontier

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/euler1758/knightstour/internal/frontier/memory"
)

// TestBinPoolPastTheLimit checks that the bins a pool hands out past the
// memory limit, from the Go heap, are not taken back: a step made in
// passes drops a pass that passed the limit and puts its bins back, and
// the passes that follow must hold only bins the limit counts.
func TestBinPoolPastTheLimit(t *testing.T) {
	mem := memory.NewBudget(4 << 20)
	p := newBinPool(1, mem)
	defer p.release()
	var bins [][]uint64
	counted := 0
	for range 1000 {
		b, ok := p.get()
		bins = append(bins, b)
		if ok {
			counted++
		}
	}
	if counted == 0 || counted == len(bins) {
		t.Fatalf("%d of %d bins within a limit of %d bytes, want some and not all", counted, len(bins), mem.Limit())
	}
	p.put(bins)
	if got := len(p.free); got != counted {
		t.Errorf("the pool took back %d bins, want the %d it counted", got, counted)
	}
	if used := mem.Used(); used > mem.Limit() {
		t.Errorf("%d bytes used, over the limit %d", used, mem.Limit())
	}
}

// TestBinPoolLeavesRoom checks that a pool told to leave room below the
// limit gives back the free bins beyond it and makes no new ones there.
func TestBinPoolLeavesRoom(t *testing.T) {
	mem := memory.NewBudget(16 << 20)
	p := newBinPool(1, mem)
	defer p.release()
	var bins [][]uint64
	for {
		b, ok := p.get()
		if !ok {
			break
		}
		bins = append(bins, b)
	}
	p.put(bins)
	full := p.held()
	const room = 6 << 20
	p.leave(room)
	if used := mem.Used(); used+room > mem.Limit() {
		t.Errorf("after leave: %d bytes used and %d of room, over the limit %d (the pool held %d, now %d)", used, room, mem.Limit(), full, p.held())
	}
	if p.held() >= full {
		t.Errorf("the pool held %d bytes of bins before and %d after leaving room, want fewer", full, p.held())
	}
	bins = bins[:0]
	for range 2 * len(p.made) {
		b, ok := p.get()
		if !ok {
			break
		}
		bins = append(bins, b)
	}
	if used := mem.Used(); used+room > mem.Limit() {
		t.Errorf("after new bins: %d bytes used and %d of room, over the limit %d", used, room, mem.Limit())
	}
	p.put(bins)
}

// TestMergerMemory checks that a merger's buffers are the count's memory,
// counted, whatever the limit (a pass whose bins fit is merged whole),
// and given back by free; and that it adds up equal states.
func TestMergerMemory(t *testing.T) {
	mem := memory.NewBudget(1 << 10)
	m := &merger{k: 1, mem: mem}
	var bin []uint64
	for i := range 3000 {
		bin = append(bin, uint64(i%1000), 1) // each of 1000 keys thrice
	}
	if err := m.sortBucket([][]uint64{bin}, 64-2, 2); err != nil {
		t.Fatal(err)
	}
	sums := map[uint64]uint64{}
	for j := range 4 {
		out, err := m.merge([][]uint64{m.sorted[m.at[j]:m.at[j+1]]})
		if err != nil {
			t.Fatal(err)
		}
		for e := 0; e < len(out); e += 2 {
			sums[out[e]] += out[e+1]
		}
	}
	want := map[uint64]uint64{}
	for i := range 1000 {
		want[uint64(i)] = 3
	}
	if diff := cmp.Diff(want, sums); diff != "" {
		t.Errorf("merged states (-want +got):\n%s", diff)
	}
	held := int64(cap(m.table)+cap(m.out)+cap(m.sorted)) * 8
	if got := mem.Used(); got != held || got <= mem.Limit() {
		t.Errorf("%d bytes counted, want the buffers' %d, past the limit %d", got, held, mem.Limit())
	}
	if got := mem.Peak(); got < held {
		t.Errorf("peak %d bytes, want at least the buffers' %d", got, held)
	}
	m.free()
	if got := mem.Used(); got != 0 {
		t.Errorf("%d bytes counted after free, want 0", got)
	}
}

// TestSortMarked checks that a bucket sorted into its groups by the marks
// its emitter wrote (sortMarked) holds, group by group, the states that
// hashing each key again puts there (sortBucket) where the emitter marks
// none, for states of one limb and of two.
func TestSortMarked(t *testing.T) {
	const bbits, sub, markAt = 3, 4, 58 // 7 rows: keys of 14 nibbles and z
	for _, k := range []int{1, 2} {
		mem := memory.NewBudget(1 << 30)
		pool := newBinPool(k, mem)
		by := grouping{byDemand: true, zShift: markAt - 2}
		plain := newEmitter(1<<bbits, 64-bbits, k, by, pool)
		marked := newEmitter(1<<bbits, 64-bbits, k, by, pool)
		marked.markKeys(markAt, sub)
		for _, e := range []*emitter{plain, marked} {
			e.keep(0, 1<<(bbits+sub), bbits+sub, nil)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		val := make([]uint64, k)
		for i := range 20000 {
			key := rng.Uint64() & (1<<markAt - 1)
			val[0], val[k-1] = uint64(i), uint64(i)+7
			for range 1 + i%2 { // some states made twice
				plain.emit(key, val)
				marked.emit(key, val)
			}
		}
		byHash := &merger{k: k, by: by, mem: mem}
		byMark := &merger{k: k, by: by, mem: mem}
		for b := range 1 << bbits {
			hashed, read := plain.take(b, nil), marked.take(b, nil)
			if err := byHash.sortBucket(hashed, 64-bbits-sub, sub); err != nil {
				t.Fatal(err)
			}
			if err := byMark.sortMarked(read, marked.counts[b<<sub:(b+1)<<sub], markAt); err != nil {
				t.Fatal(err)
			}
			for g := range 1 << sub {
				want := byHash.sorted[byHash.at[g]:byHash.at[g+1]]
				got := byMark.sorted[byMark.at[g]:byMark.at[g+1]]
				if !slices.Equal(want, got) {
					t.Fatalf("%d limbs, bucket %d, group %d (-rehashed +marked):\n%s", k, b, g, cmp.Diff(want, got))
				}
			}
			if len(byMark.sorted) == 0 {
				t.Fatalf("%d limbs, bucket %d: no states", k, b)
			}
			pool.put(hashed)
			pool.put(read)
		}
		if err := byMark.sortMarked(nil, []uint32{1, 0}, markAt); err == nil {
			t.Errorf("%d limbs: no error from counts of a state the bins do not hold", k)
		}
		byHash.free()
		byMark.free()
		pool.release()
	}
}
