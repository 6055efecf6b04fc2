package frontier

import "errors"

// The errors a count returns.

// ErrMemoryLimit reports that a count needed more memory for its states
// than Config.MemoryLimit allows. The root package exports it as is.
var ErrMemoryLimit = errors.New("knightstour: memory limit reached")

// ErrDiskFull reports that a count's files on disk (its layers) would leave the file system less than diskReserve free. The root package
// exports it as is.
var ErrDiskFull = errors.New("knightstour: disk full")

// ErrTooWide reports a board whose columns, along its shorter side or
// across it (Config.Across), would be longer than MaxWidth.
var ErrTooWide = errors.New("frontier: board too wide")

// errOverflow makes a count start again with wider counts.
var errOverflow = errors.New("count overflowed its limbs")

// errOddPairs reports a count from a start and its pair (counter.pair)
// that came to an odd number, where it counts every tour twice: a fault
// of the counter, not of its input, which no count should ever return.
var errOddPairs = errors.New("frontier: internal error: a count from a start and its reflection counted a tour once, not twice")

// ErrCheckpoint reports a checkpoint that cannot be resumed from: torn,
// truncated or changed on disk, written by another version of the
// counter, or of another count. The root package exports it as is.
var ErrCheckpoint = errors.New("knightstour: unusable checkpoint")
