package frontier

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/euler1758/knightstour/internal/pool"
)

// demandChoices is the most demands one step makes from one: square v
// takes no edge, one of four, or two of four (11 ways), and where it is
// the start's pair (counter.pair) as the start too (5 more).
const demandChoices = 16

// demandStep adds square v to the demand d (the demand after square v-1)
// in every way the counting step could, and writes to out each demand
// after v that passes the same checks as the counting step's finish,
// returning how many. After the last square, it writes 0 for each way
// that ends a tour.
//
// With a pair of starts (counter.pair) the demands are of the tours from
// either: the start's pair, when added, may start the tour itself, and the
// demands after it then carry pairBit until the start is added as any
// other square. The counting step, from the start alone by then, looks up
// only demands without it.
func (r *counter) demandStep(v int, d uint64, notEnd *[4]uint32, out *[demandChoices]uint64) int {
	taken := d & r.pairBit()
	switch {
	case !r.paired:
		return r.demandStepAs(v, d, v == r.start, notEnd, out[:])
	case v == r.pair:
		n := r.demandStepAs(v, d, false, notEnd, out[:])
		m := r.demandStepAs(v, d, true, notEnd, out[n:])
		for i := n; i < n+m; i++ {
			out[i] |= r.pairBit()
		}
		return n + m
	case v == r.start:
		return r.demandStepAs(v, d&^taken, taken == 0, notEnd, out[:])
	}
	n := r.demandStepAs(v, d&^taken, false, notEnd, out[:])
	for i := range n {
		out[i] |= taken
	}
	return n
}

// pairBit is the bit of a demand that says the start's pair started the
// tour (demandStep): above z's two bits. 0 without a pair.
func (r *counter) pairBit() uint64 {
	if !r.paired {
		return 0
	}
	return 4 << (2 * r.f.demandShift)
}

// demandStepAs is demandStep for one role of square v: the start (asStart)
// or any other square.
func (r *counter) demandStepAs(v int, d uint64, asStart bool, notEnd *[4]uint32, out []uint64) int {
	f, st := r.f, &r.f.shifts[v]
	s := uint(f.slots)
	one, two, z := f.unpackDemand(d)
	room := 2
	if asStart {
		one |= 1 << s // the start's other edge goes to z
		room = 1
	} else {
		two |= 1 << s
	}
	var barred moveSet
	if asStart {
		barred = r.barredAt(v)
	}
	var cand [4]uint32
	nc := 0
	for k, p := range st.back[:st.nback] {
		if (one|two)>>p&1 != 0 && !barred.has(k) {
			cand[nc] = 1 << p
			nc++
		}
	}
	n := 0
	if c, ok := r.settle(v, one, two, z, notEnd); ok {
		out[n] = c
		n++
	}
	self := uint32(1) << s
	for i := range nc {
		o, t := takeEdge(one, two, self|cand[i])
		if c, ok := r.settle(v, o, t, z, notEnd); ok {
			out[n] = c
			n++
		}
		if room < 2 {
			continue
		}
		for j := i + 1; j < nc; j++ {
			o2, t2 := takeEdge(o, t, self|cand[j])
			if c, ok := r.settle(v, o2, t2, z, notEnd); ok {
				out[n] = c
				n++
			}
		}
	}
	return n
}

// endsBoard reports whether a tour can end with demand d, as it does when
// the board is cut after the square d follows (endBoard): no square needs
// two more edges, and the squares needing one are the path's ends still
// to join z.
func (f *board) endsBoard(d uint64) bool {
	one, two, z := f.unpackDemand(d)
	return two == 0 && bits.OnesCount32(one) == zLeft[z]
}

// viability runs the demand passes: forward from the first demand to find
// those that occur, then backward to keep those that can be finished.
// Where no tour exists at all, no demand after the first square is
// viable, and the count drops every state.
func (r *counter) viability(ctx context.Context, first uint64) (*viability, error) {
	// The passes' buffers and sets live on the Go heap, several times the
	// lists they keep: the limit counts them (within), as it counts the
	// count's own heap. Uncounted, 9x5 with free ends across at -memory 1G
	// held 2.6 GB.
	r.mem.Watch()
	occur := make([]demandList, r.f.n) // occur[v]: the demands after square v
	defer func() {
		for i := range occur {
			occur[i].free()
		}
	}()
	gather, err := r.demandsForward(ctx, first, occur)
	if err != nil {
		return nil, err
	}
	return r.demandsBackward(ctx, occur, gather)
}

// demandsForward finds, square by square from the first, the demands the
// squares added so far can leave (occur[v] after square v). It returns a
// buffer for the backward pass to reuse.
func (r *counter) demandsForward(ctx context.Context, first uint64, occur []demandList) ([]uint64, error) {
	f := r.f
	var made chunkBufs
	seen := r.newDemandSet()
	var fresh [keyParts][]uint64 // a square's demands, by part of seen, before they are kept at their size
	start := f.keepDemands([]uint64{first})
	cur := &start
	for v := range f.n - 1 {
		notEnd := r.notEnd(&f.shifts[v])
		bufs := made.ready(keyParts * chunksOf(cur.n))
		err := r.inChunks(ctx, v, cur.n, func(c, lo, hi int) {
			var out [demandChoices]uint64
			parts := bufs[c*keyParts : (c+1)*keyParts]
			for i := lo; i < hi; i++ {
				n := r.demandStep(v, cur.at(i), &notEnd, &out)
				for _, d := range out[:n] {
					seen.appendByPart(parts, d)
				}
			}
		})
		if err != nil {
			return nil, err
		}
		seen.reset(cur.n)
		if err := seen.fill(ctx, r.cfg.Workers, bufs, &fresh); err != nil {
			return nil, err
		}
		occur[v] = f.keepDemands(fresh[:]...)
		if !r.mem.Grab(occur[v].bytes()) || !r.mem.Within() {
			return nil, r.demandMemoryError(v)
		}
		cur = &occur[v]
		r.demanded.Add(1)
	}
	return slices.MaxFunc(fresh[:], func(a, b []uint64) int { return cmp.Compare(cap(a), cap(b)) }), nil
}

// demandsBackward keeps, square by square from the last, the demands after
// each square from which the rest of the board can still be finished: the
// filters the count drops states by.
func (r *counter) demandsBackward(ctx context.Context, occur []demandList, gather []uint64) (_ *viability, err error) {
	f := r.f
	var kept chunkBufs
	// The backward pass looks up exact sets: a filter's false positives
	// would make more demands viable at each step back.
	vb := &viability{after: make([]*filter, f.n)}
	// The filters count against the limit as they are made, and no longer
	// once made: the count holds them (counter.count) as it holds filters
	// read from a checkpoint. Held as well, they were counted twice.
	var grabbed int64
	defer func() {
		r.mem.Release(grabbed)
		if err != nil {
			vb.free()
		}
	}()
	vb.after[f.n-1] = newFilter([]uint64{0}, f.varies(f.n-1))
	after := r.newDemandSet()
	after.reset(1)
	after.add(0)
	for v := f.n - 1; v >= 1; v-- {
		notEnd := r.notEnd(&f.shifts[v])
		ds := &occur[v-1]
		// The lists of the chunks, and after them those of the demands a
		// cut board ends from, each by part of after (appendByPart).
		chunks := chunksOf(ds.n)
		bufs := kept.ready(keyParts * (chunks + 1))
		err := r.inChunks(ctx, v-1, ds.n, func(c, lo, hi int) {
			var out [demandChoices]uint64
			parts := bufs[c*keyParts : (c+1)*keyParts]
			for i := lo; i < hi; i++ {
				d := ds.at(i)
				n := r.demandStep(v, d, &notEnd, &out)
				for _, c := range out[:n] {
					if after.has(c) {
						after.appendByPart(parts, d)
						break
					}
				}
			}
		})
		if err != nil {
			return nil, err
		}
		// With all lengths, a board cut after square v-1, the end of a
		// column, is finished there too: the demands it can end from are
		// viable whatever follows.
		if r.cfg.AllLengths && v%f.w == 0 {
			ends := bufs[chunks*keyParts:]
			for i := range ds.n {
				if d := ds.at(i); r.f.endsBoard(d) {
					after.appendByPart(ends, d) // some twice: a filter and a demandSet take that
				}
			}
		}
		live := gather[:0]
		for _, k := range bufs {
			live = append(live, k...)
		}
		gather = live
		vb.after[v-1] = newFilter(r.unpaired(live), f.varies(v-1))
		grabbed += int64(len(vb.after[v-1].words)) * 8
		if !r.mem.Grab(int64(len(vb.after[v-1].words)) * 8) {
			return nil, r.demandMemoryError(v - 1)
		}
		after.reset(len(live))
		if err := after.fill(ctx, r.cfg.Workers, bufs, nil); err != nil {
			return nil, err
		}
		if !r.mem.Within() {
			return nil, r.demandMemoryError(v - 1)
		}
		r.mem.Release(ds.bytes())
		ds.free()
		r.demanded.Add(1)
	}
	return vb, nil
}

// unpaired returns the demands of ds that the counting step looks up:
// those without pairBit, which the step's states, from the start alone
// after the start's pair, never have. ds itself where none has it.
func (r *counter) unpaired(ds []uint64) []uint64 {
	bit := r.pairBit()
	if bit == 0 || !slices.ContainsFunc(ds, func(d uint64) bool { return d&bit != 0 }) {
		return ds
	}
	return slices.DeleteFunc(slices.Clone(ds), func(d uint64) bool { return d&bit != 0 })
}

// chunkBufs holds a buffer for each chunk of a pass over the demands of a
// square (inChunks), kept from one square to the next, so that the passes
// do not leave their buffers' worth of garbage at every square.
type chunkBufs struct{ bufs [][]uint64 }

// ready returns empty buffers for chunks chunks; the pass's chunk c
// appends to the c-th.
func (cb *chunkBufs) ready(chunks int) [][]uint64 {
	for len(cb.bufs) < chunks {
		cb.bufs = append(cb.bufs, nil)
	}
	bufs := cb.bufs[:chunks]
	for i := range bufs {
		bufs[i] = bufs[i][:0]
	}
	return bufs
}

func (r *counter) demandMemoryError(v int) error {
	return fmt.Errorf("%w: the demands after square %d of %d take more than %d bytes; raise the memory limit (-memory, WithMemoryLimit) or use a machine with more memory",
		ErrMemoryLimit, v+1, r.f.n, r.mem.Limit())
}

// chunkDemands is how many demands a worker takes at a time.
const chunkDemands = 1 << 12

func chunksOf(n int) int { return (n + chunkDemands - 1) / chunkDemands }

// inChunks calls fn on the chunks of 0..n, chunk c from lo to hi, on up
// to the count's workers (the worker pool), and stops early if ctx is
// done, or with ErrMemoryLimit where the buffers fn fills take the count
// past its limit: it looks every chunksBetweenLooks chunks.
func (r *counter) inChunks(ctx context.Context, v, n int, fn func(c, lo, hi int)) error {
	return pool.Run(ctx, r.cfg.Workers, chunksOf(n), func(_, c int) error {
		if c%chunksBetweenLooks == chunksBetweenLooks-1 && !r.mem.Within() {
			return r.demandMemoryError(v)
		}
		fn(c, c*chunkDemands, min(n, (c+1)*chunkDemands))
		return nil
	})
}

// chunksBetweenLooks is how many chunks of demands inChunks takes between
// two looks at the memory the Go runtime holds: a look reads its metrics,
// about a microsecond, and 64 chunks make up to a few MiB of buffers.
const chunksBetweenLooks = 64

// varies returns the bits of the demands after square v that can differ
// between the demands that v makes from one demand: those of the new
// square and of its earlier neighbours (a demand after v has shifted them
// down by one), and z.
func (f *board) varies(v int) uint64 {
	st := &f.shifts[v]
	m := uint64(3) << (2 * f.demandShift)
	for _, p := range append([]int8{int8(f.slots)}, st.back[:st.nback]...) {
		if q := st.next[p]; q >= 0 {
			m |= (1<<f.demandShift + 1) << q
		}
	}
	return m
}
