package frontier

import (
	"context"
	"slices"
	"sync/atomic"
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
	r.mem.SampleRuntime()
	r.mem.Collect()
	// A step resumed from a checkpoint written between its passes. The
	// count keeps r.part until the step is done: a checkpoint written
	// when the step fails must still have it.
	part := r.part
	if part != nil && part.Square != v {
		part = nil
	}
	if s.widensFirst(part) {
		if r.cfg.onWiden != nil {
			r.cfg.onWiden(v, 2*k)
		}
		return nil, errOverflow // from the checkpoint just written, with wider counts
	}
	s.pieces = cur.pieces(stride)
	// A shard follows only its part of the states, from the first step
	// with enough of them to split evenly (the same step in every shard,
	// as the steps before are the same), where they may part (parts).
	// r.shardAt is set only once the step is done (commit, below).
	shard := r.cfg.Shards > 1 && r.shardAt < 0 && (cur.n >= shardStates*r.cfg.Shards && r.parts(v) || s.final)
	// The buffered step holds the new states unmerged, about three for
	// each state of the next layer, in bins, and the next layer. Where
	// that passes the limit but the layers are on disk, it may still be
	// made in passes, each holding the bins of a share of the next layer
	// (bufferedShare); otherwise the step is lean.
	need := int64(s.est) * int64(stride) * 8 * 5
	if r.cfg.Lean || r.mem.Held()+need > r.mem.Limit() {
		r.mem.DropSpare() // the slabs the last step left are memory this one may need
	}
	lean := r.cfg.Lean || r.mem.Held()+need > r.mem.Limit()
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
	if r.cfg.groupStates > 0 {
		perGroup = r.cfg.groupStates
	}
	for s.gbits < maxGroupBits && s.newStates()>>s.gbits > perGroup || lean && 64-r.f.mixer.Bits()+s.gbits < minCountBits {
		s.gbits++
	}
	// Groups up to wholeBuckets times as large, where that makes each a
	// bucket of the bins, spare the sort of the buckets into groups.
	if !lean && r.cfg.groupStates == 0 && s.gbits > maxBucketBits && s.newStates()>>maxBucketBits <= perGroup*wholeBuckets {
		s.gbits = maxBucketBits
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

// shardStates is how many states each shard should have at the step
// where the shards part: enough that they share the work about evenly.
const shardStates = 1 << 10
