package knightstour

import (
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// Option configures a call: NewSolver, CountDP, Construct and the other
// entry points take options, and each refuses, with ErrBadOption, an
// option that does not apply to it, rather than answer a question the
// caller did not ask.
type Option func(*config) error

// optionKind names an option, as a bit, so that an entry point can say
// which options it takes.
type optionKind uint32

const (
	optStart optionKind = 1 << iota
	optMoveOrder
	optWorkers
	optSplitDepth
	optLimit
	optProgress
	optClosed
	optReduction
	optShard
	optNodeBudget
	optFreeEnds
	optMemoryLimit
	optAllLengths
	optSpill
	optCheckpoint
	optEarlyStart
	optSweep
	optTesting     // the unexported options of the tests and the engines
	numOptionKinds = iota
)

var optionNames = [numOptionKinds]string{
	"WithStart", "WithMoveOrder", "WithWorkers", "WithSplitDepth", "WithLimit", "WithProgress", "WithClosed",
	"WithReduction", "WithShard", "WithNodeBudget", "WithFreeEnds", "WithMemoryLimit", "WithAllLengths", "WithSpill", "WithCheckpoint", "WithEarlyStart", "WithSweep", "an internal option",
}

// String returns the name of the option, as the caller wrote it.
func (k optionKind) String() string {
	i := bits.TrailingZeros32(uint32(k))
	if i >= numOptionKinds || k != 1<<i {
		return fmt.Sprintf("optionKind(%#x)", uint32(k))
	}
	return optionNames[i]
}

// Which options each entry point takes. The Solver's calls share one set;
// the others take what their engine can honour.
const (
	solverOptions = optStart | optMoveOrder | optWorkers | optSplitDepth | optLimit | optProgress | optClosed |
		optReduction | optShard | optNodeBudget | optTesting
	// A census and Unique search from every square, each in full.
	everySquareOptions = solverOptions &^ (optStart | optLimit | optShard)
	countDPOptions     = optStart | optWorkers | optProgress | optClosed | optFreeEnds | optMemoryLimit | optAllLengths |
		optShard | optSpill | optCheckpoint | optEarlyStart | optSweep | optTesting
	constructOptions  = optStart | optWorkers | optClosed
	warnsdorffOptions = optStart | optMoveOrder | optClosed | optNodeBudget | optTesting
	findTourOptions   = optStart | optMoveOrder | optWorkers | optClosed
)

// only returns an error matching ErrBadOption that names the first option
// given to entry that is not among allowed.
func (cfg *config) only(entry string, allowed optionKind) error {
	extra := cfg.given &^ allowed
	if extra == 0 {
		return nil
	}
	k := extra & -extra
	return fmt.Errorf("%w: %v does not apply to %s", ErrBadOption, k, entry)
}

// pick returns the options among opts of the kinds in allowed, for a call
// that passes its caller's options on to another entry point.
func pick(opts []Option, allowed optionKind) []Option {
	var out []Option
	for _, opt := range opts {
		var scratch config
		if opt(&scratch) == nil && scratch.given&^allowed == 0 {
			out = append(out, opt)
		}
	}
	return out
}

type config struct {
	given      optionKind // the options applied
	start      *Coordinate
	order      []Move
	workers    int
	splitDepth int // -1: choose automatically
	limit      uint64
	progress   func(Progress)
	every      time.Duration
	probe      uint64 // node budget of the single-goroutine try; 0: none
	closed     bool
	reduce     bool
	shard      int
	shards     int    // 0: no sharding
	budget     uint64 // nodes a search may enter; 0: no limit
	noRetry    bool   // FindTour: do not try other start squares
	free       bool   // CountDP: open tours from every square
	memLimit   int64  // CountDP: bytes for states; 0: defaultMemoryLimit
	allLengths bool   // CountDP: count every shorter board too
	base11     bool   // CountDP: pack states in base 11 even when 4 bits a square fit (tests)
	allDemands bool   // CountDP: keep states whose demands cannot be met (tests)
	lean       bool   // CountDP: take the lean step whatever the memory (tests)
	spill      string // CountDP: a directory for the layers
	checkpoint string // CountDP: a file to record progress in and resume from
	earlyStart bool   // CountDP: add the start square where it is
	sweep      Sweep  // CountDP: the order of each column's squares
}

func defaultConfig() config {
	return config{order: SeedOrder(), workers: runtime.GOMAXPROCS(0), splitDepth: -1, probe: probeNodes, reduce: true}
}

// newConfig checks a board's size against the limit of the method that
// asks (MaxSquares for the searches and the counter) and applies the
// options to the defaults.
func newConfig(rows, cols, limit int, opts []Option) (config, error) {
	cfg := defaultConfig()
	if err := checkSizeUpTo(rows, cols, limit); err != nil {
		return cfg, err
	}
	for i, opt := range opts {
		if opt == nil {
			return cfg, fmt.Errorf("%w: option %d of %d is nil", ErrMisuse, i+1, len(opts))
		}
		if err := opt(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// startOn returns the start square on an R x C board: WithStart's, or the
// seed's lower-left corner; ErrOffBoard if it is not on the board.
func (cfg *config) startOn(rows, cols int) (Coordinate, error) {
	start := Coordinate{rows - 1, 0}
	if cfg.start != nil {
		start = *cfg.start
	}
	if !start.Contains(rows, cols) {
		return start, fmt.Errorf("%w: start %v on a %dx%d board", ErrOffBoard, start, rows, cols)
	}
	return start, nil
}

// WithStart sets the square the knight starts on. The default is the
// seed's lower-left corner, Coordinate{rows-1, 0}.
func WithStart(c Coordinate) Option {
	return func(cfg *config) error {
		cfg.given |= optStart
		cfg.start = &c
		return nil
	}
}

// WithMoveOrder sets the order in which the knight tries its eight jumps,
// and so the order in which tours are found. The default is SeedOrder.
func WithMoveOrder(order ...Move) Option {
	return func(cfg *config) error {
		cfg.given |= optMoveOrder
		if err := ValidateOrder(order); err != nil {
			return err
		}
		cfg.order = append([]Move(nil), order...)
		return nil
	}
}

// MaxWorkers is the most goroutines WithWorkers takes: far more than any
// machine has cores, and few enough that the workers' buffers cannot
// exhaust the memory.
const MaxWorkers = 1024

// WithWorkers sets how many goroutines the parallel calls use (the default
// is GOMAXPROCS), from 1 to MaxWorkers. It does not change any result, only
// the time it takes.
func WithWorkers(n int) Option {
	return func(cfg *config) error {
		cfg.given |= optWorkers
		if n < 1 || n > MaxWorkers {
			return fmt.Errorf("%w: %d workers (want 1 to %d)", ErrBadOption, n, MaxWorkers)
		}
		cfg.workers = n
		return nil
	}
}

// WithSplitDepth sets how many jumps deep the search tree is cut into
// tasks for the workers (the seed's maxDepth). By default the Solver cuts
// deep enough for a few thousand tasks, so that the workers stay busy to
// the end; 0 makes the whole search one task.
func WithSplitDepth(d int) Option {
	return func(cfg *config) error {
		cfg.given |= optSplitDepth
		if d < 0 {
			return fmt.Errorf("%w: split depth %d (want 0 or more)", ErrBadOption, d)
		}
		cfg.splitDepth = d
		return nil
	}
}

// WithLimit stops every search after n tours (0, the default, means no
// limit). The tours kept are the first n in order; Count stops at n.
func WithLimit(n int) Option {
	return func(cfg *config) error {
		cfg.given |= optLimit
		if n < 0 {
			return fmt.Errorf("%w: limit %d (want 0 for none, or more)", ErrBadOption, n)
		}
		cfg.limit = uint64(n)
		return nil
	}
}

// WithProgress makes long calls report their progress to fn about every
// interval, from another goroutine, and once more at the end. fn must
// return quickly.
func WithProgress(every time.Duration, fn func(Progress)) Option {
	return func(cfg *config) error {
		cfg.given |= optProgress
		if every <= 0 || fn == nil {
			return fmt.Errorf("%w: progress needs a positive interval and a function", ErrBadOption)
		}
		cfg.progress, cfg.every = fn, every
		return nil
	}
}

// WithClosed makes the solver look for closed tours only: tours whose last
// square is a knight's jump from the first, so that they can be walked as a
// cycle. Boards with an odd number of squares have none (every jump changes
// the square's colour, so a cycle has even length), and the solver answers
// 0 for them at once.
func WithClosed() Option {
	return func(cfg *config) error {
		cfg.given |= optClosed
		cfg.closed = true
		return nil
	}
}

// kind names the tours a closed flag asks for, in messages and files.

// WithReduction turns seed 004's symmetry reduction for counting closed
// tours on (the default) or off. It never changes a count, only the time;
// turning it off is for checking exactly that.
func WithReduction(on bool) Option {
	return func(cfg *config) error {
		cfg.given |= optReduction
		cfg.reduce = on
		return nil
	}
}

// MaxShards is the most shards WithShard splits a count into. An
// enumeration cuts its tree into 256 tasks for every shard, so the split
// costs memory in proportion; 65536 shards are 16 million tasks.
const MaxShards = 1 << 16

// WithShard makes Count count only shard i of n (0 <= i < n): every n-th
// task of a task list that depends on the board, start and options alone,
// not on the workers, so that n processes on any machines, each given its
// i, count every tour exactly once. Add their Stats with MergeStats (the CLI:
// knightstour merge). With CountDP, shard i follows the i-th of n parts of
// the states, from the first square after which there are at least 1024
// for each shard (the same square in every shard); the DPCount.Tours of
// the shards add up to the whole count. A frontier count's shards are not
// much smaller than the whole, though: its states mix within a column or
// two, so each shard soon keeps nearly every state (7x7 in 4 shards: 26
// million states at the peak in each, 29 million in the whole count).
func WithShard(i, n int) Option {
	return func(cfg *config) error {
		cfg.given |= optShard
		if n < 1 || n > MaxShards || i < 0 || i >= n {
			return fmt.Errorf("%w: shard %d/%d (want 0 <= i < n <= %d)", ErrBadOption, i, n, MaxShards)
		}
		cfg.shard, cfg.shards = i, n
		return nil
	}
}

// WithNodeBudget stops a search after about n nodes (squares entered) with
// ErrGaveUp, for callers that would rather have no answer than wait: the
// first tour of a large board may be found at once or take years. A budget
// makes the search run on one goroutine, so that it means the same work
// every time.
func WithNodeBudget(n int) Option {
	return func(cfg *config) error {
		cfg.given |= optNodeBudget
		if n < 1 {
			return fmt.Errorf("%w: node budget %d (want at least 1)", ErrBadOption, n)
		}
		cfg.budget = uint64(n)
		return nil
	}
}

// withoutRetry keeps FindTour from trying other start squares for a closed
// tour: it marks the retries themselves.
func withoutRetry() Option {
	return func(cfg *config) error {
		cfg.given |= optTesting
		cfg.noRetry = true
		return nil
	}
}

// WithFreeEnds makes CountDP count the open tours from every square, not
// from one start: the number Census.Directed gives, found without a search
// from each square.
func WithFreeEnds() Option {
	return func(cfg *config) error {
		cfg.given |= optFreeEnds
		cfg.free = true
		return nil
	}
}

// WithMemoryLimit bounds the memory CountDP may use for its states, in
// bytes; past it the count stops with ErrMemoryLimit rather than let the
// machine run out. The default is half the machine's memory. The bound
// covers the states, their tables and buffers, the filters of the demands
// a tour can still meet (about a gigabyte on 8 x 9), and what the Go heap
// grows by during the count past its first 16 MiB; the program itself and
// the heap it held before the count come on top.
func WithMemoryLimit(bytes int64) Option {
	return func(cfg *config) error {
		cfg.given |= optMemoryLimit
		if bytes < 1<<20 {
			return fmt.Errorf("%w: memory limit %d bytes (want at least 1 MiB)", ErrBadOption, bytes)
		}
		cfg.memLimit = bytes
		return nil
	}
}

// WithAllLengths makes CountDP count, in the same pass, the tours of every
// board it meets on the way: cut after 1, 2, ... columns along the longer
// side (R x 1 to R x C for R <= C). DPCount.ByLength holds them. A state
// is kept while some board among them can still be finished from it (by
// the demands the rest of the board can meet; the pruning by colour, which
// depends on the board's length, is off), and the start is added where it
// lies: 6x8 from the corner with every length keeps 21 million states over
// its squares, against 19.5 million for 6x8 alone with WithEarlyStart.
func WithAllLengths() Option {
	return func(cfg *config) error {
		cfg.given |= optAllLengths
		cfg.allLengths = true
		return nil
	}
}

// withBase11 makes CountDP pack its states the way it does for boards 8
// squares wide swept row by row (17 squares in base 11), so that tests
// can check that packing on small boards.
func withBase11() Option {
	return func(cfg *config) error {
		cfg.given |= optTesting
		cfg.base11 = true
		return nil
	}
}

// WithSpill makes CountDP keep its layers (the states after each square)
// in files in dir, an existing directory, instead of in memory: the
// operating system's page cache keeps what fits and writes the rest out,
// and the memory limit is left to the layer being made (about 20 bytes a
// state at most, against about 36 with both layers in memory). The files
// go as soon as the next layer is whole. Use it for boards whose states
// do not fit in memory, such as 8 x n from a corner.
func WithSpill(dir string) Option {
	return func(cfg *config) error {
		cfg.given |= optSpill
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%w: WithSpill(%q): not a directory", ErrBadOption, dir)
		}
		cfg.spill = dir
		return nil
	}
}

// WithCheckpoint makes CountDP survive a stop. It keeps its layers on
// disk beside file (as WithSpill does) and, after the last square of each
// column of the board, after each pass of a square added in passes (when
// its states do not fit in memory at once) and whenever it stops early
// (cancelled, out of memory), writes to file where it got to and what it
// has counted. A
// CountDP with the same board and options finds the checkpoint and
// resumes from it (DPCount.Resumed says from which square); one of
// another count, or a checkpoint torn, truncated or changed, is refused
// with ErrCheckpoint, and one another process is counting with is
// refused with ErrInUse. When the count is done it removes the checkpoint
// and its files. file's directory must exist, and file, if there, must be
// a regular file.
func WithCheckpoint(file string) Option {
	return func(cfg *config) error {
		cfg.given |= optCheckpoint
		if st, err := os.Stat(filepath.Dir(file)); err != nil || !st.IsDir() || file == "" {
			return fmt.Errorf("%w: WithCheckpoint(%q): its directory does not exist", ErrBadOption, file)
		}
		if st, err := os.Stat(file); err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("%w: WithCheckpoint(%q): not a regular file", ErrBadOption, file)
		}
		cfg.checkpoint = file
		return nil
	}
}

// WithEarlyStart makes CountDP add the start square where it lies in its
// order of squares rather than at the latest of the square's images under
// the board's symmetries (which the count uses by default, as it keeps
// fewer states). The count is the same; the states on the way are others:
// a second, structurally different computation to check a new count by.
// It applies to counts from a start square.
func WithEarlyStart() Option {
	return func(cfg *config) error {
		cfg.given |= optEarlyStart
		cfg.earlyStart = true
		return nil
	}
}

// WithSweep makes CountDP add the squares of each column in the order s
// (see Sweep) rather than the one it picks for the board's width. The
// count is the same; the states on the way are others, so a count made
// with each is a check of the other.
func WithSweep(s Sweep) Option {
	return func(cfg *config) error {
		cfg.given |= optSweep
		if s < SweepAuto || s > SweepNarrowDown {
			return fmt.Errorf("%w: WithSweep(%v): not a sweep", ErrBadOption, s)
		}
		cfg.sweep = s
		return nil
	}
}

// withLeanStep makes CountDP take its lean step whatever the memory, so
// that tests can check it against the buffered one.
func withLeanStep() Option {
	return func(cfg *config) error {
		cfg.given |= optTesting
		cfg.lean = true
		return nil
	}
}

// withAllDemands makes CountDP keep the states whose demands cannot be
// met, so that tests can check that dropping them changes no count.
func withAllDemands() Option {
	return func(cfg *config) error {
		cfg.given |= optTesting
		cfg.allDemands = true
		return nil
	}
}
