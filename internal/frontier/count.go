package frontier

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"runtime/debug"
	"slices"
	"time"

	"github.com/euler1758/knightstour/internal/filelock"
	"github.com/euler1758/knightstour/internal/frontier/memory"
	"github.com/euler1758/knightstour/internal/progress"
)

// Result is what a count found.
type Result struct {
	// Tours counts directed tours as the enumerating calls do: from the
	// start, every path once; with free ends, every path once from each
	// end; closed, every cycle once from one square in each direction.
	Tours *big.Int
	// Undirected counts paths or cycles without a direction.
	Undirected *big.Int
	// ByLength, with AllLengths, holds Tours for each board cut to 1, 2,
	// ... columns along the longer side.
	ByLength []*big.Int
	// States holds the number of states after each square was added;
	// PeakStates is their maximum.
	States     []int
	PeakStates int
	// PeakBytes is the most memory the state tables and demand tables
	// held at once.
	PeakBytes int64
	// Limbs is the number of 64-bit words a count needed.
	Limbs int
	// Resumed is how many squares the count found done in its
	// checkpoint; 0 if it started afresh.
	Resumed int
	// Passes is the most times a step read its layer to make the next:
	// more than 1 where the tables of the next layer would not fit in the
	// memory limit at once (Config.SpillDir).
	Passes int
	// Narrowed is how many passes reached the memory limit and gave the
	// groups they had not made yet to a pass after them (narrowing),
	// since the count started or resumed: each costs one more read of a
	// layer. Many of them say the passes are planned too large.
	Narrowed int
	// Width is the squares of each column the count added: the board's
	// shorter side, or its longer with Config.Across.
	Width int
	// Halved says that the count followed the tours from the start whose
	// first move is one of half of the start's moves, and doubled them:
	// a start on a diagonal of a square board (diagonal.go).
	Halved bool
	// DemandTime is how long the count took, before its first square, to
	// find the demands a tour can still meet, or to read them back from
	// beside its checkpoint; 0 with Config.AllDemands.
	DemandTime time.Duration
	// ShardAt is, for a shard, the number of squares added before the
	// shards parted; -1 for a whole count. Followed is how many of the
	// States[ShardAt-1] states there the shard followed: the Followed of all
	// the shards add up to those states.
	ShardAt, Followed int
}

// Count counts the tours that cfg describes.
func Count(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	f, err := newBoard(cfg.Rows, cfg.Cols, cfg.Sweep, cfg.Across)
	if err != nil {
		return nil, err
	}
	if cfg.Base11 || !f.zInKey && cfg.Mode == FreeEnds && f.n%2 == 0 {
		// A key whose nibbles fill it cannot tell which colour the second
		// end of a path with free ends must have (z-state 1 or 3).
		f.pack(false)
	}
	release, err := lockFiles(cfg)
	if err != nil {
		return nil, err
	}
	defer release()
	begin := time.Now()
	r := newCounter(f, cfg)
	// A cancelled count returns without waiting for the kernel to take its
	// memory back (memory.Budget.UnmapLater).
	defer context.AfterFunc(ctx, func() { r.mem.UnmapLater() })()
	res := &Result{Width: f.w}
	var undirected *big.Int
	switch {
	case f.n == 1: // one square: a path of no jumps, which no search needs
		undirected = big.NewInt(1)
		if cfg.Mode == Closed {
			undirected.SetInt64(0)
		}
	case cfg.Mode == Closed && f.n%2 == 1 && !cfg.AllLengths: // a cycle alternates colours
		undirected = new(big.Int)
	default:
		if undirected, err = r.count(ctx, begin, res); err != nil {
			return nil, err
		}
	}
	r.finish(res, undirected)
	return res, nil
}

// lockFiles takes the locks of the count's checkpoint and spill
// directory, for one process at a time: a second one would truncate and
// remove the first's layer files, and a count made of both is wrong
// without a word. release lets them go.
func lockFiles(cfg Config) (release func(), err error) {
	var locks []*filelock.Lock
	release = func() {
		for _, l := range locks {
			l.Release()
		}
	}
	for _, guard := range []struct{ name, lock string }{
		{cfg.Checkpoint, cfg.Checkpoint + ".lock"},
		{cfg.SpillDir, filepath.Join(cfg.SpillDir, "knightstour.lock")},
	} {
		if guard.name == "" {
			continue
		}
		l, err := filelock.Acquire(guard.name, guard.lock)
		if err != nil {
			release()
			return nil, err
		}
		locks = append(locks, l)
	}
	return release, nil
}

// newCounter sets up a count of cfg on the board f.
func newCounter(f *board, cfg Config) *counter {
	r := &counter{f: f, mode: cfg.Mode, start: -1, cfg: cfg, mem: memory.NewBudget(cfg.MemoryLimit),
		spill: cfg.SpillDir != "" || cfg.Checkpoint != ""}
	if r.spill {
		r.disk = newDiskGuard(r.layerPrefix(), cfg.freeBytes)
	}
	r.mirror = cfg.Mode != FromStart && !cfg.noMirror
	if cfg.Mode == FromStart {
		r.start = f.latest(cfg.StartRow, cfg.StartCol)
		if cfg.AllLengths || cfg.EarlyStart { // the shorter boards hold the start where it is
			r.start = f.index(cfg.StartRow, cfg.StartCol)
		} else if !cfg.noMirror {
			r.pairStart()
		}
		r.startColour = f.colour(r.start)
		r.halve()
	}
	return r
}

// count makes the count, square by square, with the demand filters and
// the progress reports, and records in res what it took.
func (r *counter) count(ctx context.Context, begin time.Time, res *Result) (undirected *big.Int, err error) {
	cfg := r.cfg
	// A checkpoint is read and checked at once, before the demand passes
	// (a minute or two on 8 rows): one that cannot be resumed is refused
	// without delay, and one that can is said to be.
	if cfg.Checkpoint != "" {
		m, err := r.readManifest()
		if err != nil {
			return nil, err
		}
		if m != nil {
			r.resuming(m)
		}
	}
	stop := func() {}
	if cfg.Progress != nil {
		cfg.Progress(r.snapshot(begin))
		stop = progress.Every(cfg.Every, func() { cfg.Progress(r.snapshot(begin)) })
	}
	defer stop()
	if !cfg.AllDemands {
		found := time.Now()
		if r.vb, err = r.demands(ctx); err != nil {
			return nil, err
		}
		res.DemandTime = time.Since(found)
		defer r.vb.free()
		// The demand passes leave their sets and buffers as garbage, more
		// than the filters they keep (8x9: 4 GB), which the process would
		// hold beside the states the limit counts. A forced collection
		// costs milliseconds and stops every goroutine of the process, so
		// a small count, whose garbage the collector takes in its stride,
		// goes without.
		if r.vb.bytes() >= bigGarbage {
			debug.FreeOSMemory()
		}
		// The filters stay for the whole count, mapped from the kernel or,
		// when small, on the heap that watch takes as the program's: both
		// count against the limit, past it if need be, as the count cannot
		// go without them (8x9: about 1 GB). Uncounted, they took 8x10 by
		// narrow-down at -memory 17G to 18.7 GB resident.
		r.mem.Hold(r.vb.bytes())
		defer r.mem.Release(r.vb.bytes())
	}
	r.mem.Watch()
	// A count resumed starts with as many limbs as its checkpoint's
	// counts have: with fewer, it read and checked the checkpoint's files
	// (on 8 rows, 10 to 20 GB) only to find its counts too narrow, and
	// then read them all again.
	r.k = 1
	if r.early != nil {
		r.k = r.early.Limbs
	}
	for ; ; r.k *= 2 {
		undirected, err = r.run(ctx)
		if !errors.Is(err, errOverflow) {
			break
		} // else again with twice the limbs
	}
	if err != nil {
		return nil, err
	}
	res.States = r.states
	res.PeakStates = r.peak
	res.Resumed = r.resumed
	res.ShardAt, res.Followed = r.shardAt, r.followed
	res.Passes = max(r.passes, 1)
	res.Narrowed = r.narrowed
	res.PeakBytes = r.mem.Peak()
	return undirected, nil
}

// finish writes into res the count, undirected, as the caller counts
// tours, and the counts of every length.
func (r *counter) finish(res *Result, undirected *big.Int) {
	f, mode := r.f, r.mode
	if r.cfg.AllLengths {
		res.ByLength = make([]*big.Int, f.l)
		for i := range f.l - 1 {
			res.ByLength[i] = r.lengthTours(i, r.byLength)
		}
	}
	res.Limbs = max(r.k, 1)
	res.Halved = r.halved()
	res.Undirected = undirected
	res.Tours = new(big.Int).Set(undirected)
	if mode == Closed || (mode == FreeEnds && f.n > 1) {
		res.Tours.Lsh(res.Tours, 1)
	}
	if r.cfg.AllLengths {
		res.ByLength[f.l-1] = res.Tours
	}
}

// The last checkpoint may grow checkpointCost times as old as it took to
// write, and at least minCheckpointGap, before the count writes one after
// a square that does not end a column, but never more than
// maxCheckpointGap: a small count checkpoints every few seconds, so that a
// run killed soon after it resumed still goes forward, and one of 8 rows,
// whose manifest lists millions of groups, spends a few percent of its
// time on them.
const (
	checkpointCost   = 20
	minCheckpointGap = 3 * time.Second
	maxCheckpointGap = time.Minute
)

// checkpointGap is how old the last checkpoint may grow before the next.
func (r *counter) checkpointGap() time.Duration {
	return min(max(checkpointCost*r.saving, minCheckpointGap), maxCheckpointGap)
}

func (r *counter) snapshot(begin time.Time) Progress {
	p := Progress{Squares: int(r.done.Load()), Of: r.f.n, States: int(r.last.Load()), Elapsed: time.Since(begin), Resumes: r.resumeFrom,
		Pass: int(r.pass.Load()), Passes: int(r.passesPlanned.Load()), DiskFree: r.disk.lastFree(), Halved: r.halved()}
	if n := r.pieces.Load(); n > 0 {
		p.Expanded = float64(r.expanded.Load()) / float64(n)
	}
	if n, d := int64(2*(r.f.n-1)), r.demanded.Load(); d > 0 && d < n {
		p.Demands = float64(d) / float64(n)
	}
	if n, c := r.toCheck.Load(), r.checked.Load(); c < n {
		p.Checked = float64(c) / float64(n)
	}
	if l := r.lengths.Load(); l != nil { // a copy each: a report is its receiver's
		p.ByLength = make([]*big.Int, len(*l))
		for i, n := range *l {
			p.ByLength[i] = new(big.Int).Set(n)
		}
	}
	return p
}

// run adds every square in turn and returns the number of paths or
// cycles; errOverflow if the counts need more than r.k limbs.
func (r *counter) run(ctx context.Context) (*big.Int, error) {
	f, k := r.f, r.k
	r.states, r.peak, r.shardAt, r.followed, r.part, r.unsaved, r.held = make([]int, 0, f.n), 0, -1, 0, nil, false, -1
	r.byLength = make([][]uint64, f.l)
	r.saved = time.Now()
	r.mem.SetUsed(r.vb.bytes()) // the demand filters stay from one attempt to the next
	z := r.firstZ()
	var a slotCodes
	for p := range a {
		a[p] = slotDone
	}
	r.arena = &arena{mem: r.mem}
	defer r.mem.DropSpare() // after the arenas below have given back theirs
	defer r.mem.DropReserve()
	defer r.arena.release()
	defer r.releasePool()
	first, ok := r.arena.alloc(1 + k)
	if !ok {
		return nil, r.memoryError(0, 0)
	}
	clear(first.entries)
	first.entries[0], first.entries[1] = f.encode(&a, z, &f.shifts[0]), 1 // every position done, whatever the step
	cur := &layer{groups: []group{first}, n: 1}
	total := make([]uint64, k)
	v0 := 0
	if r.cfg.Checkpoint != "" {
		var err error
		if cur, v0, err = r.resume(ctx, cur, total); err != nil {
			return nil, err
		}
	}
	// Only now does progress show where this attempt starts: until the
	// checkpoint is read, a count made again after an overflow shows the
	// squares it had added, which the checkpoint holds, not square 0.
	r.done.Store(int64(v0))
	r.last.Store(int64(cur.n))
	for v := v0; v < f.n; v++ {
		next, err := r.step(ctx, v, cur, total)
		if err != nil && !errors.Is(err, errOverflow) && r.cfg.Checkpoint != "" && v > 0 {
			// cur, the layer after square v-1, is whole on disk, and a
			// step that fails adds nothing to the totals: the count can
			// go on from here.
			part := r.part // the passes of this step a checkpoint holds
			if part != nil && part.Square != v {
				part = nil
			}
			if r.unsaved {
				// The last checkpoint holds: cur lacks groups it names.
			} else if cerr := r.saveCheckpoint(v-1, cur, total, part); cerr != nil {
				err = fmt.Errorf("%w (and no checkpoint: %v)", err, cerr)
			}
		}
		cur.free(r.arena) // what the step left of it: its files
		if err != nil {
			return nil, err
		}
		cur = next
		r.pieces.Store(0) // no square under way until the next step starts
		r.passesPlanned.Store(0)
		r.states = append(r.states, cur.n)
		r.peak = max(r.peak, cur.n)
		r.done.Add(1)
		r.last.Store(int64(cur.n))
		if r.cfg.afterStep != nil {
			r.cfg.afterStep(v, cur.n)
		}
		// A checkpoint after every column, and after every square once the
		// last is old: the layers are on disk already, so one costs little
		// more than writing them out, while a count killed without one
		// loses all since the last.
		if r.cfg.Checkpoint != "" && v < f.n-1 && ((v+1)%f.w == 0 || time.Since(r.saved) >= r.checkpointGap()) {
			begin := time.Now()
			if err := r.saveCheckpoint(v, cur, total, nil); err != nil {
				cur.free(r.arena)
				return nil, err
			}
			r.saved, r.saving = time.Now(), time.Since(begin)
		}
	}
	cur.free(r.arena)
	tours := limbsToBig(total)
	if r.paired {
		// Each tour from the start was counted twice (counter.pair).
		if tours.Bit(0) != 0 {
			return nil, fmt.Errorf("%w: %v", errOddPairs, tours)
		}
		tours.Rsh(tours, 1)
	}
	if r.halved() {
		tours.Lsh(tours, 1) // the tours of the other half (diagonal.go)
	}
	if r.cfg.Checkpoint != "" {
		r.removeCheckpoint()
	}
	return tours, nil
}

// resume goes on from the checkpoint, if there is one: it returns the
// layer to go on from, in place of cur, and the squares done, with total
// and the counter's record of the squares so far as the checkpoint has
// them; cur and 0 where there is no checkpoint.
func (r *counter) resume(ctx context.Context, cur *layer, total []uint64) (*layer, int, error) {
	k := r.k
	r.removeStaleRuns()
	m, l, err := r.loadCheckpoint(ctx)
	if m != nil && r.cfg.onLoad != nil {
		r.cfg.onLoad(m.Squares)
	}
	switch {
	case err != nil:
		return nil, 0, err
	case m != nil && m.Limbs > k: // not from count, which starts with the checkpoint's limbs
		l.free(r.arena)
		m.Step.close()
		return nil, 0, errOverflow // again with wider counts, which the checkpoint has
	case m != nil && m.Step != nil && m.Step.Freed > 0 && (m.Limbs < k || m.Step.Reflections != r.reflections(m.Squares)):
		// The step under way gave back part of the layer it expands, so
		// it can only go on, never be made again, as a count with wider
		// counts or another rule of reflections would make it. giveBack
		// gives nothing back where the counts could outgrow their limbs.
		l.free(r.arena)
		m.Step.close()
		return nil, 0, fmt.Errorf("%w %s: its step under way gave back part of its layer and cannot be made again, as a count with wider counts or another rule of reflections would: count again from the start, or go on with the version that wrote it", ErrCheckpoint, r.cfg.Checkpoint)
	case m != nil:
		var dropped []*layerFile
		if m.Limbs < k {
			// The counts overflowed their limbs after the checkpoint:
			// the count goes on from it with wider ones. Its layer is
			// read widened (readPiece); the passes of a step it holds
			// are made again, their files being of narrow states, and
			// those files go with the next checkpoint. Result.Resumed
			// stays what the count was first resumed from, if it was.
			for i, c := range m.ByLength {
				if c != nil {
					m.ByLength[i] = append(c, make([]uint64, k-len(c))...)
				}
			}
			if m.Step != nil {
				m.Step.close()
				dropped, m.Step = m.Step.files, nil
			}
		}
		if m.Step != nil && m.Step.Reflections != r.reflections(m.Squares) {
			// Passes made under another rule of reflections: the step
			// is made again (stepPart.Reflections), and its files go
			// with the next checkpoint.
			m.Step.close()
			dropped, m.Step = m.Step.files, nil
		}
		cur.free(r.arena)
		cur, r.checkpointed = l, append(l.files, dropped...)
		v0 := m.Squares
		r.states = append(r.states, m.States...)
		r.peak = slices.Max(r.states)
		r.shardAt, r.followed = m.ShardAt, m.Followed
		r.mergeHigh = max(r.mergeHigh, m.MergeHigh)
		r.planScale = scale(m.PlanScale)
		copy(total, m.Total)
		copy(r.byLength, m.ByLength)
		if m.Step == nil {
			r.held = v0 - 1
		}
		if m.Limbs == k {
			r.resumed = v0 // not the count's own going on after an overflow
		}
		r.part = m.Step
		if m.Step != nil {
			r.checkpointed = append(r.checkpointed, m.Step.files...)
		}
		r.removeOrphanLayers()
		return cur, v0, nil
	}
	r.removeOrphanLayers()
	return cur, 0, nil
}

// bigGarbage is the size of the demand filters from which the demand
// passes' garbage (about four times the filters on 8x9) goes back to the
// kernel before the count's first square.
const bigGarbage = 16 << 20
