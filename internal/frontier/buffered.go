package frontier

import (
	"errors"
	"slices"

	"github.com/euler1758/knightstour/internal/pool"
)

// The buffered step: the workers write the new states into bins per
// group (buffer.go), then merge a group at a time, a pass at a time.
//
// The buffered step frees the slabs of the layer it expands while it fills
// bins, and then fills as many slabs with the next layer: a slab fresh
// from the kernel costs a fault and the zeroing of every page (9% of the
// time of 7x7 from the corner), where one given back in the same step can
// be used again as it is. So while the budget recycles
// (memory.Budget.StartRecycling), the slabs the arenas give back wait in
// spare, still counted as used, for the arenas' next slabs, whatever their
// size. The peak stays that of the step's start and end, when the layers
// and the bins are whole: what waits in spare is memory the step held a
// moment before. The spare slabs a step leaves wait for the next one too,
// whose bins they become: dropped at each step's end, they would be mapped
// afresh a step later (on 7x7 from the corner, zeroing pages takes 3.5% of
// the processor time with them kept, 8% without). Other steps do not
// recycle: the lean step's tables come from spaces of their own, and the
// memory a layer gives back there must be free for them, so a step that is
// lean or made in passes, or that would pass the limit, drops the spare
// slabs first, as does any grab the limit would refuse.

// buffered makes the next layer by sorting and merging the new states,
// which the expansion writes unmerged into bins: in one pass, or, where
// s.share is set, in passes by classes of at most that share of the next
// layer each, so that the bins of one pass fit the memory limit; part,
// when not nil, is the passes done before the count was stopped, and the
// passes left.
func (s *stepper) buffered(part *stepPart) error {
	r, k := s.r, s.r.k
	r.mem.DropReserve() // the tables of a lean step before: bins take this step's memory
	bbits := s.bucketBits()
	if r.pool == nil {
		r.pool = newBinPool(k, r.mem)
	}
	bins := r.pool
	bins.leave(r.mergeRoom())
	multi := s.share > 0 || part != nil
	if multi {
		r.mem.DropSpare() // cur is on disk: no slab of it comes free
	} else {
		r.mem.StartRecycling()
		defer r.mem.StopRecycling() // the spare slabs wait for the next step
		// Bins as large as the slabs of cur, which go to them as cur is
		// expanded (see memory.Budget.StartRecycling).
		bins.arena.sizeFor(s.cur.n * (k + 1))
	}
	s.classes = &classifier{f: r.f}
	groups := 1 << s.gbits
	passes := []pass{{classes: allClasses, hi: groups, share: 1}}
	if part != nil {
		passes = s.resume(part)
	} else if multi {
		var err error
		if passes, err = s.plan(s.share); err != nil {
			return err
		}
	}
	if s.next != nil && part == nil && slices.ContainsFunc(passes, func(p pass) bool { return p.lo != 0 || p.hi != groups }) {
		// A class made in ranges of the next layer's groups: those are
		// ranges of the next step's classes too, and a state of this
		// step's class reaches only a few of them, so that the range of
		// a pass could hold nearly all of its new states or none (on
		// square 38 of 8 x 12 with free ends, the first of two ranges
		// expanded 209 million states and kept none). Grouped by mix
		// alone, the ranges share the states evenly.
		s.grouping, s.next = groupsByMix, nil
	}
	// A group holds the states of a few demands, whatever it holds them
	// in: the next step's memo of choices hits (see grouping). A compact
	// group on disk is sorted by its key order all the same, which then
	// takes a few more bits a state: keys in digits, for which this
	// matters most, are grouped by demand only where the layer is not
	// compact, and by their mix where it is.
	by := grouping{byDemand: r.f.packed, zShift: uint(4 * r.f.slots)}
	switch {
	case r.f.packed:
	case s.grouping == groupsByDemand:
		by.digits = r.f
	case s.grouping == groupsByMix:
		by.mix = &r.f.mixer
	case s.grouping == groupsByNextClass:
		by.mix, by.next, by.nextBits = &r.f.mixer, s.next, s.next.classBits()
	}
	for _, w := range s.ws {
		w.buffered = newEmitter(1<<bbits, 64-bbits, k, by, bins)
		if r.f.packed && r.f.zInKey {
			w.buffered.markKeys(uint(4*r.f.slots+2), s.gbits-bbits)
		}
		w.lean = nil
	}
	if multi {
		s.startPasses(part == nil)
	}
	if s.next != nil && part == nil {
		s.out.parts = &classParts{partition: s.next.partition.clone()}
	}
	ms := make([]*merger, len(s.ws))
	defer func() {
		for _, m := range ms {
			if m != nil {
				m.free()
			}
		}
	}()
	return s.run(passes, multi, func(p pass) (int, error) { return s.bufferedPass(p, ms, bbits, !multi) })
}

// bufferedPass makes the part p of the next layer: it expands the states
// of cur in p's classes into the workers' bins, keeping the new states of
// groups [p.lo, p.hi), then merges the bins a bucket at a time into the
// next layer's groups. freeCur lets it free cur as it goes, when the step
// is made in one pass.
func (s *stepper) bufferedPass(p pass, ms []*merger, bbits uint, freeCur bool) (int, error) {
	r, k := s.r, s.r.k
	bins := r.pool
	sub := s.gbits - bbits
	var nar *narrowing
	if !freeCur {
		nar = newNarrowing(p.lo, p.hi, sub)
	}
	for _, w := range s.ws {
		w.buffered.keep(p.lo, p.hi, s.gbits, nar)
	}
	base := len(s.out.groups)
	s.out.groups = append(s.out.groups, make([]group, p.hi-p.lo)...)
	s.passes++
	err := s.expand(freeCur, p.classes, p.lo == 0)
	hi := p.hi
	if err == nil && nar != nil {
		hi = nar.groups()
		for _, w := range s.ws {
			w.buffered.follow()
		}
		s.out.groups = s.out.groups[:base+hi-p.lo]
	}
	if err != nil {
		if errors.Is(err, ErrMemoryLimit) {
			kept := int64(0)
			for _, w := range s.ws {
				kept += w.buffered.kept
			}
			s.measureDrop(kept)
		}
		for _, w := range s.ws {
			for b := range 1 << bbits {
				bins.put(w.buffered.take(b, nil)) // the pass is dropped: its bins go back
			}
			w.buffered.overLimit = false
		}
		s.out.groups = s.out.groups[:base]
		return p.lo, err
	}
	if s.final {
		return hi, nil
	}
	r.arena.sizeFor(s.est * (k + 1))
	parts := make([][][]uint64, len(s.ws))
	err = pool.Run(s.ctx, len(s.ws), 1<<bbits, func(wi, i int) error {
		if ms[wi] == nil {
			ms[wi] = &merger{k: k, by: s.ws[0].buffered.by, mem: r.mem}
		}
		m := ms[wi]
		bp := parts[wi][:0]
		for _, w := range s.ws {
			bp = w.buffered.take(i, bp)
		}
		parts[wi] = bp
		runs := bp // a bucket of one group needs no sorting
		switch {
		case sub > 0 && s.ws[0].buffered.markAt != 0:
			m.counts = append(m.counts[:0], s.ws[0].buffered.counts[i<<sub:(i+1)<<sub]...)
			for _, w := range s.ws[1:] {
				for j, c := range w.buffered.counts[i<<sub : (i+1)<<sub] {
					m.counts[j] += c
				}
			}
			if err := m.sortMarked(bp, m.counts, s.ws[0].buffered.markAt); err != nil {
				return err
			}
			bins.put(bp)
		case sub > 0:
			if err := m.sortBucket(bp, 64-s.gbits, sub); err != nil {
				return err
			}
			bins.put(bp)
		}
		for j := range 1 << sub {
			g := i<<sub + j
			if g < p.lo || g >= hi {
				continue // another pass's
			}
			if sub > 0 {
				runs = [][]uint64{m.sorted[m.at[j]:m.at[j+1]]}
			}
			if err := s.placeMerged(wi, base+g-p.lo, m, runs); err != nil {
				return err
			}
		}
		if sub == 0 {
			bins.put(bp)
		}
		return nil
	})
	if err != nil {
		return p.lo, err
	}
	merged := int64(0)
	for _, m := range ms {
		merged += m.bytes()
	}
	r.mergeHigh = max(r.mergeHigh, merged)
	switch {
	case s.next != nil:
		s.addNextClasses(base, p.lo, hi)
	case s.out.parts != nil:
		s.out.parts.add(base, base+hi-p.lo, p.classes)
	}
	return hi, nil
}

// bufferedShare returns the share of the next layer each pass of a
// buffered step may make, when the step's bins would pass the memory
// limit in one pass but not in a few (at most maxBufferedPasses): 0 if
// the step should be lean instead. Only a step that can be made in
// passes (canPass) is, and its next layer goes to disk as it is made, so
// a pass holds only its bins: the new states, unmerged, that the states
// of a sample of cur make (measure), and a margin. A guess from the
// growth of the column before misled both ways: on 8x9 by the narrow
// sweep, planned for three new states a state of the next layer, square
// 46 took five passes where three were planned, and by narrow-down the
// guess at square 43 was half again the layer that came, and a pass held
// 14.5 of the 17 GB it could have.
func (s *stepper) bufferedShare(shard bool) (float64, error) {
	r := s.r
	if !s.canPass() {
		return 0, nil
	}
	if r.cfg.passPart > 0 {
		return r.cfg.passPart, nil
	}
	made, err := s.measure(shard)
	if err != nil {
		return 0, err
	}
	need := made * float64(s.cur.n) * binBytes(r.k)
	room := s.binRoom()
	if room <= 0 || need/room > maxBufferedPasses {
		return 0, nil
	}
	// The scale makes more passes, not a lean step: with it in the test
	// above, square 63 of 8x10 by narrow-down went lean after a square
	// with drops and took over 12 minutes, where the buffered squares
	// beside it took 2 to 9.
	return min(1, room/(need*r.planScale.factor())), nil
}

// releasePool returns the bins of the buffered steps, which the pool
// keeps from step to step while the steps are buffered: fresh memory
// costs a fault on every page.
func (r *counter) releasePool() {
	if r.pool != nil {
		r.pool.release()
		r.pool = nil
	}
}

// addNextClasses records in out's parts the classes of the next step's
// passes that the groups [lo, hi) a pass made, from group base of out
// on, hold (groupsByNextClass): the top bits of a group's number are its
// class, and the groups past the last class, which hold no states, go
// with the last.
func (s *stepper) addNextClasses(base, lo, hi int) {
	per := 1 << (s.gbits - s.next.classBits())
	last := s.next.count() - 1
	for g := lo; g < hi; {
		c := g / per
		end := min(hi, (c+1)*per)
		if c >= last {
			c, end = last, hi
		}
		s.out.parts.add(base+g-lo, base+end-lo, 1<<c)
		g = end
	}
}

// bucketBits returns the log2 of the buckets of the step's bins: one a
// group, up to maxBuckets.
func (s *stepper) bucketBits() uint { return min(s.gbits, maxBucketBits) }
