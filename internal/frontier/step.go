package frontier

import (
	"context"
	"errors"
	"math/bits"
	"sync/atomic"
	"syscall"

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
// When even the tables of the lean step would pass the memory limit and
// the layers are on disk, the lean step makes the next layer in passes:
// each pass expands the whole layer again, reading it back from disk, but
// keeps only the new states of a range of groups, and packs their tables
// to disk before the next pass. Expanding is cheap next to inserting (an
// insertion waits for memory; an expansion works in registers), so a
// count that needs twice the memory takes a little more than twice the
// expansions, not twice the time. A pass that finds it needs more memory
// than planned is dropped and made again as two passes of half its range.

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

// piece is a run of states of one group, a worker's unit of work.
type piece struct{ g, lo, hi int }

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
	ws     []*worker
	pieces []piece
	left   []atomic.Int32 // pieces of each group of cur not yet expanded
	gbits  uint           // log2 of the groups of out
	est    int
	final  bool
	states atomic.Int64 // states placed in out
	kept   atomic.Int64 // states of cur expanded (a shard's part of them)
	// scratch holds, per worker, a group on its way to disk.
	scratch [][]uint64
	// passes is how many passes the lean step took.
	passes int
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
	s := &stepper{ctx: ctx, r: r, v: v, cur: cur, est: r.estimate(v), final: v == r.f.n-1}
	// The buffered step holds the new states unmerged, about three for
	// each state of the next layer, in bins, and the next layer.
	lean := r.cfg.Lean || r.mem.used.Load()+int64(s.est)*int64(stride)*8*5 > r.mem.limit
	perGroup := groupStates
	if !lean {
		perGroup = bufferedStates / 3
	}
	for s.gbits < maxGroupBits && s.est>>s.gbits > perGroup || lean && 64-r.f.mixer.bits+s.gbits < minCountBits {
		s.gbits++
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
	for g, gr := range cur.groups {
		n := gr.words / stride
		for lo := 0; lo < n; lo += chunkStates {
			s.pieces = append(s.pieces, piece{g, lo, min(lo+chunkStates, n)})
		}
	}
	s.left = make([]atomic.Int32, len(cur.groups))
	// A shard follows only its part of the states, from the first step
	// with enough of them to split evenly (the same step in every shard,
	// as the steps before are the same). r.shardAt is set only once the
	// step is done (commit, below).
	shard := r.cfg.Shards > 1 && r.shardAt < 0 && (cur.n >= shardStates*r.cfg.Shards || s.final)
	s.out = &layer{groups: make([]group, groups)}
	defer func() {
		if err != nil {
			s.out.free(r.arena)
		}
	}()
	s.ws = make([]*worker, workers)
	s.scratch = make([][]uint64, workers)
	for i := range s.ws {
		w := &worker{r: r, st: &r.f.steps[v], v: v, final: s.final, shard: shard, memo: make([]memoEntry, 1<<memoBits)}
		if r.spill {
			w.in = make([]uint64, chunkStates*stride)
			if !s.final {
				lf, err := createLayerFile(r.layerPrefix(), v, i, stride, s.est >= compactStates || r.cfg.compact, r.disk)
				if err != nil {
					return nil, err
				}
				s.out.files = append(s.out.files, lf)
			}
		}
		if !r.cfg.AllLengths {
			w.notEnd = r.notEnd(&r.f.steps[v])
		}
		s.ws[i] = w
	}
	if lean {
		err = s.lean()
	} else {
		err = s.buffered()
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
	s.out.n = int(s.states.Load())
	return s.out, nil
}

// expand runs the expansion phase: every worker expands pieces of cur
// until none is left, then hands on what it still holds. freeCur lets it
// free each group of cur held in memory once it is expanded.
func (s *stepper) expand(freeCur bool) error {
	r, stride := s.r, s.r.k+1
	for _, w := range s.ws {
		w.total, w.err = make([]uint64, r.k), nil
		if r.cfg.AllLengths && (s.v+1)%r.f.w == 0 && !s.final {
			w.cut = make([]uint64, r.k)
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
	s.kept.Store(0)
	err := pool.Run(s.ctx, len(s.ws), len(s.pieces), func(wi, i int) error {
		defer r.expanded.Add(1)
		w := s.ws[wi]
		p := s.pieces[i]
		gr := s.cur.groups[p.g]
		entries := gr.entries
		lo, hi := p.lo*stride, p.hi*stride
		if gr.file != nil {
			entries, lo, hi = w.in[:hi-lo], 0, hi-lo
			if err := gr.file.readPiece(gr, p.lo, entries, &w.block); err != nil {
				return err
			}
		}
		kept := int64(0)
		defer func() { s.kept.Add(kept) }()
		for j := lo; j < hi; j += stride {
			if w.shard && hashKey(entries[j])%uint64(r.cfg.Shards) != uint64(r.cfg.Shard) {
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
		if dense, err = s.out.files[wi].write(s.scratch[wi][:n]); err != nil {
			return err
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
// the memory limit asks for.
func (s *stepper) lean() error {
	r, k := s.r, s.r.k
	stride := k + 1
	groups := 1 << s.gbits
	tables := make([]table, groups)
	for i := range tables {
		tables[i].countBits, tables[i].k = 64-r.f.mixer.bits+s.gbits, k
	}
	size := max(pageWords, s.est>>s.gbits*8/maxLoad)
	if s.final {
		size = 0 // the last square makes no states, only tours
	}
	// A pass is planned for tables at their fullest, just grown, with one
	// state in sixteen holding a wide count, beside the workers' staging
	// buffers at their largest.
	perGroup := int64(s.est>>s.gbits+1) * (8 + int64(stride)*8/16) * 16 / maxLoad * 3 / 2
	staging := int64(len(s.ws)) * int64(min(groups, maxStageBuckets)) * stageEntries * int64(stride) * 8
	span := groups
	// Passes need cur whole to the end of the step: on disk.
	multi := r.spill && !s.final && s.cur.onDisk()
	if room := r.mem.limit - r.mem.used.Load() - staging; multi && room < int64(groups)*perGroup {
		span = int(max(1, room/perGroup))
	}
	r.arena.sizeFor(s.est * stride)
	defer r.pass.Store(0)
	runs := multi && span < groups && s.runsFit(span, groups)
	var later []*runSet // what the first pass wrote for the others
	defer func() { removeRunSets(later) }()
	for lo := 0; lo < groups; {
		hi := min(groups, lo+span)
		var set *runSet // the runs this pass reads, if not the first
		if lo > 0 {
			for _, rs := range later {
				if rs.lo <= lo && lo < rs.hi {
					set, hi = rs, min(hi, rs.hi)
				}
			}
		}
		r.pass.Store(int64(s.passes + 1))
		r.passesPlanned.Store(int64(s.passes + (groups-lo+span-1)/span))
		var err error
		if set == nil {
			later, err = s.leanPass(tables, lo, hi, size, !multi, runs, span)
		} else {
			err = s.replayPass(tables, lo, hi, size, set)
		}
		if runs && set == nil && (errors.Is(err, ErrDiskFull) || errors.Is(err, syscall.ENOSPC)) {
			// The disk cannot hold the runs after all: from here on every
			// pass expands the layer itself.
			removeRunSets(later)
			later, runs = nil, false
			continue
		}
		if multi && hi-lo > 1 && errors.Is(err, ErrMemoryLimit) {
			// The pass is dropped; make it again as two. Runs written for a
			// plan that no longer holds go too.
			span = (hi - lo) / 2
			if set == nil {
				removeRunSets(later)
				later = nil
			}
			continue
		}
		if err != nil {
			return err
		}
		if set != nil && hi == set.hi {
			set.remove()
		}
		lo = hi
	}
	return nil
}

// runsFit reports whether the disk can hold the runs of a step made in
// passes of span groups beside the next layer. The runs hold the first
// pass's new states for the later passes unmerged and raw, two or three
// times as many as the merged states of their groups (8x8 from the corner,
// square 44: 58 GB of runs for 1.5 billion states before it); the
// estimate takes three times, and the next layer once and a half as if
// raw too (compact, it takes about a third of that: the margin is wide).
func (s *stepper) runsFit(span, groups int) bool {
	free, ok := s.r.disk.free(s.r.layerPrefix())
	if !ok {
		return true // write them; a full disk drops them (see lean)
	}
	layer := int64(s.est) * int64(s.r.k+1) * 8
	return free > 3*layer/int64(groups)*int64(groups-span)+layer*3/2+diskReserve
}

// leanPass makes groups [lo, hi) of the next layer: it expands all of cur,
// keeping the new states of those groups in their tables, then packs the
// tables. In a step made in passes (freeCur false) with runs, it writes the
// new states of the groups after hi to runs, span groups a set, which it
// returns; without runs, each pass expands cur again.
func (s *stepper) leanPass(tables []table, lo, hi, size int, freeCur, runs bool, span int) ([]*runSet, error) {
	r, stride := s.r, s.r.k+1
	groups := len(tables)
	var sets []*runSet
	if !freeCur && runs && hi < groups {
		var err error
		if sets, err = newRunSets(r.layerPrefix(), s.v, hi, groups, span, len(s.ws)); err != nil {
			return nil, err
		}
	}
	err := s.fill(tables, lo, hi, size, func() error {
		for wi, w := range s.ws {
			if sets != nil {
				w.lean.rest = &runWriter{sets: sets, span: span, wi: wi, entry: make([]uint64, stride), guard: r.disk}
			}
		}
		if err := s.expand(freeCur); err != nil {
			return err
		}
		for _, w := range s.ws {
			if w.lean.rest != nil {
				if err := w.lean.rest.flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		removeRunSets(sets)
		return nil, err
	}
	return sets, nil
}

// replayPass makes groups [lo, hi) of the next layer from the runs of set,
// which the first pass wrote.
func (s *stepper) replayPass(tables []table, lo, hi, size int, set *runSet) error {
	r, stride := s.r, s.r.k+1
	return s.fill(tables, lo, hi, size, func() error {
		pieces := set.pieces(stride)
		r.expanded.Store(0)
		r.pieces.Store(int64(len(pieces)))
		err := pool.Run(s.ctx, len(s.ws), len(pieces), func(wi, i int) error {
			defer r.expanded.Add(1)
			w := s.ws[wi]
			p := pieces[i]
			entries := w.in[:p.n/8]
			if err := p.read(entries); err != nil {
				return err
			}
			for j := 0; j < len(entries); j += stride {
				w.lean.emit(entries[j], r.f.mixer.mix(entries[j]), entries[j+1:j+stride])
			}
			return w.failure(s.v, s.cur.n)
		})
		if err != nil {
			return err
		}
		return pool.Run(s.ctx, len(s.ws), len(s.ws), func(_, i int) error {
			s.ws[i].lean.flushAll()
			return s.ws[i].failure(s.v, s.cur.n)
		})
	})
}

// fill gives groups [lo, hi) of the next layer their tables, has feed add
// the new states to them through the workers' stagers, and packs them.
func (s *stepper) fill(tables []table, lo, hi, size int, feed func() error) error {
	r, stride := s.r, s.r.k+1
	mine := tables[lo:hi]
	buckets, bshift := stageBuckets(hi - lo)
	staging := int64(len(s.ws)) * int64(len(buckets)) * stageEntries * int64(stride) * 8
	defer func() {
		for i := range mine {
			mine[i].free(r.mem)
		}
	}()
	if !r.mem.grab(staging) {
		r.mem.release(staging)
		return r.memoryError(s.v, s.cur.n)
	}
	defer r.mem.release(staging)
	for i := range mine {
		if i%1024 == 0 && s.ctx.Err() != nil { // a system call a table, for up to 2^18 tables
			return s.ctx.Err()
		}
		slots, ok := r.mem.alloc(size)
		if !ok {
			return r.memoryError(s.v, s.cur.n)
		}
		mine[i].slots, mine[i].size = slots, size
	}
	for _, w := range s.ws {
		w.lean = newStager(mine, buckets, bshift, lo, r.f.mixer.bits-s.gbits, r.k, r.mem)
		w.buffered = nil
	}
	s.passes++
	if err := feed(); err != nil {
		return err
	}
	if s.final {
		return nil
	}
	return pool.Run(s.ctx, len(s.ws), hi-lo, func(wi, i int) error {
		t := &mine[i]
		return s.place(wi, lo+i, t.n*stride, func(dense []uint64) { t.pack(dense, lo+i, r.f.mixer, r.mem) })
	})
}

// buffered makes the next layer by sorting and merging the new states,
// which the expansion writes unmerged into bins.
func (s *stepper) buffered() error {
	r, k := s.r, s.r.k
	bbits := min(s.gbits, uint(bits.TrailingZeros(maxBuckets))) // buckets of the bins
	if r.pool == nil {
		r.pool = newBinPool(k, r.mem)
	}
	bins := r.pool
	for _, w := range s.ws {
		w.buffered = newEmitter(1<<bbits, 64-bbits, k, bins)
		w.lean = nil
	}
	if err := s.expand(true); err != nil {
		return err
	}
	if s.final {
		return nil
	}
	r.arena.sizeFor(s.est * (k + 1))
	ms := make([]*merger, len(s.ws))
	parts := make([][][]uint64, len(s.ws))
	sub := s.gbits - bbits
	return pool.Run(s.ctx, len(s.ws), 1<<bbits, func(wi, i int) error {
		if ms[wi] == nil {
			ms[wi] = &merger{k: k}
		}
		m := ms[wi]
		p := parts[wi][:0]
		for _, w := range s.ws {
			p = w.buffered.take(i, p)
		}
		parts[wi] = p
		runs := p // a bucket of one group needs no sorting
		if sub > 0 {
			m.sortBucket(p, 64-s.gbits, sub)
			bins.put(p)
		}
		for j := range 1 << sub {
			if sub > 0 {
				runs = [][]uint64{m.sorted[m.at[j]:m.at[j+1]]}
			}
			merged, overflow := m.merge(runs)
			if overflow {
				return errOverflow
			}
			if err := s.place(wi, i<<sub+j, len(merged), func(dense []uint64) { copy(dense, merged) }); err != nil {
				return err
			}
		}
		if sub == 0 {
			bins.put(p)
		}
		return nil
	})
}

// emit hands a new state to the step.
func (w *worker) emit(key uint64, val []uint64) {
	if w.buffered != nil {
		w.buffered.emit(key, hashKey(key), val)
		return
	}
	w.lean.emit(key, w.r.f.mixer.mix(key), val)
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
