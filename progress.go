package knightstour

import (
	"math/big"
	"time"
)

// Stats is the result of a search that counts (Solver.Count): what was
// asked, what was found, and in Work how the search went.
type Stats struct {
	// Job names what Solver.Count counted: the kind of tours, the board,
	// the start, the move order and the limit. MergeStats adds up only
	// the Stats of one job.
	Job   string
	Tours *big.Int // tours found
	// Shard and Shards say which part of a count these are (WithShard):
	// shard Shard of Shards, 0 of 1 for a whole count.
	Shard, Shards int
	Work          Work
}

// Work says how a count went: what it cost, and how the engine that made
// it went about it. No count depends on it. The searches (Solver, RunCensus)
// fill the fields of a search, CountDP those of the frontier count; the
// others are zero.
type Work struct {
	Workers int           // goroutines that counted
	Elapsed time.Duration // wall-clock time

	// Nodes is, for a search, the squares it entered, a measure of its
	// work.
	Nodes uint64
	// Tasks is, for a search, the pieces of the search tree it walked, and
	// AllTasks the pieces the whole tree was cut into: for a shard
	// (WithShard), the Tasks of all the shards add up to AllTasks; for a
	// whole search the two are equal.
	Tasks, AllTasks int

	// States holds, for CountDP, the number of distinct partial solutions
	// after each square was added; their maximum is PeakStates.
	States     []int
	PeakStates int
	// PeakBytes is the most memory the state tables held at once, with
	// the tables of degree demands that prune them.
	PeakBytes int64
	// Limbs is the number of 64-bit words a count needed.
	Limbs int
	// PartedAt is, for a shard of CountDP, how many squares were added
	// before the shards parted (0 for a whole count), and Followed how
	// many of the States[PartedAt-1] states there this shard followed:
	// the Followed of all the shards add up to those states, which lets a
	// merge see that its shards are the parts of one count.
	PartedAt, Followed int
	// Passes is the most times a square read the states before it: more
	// than 1 where the states after it did not fit in the memory limit at
	// once and were made in parts (WithSpill).
	Passes int
	// Narrowed is how many of those parts reached the memory limit as
	// they were made and left the rest of their states to a part after
	// them, since the count started or resumed: each costs one more read
	// of the states before the square.
	Narrowed int
	// Resumed is how many squares were done in the checkpoint the count
	// resumed from (WithCheckpoint); 0 if it started afresh.
	Resumed int
	// Sweep is the order in which CountDP added each column's squares:
	// SweepRows, SweepNarrow or SweepNarrowDown, never SweepAuto.
	Sweep Sweep
	// Width is the squares of each column CountDP added: the board's
	// shorter side, or its longer with WithAcross. The states grow
	// about tenfold or more with each square of width.
	Width int
	// Halved says that CountDP followed the tours from the start whose
	// first move is one of half of the start's moves, and doubled them:
	// turning a square board over a diagonal through the start maps
	// those tours one to one onto the others. A count from a corner of a
	// square board halves, but with WithEarlyStart or WithAllLengths, and
	// follows fewer states than one that does not.
	Halved bool
	// DemandTime is the part of Elapsed that CountDP took before its
	// first square, finding which demands of the frontier squares can
	// still end in a tour (Progress.Demands), or reading them back from
	// beside its checkpoint.
	DemandTime time.Duration
}

// Progress is a snapshot of a running search, passed to the function given
// to WithProgress.
type Progress struct {
	TasksDone, Tasks int
	Tours, Nodes     uint64 // in the tasks done so far
	// States is, for CountDP, where the tasks are the board's squares, the
	// number of partial solutions after the last square added.
	States int
	// Pass and Passes are, for CountDP, the pass of the square under way
	// and how many it plans: more than one where its states do not fit in
	// memory at once and go to disk (WithSpill) in parts; both are 0 when
	// no pass is under way, as when a count stops between them. Expanded
	// is the share of the states the pass has taken on, from 0 to 1.
	Pass, Passes int
	Expanded     float64
	// Demands is, for CountDP before its first square, the share done of
	// working out which demands of squares on the frontier can still end
	// in a tour, from 0 to 1; 0 before and after. On 8 rows it takes a
	// minute or two.
	Demands float64
	// Checked is, for CountDP resuming from a checkpoint (WithCheckpoint),
	// the share of the checkpoint's files read back and checked so far,
	// from 0 to 1, while it checks them; 0 before and after. On 8 rows
	// they hold tens of gigabytes and take minutes to check.
	Checked float64
	// Resumes is, for CountDP resuming from a checkpoint, the squares
	// done in it, from the first report on (which comes at once); 0 for a
	// count started afresh.
	Resumes int
	// Halved says, for CountDP from the first report on, that the count
	// follows the tours of half of the start's first moves and doubles
	// them (Work.Halved), as it does from a corner of a square board: it
	// keeps fewer states than a forecast of every tour would expect.
	Halved bool
	// DiskFree is, for CountDP with its states on disk (WithSpill,
	// WithCheckpoint), the bytes free on their file system when last
	// looked at, every 256 MiB written: the count stops with ErrDiskFull
	// rather than leave less than 2 GiB. 0 before the first look, or
	// where the file system cannot tell.
	DiskFree int64
	// ByLength is, for CountDP with WithAllLengths, the tours of each
	// shorter board the count has finished, as DPCount.ByLength counts
	// them: ByLength[i] is the board of i+1 squares along the longer
	// side, final once the count has added that column (or resumed from
	// a checkpoint after it). A count of days gives them as it goes,
	// so a stop loses none of them. Nil before the first, and for a
	// shard (WithShard), whose counts are parts of the whole.
	ByLength []*big.Int
	Elapsed  time.Duration
}
