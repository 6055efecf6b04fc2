package frontier

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/frontier/compact"
	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/frontier/mix"
	"github.com/euler1758/knightstour/internal/pool"
)

// compactStates is the size of the smallest layer kept compact on disk.
const compactStates = 1 << 26

// compactLayer reports whether the layer after a step expected to hold
// est states goes to disk compact: where it is large (compactStates) and
// three layers of raw entries (the one expanded, the one made, and one a
// checkpoint keeps) would take more than half the disk's free space, or
// where the free space is unknown.
func (r *counter) compactLayer(est int) bool {
	if r.cfg.compact {
		return true
	}
	if est < compactStates {
		return false
	}
	free, ok := r.disk.free(r.disk.prefix)
	return !ok || int64(est)*int64(r.k+1)*8*3 > free/2
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
	// sorting holds each worker's buffers for packByClass, kept from
	// pass to pass.
	sorting []classSort
	// passes is how many passes the lean step took, and classes tells
	// the classes of cur's states that its passes share out.
	passes  int
	classes *classifier
	// aligned says that the passes are by the classes of cur's parts, so
	// that each reads only the groups of cur that hold its classes; where
	// they are not, proj, when not nil, tells which of their classes
	// each group of cur may hold.
	aligned bool
	proj    projection
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
	// space is the memory of the last lean pass's tables, kept for the
	// next pass of the step (keepsSpace), and counted as used till then.
	space *memory.Space
	// layout is how a lean step's tables keep counts, and wide the share
	// of its new states whose counts should outgrow a slot of small counts
	// (wideShare).
	layout countLayout
	wide   float64
	// grouping is how a buffered step groups out's states: by demand
	// where it can (groupingRule).
	grouping groupingRule
	// freed is the states of cur whose groups the passes done gave back
	// (giveback.go), as a checkpoint records them.
	freed int64
	// next, for a step whose groups are by the classes of the next
	// step's passes (groupsByNextClass), tells those classes.
	next *classifier
}

// makeWorkers gives the step its workers and, with the layers on disk,
// each its file of the next layer (a part of a step resumed from a
// checkpoint has made some already).
func (s *stepper) makeWorkers(workers int, shard, lean bool, part *stepPart) error {
	r, v, stride := s.r, s.v, s.r.k+1
	compactNext := r.spill && !s.final && r.compactLayer(s.newStates())
	s.grouping = groupsAsKeys // a lean step's groups are by mix, whatever the rule
	if !lean {
		s.grouping = r.f.grouping(compactNext)
		if r.cfg.hashGroups && s.grouping == groupsByMix {
			s.grouping = groupsAsKeys
		}
	}
	if part != nil {
		s.grouping = groupingRule(part.Grouping) // as the passes done were grouped
	}
	s.next = nil
	switch {
	case part != nil && s.grouping == groupsByNextClass:
		s.next = &classifier{f: r.f}
		s.next.setPartition(part.parts.partition) // openPart checked it
	case part == nil && s.grouping == groupsByMix && !r.cfg.ownClasses:
		if pt, ok := r.f.nextPartition(v, s.sampled); ok && s.gbits >= pt.classBits() {
			s.grouping = groupsByNextClass
			s.next = &classifier{f: r.f}
			s.next.setPartition(pt)
		}
	case part == nil && lean && compactNext && !r.f.packed && !r.cfg.ownClasses:
		// A lean step's tables stay by mix; it packs them into groups of
		// one class each (packByClass).
		if pt, ok := r.f.nextPartition(v, s.sampled); ok {
			s.grouping = groupsByNextClass
			s.next = &classifier{f: r.f}
			s.next.setPartition(pt)
		}
	}
	s.ws = make([]*worker, workers)
	s.scratch = make([][]uint64, workers)
	// A lean step's groups, and keys in digits grouped by hash, hold about
	// as many demands as states (memoBits reads mix only for keys in
	// digits: packed keys are grouped by demand under either rule).
	mix := fewDemands
	if lean || s.grouping != groupsByDemand {
		mix = manyDemands
	}
	for i := range s.ws {
		w := r.newWorker(v, shard, mix, s.cur.n)
		if r.spill {
			w.in = make([]uint64, min(chunkStates, s.cur.n)*stride) // a piece is at most the layer
			if !s.final {
				after := 0
				if part != nil {
					after = part.Passes
				}
				var order compact.Order // a buffered step's groups are by hash
				if lean || s.grouping == groupsByMix || s.grouping == groupsByNextClass {
					order = compact.MixOrder(&r.f.mixer) // a lean step's, by mix
				}
				lf, err := createLayerFile(r.layerPrefix(), v, i, after, stride, compactNext, order, r.disk)
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
	r.finishedLengths(v+1, r.byLength)
	if shard {
		r.shardAt, r.followed = v, int(s.followed.Load())
	}
	r.passes = max(r.passes, s.passes)
	r.part, r.unsaved = nil, false
	s.out.n = int(s.states.Load())
	if s.next == nil { // parts by the classes of this step's passes, as the next sees them
		s.out.parts = s.out.parts.moved(r.f, v)
	}
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
		w.mirror, w.classAt, w.classLater = r.mirrors(s.v), 0, nil
		// Where the next layer's groups follow the classes of its own
		// keys (s.next), a pass may keep a state as its reflection of
		// any class: packByClass and the buffered step's grouping put it
		// in a group of its class, and a state that two passes both make
		// is in two groups of one class, which the next step's pass of
		// that class reads and adds up.
		if w.mirror && classes != allClasses && s.next == nil {
			w.classAt, w.classLater, w.mirror = s.classes.after(&r.f.shifts[s.v])
		}
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
		unfold := r.unfolds(s.v)
		if classes != allClasses && !unfold { // unfolding, a state's reflection may be of any class
			held := s.classes.holds(gr.kinds)
			switch {
			case s.aligned:
				held &= s.cur.parts.classesOf(p.g)
			case s.proj != nil:
				held &= s.proj.of(s.cur.parts.classesOf(p.g))
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
		if gr.words == 0 {
			return errGivenBack
		}
		entries := gr.entries
		lo, hi := p.lo*stride, p.hi*stride
		if gr.file != nil {
			entries, lo, hi = w.in[:hi-lo], 0, hi-lo
			if err := gr.file.readPiece(gr, p.lo, entries, stride, &w.block); err != nil {
				return err
			}
			if r.cfg.onRead != nil {
				r.cfg.onRead(p.hi - p.lo)
			}
		}
		kept := int64(0)
		defer func() {
			s.taken.Add(kept)
			if r.cfg.onExpand != nil {
				r.cfg.onExpand(int(kept))
			}
			if tally {
				s.followed.Add(kept)
			}
		}()
		if unfold {
			kept = s.unfold(w, entries[lo:hi], take)
		} else {
			kept = s.expandPiece(w, entries[lo:hi], take)
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

// expandPiece expands the states of entries of the classes take and
// returns how many they are.
func (s *stepper) expandPiece(w *worker, entries []uint64, take uint64) (kept int64) {
	r, stride := s.r, s.r.k+1
	var batch [expandBatch]int
	at := batch[:0] // the offsets of the states in digits to expand
	for j := 0; j < len(entries); j += stride {
		if w.shard && mix.Hash(entries[j])%uint64(r.cfg.Shards) != uint64(r.cfg.Shard) {
			continue
		}
		if !s.classes.take(take, entries[j]) {
			continue
		}
		kept++
		if r.f.packed {
			w.expandPacked(entries[j], entries[j+1:j+stride])
		} else if at = append(at, j); len(at) == expandBatch {
			w.expandAll(entries, at, stride)
			at = at[:0]
		}
	}
	w.expandAll(entries, at, stride)
	return kept
}

// unfold expands the states of entries of the classes take, and the
// reflections of all of them of those classes, as the step adding the
// square counter.unfold does (counter.unfolds), and returns how many of the states are of
// those classes: each state is counted by one pass.
func (s *stepper) unfold(w *worker, entries []uint64, take uint64) (kept int64) {
	r, stride := s.r, s.r.k+1
	for j := 0; j < len(entries); j += stride {
		key, val := entries[j], entries[j+1:j+stride]
		if w.shard && mix.Hash(key)%uint64(r.cfg.Shards) != uint64(r.cfg.Shard) {
			continue
		}
		if m := r.f.reflectKey(key, s.v-1); s.classes.take(take, m) {
			w.expandKey(m, val)
		}
		if s.classes.take(take, key) {
			kept++
			w.expandKey(key, val)
		}
	}
	return kept
}

// place puts group at of the next layer where it lives: in the arena, or
// at the end of worker wi's layer file. fill writes its n words.
func (s *stepper) place(wi, at, n int, fill func([]uint64)) error {
	r := s.r
	if r.spill {
		if cap(s.scratch[wi]) < n {
			s.scratch[wi] = make([]uint64, n)
		}
		fill(s.scratch[wi][:n])
		err := s.write(wi, at, s.scratch[wi][:n])
		if n > keepStates*(r.k+1) {
			s.scratch[wi] = nil // a giant group's: not kept (see keepStates)
		}
		return err
	}
	dense, ok := r.arena.alloc(n)
	if !ok {
		return r.memoryError(s.v, s.cur.n)
	}
	fill(dense.entries)
	s.out.groups[at] = dense
	s.states.Add(int64(n / (r.k + 1)))
	return nil
}

// write puts group at of the next layer, its entries, at the end of
// worker wi's layer file.
func (s *stepper) write(wi, at int, entries []uint64) error {
	dense, err := s.writeGroup(wi, entries)
	if err != nil {
		return err
	}
	s.out.groups[at] = dense
	return nil
}

// writeGroup puts a group of the next layer, its entries, at the end of
// worker wi's layer file, and returns it.
func (s *stepper) writeGroup(wi int, entries []uint64) (group, error) {
	dense, err := s.files[wi].write(entries)
	if err != nil {
		return group{}, err
	}
	if !s.r.cfg.noKinds {
		dense.kinds = s.r.f.kindsOf(entries, s.r.k+1) // for the next step's passes
	}
	s.states.Add(int64(len(entries) / (s.r.k + 1)))
	return dense, nil
}

// placeMerged merges runs, the new states of one group unmerged, and
// places the group at at, as place does, but with no copy: in memory it
// merges into the group itself, carved as large as the runs (arena.carve)
// and then trimmed, and on disk it writes the merge's output.
func (s *stepper) placeMerged(wi, at int, m *merger, runs [][]uint64) error {
	r := s.r
	n := wordsIn(runs)
	if r.spill || n > r.arena.carvable() {
		merged, err := m.merge(runs)
		switch {
		case err != nil:
			return err
		case r.spill:
			return s.write(wi, at, merged)
		}
		return s.place(wi, at, len(merged), func(dense []uint64) { copy(dense, merged) })
	}
	dense, ok := r.arena.carve(wi, n)
	if !ok {
		return r.memoryError(s.v, s.cur.n)
	}
	merged, err := m.mergeInto(runs, dense.entries[:0])
	if err != nil {
		r.arena.trim(wi, &dense, 0)
		return err
	}
	r.arena.trim(wi, &dense, len(merged))
	s.out.groups[at] = dense
	s.states.Add(int64(len(merged) / (r.k + 1)))
	return nil
}

// resume returns the passes left of a step stopped between its passes,
// and takes up the classes and what the passes done found.
func (s *stepper) resume(part *stepPart) []pass {
	var passes []pass
	for _, p := range part.Left {
		passes = append(passes, pass{classes: p.Classes, lo: p.Lo, hi: p.Hi, share: p.Share})
	}
	s.classes.setPartition(part.partition())
	s.passes = part.Passes
	s.followed.Store(part.Followed)
	s.freed = part.Freed
	return passes
}

// savePart writes a checkpoint after a pass of the step, with the passes
// left, so that a stopped count goes on from there (see stepPart).
func (s *stepper) savePart(left []pass) error {
	r := s.r
	part := &stepPart{Square: s.v, GroupBits: int(s.gbits), Buffered: s.ws[0].buffered != nil, Positions: s.classes.pos, Splits: recordSplits(s.classes.splits), Passes: s.passes,
		Total: make([]uint64, r.k), Followed: s.followed.Load(), States: s.states.Load(), files: s.out.files,
		Parts: s.out.parts.record(s.out.groups), Reflections: r.reflections(s.v), Grouping: int(s.grouping), Freed: s.freed}
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
	r.part, r.unsaved = part, false
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

// readRun returns n states of piece p from its state off: from memory,
// from disk into entries, or, for a compact group, from the whole piece
// decoded into entries, unless inEntries says it is there already.
func (s *stepper) readRun(p piece, off, n int, entries []uint64, buf *[]byte, inEntries bool) ([]uint64, error) {
	stride := s.r.k + 1
	gr := s.cur.groups[p.g]
	switch {
	case gr.words == 0:
		return nil, errGivenBack
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

// newStates returns the guess of how many states the next layer holds,
// for the plan of the lean step's passes: at most the new states the
// sample's measure (where it was taken) says the step makes unmerged.
func (s *stepper) newStates() int {
	if s.made > 0 {
		return min(s.est, int(s.made*float64(s.cur.n)))
	}
	return s.est
}

// A dropMeasure is what a pass had done when it passed the memory limit:
// the new states it had kept (in a lean pass, distinct ones, which grow
// more slowly than the states expanded, so that the measure errs large),
// and the states of cur it had expanded to make them.
type dropMeasure struct {
	kept, taken int64
}
