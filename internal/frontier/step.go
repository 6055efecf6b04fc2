package frontier

import (
	"context"
	"errors"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/pool"
)

// A step adds one square to every state of a layer and makes the next
// layer. It runs in two phases, each shared by the workers: expanding the
// states of the layer, a piece at a time, and making the groups of the
// next layer from what the expansion emitted. Where the memory limit
// leaves room for all the step's new states unmerged, the step is
// buffered (buffer.go): workers write them into bins per group, then
// merge a group at a time. Otherwise it is lean (table.go): workers add
// the new states to a hash table per group as they go, in small batches,
// and pack the tables into dense groups at the end.
//
// When the layers are on disk and the buffered step's bins would pass the
// memory limit, the buffered step makes the next layer in passes, each
// from the states of some classes (passes.go), holding the bins of only
// its share of the next layer, which it merges to disk before the next
// pass; past a few such passes (maxBufferedPasses) the lean step, whose
// tables take about a third of the bins' memory, makes the layer in
// passes the same way, packing its tables to disk after each. A pass that
// finds it needs more memory than planned is dropped and made again as
// two, of half its classes or, for one class, half its groups. The
// buffered step is the faster (8x8 closed in 6 GB: 7 min 6 s with its
// layers on disk and the widest steps buffered in two passes, 9 min 39 s
// lean in memory): it appends where the lean step probes a table far
// larger than the cache, and it groups its layer by demand, so that the
// next step's memo of choices hits.

// chunkStates is how many states a worker takes at a time.
const chunkStates = 1 << 12

// groupStates is about how many states a group of a layer should hold:
// few enough that packing one group's table costs little memory, many
// enough that the workers' staging buffers, a batch per group, stay small.
const groupStates = 1 << 14

// maxGroupBits bounds the groups of a layer: 2^18 groups of the lean
// step's 2^14 states reach four billion states (the buffered step's groups
// are smaller, and the buffered step is for smaller layers).
const maxGroupBits = 18

// newWorker returns a worker for the step adding square v; shard makes
// it expand only the count's shard of the states. It has neither tables
// nor bins yet: the step gives it one or the other.
func (r *counter) newWorker(v int, shard bool) *worker {
	mb := r.memoBits(v)
	w := &worker{r: r, st: &r.f.steps[v], v: v, final: v == r.f.n-1, shard: shard, memo: make([]memoEntry, 1<<mb), memoShift: 64 - mb,
		total: make([]uint64, r.k)}
	if r.cfg.AllLengths && (v+1)%r.f.w == 0 && !w.final {
		w.cut = make([]uint64, r.k)
	}
	w.notEnd = r.notEnd(&r.f.steps[v])
	if w.zFull = r.firstZ(); r.mode == FromStart && v > r.start {
		w.zFull++ // the start's piece leads to z too
	}
	return w
}

// piece is a run of states of one group, a worker's unit of work.
type piece struct{ g, lo, hi int }

// pieces returns the pieces of l's groups, in order, with stride words a
// state in memory.
func (l *layer) pieces(stride int) []piece {
	var ps []piece
	for g, gr := range l.groups {
		n := gr.states(stride)
		for lo := 0; lo < n; lo += chunkStates {
			ps = append(ps, piece{g, lo, min(lo+chunkStates, n)})
		}
	}
	return ps
}

// bufferedStates is about how many unmerged new states a group of the
// buffered step should receive: its merge table should fit in the
// processor's cache.
const bufferedStates = 1 << 13

// A stepper is one step: the layer it expands, the layer it makes, and
// its workers.
type stepper struct {
	ctx    context.Context
	r      *counter
	v      int
	cur    *layer
	out    *layer
	total  []uint64 // the tours of the count before this step
	ws     []*worker
	pieces []piece
	left   []atomic.Int32 // pieces of each group of cur not yet expanded
	gbits  uint           // log2 of the groups of out
	est    int
	final  bool
	states atomic.Int64 // states placed in out
	kept   atomic.Int64 // states of cur expanded (a shard's part of them)
	// scratch holds, per worker, a group on its way to disk, and files
	// the file the worker writes its groups to: out's files, less those
	// of passes made before a stop, which stay as they were.
	scratch [][]uint64
	files   []*layerFile
	// passes is how many passes the lean step took, and classes tells
	// the classes of cur's states that its passes share out.
	passes  int
	classes *classifier
	// aligned says that the passes are by the classes of cur's parts, so
	// that each reads only the groups of cur that hold its classes.
	aligned bool
	// share, for a buffered step made in passes, is the most of the next
	// layer a pass may make (0 for one pass).
	share float64
	// sampled is the plan's sample of cur, once read, and made the new
	// states a state of it makes, unmerged, once measured (else 0).
	sampled *sample
	made    float64
	// taken is the states of cur the pass in hand has expanded, and
	// dropped what a pass had done when it passed the memory limit, for
	// remake.
	taken   atomic.Int64
	dropped *dropMeasure
	// missed is how many times the new states the sample foretold a
	// buffered pass that remake made again by its measure made (else 0),
	// for the plans' scale.
	missed float64
	// perState is the memory a lean step plans for each new state, and
	// staging that of its workers' staging buffers (0 in a buffered step).
	perState float64
	staging  int64
}

// step adds square v to every state of cur and returns the next layer,
// adding the states that complete a tour to total. It frees cur as it
// goes, a group as soon as its states are expanded, unless cur is on disk.
func (r *counter) step(ctx context.Context, v int, cur *layer, total []uint64) (_ *layer, err error) {
	k := r.k
	stride := k + 1
	workers := r.cfg.Workers
	if cur.n < 4*chunkStates {
		workers = 1
	}
	s := &stepper{ctx: ctx, r: r, v: v, cur: cur, total: total, est: r.estimate(v), final: v == r.f.n-1}
	// The garbage of the last step counts against the limit until the
	// collector takes it and the runtime gives its pages back: the step
	// plans its passes without it.
	r.mem.sampleRuntime()
	r.mem.collect()
	// A step resumed from a checkpoint written between its passes. The
	// count keeps r.part until the step is done: a checkpoint written
	// when the step fails must still have it.
	part := r.part
	if part != nil && part.Square != v {
		part = nil
	}
	s.pieces = cur.pieces(stride)
	// A shard follows only its part of the states, from the first step
	// with enough of them to split evenly (the same step in every shard,
	// as the steps before are the same). r.shardAt is set only once the
	// step is done (commit, below).
	shard := r.cfg.Shards > 1 && r.shardAt < 0 && (cur.n >= shardStates*r.cfg.Shards || s.final)
	// The buffered step holds the new states unmerged, about three for
	// each state of the next layer, in bins, and the next layer. Where
	// that passes the limit but the layers are on disk, it may still be
	// made in passes, each holding the bins of a share of the next layer
	// (bufferedShare); otherwise the step is lean.
	lean := r.cfg.Lean || r.mem.held()+int64(s.est)*int64(stride)*8*5 > r.mem.limit
	if !r.cfg.Lean && part == nil && (lean || r.cfg.passPart > 0) {
		if s.share, err = s.bufferedShare(shard); err != nil {
			return nil, err
		}
		if s.share > 0 {
			lean = false
		}
	}
	perGroup := groupStates
	if !lean {
		perGroup = bufferedStates / 3
	}
	for s.gbits < maxGroupBits && s.newStates()>>s.gbits > perGroup || lean && 64-r.f.mixer.bits+s.gbits < minCountBits {
		s.gbits++
	}
	if part != nil {
		lean, s.gbits = !part.Buffered, uint(part.GroupBits)
	}
	groups := 1 << s.gbits
	defer func() {
		if err != nil {
			r.releasePool()
		}
	}()
	if lean {
		r.releasePool() // its bins are memory the tables may need
	}
	s.left = make([]atomic.Int32, len(cur.groups))
	s.out = &layer{groups: make([]group, 0, groups)} // each pass adds its groups
	defer func() {
		if err != nil {
			r.part.settle() // before its groups go
			s.out.free(r.arena)
		}
	}()
	s.ws = make([]*worker, workers)
	s.scratch = make([][]uint64, workers)
	for i := range s.ws {
		w := r.newWorker(v, shard)
		if r.spill {
			w.in = make([]uint64, chunkStates*stride)
			if !s.final {
				after := 0
				if part != nil {
					after = part.Passes
				}
				order := keyOrder{} // a buffered step's groups are by hash
				if lean {
					order.m = &r.f.mixer // a lean step's, by mix
				}
				lf, err := createLayerFile(r.layerPrefix(), v, i, after, stride, r.compactLayer(s.newStates()), order, r.disk)
				if err != nil {
					return nil, err
				}
				s.files = append(s.files, lf)
				s.out.files = append(s.out.files, lf)
			}
		}
		s.ws[i] = w
	}
	if part != nil {
		s.out.files = slices.Concat(part.files, s.out.files)
		s.out.groups, s.out.parts = part.groups, part.parts
		s.states.Store(part.States)
		copy(s.ws[0].total, part.Total)
		if s.ws[0].cut != nil && part.Cut != nil {
			copy(s.ws[0].cut, part.Cut)
		}
	}
	if lean {
		err = s.lean(part)
	} else {
		err = s.buffered(part)
	}
	if err != nil {
		return nil, err
	}
	// Only now, when nothing in the step can fail, add the tours it found
	// to the count's and record where the shards parted: a checkpoint
	// written when a step fails holds the count before it.
	for _, w := range s.ws {
		if addLimbs(total, w.total) {
			return nil, errOverflow
		}
		if w.cut != nil {
			if r.byLength[v/r.f.w] == nil {
				r.byLength[v/r.f.w] = make([]uint64, k)
			}
			if addLimbs(r.byLength[v/r.f.w], w.cut) {
				return nil, errOverflow
			}
		}
	}
	if shard {
		r.shardAt, r.followed = v, int(s.kept.Load())
	}
	r.passes = max(r.passes, s.passes)
	r.part = nil
	s.out.n = int(s.states.Load())
	s.out.parts = s.out.parts.moved(r.f, v)
	return s.out, nil
}

// expand runs the expansion phase: every worker expands the pieces of
// cur, its states in classes, until none is left, then hands on what it
// still holds. freeCur lets it free each group of cur held in memory once
// it is expanded. tally adds the tours it finds, and the states it
// expands, to the step's: false where they were counted already.
func (s *stepper) expand(freeCur bool, classes uint64, tally bool) error {
	r, stride := s.r, s.r.k+1
	for _, w := range s.ws {
		w.err = nil
		if !tally {
			total, cut := w.total, w.cut
			w.total = make([]uint64, r.k)
			if cut != nil {
				w.cut = make([]uint64, r.k)
			}
			defer func() { w.total, w.cut = total, cut }()
		}
	}
	if freeCur {
		for g := range s.left {
			s.left[g].Store(0)
		}
		for _, p := range s.pieces {
			s.left[p.g].Add(1)
		}
	}
	r.expanded.Store(0)
	r.pieces.Store(int64(len(s.pieces)))
	s.taken.Store(0)
	err := pool.Run(s.ctx, len(s.ws), len(s.pieces), func(wi, i int) error {
		defer r.expanded.Add(1)
		w := s.ws[wi]
		if e := w.buffered; e != nil && e.nar != nil {
			e.follow() // the bins of the buckets the pass gave up go back at once
		}
		p := s.pieces[i]
		gr := s.cur.groups[p.g]
		take := classes
		if classes != allClasses {
			held := s.classes.holds(gr.kinds)
			if s.aligned {
				held &= s.cur.parts.classesOf(p.g)
			}
			switch {
			case held&classes == 0:
				if r.cfg.onSkip != nil {
					r.cfg.onSkip()
				}
				return nil // none of its states is of these classes
			case held&^classes == 0:
				take = allClasses // all of them are: no state's class to tell
			}
		}
		entries := gr.entries
		lo, hi := p.lo*stride, p.hi*stride
		if gr.file != nil {
			entries, lo, hi = w.in[:hi-lo], 0, hi-lo
			if err := gr.file.readPiece(gr, p.lo, entries, stride, &w.block); err != nil {
				return err
			}
		}
		kept := int64(0)
		defer func() {
			s.taken.Add(kept)
			if tally {
				s.kept.Add(kept)
			}
		}()
		for j := lo; j < hi; j += stride {
			if w.shard && hashKey(entries[j])%uint64(r.cfg.Shards) != uint64(r.cfg.Shard) {
				continue
			}
			if !s.classes.take(take, entries[j]) {
				continue
			}
			kept++
			if r.f.packed {
				w.expandPacked(entries[j], entries[j+1:j+stride])
			} else {
				w.expand(entries[j], entries[j+1:j+stride])
			}
		}
		if freeCur && s.left[p.g].Add(-1) == 0 && gr.file == nil { // the whole group is expanded
			r.arena.free(gr)
			s.cur.groups[p.g] = group{}
		}
		return w.failure(s.v, s.cur.n)
	})
	if err != nil {
		return err
	}
	return pool.Run(s.ctx, len(s.ws), len(s.ws), func(_, i int) error {
		if w := s.ws[i]; w.lean != nil {
			w.lean.flushAll()
		}
		return s.ws[i].failure(s.v, s.cur.n)
	})
}

// place puts group at of the next layer where it lives: in the arena, or
// at the end of worker wi's layer file. fill writes its n words.
func (s *stepper) place(wi, at, n int, fill func([]uint64)) error {
	r := s.r
	var dense group
	if r.spill {
		if cap(s.scratch[wi]) < n {
			s.scratch[wi] = make([]uint64, n)
		}
		fill(s.scratch[wi][:n])
		var err error
		if dense, err = s.files[wi].write(s.scratch[wi][:n]); err != nil {
			return err
		}
		dense.kinds = r.f.kindsOf(s.scratch[wi][:n], r.k+1) // for the next step's passes
		if n > keepStates*(r.k+1) {
			s.scratch[wi] = nil // a giant group's: not kept (see keepStates)
		}
	} else {
		var ok bool
		if dense, ok = r.arena.alloc(n); !ok {
			return r.memoryError(s.v, s.cur.n)
		}
		fill(dense.entries)
	}
	s.out.groups[at] = dense
	s.states.Add(int64(n / (r.k + 1)))
	return nil
}

// lean makes the next layer through hash tables, in as many passes as
// the memory limit asks for (passes.go); part, when not nil, is the
// passes done before the count was stopped, and the passes left.
func (s *stepper) lean(part *stepPart) error {
	r, k := s.r, s.r.k
	stride := k + 1
	groups := 1 << s.gbits
	tables := make([]table, groups)
	for i := range tables {
		tables[i].countBits, tables[i].k = 64-r.f.mixer.bits+s.gbits, k
	}
	// A pass is planned for tables at their fullest, just grown, with one
	// state in sixteen holding a wide count, beside the workers' staging
	// buffers at their largest.
	perState := float64(8+stride*8/16) * 16 / maxLoad * 3 / 2
	buckets := min(groups, maxStageBuckets)
	staging := int64(len(s.ws)) * int64(stageWords(buckets, k)) * 8
	s.perState, s.staging = perState, staging
	passes := []pass{{classes: allClasses, hi: groups, share: 1}}
	s.classes = &classifier{f: r.f}
	// Passes need cur whole to the end of the step: on disk.
	multi := s.canPass()
	room := float64(r.mem.limit - r.mem.held() - staging)
	if multi && room <= 0 {
		return r.memoryError(s.v, s.cur.n)
	}
	if part != nil {
		passes = s.resume(part)
	} else if need := float64(s.newStates()+1) * perState; multi && (room < need || r.cfg.passPart > 0) {
		share := room / need
		if r.cfg.passPart > 0 {
			share = r.cfg.passPart
		}
		var err error
		if passes, err = s.plan(share); err != nil {
			return err
		}
	}
	s.startPasses(part == nil)
	r.arena.sizeFor(s.est * stride)
	return s.run(passes, multi, func(p pass) (int, error) { return p.hi, s.leanPass(tables, p, !multi) })
}

// resume returns the passes left of a step stopped between its passes,
// and takes up the classes and what the passes done found.
func (s *stepper) resume(part *stepPart) []pass {
	var passes []pass
	for _, p := range part.Left {
		passes = append(passes, pass{classes: p.Classes, lo: p.Lo, hi: p.Hi, share: p.Share})
	}
	s.classes.setPositions(part.Positions)
	s.passes = part.Passes
	s.kept.Store(part.Kept)
	return passes
}

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
	if cp := s.cur.parts; cp.usable(untouched(&r.f.steps[s.v], r.f.slots), len(s.cur.groups)) {
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
	s.aligned = cp.usable(untouched(&r.f.steps[s.v], r.f.slots), len(s.cur.groups)) && slices.Equal(cp.pos, s.classes.pos)
	if fresh {
		s.kept.Store(0)
	}
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
	defer r.pass.Store(0)
	dropped, narrowed := false, false
	for len(passes) > 0 {
		p := passes[0]
		r.pass.Store(int64(s.passes + 1))
		r.passesPlanned.Store(int64(s.passes + len(passes)))
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
		if len(passes) > 0 && multi && r.cfg.Checkpoint != "" {
			if err := s.savePart(passes); err != nil {
				return err
			}
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

// savePart writes a checkpoint after a pass of the step, with the passes
// left, so that a stopped count goes on from there (see stepPart).
func (s *stepper) savePart(left []pass) error {
	r := s.r
	part := &stepPart{Square: s.v, GroupBits: int(s.gbits), Buffered: s.ws[0].buffered != nil, Positions: s.classes.pos, Passes: s.passes,
		Total: make([]uint64, r.k), Kept: s.kept.Load(), States: s.states.Load(), files: s.out.files,
		Parts: s.out.parts.record(s.out.groups)}
	for _, p := range left {
		part.Left = append(part.Left, passRecord{Classes: p.classes, Lo: p.lo, Hi: p.hi, Share: p.share})
	}
	for _, w := range s.ws {
		if addLimbs(part.Total, w.total) {
			return errOverflow
		}
		if w.cut != nil {
			if part.Cut == nil {
				part.Cut = make([]uint64, r.k)
			}
			if addLimbs(part.Cut, w.cut) {
				return errOverflow
			}
		}
	}
	// The passes made so far have made the groups before n, which the
	// passes after this checkpoint leave as they are (though appending
	// theirs may move them).
	n := len(s.out.groups)
	var err error
	if part.Files, part.records, err = recordLayer(s.out.files, func() []group { return s.out.groups[:n] }); err != nil {
		return err
	}
	if err := r.saveCheckpoint(s.v-1, s.cur, s.total, part); err != nil {
		return err
	}
	r.part = part
	return nil
}

// mark returns a function that puts back the tours, cut counts and kept
// states that the workers have found so far.
func (s *stepper) mark() (undo func()) {
	kept := s.kept.Load()
	totals := make([][2][]uint64, len(s.ws))
	for i, w := range s.ws {
		totals[i] = [2][]uint64{slices.Clone(w.total), slices.Clone(w.cut)}
	}
	return func() {
		s.kept.Store(kept)
		for i, w := range s.ws {
			w.total, w.cut = totals[i][0], totals[i][1]
		}
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

// readRun returns n states of piece p from its state off: from memory,
// from disk into entries, or, for a compact group, from the whole piece
// decoded into entries, unless inEntries says it is there already.
func (s *stepper) readRun(p piece, off, n int, entries []uint64, buf *[]byte, inEntries bool) ([]uint64, error) {
	stride := s.r.k + 1
	gr := s.cur.groups[p.g]
	switch {
	case gr.file == nil:
		return gr.entries[(p.lo+off)*stride : (p.lo+off+n)*stride], nil
	case gr.blocks == nil: // raw: read only the states asked for
		run := entries[:n*stride]
		return run, gr.file.readPiece(gr, p.lo+off, run, stride, buf)
	}
	if !inEntries {
		if err := gr.file.readPiece(gr, p.lo, entries[:(p.hi-p.lo)*stride], stride, buf); err != nil {
			return nil, err
		}
	}
	return entries[off*stride : (off+n)*stride], nil
}

// leanPass makes the part p of the next layer: it expands the states of
// cur in p's classes, keeping the new states of groups [p.lo, p.hi) in
// their tables, then packs the tables. freeCur lets it free cur as it
// goes, when the step is made in one pass.
func (s *stepper) leanPass(tables []table, p pass, freeCur bool) error {
	// Tables that hold a pass's states from the start spare it the moves
	// of growing; in one pass, with cur in memory, they start at half and
	// grow as cur is freed.
	expect := float64(s.newStates()>>s.gbits) * p.share
	size := int(expect * 16 / maxLoad * 23 / 20) // at 15% more states than the guess, they grow
	if freeCur {
		size = int(expect * 8 / maxLoad)
	}
	size = (size + pageWords) / pageWords * pageWords // whole pages: see space
	if s.final {
		size = 0 // the last square makes no states, only tours
	}
	base := len(s.out.groups)
	s.out.groups = append(s.out.groups, make([]group, p.hi-p.lo)...)
	err := s.fill(tables, p.lo, p.hi, base, size, func() error {
		// A range of groups after the first expands its classes again:
		// what it finds besides states was found already.
		return s.expand(freeCur, p.classes, p.lo == 0)
	})
	if err != nil {
		s.out.groups = s.out.groups[:base]
		return err
	}
	if s.out.parts != nil {
		s.out.parts.add(base, len(s.out.groups), p.classes)
	}
	return nil
}

// fill gives groups [lo, hi) of the next layer their tables, has feed add
// the new states to them through the workers' stagers, and packs them
// into the next layer's groups from base on.
func (s *stepper) fill(tables []table, lo, hi, base, size int, feed func() error) error {
	r, stride := s.r, s.r.k+1
	mine := tables[lo:hi]
	buckets, bshift := stageBuckets(hi - lo)
	// The staging buffers come from the kernel, counted here: on the Go
	// heap they were counted twice, here and as the runtime's (see
	// memory.runtime), 32 MiB of room a pass, and each pass left them as
	// garbage.
	words := stageWords(len(buckets), r.k)
	staging := int64(len(s.ws)) * int64(words) * 8
	if !r.mem.grab(staging) {
		r.mem.release(staging)
		return r.memoryError(s.v, s.cur.n)
	}
	defer r.mem.release(staging)
	bufs := make([][]uint64, len(s.ws))
	defer func() {
		for i, buf := range bufs {
			if w := s.ws[i]; w.lean != nil {
				w.lean.buf = nil // the stager is done with its pass
			}
			_ = freeWords(buf) // refused, the pages stay mapped: nothing to undo
		}
	}()
	for i := range bufs {
		var err error
		if bufs[i], err = allocWords(words); err != nil {
			return r.memoryError(s.v, s.cur.n)
		}
	}
	sp := newSpace(r.mem, size*len(mine))
	defer func() {
		for i := range mine {
			mine[i].free(sp)
		}
		sp.free()
	}()
	for i := range mine {
		slots, ok := sp.alloc(size)
		if !ok {
			return r.memoryError(s.v, s.cur.n)
		}
		mine[i].slots, mine[i].size = slots, size
	}
	for i, w := range s.ws {
		w.lean = newStager(mine, buckets, bshift, lo, r.f.mixer.bits-s.gbits, r.k, sp, bufs[i])
		w.buffered = nil
	}
	s.passes++
	if err := feed(); err != nil {
		if errors.Is(err, ErrMemoryLimit) {
			kept := 0
			for i := range mine {
				kept += mine[i].n
			}
			s.measureDrop(int64(kept))
		}
		return err
	}
	if s.final {
		return nil
	}
	return pool.Run(s.ctx, len(s.ws), hi-lo, func(wi, i int) error {
		t := &mine[i]
		return s.place(wi, base+i, t.n*stride, func(dense []uint64) { t.pack(dense, lo+i, r.f.mixer, sp) })
	})
}

// buffered makes the next layer by sorting and merging the new states,
// which the expansion writes unmerged into bins: in one pass, or, where
// s.share is set, in passes by classes of at most that share of the next
// layer each, so that the bins of one pass fit the memory limit; part,
// when not nil, is the passes done before the count was stopped, and the
// passes left.
func (s *stepper) buffered(part *stepPart) error {
	r, k := s.r, s.r.k
	bbits := min(s.gbits, uint(bits.TrailingZeros(maxBuckets))) // buckets of the bins
	if r.pool == nil {
		r.pool = newBinPool(k, r.mem)
	}
	bins := r.pool
	bins.leave(r.mergeRoom())
	multi := s.share > 0 || part != nil
	if !multi {
		r.mem.recycle.Store(true)
		defer func() {
			r.mem.recycle.Store(false)
			r.mem.dropSpare()
		}()
		// Bins as large as the slabs of cur, which go to them as cur is
		// expanded (see memory.recycle).
		bins.arena.sizeFor(s.cur.n * (k + 1))
	}
	// A group holds the states of a few demands, whatever it holds them
	// in: the next step's memo of choices hits (see grouping). A compact
	// group on disk is sorted by hashKey all the same, which then takes a
	// few more bits a state.
	by := grouping{byDemand: r.f.packed, zShift: uint(4 * r.f.slots)}
	for _, w := range s.ws {
		w.buffered = newEmitter(1<<bbits, 64-bbits, k, by, bins)
		w.lean = nil
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
	if multi {
		s.startPasses(part == nil)
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
		if sub > 0 {
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
			merged, err := m.merge(runs)
			if err != nil {
				return err
			}
			if err := s.place(wi, base+g-p.lo, len(merged), func(dense []uint64) { copy(dense, merged) }); err != nil {
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
	if s.out.parts != nil {
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
	room := float64(r.mem.limit - r.mem.held() - r.mergeRoom())
	if r.pool != nil {
		room += float64(r.pool.held())
	}
	return room
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

// maxBufferedPasses is the most passes a buffered step is planned in: past
// it the lean step, whose tables take a third of the bins' memory, makes
// the layer in fewer passes. Fewer on paper: a buffered pass that reaches
// the limit narrows, where a lean one is dropped and made again, and the
// lean plans of 8 rows fall further short. On 8x12 from the corner by
// narrow-down, with at most 6 buffered passes, square 62 (1.16 billion
// states before it) went lean, planned in 2 passes, dropped the first at
// a tenth of it and took 27 minutes in 5; square 63 took 13 minutes in 10
// lean passes. By the narrow sweep the same squares, with a few percent
// fewer states, were buffered in 6 and 3 passes and took 4 and 2 minutes,
// and square 59 took 11 minutes in 10 buffered passes.
const maxBufferedPasses = 12

// emit hands a new state to the step: to the worker's bins or tables, or,
// where it has neither, to the tally of a measure.
func (w *worker) emit(key uint64, val []uint64) {
	switch {
	case w.buffered != nil:
		w.buffered.emit(key, val)
	case w.lean != nil:
		w.lean.emit(w.r.f.mixer.mix(key), val)
	default:
		w.made++
	}
}

// mergeRoom is the memory a buffered step's bins leave below the limit
// for its merge buffers, which are counted even past it (merger.grow):
// twice the most they have taken so far in the count, as they grow with
// the layers and by doubling. Without it the bins filled the limit and
// the merge buffers went past it: 8x9 from the corner at -memory 17G held
// 19.7 GB of counted memory, 6x6 in passes at 4 MiB 4.8 MiB.
func (r *counter) mergeRoom() int64 { return 2 * r.mergeHigh }

// releasePool returns the bins of the buffered steps, which the pool
// keeps from step to step while the steps are buffered: fresh memory
// costs a fault on every page.
func (r *counter) releasePool() {
	if r.pool != nil {
		r.pool.release()
		r.pool = nil
	}
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
