package knightstour

import (
	"math/big"
	"time"
)

// Stats describes a finished (or stopped) search.
type Stats struct {
	// Job names what Solver.Count counted: the kind of tours, the board,
	// the start, the move order and the limit. MergeStats adds up only
	// the Stats of one job.
	Job   string
	Tours *big.Int // tours found

	Nodes uint64 // squares entered by the search, a measure of work
	Tasks int    // pieces of the search tree this search walked
	// AllTasks is the pieces the whole search tree was cut into: for a
	// shard (WithShard), the Tasks of all the shards add up to it; for a
	// whole search it equals Tasks.
	AllTasks int
	// Shard and Shards say which part of a count these are (WithShard):
	// shard Shard of Shards, 0 of 1 for a whole count.
	Shard, Shards int
	Workers       int           // goroutines that searched
	Elapsed       time.Duration // wall-clock time
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
	// memory at once and go to disk (WithSpill) in parts. Expanded is the
	// share of the states the pass has taken on, from 0 to 1.
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
	Elapsed time.Duration
}
