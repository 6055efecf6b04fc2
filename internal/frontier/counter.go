package frontier

import (
	"fmt"
	"math/big"
	"sync/atomic"
	"time"

	"github.com/euler1758/knightstour/internal/frontier/memory"
)

// counter is one count: the board's layout, the mode, and the tables.
type counter struct {
	resumeFrom  int       // squares done in the checkpoint the count resumes from, if any
	early       *manifest // the checkpoint's manifest as count read it, for the first loadCheckpoint
	f           *board
	mode        Mode
	start       int // index of the start square in the board's order, or -1
	startColour int
	// mirror says that the states after a square whose column's rows added
	// so far are their own reflection (board.reflects), at the end of each
	// column and within some, are kept as the lesser key of a state and its
	// reflection across the board's length: the squares still to add are
	// the same after the reflection, so a state and its reflection end in
	// as many tours, and one entry holds both. It holds for closed tours
	// and tours with free ends, which have no start, and for a count from a
	// start that is its own reflection. For any other start, see pair.
	mirror bool
	// paired says that a count from a start added last (as by default) on
	// a board of odd width is made with pair, the start's reflection across
	// the board's length: a square of the start's column and colour. Until
	// the step unfold the count is of the tours from the start and from
	// pair together, whose squares still to add, the start's column among
	// them, are their own reflection: so it keeps a state and its
	// reflection as one, as for free ends, and its demand filters are those
	// from which either square can start the tour (demandStep). The step
	// unfold expands each state of the layer and its reflection: from then
	// on the count is of the tours from the start alone, each counted
	// twice, once for itself and once for its reflection from pair, and run
	// halves the total. Once the start is added the squares still to add
	// are their own reflection again, and the count keeps a state and its
	// reflection as one as before. On an even width pair has the other
	// colour, and a path from it ends on other squares (notEnd), which no
	// key of 8 rows has room to tell.
	paired       bool
	pair, unfold int
	// firstBarred, where the count is of half of the tours from the start
	// (diagonal.go), are the moves the start may not take, and pairBarred
	// those its pair may not; empty otherwise.
	firstBarred, pairBarred moveSet
	cfg                     Config
	mem                     *memory.Budget
	arena                   *arena   // the layers' groups, for one attempt
	pool                    *binPool // the buffered steps' bins, while the steps are buffered
	// mergeHigh is the most memory the merge buffers of a buffered step
	// have taken in this count (see mergeRoom).
	mergeHigh int64
	// planScale is how much more memory than its sample said the passes
	// of a buffered step are planned for: the passes of one square that
	// pass the limit tell of the next square's (see stepper.run).
	planScale scale
	k         int // limbs per count
	// vb, when not nil, holds the demands that can still be finished: the
	// counting states with other demands are dropped.
	vb *viability

	states       []int
	peak         int
	shardAt      int          // the step where the shards parted, or -1
	followed     int          // the states this shard followed there
	spill        bool         // layers go to disk
	disk         *diskGuard   // with spill: keeps the disk from filling
	resumed      int          // squares done in the checkpoint resumed from
	passes       int          // the most passes a step took
	narrowed     int          // the passes that narrowed
	checkpointed []*layerFile // the files of the last checkpoint
	// part is the passes done of the step under way, as the last
	// checkpoint has them, or as the checkpoint resumed from had them.
	part *stepPart
	// unsaved says that the step under way gave back groups of its layer
	// that the last checkpoint still names: a checkpoint of the count as
	// it stands would name that layer without them, while the last one
	// is still good (giveBack punches no hole before one names it).
	unsaved bool
	// held is the square after which the last checkpoint holds the
	// layer, with no step under way (-1: none): a step after it that
	// widens the counts first goes back to it (widensFirst).
	held     int
	saved    time.Time     // when the last checkpoint was written
	saving   time.Duration // how long it took
	byLength [][]uint64    // AllLengths: the tours of each shorter board
	// lengths holds, for progress, the directed tours of each shorter
	// board finished so far (finishedLengths).
	lengths atomic.Pointer[[]*big.Int]
	done    atomic.Int64 // steps done, for progress
	last    atomic.Int64 // states after the last step, for progress
	// For progress within a step: the pass under way, the passes
	// planned, and the pieces of the layer expanded in this pass of all.
	pass, passesPlanned, expanded, pieces atomic.Int64
	// For progress while resuming: the bytes of the checkpoint's layer
	// files checked so far and of all.
	checked, toCheck atomic.Int64
	// demanded is, for progress, the squares the demand passes are done
	// with, counting each pass.
	demanded atomic.Int64
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

// reflectionRule numbers the rule by which a step keeps a state's
// reflection in its place (counter.mirror), for the checkpoints of steps
// under way (stepPart.Reflections): 1 at the end of each column, in a
// pass of all classes; 2 wherever the rows added of the column are their
// own reflection, and in a pass of some classes where the two are of one
// class; 3 (packedReflectionRule), as 2, but of packed keys the one
// whose squares' kinds, the last square's weighing most, are the lesser,
// where they differ (counter.lesser).
const (
	reflectionRule       = 2
	packedReflectionRule = 3
)

// reflections returns the rule by which the step adding square v keeps
// reflections, 0 for a step that keeps none.
func (r *counter) reflections(v int) int {
	switch {
	case !r.mirrors(v):
		return 0
	case r.f.packed:
		return packedReflectionRule
	}
	return reflectionRule
}

// parts reports whether the shards of a count may part at the step
// adding square v. With a pair of starts, each shard halves its own
// total, which must then count each of its tours twice: so they part
// where the layer expanded was kept as the lesser of each state and its
// reflection, or after the step unfold. A state that is its own
// reflection ends in tours from the start and from its pair alike, twice
// as many as from the start; but its successors one square later, split
// among the shards, need not each.
func (r *counter) parts(v int) bool {
	return !r.paired || v > r.unfold || v > 0 && r.mirrors(v-1)
}

// unfolds reports whether the step adding square v expands each state
// and its reflection (counter.pair).
func (r *counter) unfolds(v int) bool { return r.paired && v == r.unfold }

// mirrors reports whether the step adding square v keeps a state and its
// reflection as one (counter.mirror): with a pair of starts, before the
// step unfold and after the start, whose column may not be the last.
func (r *counter) mirrors(v int) bool {
	return r.mirror && v < r.f.n && r.f.shifts[v].mirrored && (!r.paired || v < r.unfold || v > r.start)
}

// firstZ returns the z-state before any square: the edges z can give, of
// which the start holds one already.
func (r *counter) firstZ() int {
	return [...]int{FromStart: 1, FreeEnds: 2, Closed: 0}[r.mode]
}

func (r *counter) memoryError(v, size int) error {
	return fmt.Errorf("%w: more than %d bytes of states at square %d of %d (%d states before it); raise the memory limit (-memory, WithMemoryLimit) or use a machine with more memory",
		ErrMemoryLimit, r.mem.Limit(), v+1, r.f.n, size)
}

// pairStart sets mirror, pair and unfold for a count from the start added
// last (see counter.pair). A start that is its own reflection needs no
// pair. Any other is paired where a step that keeps reflections comes at
// most a column before its pair: the steps between, by the filters of
// either start but keeping every state, would make more states than the
// pair saves (SweepRows keeps reflections only in the first columns).
func (r *counter) pairStart() {
	f := r.f
	if f.w%2 == 0 {
		return
	}
	pair := f.reflection(r.start)
	if pair == r.start {
		r.mirror = true
		return
	}
	for u := pair - 1; u >= max(0, pair-f.w); u-- {
		if f.shifts[u].mirrored {
			r.mirror, r.paired, r.pair, r.unfold = true, true, pair, u+1
			return
		}
	}
}

// unpair makes the count one from the start alone, as counts before
// pairs were: a checkpoint of one of those goes on as it began.
func (r *counter) unpair() {
	if r.paired {
		r.mirror, r.paired = false, false
	}
}

// lengthTours returns the tours of the board cut to i+1 columns in
// byLength, the undirected tours of each shorter board (AllLengths),
// directed as Result.Tours counts them.
func (r *counter) lengthTours(i int, byLength [][]uint64) *big.Int {
	n := new(big.Int)
	if i < len(byLength) && byLength[i] != nil {
		n = limbsToBig(byLength[i])
	}
	if r.mode == Closed || r.mode == FreeEnds && (i+1)*r.f.w > 1 {
		n.Lsh(n, 1)
	}
	return n
}

// finishedLengths makes the tours of the shorter boards done after the
// first squares added, from byLength, known to progress reports
// (Progress.ByLength): for a whole count of every length, at the end of
// each column and on resuming. A shard's counts are parts, and mean
// nothing alone.
func (r *counter) finishedLengths(squares int, byLength [][]uint64) {
	if !r.cfg.AllLengths || r.cfg.Shards > 1 {
		return
	}
	done := min(squares/r.f.w, r.f.l-1)
	if old := r.lengths.Load(); done == 0 || old != nil && len(*old) >= done {
		return
	}
	lengths := make([]*big.Int, done)
	for i := range lengths {
		lengths[i] = r.lengthTours(i, byLength)
	}
	r.lengths.Store(&lengths)
}
