package frontier

import (
	"cmp"
	"math/bits"
	"slices"
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
	var passes []pass
	if cp := s.cur.parts; cp.usable(untouched(&r.f.shifts[s.v], r.f.slots), len(s.cur.groups)) {
		passes, s.classes = alignedPasses(r.f, cp, s.cur, r.k+1, sample, share, groups)
	} else {
		passes, s.classes = planPasses(r.f, s.v, sample, share, groups)
	}
	return passes, nil
}

// startPasses records, for a step not resumed, the positions its classes
// are told by in the next layer's parts, and tells whether the passes
// can skip the groups of cur without their classes: only where cur's
// parts are told by the same positions.
func (s *stepper) startPasses(fresh bool) {
	r := s.r
	if fresh && len(s.classes.pos) > 0 {
		s.out.parts = &classParts{pos: s.classes.pos}
	}
	cp := s.cur.parts
	s.aligned = cp.usable(untouched(&r.f.shifts[s.v], r.f.slots), len(s.cur.groups)) && slices.Equal(cp.pos, s.classes.pos)
	if fresh {
		s.followed.Store(0)
	}
}

// A scale is what a plan multiplies the memory its sample foretells by,
// learned from the passes made: on 8x10 by narrow-down, squares 46, 47,
// 49 and 50 were planned in 4 to 6 passes and took 9 to 21, many of their
// passes dropped when they passed the limit and made again in halves,
// each pass reading the whole layer. A step with a dropped pass makes the
// next one plan for more: for as many times the sample's guess as the
// dropped pass made, where it measured that, and a margin; else for half
// as much again. A step whose passes all held lets the scale come back
// down, a tenth at a time. The zero scale is 1. A checkpoint records the
// scale, for the count resumed from it.
type scale float64

// maxScale bounds a scale: past it the sample, not the margin, is wrong.
const maxScale = 4

func (s scale) factor() float64 { return max(1, float64(s)) }

// dropped records a step with a pass dropped, which made missed times
// the new states the sample foretold, or 0 if unmeasured. A measured miss
// asks for no more than it says: after a pass of square 58 of 8x12 from
// the corner passed the limit when nearly all of it was made, half as
// much again planned square 59 in 10 passes, and it took 11 minutes where
// the squares beside it took 2 to 5.
func (s *scale) dropped(missed float64) {
	next := 1.5 * s.factor()
	if missed > 0 {
		next = max(missed, s.factor()) * missMargin
	}
	*s = scale(min(maxScale, next))
}

// missMargin is how much more than a measured miss the scale plans for.
const missMargin = 1.1

// held records a step whose passes all held.
func (s *scale) held() { *s = scale(max(1, 0.9*s.factor())) }

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
	w := r.newWorker(s.v, shard)
	val := make([]uint64, r.k)
	val[0] = 1
	sm.made = make([]uint32, len(sm.keys))
	for i, key := range sm.keys {
		if shard && hashKey(key)%uint64(r.cfg.Shards) != uint64(r.cfg.Shard) {
			continue
		}
		before := w.made
		if r.f.packed {
			w.expandPacked(key, val)
		} else {
			w.expand(key, val)
		}
		sm.made[i] = uint32(w.made - before)
	}
	s.made = float64(w.made) / float64(len(sm.keys))
	return s.made, w.failure(s.v, s.cur.n)
}

// newStates returns the guess of how many states the next layer holds,
// for the plan of the lean step's passes: at most the new states the
// sample's measure (where it was taken) says the step makes unmerged.
func (s *stepper) newStates() int {
	if s.made > 0 {
		return min(s.est, int(s.made*float64(s.cur.n)))
	}
	return s.est
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
// from sample, keys of cur; a class larger than part is made in ranges
// of groups, at worst a group a pass. It returns the classifier of the
// passes' classes. It tells classes by positions the next steps leave
// alone too where those split the layer finely enough, so that their
// passes can follow these (alignedPasses).
func planPasses(f *board, v int, sm *sample, part float64, groups int) ([]pass, *classifier) {
	c := &classifier{f: f}
	shares := []float64{1}
	if len(sm.keys) > 0 {
		keep := untouched(&f.shifts[v], f.slots)
		var lasting []int
		for _, p := range keep {
			if f.untouchedFor(v, p) >= lastingSteps {
				lasting = append(lasting, p)
			}
		}
		if len(lasting) > 0 {
			c, shares = chooseClasses(f, lasting, sm, part)
		}
		if len(lasting) == 0 || slices.Max(shares) > part {
			c, shares = chooseClasses(f, keep, sm, part)
		}
	}
	// First fit, largest first: classes into passes of at most part each.
	order := make([]int, len(shares))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(shares[b], shares[a]) })
	var passes []pass
	for _, cl := range order {
		passes = place(passes, 1<<cl, shares[cl], part, 0, groups)
	}
	if len(passes) == 1 {
		passes[0].classes = allClasses
	}
	return passes, c
}

// A dropMeasure is what a pass had done when it passed the memory limit:
// the new states it had kept (in a lean pass, distinct ones, which grow
// more slowly than the states expanded, so that the measure errs large),
// and the states of cur it had expanded to make them.
type dropMeasure struct {
	kept, taken int64
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
		return float64(r.mem.limit-r.mem.held()-s.staging) / s.perState
	}
	buckets := 1 << min(s.gbits, uint(bits.TrailingZeros(maxBuckets)))
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
