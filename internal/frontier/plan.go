package frontier

import (
	"cmp"
	"errors"
	"math/bits"
	"slices"

	"github.com/euler1758/knightstour/internal/frontier/mix"
)

// The plan of a step's passes: how many states the next layer will hold,
// from a sample of this one; which classes each pass makes; and how a
// pass that needs more memory than planned is made again.

// canPass reports whether the step can be made in passes: each reads cur
// again, so cur must stay whole to the end of the step, on disk, and the
// next layer goes to disk pass by pass.
func (s *stepper) canPass() bool {
	return s.r.spill && !s.final && s.cur.onDisk()
}

// plan splits the step into passes of at most share of the next layer
// each, by the classes of cur's parts where they are usable, else by
// classes chosen from a sample of cur, and sets the step's classifier.
func (s *stepper) plan(share float64) ([]pass, error) {
	r := s.r
	if s.sampled == nil {
		var err error
		if s.sampled, err = s.sample(); err != nil {
			return nil, err
		}
	}
	sample := s.sampled
	groups := 1 << s.gbits
	keep := untouched(&r.f.shifts[s.v], r.f.slots)
	splitBy := keep
	// A step that keeps the lesser of a state and its reflection splits
	// no class: a pass keeps a state's reflection in its place only where
	// the two are of one class (worker.classAt), and the finer the
	// classes, the fewer pairs are. On 8x7 with free ends at -memory
	// 560M, splits at those steps too left 6% more states over the count.
	// Where the next layer is grouped by its own keys' classes (s.next),
	// a pass keeps any reflection (stepper.expand), and classes split.
	if r.mirrors(s.v) && s.next == nil || r.cfg.noSplits {
		splitBy = nil
	}
	var passes []pass
	if cp := s.cur.parts; cp.usable(keep, len(s.cur.groups)) {
		passes, s.classes = alignedPasses(r.f, cp, s.cur, r.k+1, sample, share, groups, splitBy)
	} else {
		var prev []int
		if cp != nil {
			prev = cp.pos
		}
		passes, s.classes = planPasses(r.f, s.v, sample, share, groups, prev, splitBy)
	}
	return passes, nil
}

// startPasses records, for a step not resumed, the partition of its
// classes in the next layer's parts, and tells whether the passes can
// skip the groups of cur without their classes: by cur's parts where
// they are told by the same partition (aligned), else by a projection of
// them.
func (s *stepper) startPasses(fresh bool) {
	r := s.r
	if fresh && s.classes.count() > 1 && s.next == nil {
		s.out.parts = &classParts{partition: s.classes.partition.clone()}
	}
	cp := s.cur.parts
	s.aligned = cp.usable(untouched(&r.f.shifts[s.v], r.f.slots), len(s.cur.groups)) && cp.partition.equal(s.classes.partition)
	s.proj = nil
	if !s.aligned && !r.cfg.noProjection && cp != nil && cp.usable(cp.positions(), len(s.cur.groups)) {
		s.proj = project(cp, s.classes)
	}
	if fresh {
		s.followed.Store(0)
	}
}

// splitLarge returns passes with each pass whose share is at least share
// (above 0: a pass of an older checkpoint may not know its share) split in
// two, where it can be.
func splitLarge(passes []pass, share float64) []pass {
	out := make([]pass, 0, 2*len(passes))
	for _, p := range passes {
		if share > 0 && p.share >= share {
			if a, b, ok := p.split(); ok {
				out = append(out, a, b)
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// split cuts a pass in two: its classes in two sets, or, for one class,
// its groups in two ranges.
func (p pass) split() (a, b pass, ok bool) {
	a, b = p, p
	a.share, b.share = p.share/2, p.share/2
	if n := bits.OnesCount64(p.classes); n > 1 && p.classes != allClasses {
		var low uint64
		m := p.classes
		for range n / 2 {
			low |= m & -m
			m &= m - 1
		}
		a.classes, b.classes = low, p.classes&^low
		return a, b, true
	}
	if p.hi-p.lo > 1 {
		a.hi = (p.lo + p.hi) / 2
		b.lo = a.hi
		return a, b, true
	}
	return p, p, false
}

// sampleRuns and sampleRun are how many runs of cur's states the plan
// of a step's passes looks at, and how many states each run holds: states
// of a group are alike (see grouping), so a sample of whole pieces, from a
// few groups, told the classes' shares and the new states a state makes
// badly, and passes planned from it passed the limit.
const (
	sampleRuns = 1 << 12
	sampleRun  = 1 << 6
)

// sample returns keys of cur spread evenly over its states: runs of
// sampleRun states at equal steps through them, or all of them where
// they are fewer. Spread over cur's pieces instead, a run a piece, it
// weighed each group alike, and the groups of a layer made in passes are
// as many in each pass whatever its states: on 7x8 by narrow-down, three
// classes that held 52, 33 and 14% of a layer made in passes were a third
// each of that sample, and the passes planned from it were dropped for
// memory one after the other.
func (s *stepper) sample() (*sample, error) {
	stride := s.r.k + 1
	total := 0
	for _, p := range s.pieces {
		total += p.hi - p.lo
	}
	sm := &sample{}
	if total == 0 {
		return sm, nil
	}
	runs := max(1, min(sampleRuns, total/sampleRun))
	sm.keys = make([]uint64, 0, min(total, runs*sampleRun))
	sm.countLen = make([]uint8, 0, cap(sm.keys))
	entries := make([]uint64, chunkStates*stride)
	var buf []byte
	at, i, read := 0, 0, -1 // the first state of piece i; the piece in entries
	for j := range runs {
		t := j * total / runs
		for need := min(sampleRun, total-t); need > 0; {
			for at+s.pieces[i].hi-s.pieces[i].lo <= t {
				at += s.pieces[i].hi - s.pieces[i].lo
				i++
			}
			p := s.pieces[i]
			off := t - at
			n := min(need, p.hi-p.lo-off)
			run, err := s.readRun(p, off, n, entries, &buf, read == i)
			if err != nil {
				return nil, err
			}
			read = -1
			if gr := s.cur.groups[p.g]; gr.file != nil && gr.blocks != nil {
				read = i // the whole piece is in entries
			}
			for k := 0; k < len(run); k += stride {
				sm.keys = append(sm.keys, run[k])
				sm.countLen = append(sm.countLen, uint8(limbsLen(run[k+1:k+stride])))
			}
			t, need = t+n, need-n
		}
	}
	return sm, nil
}

// measure returns how many new states, unmerged, a state of cur makes,
// from the expansion of a sample of cur by a worker of its own that
// counts what it makes and keeps nothing. The sample keeps what each of
// its states made, for the plan of the passes.
func (s *stepper) measure(shard bool) (float64, error) {
	r := s.r
	if s.sampled == nil {
		var err error
		if s.sampled, err = s.sample(); err != nil {
			return 0, err
		}
	}
	sm := s.sampled
	if len(sm.keys) == 0 {
		return 0, nil
	}
	w := r.newWorker(s.v, shard, fewDemands, len(sm.keys)) // a sample: a small memo
	val := make([]uint64, r.k)
	val[0] = 1
	sm.made = make([]uint32, len(sm.keys))
	for i, key := range sm.keys {
		if shard && mix.Hash(key)%uint64(r.cfg.Shards) != uint64(r.cfg.Shard) {
			continue
		}
		before := w.made
		w.expandKey(key, val)
		if r.unfolds(s.v) {
			w.expandKey(r.f.reflectKey(key, s.v-1), val)
		}
		sm.made[i] = uint32(w.made - before)
	}
	s.made = float64(w.made) / float64(len(sm.keys))
	return s.made, w.failure(s.v, s.cur.n)
}

// estimate guesses the number of states after square v, which sets the
// groups of the next layer and the first size of the lean step's tables.
// The number of states swings from square to square, but in a pattern
// that repeats with every column: so the guess is the number a column
// back, times the growth over the last column. Tables start at about half
// the guess: a table made at its full size at the start of the step would
// hold its memory while the whole of cur is still there, where one that
// grows takes it as cur is freed.
func (r *counter) estimate(v int) int {
	s, w := r.states, r.f.w
	if v == 0 {
		return 1
	}
	last := s[v-1]
	if v-1-w < 0 || s[v-1-w] == 0 || s[v-w] == 0 {
		return last
	}
	return int(float64(s[v-w]) * float64(last) / float64(s[v-1-w]))
}

// planPasses splits the step adding square v into passes whose tables
// take at most part of the next layer each, judging the classes' sizes
// from sample, keys of cur; a class larger than part is split by more
// positions, of splitBy (classifier.refine), or where none divides it
// made in ranges of groups, at worst a group a pass. It returns the
// classifier of the passes' classes. It tells classes by positions the next steps leave
// alone too where those split the layer finely enough, so that their
// passes can follow these (alignedPasses); else, where it can, by some of
// the positions prev that cur's parts are told by, so that its passes
// skip the groups of cur of other kinds there (projection).
func planPasses(f *board, v int, sm *sample, part float64, groups int, prev, splitBy []int) ([]pass, *classifier) {
	c := &classifier{f: f}
	shares := []float64{1}
	if len(sm.keys) > 0 {
		keep := untouched(&f.shifts[v], f.slots)
		var lasting, shared []int
		for _, p := range keep {
			if f.untouchedFor(v, p) >= lastingSteps {
				lasting = append(lasting, p)
			}
			if slices.Contains(prev, p) {
				shared = append(shared, p)
			}
		}
		if len(lasting) > 0 {
			c, shares = chooseClasses(f, lasting, sm, part, nil)
		}
		if len(lasting) == 0 || slices.Max(shares) > part {
			c, shares = chooseClasses(f, keep, sm, part, nil)
			if len(shared) > 0 {
				// The two of prev's positions that split the sample best
				// first, then the best of the others.
				seed, _ := chooseClasses(f, shared, sm, part, nil)
				sc, ssh := chooseClasses(f, keep, sm, part, seed.pos[:min(2, len(seed.pos))])
				if most := slices.Max(ssh); most <= part || most <= slices.Max(shares) {
					c, shares = sc, ssh
				}
			}
		}
	}
	// Classes larger than a pass split, largest first; then first fit,
	// largest first: classes into passes of at most part each.
	units := make([]classShare, len(shares))
	for cl, sh := range shares {
		units[cl] = classShare{1 << cl, sh}
	}
	slices.SortStableFunc(units, byShare)
	if len(c.pos) > 0 && len(splitBy) > 0 && slices.Max(shares) > part {
		var parts []classShare
		for _, u := range units {
			if u.share > part {
				parts = append(parts, c.refine(bits.TrailingZeros64(u.classes), u.share, part, splitBy, sm)...)
				continue
			}
			parts = append(parts, u)
		}
		units = parts
		slices.SortStableFunc(units, byShare)
	}
	var passes []pass
	for _, u := range units {
		passes = place(passes, u.classes, u.share, part, 0, groups)
	}
	if len(passes) == 1 {
		passes[0].classes = allClasses
	}
	return passes, c
}

// measureDrop records, for remake, that the pass in hand passed the
// memory limit when it had kept kept new states.
func (s *stepper) measureDrop(kept int64) {
	s.dropped = &dropMeasure{kept: kept, taken: s.taken.Load()}
}

// remake returns the passes that make again p, a pass dropped when it
// passed the memory limit, followed by those of left, the passes after
// it; false if p cannot be split. A pass measured, when it was dropped,
// how many new states its classes make: as many as it kept for each state
// of cur it expanded, and the sample tells how many of cur's states are
// of its classes. By that measure p goes into as many passes
// as its bins need, its classes shared out by the sample, and so, the
// first time (first), does every pass left that the same measure finds
// too large. Halving a dropped pass blindly instead dropped pass after
// pass: on 7x8 by narrow-down at 150 MB, a pass of four classes planned
// for a quarter of the layer held a class that makes a quarter alone,
// and it was dropped three times, halved each time, before the class was
// made in ranges. Without a measure, or where it says p fits, p is made
// as two, and the first time so is every pass left as large as half of
// it.
func (s *stepper) remake(p pass, left []pass, first bool) ([]pass, bool) {
	if again, ok := s.remakeMeasured(p, left, first); ok {
		return again, true
	}
	a, b, ok := p.split()
	if !ok {
		return nil, false
	}
	if first {
		left = splitLarge(left, p.share/2)
	}
	return append([]pass{a, b}, left...), true
}

// remakeMeasured is remake by the measure of the dropped pass, if there
// is one and the sample to share its classes out by.
func (s *stepper) remakeMeasured(p pass, left []pass, first bool) ([]pass, bool) {
	d := s.dropped
	s.dropped = nil
	if d == nil || d.kept <= 0 || d.taken <= 0 || p.share <= 0 || s.classes == nil {
		return nil, false
	}
	if s.sampled == nil {
		sm, err := s.sample()
		if err != nil {
			return nil, false // halved blindly: the layer's read fails again soon
		}
		s.sampled = sm
	}
	sm := s.sampled
	c := s.classes
	// The states of cur in p's classes, and the share of the new states
	// each class makes (by the states, where the sample was not measured).
	held := c.shares(&sample{keys: sm.keys})
	in := 1.0
	if p.classes != allClasses {
		in = 0
		for m := p.classes; m != 0; m &= m - 1 {
			if cl := bits.TrailingZeros64(m); cl < len(held) {
				in += held[cl]
			}
		}
	}
	src := in * float64(s.cur.n)
	if s.r.cfg.Shards > 1 && len(s.ws) > 0 && s.ws[0].shard {
		src /= float64(s.r.cfg.Shards)
	}
	if src <= 0 {
		return nil, false
	}
	// All p's states, by what it kept for the states it expanded: more
	// than it kept, since it did not finish.
	done := min(1, float64(d.taken)/src)
	states := max(float64(d.kept)/done, float64(d.kept)*1.1)
	room := s.passRoom()
	if room <= 0 {
		return nil, false
	}
	perShare := states / p.share // new states for a share of 1, as measured

	// A buffered pass was planned for made new states a state of cur.
	if s.perState == 0 && s.made > 0 {
		s.missed = perShare / (s.made * float64(s.cur.n))
	}
	shares := c.shares(sm)
	again := refit(p, states, room, shares)
	if len(again) < 2 {
		return nil, false
	}
	for i := range again {
		again[i].share /= perShare
	}
	if !first {
		return append(again, left...), true
	}
	for _, q := range left {
		qs := q.share * perShare
		if qs <= room || q.share <= 0 {
			again = append(again, q)
			continue
		}
		more := refit(q, qs, room, shares)
		if len(more) < 2 {
			again = append(again, q)
			continue
		}
		for i := range more {
			more[i].share /= perShare
		}
		again = append(again, more...)
	}
	return again, true
}

// passRoom returns how many new states a pass of the step has room for,
// once a dropped pass has given its memory back: in a lean step, its
// tables' slots beside the staging buffers; in a buffered step, its bins'
// entries, less the bins the workers are filling, a bin a bucket each,
// however few states they hold (on small layers, much of the room).
func (s *stepper) passRoom() float64 {
	r := s.r
	if s.perState > 0 {
		return float64(r.mem.Limit()-r.mem.Held()-s.staging) / s.perState
	}
	buckets := 1 << s.bucketBits()
	filling := float64(len(s.ws) * buckets * binEntries * (r.k + 1) * 8)
	return (s.binRoom() - filling) / binBytes(r.k)
}

// refit splits p, which makes states new states, into passes of at most
// room new states each, their shares in new states: p's classes by first
// fit, largest first, each making its part of states by shares (a share
// a class), and a class too large for one pass in ranges of p's groups.
func refit(p pass, states, room float64, shares []float64) []pass {
	type unit struct {
		classes uint64
		states  float64
	}
	units := []unit{{p.classes, states}}
	if n := bits.OnesCount64(p.classes); n > 1 && p.classes != allClasses {
		units = units[:0]
		sum := 0.0
		for m := p.classes; m != 0; m &= m - 1 {
			if cl := bits.TrailingZeros64(m); cl < len(shares) {
				sum += shares[cl]
			}
		}
		for m := p.classes; m != 0; m &= m - 1 {
			cl := bits.TrailingZeros64(m)
			part := 1 / float64(n)
			if sum > 0 {
				part = 0
				if cl < len(shares) {
					part = shares[cl] / sum
				}
			}
			units = append(units, unit{1 << cl, states * part})
		}
		slices.SortStableFunc(units, func(a, b unit) int { return cmp.Compare(b.states, a.states) })
	}
	var passes []pass
	for _, u := range units {
		passes = place(passes, u.classes, u.states, room, p.lo, p.hi)
	}
	return passes
}

// run makes the passes of a step with makePass, one after the other. In a
// step that can be made in passes (multi), a pass that passes the memory
// limit is dropped, with what it found, and made again in smaller ones
// (remake), unless it narrowed instead: makePass returns the end of the
// groups it made, and those after it become the next pass. The first
// time a pass is dropped, so is every pass left that is too large:
// they were planned from the same sample, whose guess fell short (on 8x10
// from the corner a square planned in 4 passes took 12, each of the 4
// dropped in its turn when most of it was made). Only the first time: a
// pass dropped again tells of its own classes, and splitting all that was
// left again took a square of 8x10 planned in 5 passes to 21, each of
// which reads the whole layer. A checkpoint is written after each pass
// but the last.
func (s *stepper) run(passes []pass, multi bool, makePass func(pass) (int, error)) error {
	r := s.r
	defer func() { // no pass under way: a stop between passes reports none
		r.pass.Store(0)
		r.passesPlanned.Store(0)
	}()
	dropped, narrowed := false, false
	for len(passes) > 0 {
		p := passes[0]
		r.beginPass(s.passes+1, s.passes+len(passes))
		undo := s.mark()
		hi, err := makePass(p)
		if multi && errors.Is(err, ErrMemoryLimit) {
			if again, ok := s.remake(p, passes[1:], !dropped); ok {
				undo()
				if !dropped {
					dropped = true
					r.planScale.dropped(s.missed)
				}
				passes = again
				continue
			}
		}
		if err != nil {
			return err
		}
		passes = passes[1:]
		if hi < p.hi {
			rest := pass{classes: p.classes, lo: hi, hi: p.hi, share: p.share * float64(p.hi-hi) / float64(p.hi-p.lo)}
			passes = append([]pass{rest}, passes...)
			narrowed = true
			r.narrowed++
			if r.cfg.onNarrow != nil {
				r.cfg.onNarrow(p, hi)
			}
		}
		if multi && r.cfg.passMade != nil {
			r.cfg.passMade()
		}
		if multi {
			if _, err := s.giveBack(passes); err != nil {
				return err
			}
		}
		if len(passes) > 0 && multi && r.cfg.Checkpoint != "" {
			if err := s.savePart(passes); err != nil {
				return err
			}
		}
		if err := s.punchHoles(); err != nil {
			return err
		}
		if r.cfg.afterPass != nil {
			r.cfg.afterPass(s.v, s.passes)
		}
	}
	if multi && !dropped && !narrowed {
		r.planScale.held()
	}
	return nil
}

// beginPass says, for progress, that pass n of the step's planned
// passes is under way and has expanded nothing yet. Until its first piece, a pass
// sets up what it needs, and progress showed the last pass's share
// meanwhile: "100% of pass 5 of 5" before pass 5 began. The share is
// reset first, so that a report that reads the new pass reads a share of
// it.
func (r *counter) beginPass(n, planned int) {
	r.expanded.Store(0)
	r.pass.Store(int64(n))
	r.passesPlanned.Store(int64(planned))
}

// binMargin is the room a buffered pass plans beyond its bins' entries:
// the bins the workers are filling, the merge buffers, and classes whose
// states make more new ones than the sample's.
const binMargin = 1.15

// binBytes returns the memory a buffered pass plans for each new state
// its bins keep: a key and k limbs, and the margin.
func binBytes(k int) float64 { return float64((k+1)*8) * binMargin }

// binRoom returns the memory a buffered pass's bins may take: what the
// limit leaves, less the room for the merge buffers, counting the pool's
// bins as free (those of a step or pass before, for this one's).
func (s *stepper) binRoom() float64 {
	r := s.r
	room := float64(r.mem.Limit() - r.mem.Held() - r.mergeRoom())
	if r.pool != nil {
		room += float64(r.pool.held())
	}
	return room
}

// mergeRoom is the memory a buffered step's bins leave below the limit
// for its merge buffers, which are counted even past it (merger.grow):
// twice the most they have taken so far in the count, as they grow with
// the layers and by doubling. Without it the bins filled the limit and
// the merge buffers went past it: 8x9 from the corner at -memory 17G held
// 19.7 GB of counted memory, 6x6 in passes at 4 MiB 4.8 MiB.
func (r *counter) mergeRoom() int64 { return 2 * r.mergeHigh }
