package frontier

import (
	"context"
	"errors"
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

// A stepper is one step: the layer it expands, the layer it makes, and
// its workers.
type stepper struct {
	ctx      context.Context
	r        *counter
	v        int
	cur      *layer
	out      *layer
	total    []uint64 // the tours of the count before this step
	ws       []*worker
	pieces   []piece
	left     []atomic.Int32 // pieces of each group of cur not yet expanded
	gbits    uint           // log2 of the groups of out
	est      int
	final    bool
	states   atomic.Int64 // states placed in out
	followed atomic.Int64 // states of cur expanded (a shard's part of them)
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
	if err := s.makeWorkers(workers, shard, lean, part); err != nil {
		return nil, err
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
	if err := s.commit(shard); err != nil {
		return nil, err
	}
	return s.out, nil
}

// makeWorkers gives the step its workers and, with the layers on disk,
// each its file of the next layer (a part of a step resumed from a
// checkpoint has made some already).
func (s *stepper) makeWorkers(workers int, shard, lean bool, part *stepPart) error {
	r, v, stride := s.r, s.v, s.r.k+1
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
					return err
				}
				s.files = append(s.files, lf)
				s.out.files = append(s.out.files, lf)
			}
		}
		s.ws[i] = w
	}
	return nil
}

// commit, once nothing in the step can fail, adds the tours it found to
// the count's and records where the shards parted: a checkpoint written
// when a step fails holds the count before it.
func (s *stepper) commit(shard bool) error {
	r, v := s.r, s.v
	for _, w := range s.ws {
		if addLimbs(s.total, w.total) {
			return errOverflow
		}
		if w.cut != nil {
			if r.byLength[v/r.f.w] == nil {
				r.byLength[v/r.f.w] = make([]uint64, r.k)
			}
			if addLimbs(r.byLength[v/r.f.w], w.cut) {
				return errOverflow
			}
		}
	}
	if shard {
		r.shardAt, r.followed = v, int(s.followed.Load())
	}
	r.passes = max(r.passes, s.passes)
	r.part = nil
	s.out.n = int(s.states.Load())
	s.out.parts = s.out.parts.moved(r.f, v)
	return nil
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
				s.followed.Add(kept)
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

// resume returns the passes left of a step stopped between its passes,
// and takes up the classes and what the passes done found.
func (s *stepper) resume(part *stepPart) []pass {
	var passes []pass
	for _, p := range part.Left {
		passes = append(passes, pass{classes: p.Classes, lo: p.Lo, hi: p.Hi, share: p.Share})
	}
	s.classes.setPositions(part.Positions)
	s.passes = part.Passes
	s.followed.Store(part.Followed)
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

// savePart writes a checkpoint after a pass of the step, with the passes
// left, so that a stopped count goes on from there (see stepPart).
func (s *stepper) savePart(left []pass) error {
	r := s.r
	part := &stepPart{Square: s.v, GroupBits: int(s.gbits), Buffered: s.ws[0].buffered != nil, Positions: s.classes.pos, Passes: s.passes,
		Total: make([]uint64, r.k), Followed: s.followed.Load(), States: s.states.Load(), files: s.out.files,
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
	kept := s.followed.Load()
	totals := make([][2][]uint64, len(s.ws))
	for i, w := range s.ws {
		totals[i] = [2][]uint64{slices.Clone(w.total), slices.Clone(w.cut)}
	}
	return func() {
		s.followed.Store(kept)
		for i, w := range s.ws {
			w.total, w.cut = totals[i][0], totals[i][1]
		}
	}
}
