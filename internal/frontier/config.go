package frontier

import (
	"fmt"
	"math/big"
	"time"
)

// Mode says which tours a count is for.
type Mode int

// String names the mode as a user would.
func (m Mode) String() string {
	switch m {
	case FromStart:
		return "from a start"
	case FreeEnds:
		return "free ends"
	case Closed:
		return "closed"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Config says what to count and with what.
type Config struct {
	Rows, Cols int
	Mode       Mode
	// StartRow and StartCol are the start square in FromStart mode.
	StartRow, StartCol int
	// Workers is how many goroutines share each step; at least 1.
	Workers int
	// MemoryLimit bounds the bytes of states and demand tables; past it
	// the count stops with ErrMemoryLimit. It must be positive.
	MemoryLimit int64
	// AllLengths counts every board cut to 1, 2, ... columns along the
	// longer side in the same pass, and so keeps every state.
	AllLengths bool
	// Progress, when not nil, is called about every Every from another
	// goroutine, and once at the end.
	Progress func(Progress)
	Every    time.Duration
	// Base11 packs states as boards 8 wide swept row by row do (in base
	// 11, worked on as bytes), AllDemands keeps the
	// states whose demands cannot be met, and Lean takes the lean step
	// whatever the memory: for tests that check that none of them changes
	// a count.
	Base11, AllDemands, Lean bool
	// Sweep is the order in which the count adds each column's squares:
	// SweepNarrow keeps fewer states. The count is the same.
	Sweep Sweep
	// EarlyStart adds the start square where it lies in the order of
	// squares, not at the latest of its images under the board's
	// symmetries: a count with other states, to check a count by.
	EarlyStart bool
	// Across adds the squares column by column along the board's shorter
	// side, each column as long as the longer side, rather than along
	// the longer side: a count with other states and a wider frontier,
	// to check a count by. It does not go with AllLengths, whose shorter
	// boards are cut along the longer side.
	Across bool
	// SpillDir, when not empty, is a directory for the layers: each
	// layer goes to a file as it is made, and the memory limit is left
	// to the tables of the layer being made.
	SpillDir string
	// Checkpoint, when not empty, is a file to record the count's progress
	// in (checkpoint.go); the layers then go to disk beside it, whatever
	// SpillDir says. A count that finds a checkpoint of itself there
	// resumes from it.
	Checkpoint string
	// Shard and Shards make the count follow only shard Shard of Shards
	// of the states, from the first step that has shardStates*Shards of
	// them: the counts of all the shards add up to the whole count.
	Shard, Shards int

	// afterStep, when not nil, is called after each square v is added,
	// with the states after it, on the count's goroutine: for tests that
	// stop a count at a given square.
	afterStep func(v, states int)
	// afterPass, when not nil, is called after each pass of a lean step
	// (passes counts them from 1), on a goroutine of the count: for tests
	// that stop a count between passes.
	afterPass func(v, passes int)
	// onLoad, when not nil, is called each time a count has read and
	// checked its checkpoint, with the squares it holds: for tests that
	// check that a resumed count reads its checkpoint once.
	onLoad func(squares int)
	// onSkip, when not nil, is called for each piece of a layer that a
	// pass does not read, its groups holding none of the pass's classes
	// (classParts), on a worker: for tests that check passes skip.
	onSkip func()
	// keepCur, when set, keeps the layer a step expands whole until the
	// step ends (giveback.go), as counts did before they gave its disk
	// back pass by pass.
	keepCur bool
	// onGiveBack, when not nil, is called with the bytes of each group
	// whose disk a step gives back.
	onGiveBack func(bytes int64)
	// onWiden, when not nil, is called when the step adding square v
	// widens the counts to k limbs before it starts (widensFirst).
	onWiden func(v, k int)
	// skipPunch leaves the holes giveBack lists unpunched, as a count
	// stopped after the checkpoint that lists them and before it punched
	// them leaves them.
	skipPunch bool
	// passMade, when not nil, is called after each pass of a step made in
	// passes, before the step gives back the groups it is done with.
	passMade func()
	// onNarrow, when not nil, is called each time a pass narrowed, with
	// the groups it made and those it gave up (see narrowing), on the
	// count's goroutine: for tests that check passes narrow.
	onNarrow func(p pass, hi int)
	// freeBytes, when not nil, stands for the file system's free space
	// (space_linux.go), asked at every write: for tests of a disk too
	// small for the layers.
	freeBytes func(prefix string) (int64, bool)
	// passPart, for tests, when above 0, makes every lean step with its
	// layer on disk in passes of at most this part of the next layer.
	passPart float64
	// layout, for tests, when not nil, chooses the layout of each lean
	// step's tables (countLayout) in place of chooseLayout; onLayout, when
	// not nil, is called with the square and the layout of each lean
	// step's tables, on the count's goroutine: for tests that check the
	// choice.
	layout   func(wide float64, states int) countLayout
	onLayout func(v int, l countLayout)
	// groupStates, for tests, when above 0, is about how many states a
	// group of the next layer holds, in place of the step's own figure:
	// a small board then takes many groups to a bucket of a buffered step.
	groupStates int
	// compact, for tests, keeps every layer on disk compact, however small.
	compact bool
	// hashGroups, for tests, groups the states of a buffered step whose
	// keys in digits go to disk compact by hash (groupsAsKeys), as counts
	// did before groupsByMix: for checkpoints of such counts.
	hashGroups bool
	// ownClasses, for tests, groups the states of a compact layer by mix
	// alone, as counts did before they grouped them first by the classes
	// of the next step's passes (groupsByNextClass).
	ownClasses bool
	// noMirror, for tests, keeps every state as it is, not the lesser of
	// it and its reflection (counter.mirror), and counts from a start from
	// it alone (counter.pair).
	noMirror bool
	// noDiagonal, for tests, counts every tour from a start on a diagonal
	// of a square board, not half of them (diagonal.go).
	noDiagonal bool
	// onRead, when not nil, is called with the states of each piece of
	// a layer that a pass reads from disk, on a worker: for tests that
	// measure what the passes read. noProjection, for them, makes the
	// passes of a step not by the classes of the step before read every
	// group (stepper.proj); noKinds records no group's kinds, as if they
	// were unknown, so that no pass skips a group by them (kindSet).
	onRead       func(states int)
	noProjection bool
	noKinds      bool
	// onExpand, when not nil, is called with the states of each piece of
	// a layer that a pass expands, those of its classes, on a worker: for
	// tests that measure how often the passes expand a state. noSplits,
	// for them, makes no step split a class (partition), so that a class
	// too large for one pass is made in ranges of groups.
	onExpand func(states int)
	noSplits bool
	// sparseDemands, for tests, keeps the sets of the demand passes as
	// hash sets on every board (see demandSet).
	sparseDemands bool
}

// check refuses a Config no count can be made of.
func (cfg *Config) check() error {
	switch {
	case cfg.Rows < 1 || cfg.Cols < 1:
		return fmt.Errorf("frontier: a %dx%d board", cfg.Rows, cfg.Cols)
	case cfg.Workers < 1 || cfg.MemoryLimit < 1:
		return fmt.Errorf("frontier: %d workers, %d bytes of memory", cfg.Workers, cfg.MemoryLimit)
	case cfg.Progress != nil && cfg.Every <= 0:
		return fmt.Errorf("frontier: progress every %v", cfg.Every)
	case cfg.Shards < 0 || cfg.Shards > 0 && (cfg.Shard < 0 || cfg.Shard >= cfg.Shards):
		return fmt.Errorf("frontier: shard %d of %d", cfg.Shard, cfg.Shards)
	case cfg.Mode == FromStart && (cfg.StartRow < 0 || cfg.StartRow >= cfg.Rows || cfg.StartCol < 0 || cfg.StartCol >= cfg.Cols):
		return fmt.Errorf("frontier: start {%d,%d} off a %dx%d board", cfg.StartRow, cfg.StartCol, cfg.Rows, cfg.Cols)
	case cfg.Sweep < SweepRows || cfg.Sweep > SweepNarrowDown:
		return fmt.Errorf("frontier: %v", cfg.Sweep)
	case cfg.Across && cfg.AllLengths:
		return fmt.Errorf("frontier: all lengths across the board")
	}
	return nil
}

const (
	// FromStart counts the open tours from one start square.
	FromStart Mode = iota
	// FreeEnds counts the open tours from every square: each once from
	// each end.
	FreeEnds
	// Closed counts closed tours, each once from one square in each
	// direction.
	Closed
)

// Progress says how far a count has got.
type Progress struct {
	Squares int // squares added so far
	Of      int // squares on the board
	States  int // states after the last square added
	// Pass and Passes say which pass of the step under way is running and
	// how many it plans (more than one when the tables of the next layer
	// do not fit in memory at once); Expanded is the share of the layer
	// the pass has expanded, from 0 to 1.
	Pass, Passes int
	Expanded     float64
	// Demands is, before the first square, the share of the work of
	// finding which demands can still end in a tour (the demand filters,
	// two passes over the squares), from 0 to 1; it is 0 once they are
	// found. On 8 rows this takes a minute or two.
	Demands float64
	// Checked is, while a count resumed from a checkpoint reads back the
	// files kept beside it, the demand filters and then the states, to
	// check them, the share of their bytes read, from 0 to 1; it is 0
	// once they are checked (and in a count that did not resume), for
	// the files of 8 rows take minutes to read.
	Checked float64
	// Resumes is the squares done in the checkpoint the count resumes
	// from, known from the first report on; 0 for a count started afresh.
	Resumes int
	// Halved says, from the first report on, that the count follows the
	// tours of half of its start's first moves and doubles them
	// (Result.Halved): a forecast made before it runs can count on fewer
	// states.
	Halved bool
	// DiskFree is, for a count whose layers go to disk, the bytes free on
	// their file system when last looked at (every 256 MiB written); 0
	// before the first look, or where the file system cannot tell.
	DiskFree int64
	// ByLength is, for a whole count with AllLengths, the tours of each
	// shorter board it has finished, as Result.ByLength counts them:
	// ByLength[i] is the board cut to i+1 columns, final once the count
	// has added that column's last square (or resumed from a checkpoint
	// after it). A count of days gives them as it goes, so that a stop
	// loses none of them. Nil before the first, and for a shard, whose
	// counts are parts.
	ByLength []*big.Int
	Elapsed  time.Duration
}
