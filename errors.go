package knightstour

import (
	"context"
	"errors"
	"fmt"

	"github.com/euler1758/knightstour/internal/enum"
	"github.com/euler1758/knightstour/internal/filelock"
	"github.com/euler1758/knightstour/internal/frontier"
)

// Sentinel errors. The errors about the caller's input and about what a
// call could not do wrap one of them, so callers can test with errors.Is and
// still print a message that names the offending value; a cancelled call
// returns its context's error, and an I/O error is passed on as it is.
var (
	// ErrBadSize reports a board with a zero or negative side, or one too
	// large for the method asked (65,536 squares for the searches and
	// the counter, 2^30 for the construction, 8 squares on the shorter
	// side for CountDP).
	ErrBadSize = errors.New("knightstour: invalid board size")
	// ErrOffBoard reports a square that does not lie on the board, or
	// that is written in a form that names no square.
	ErrOffBoard = errors.New("knightstour: not a square of the board")
	// ErrMisuse reports a call the library cannot serve as made: a nil
	// context or option, a value out of range where no other error says
	// more, or a Solver, TourWriter or TourReader that its constructor
	// did not make (a zero value).
	ErrMisuse = errors.New("knightstour: misuse")
	// ErrBadOption reports an option with a value it cannot take (a move
	// order that is not the eight knight jumps, say), or one that the call
	// does not use.
	ErrBadOption = errors.New("knightstour: invalid option")
	// ErrMerge reports results of shards that cannot be added up
	// (MergeStats, MergeDP).
	ErrMerge = errors.New("knightstour: cannot merge")
	// ErrGaveUp reports that a heuristic search used up its budget of
	// nodes without finding a tour; one may still exist.
	ErrGaveUp = enum.ErrGaveUp
	// ErrBadFile reports a tour file whose header, a line, or its end is
	// missing or malformed.
	ErrBadFile = errors.New("knightstour: not a tour file")
	// ErrNoTour reports that a search found no tour.
	ErrNoTour = errors.New("knightstour: no tour")
	// ErrMemoryLimit reports that a count by CountDP needed more memory
	// for its states than its limit (see WithMemoryLimit) allows.
	ErrMemoryLimit = frontier.ErrMemoryLimit
	// ErrDiskFull reports that a count by CountDP with its states on disk
	// (WithSpill, WithCheckpoint) stopped rather than leave the file system
	// less than 2 GiB free; with a checkpoint, the count so far is kept.
	ErrDiskFull = frontier.ErrDiskFull
	// ErrCheckpoint reports a checkpoint (WithCheckpoint) that CountDP
	// cannot resume from: of another count, written by another version,
	// or torn, truncated or changed on disk.
	ErrCheckpoint = frontier.ErrCheckpoint
	// ErrInUse reports a checkpoint, spill directory or output file that
	// another process is working on: one process at a time, or the two
	// would spoil each other's files. The concrete error names the
	// process holding it.
	ErrInUse = filelock.ErrHeld
)

// checkContext refuses a nil context, which every long call needs to be
// stopped by.
func checkContext(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("%w: a nil context.Context (use context.Background())", ErrMisuse)
	}
	return nil
}
