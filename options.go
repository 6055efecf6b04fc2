package knightstour

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/euler1758/knightstour/internal/enum"
)

// Options configure a call, and each entry point takes its own kind, so
// that an option given to a call it does not apply to does not compile:
// NewSolver takes SolverOption, RunCensus and Unique CensusOption, CountDP
// CountDPOption and FindTour FindTourOption. Each With function returns a
// type that says which of them it is: WithWorkers an Option, which every
// entry point takes, WithSpill a CountDPOption. An option with a value it
// cannot take is refused by the call, with ErrBadOption.
type (
	// SolverOption configures NewSolver.
	SolverOption interface {
		applier
		solverOption()
	}
	// CensusOption configures RunCensus and Unique, which search from
	// every square.
	CensusOption interface {
		applier
		censusOption()
	}
	// CountDPOption configures CountDP.
	CountDPOption interface {
		applier
		countDPOption()
	}
	// FindTourOption configures FindTour.
	FindTourOption interface {
		applier
		findTourOption()
	}
)

// The options that several entry points take: each is all of the kinds
// it names.
type (
	// Option (WithClosed, WithWorkers) configures every entry point.
	Option interface {
		SolverOption
		CensusOption
		CountDPOption
		FindTourOption
	}
	// StartOption (WithStart) configures every entry point but RunCensus
	// and Unique, which start from every square.
	StartOption interface {
		SolverOption
		CountDPOption
		FindTourOption
	}
	// SearchOption (WithMoveOrder, WithNodeBudget) configures the
	// searches: NewSolver, RunCensus, Unique and FindTour.
	SearchOption interface {
		SolverOption
		CensusOption
		FindTourOption
	}
	// EnumerationOption (WithSplitDepth) configures the
	// searches that list or count every tour: NewSolver, RunCensus and
	// Unique.
	EnumerationOption interface {
		SolverOption
		CensusOption
	}
	// ProgressOption (WithProgress) configures the calls that report
	// progress: NewSolver, RunCensus, Unique and CountDP.
	ProgressOption interface {
		SolverOption
		CensusOption
		CountDPOption
	}
	// ShardOption (WithShard) configures the counts that split into
	// shards: NewSolver and CountDP.
	ShardOption interface {
		SolverOption
		CountDPOption
	}
)

// applier is what every option does: set its part of a call's config.
type applier interface{ apply(*config) error }

// option is the setting every option type carries.
type option struct{ set func(*config) error }

func (o option) apply(cfg *config) error { return o.set(cfg) }

// The marks of the kinds of option: a type that embeds forSolver is a
// SolverOption, and so on.
type (
	forSolver   struct{}
	forCensus   struct{}
	forCountDP  struct{}
	forFindTour struct{}
)

func (forSolver) solverOption()     {}
func (forCensus) censusOption()     {}
func (forCountDP) countDPOption()   {}
func (forFindTour) findTourOption() {}

// The option types, one for each set of kinds.
type (
	everyOpt struct {
		option
		forSolver
		forCensus
		forCountDP
		forFindTour
	}
	startOpt struct {
		option
		forSolver
		forCountDP
		forFindTour
	}
	searchOpt struct {
		option
		forSolver
		forCensus
		forFindTour
	}
	enumerationOpt struct {
		option
		forSolver
		forCensus
	}
	progressOpt struct {
		option
		forSolver
		forCensus
		forCountDP
	}
	shardOpt struct {
		option
		forSolver
		forCountDP
	}
	solverOpt struct {
		option
		forSolver
	}
	countDPOpt struct {
		option
		forCountDP
	}
	findTourOpt struct {
		option
		forFindTour
	}
	retryOpt struct { // FindTour's own, which it passes to its Solver
		option
		forSolver
		forFindTour
	}
)

// pick returns the options among opts that are also of kind K, for a
// call that passes its caller's options on to another entry point.
func pick[K applier, O applier](opts []O) []K {
	var out []K
	for _, opt := range opts {
		if k, ok := any(opt).(K); ok {
			out = append(out, k)
		}
	}
	return out
}

type config struct {
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
	method     Method // FindTour: the one method to use; 0: choose
	given      given  // the options given whose defaults are values (FindTour)
	free       bool   // CountDP: open tours from every square
	memLimit   int64  // CountDP: bytes for states; 0: defaultMemoryLimit
	allLengths bool   // CountDP: count every shorter board too
	base11     bool   // CountDP: pack states in base 11 even when 4 bits a square fit (tests)
	allDemands bool   // CountDP: keep states whose demands cannot be met (tests)
	lean       bool   // CountDP: take the lean step whatever the memory (tests)
	spill      string // CountDP: a directory for the layers
	checkpoint string // CountDP: a file to record progress in and resume from
	earlyStart bool   // CountDP: add the start square where it is
	across     bool   // CountDP: columns along the shorter side
	sweep      Sweep  // CountDP: the order of each column's squares
}

// given marks the options a call was given whose absence is a value of
// its own, so that FindTour can refuse one that its method does not use.
type given uint8

const (
	givenOrder given = 1 << iota
	givenWorkers
	givenBudget
)

func defaultConfig() config {
	return config{order: SeedOrder(), workers: runtime.GOMAXPROCS(0), splitDepth: -1, probe: enum.ProbeNodes, reduce: true}
}

// search returns what the enumeration engine needs of cfg.
func (cfg *config) search() enum.Config {
	c := enum.Config{SplitDepth: cfg.splitDepth, Limit: cfg.limit, Every: cfg.every, Probe: cfg.probe,
		Shard: cfg.shard, Shards: cfg.shards, Budget: cfg.budget}
	if fn := cfg.progress; fn != nil {
		c.Progress = func(p enum.Progress) {
			fn(Progress{TasksDone: p.TasksDone, Tasks: p.Tasks, Tours: p.Tours, Nodes: p.Nodes, Elapsed: p.Elapsed})
		}
	}
	return c
}

// jumps returns a move order as the engine's jumps.
func jumps(order []Move) []enum.Jump {
	out := make([]enum.Jump, len(order))
	for i, m := range order {
		out[i] = enum.Jump{DRow: m.DRow, DCol: m.DCol}
	}
	return out
}

// newConfig checks a board's size against the limit of the method that
// asks (maxSquares for the searches and the counter) and applies the
// options to the defaults.
func newConfig[O applier](rows, cols, limit int, opts []O) (config, error) {
	cfg := defaultConfig()
	if err := checkSizeUpTo(rows, cols, limit); err != nil {
		return cfg, err
	}
	for i, opt := range opts {
		if any(opt) == nil {
			return cfg, fmt.Errorf("%w: option %d of %d is nil", ErrMisuse, i+1, len(opts))
		}
		if err := opt.apply(&cfg); err != nil {
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
	if !start.contains(rows, cols) {
		return start, fmt.Errorf("%w: start %v on a %dx%d board", ErrOffBoard, start, rows, cols)
	}
	return start, nil
}

// WithStart sets the square the knight starts on. The default is the
// seed's lower-left corner, Coordinate{rows-1, 0}.
func WithStart(c Coordinate) StartOption {
	return startOpt{option: option{func(cfg *config) error {
		cfg.start = &c
		return nil
	}}}
}

// WithMoveOrder sets the order in which the knight tries its eight jumps,
// and so the order in which tours are found. The default is SeedOrder.
func WithMoveOrder(order ...Move) SearchOption {
	return searchOpt{option: option{func(cfg *config) error {
		if err := validateOrder(order); err != nil {
			return err
		}
		cfg.order = append([]Move(nil), order...)
		cfg.given |= givenOrder
		return nil
	}}}
}

// maxWorkers is the most goroutines WithWorkers takes: far more than any
// machine has cores, and few enough that the workers' buffers cannot
// exhaust the memory.
const maxWorkers = 1024

// WithWorkers sets how many goroutines the parallel calls use (the default
// is GOMAXPROCS), from 1 to 1024. It does not change any result, only
// the time it takes.
func WithWorkers(n int) Option {
	return everyOpt{option: option{func(cfg *config) error {
		if n < 1 || n > maxWorkers {
			return fmt.Errorf("%w: %d workers (want 1 to %d)", ErrBadOption, n, maxWorkers)
		}
		cfg.workers = n
		cfg.given |= givenWorkers
		return nil
	}}}
}

// WithSplitDepth sets how many jumps deep the search tree is cut into
// tasks for the workers (the seed's maxDepth). By default the Solver cuts
// deep enough for a few thousand tasks, so that the workers stay busy to
// the end; 0 makes the whole search one task.
func WithSplitDepth(d int) EnumerationOption {
	return enumerationOpt{option: option{func(cfg *config) error {
		if d < 0 {
			return fmt.Errorf("%w: split depth %d (want 0 or more)", ErrBadOption, d)
		}
		cfg.splitDepth = d
		return nil
	}}}
}

// WithLimit stops every search after n tours (0, the default, means no
// limit). The tours kept are the first n in order; Count stops at n.
func WithLimit(n int) SolverOption {
	return solverOpt{option: option{func(cfg *config) error {
		if n < 0 {
			return fmt.Errorf("%w: limit %d (want 0 for none, or more)", ErrBadOption, n)
		}
		cfg.limit = uint64(n)
		return nil
	}}}
}

// WithProgress makes long calls report their progress to fn about every
// interval, from another goroutine, and once more at the end. fn must
// return quickly.
func WithProgress(every time.Duration, fn func(Progress)) ProgressOption {
	return progressOpt{option: option{func(cfg *config) error {
		if every <= 0 || fn == nil {
			return fmt.Errorf("%w: progress needs a positive interval and a function", ErrBadOption)
		}
		cfg.progress, cfg.every = fn, every
		return nil
	}}}
}

// WithClosed makes the solver look for closed tours only: tours whose last
// square is a knight's jump from the first, so that they can be walked as a
// cycle. Boards with an odd number of squares have none (every jump changes
// the square's colour, so a cycle has even length), and the solver answers
// 0 for them at once.
func WithClosed() Option {
	return everyOpt{option: option{func(cfg *config) error {
		cfg.closed = true
		return nil
	}}}
}

// withReduction turns seed 004's symmetry reduction for counting closed
// tours on (the default) or off. It never changes a count, only the time;
// turning it off is for checking exactly that.
func withReduction(on bool) EnumerationOption {
	return enumerationOpt{option: option{func(cfg *config) error {
		cfg.reduce = on
		return nil
	}}}
}

// maxShards is the most shards WithShard splits a count into. An
// enumeration cuts its tree into 256 tasks for every shard, so the split
// costs memory in proportion; 65536 shards are 16 million tasks.
const maxShards = 1 << 16

// WithShard makes Count count only shard i of n (0 <= i < n): every n-th
// task of a task list that depends on the board, start and options alone,
// not on the workers, so that n processes on any machines, each given its
// i, count every tour exactly once. Add their Stats with MergeStats (the CLI:
// knightstour merge). With CountDP, shard i follows the i-th of n parts of
// the states, from the first square after which there are at least 1024
// for each shard (the same square in every shard); MergeDP adds their
// DPCounts up to the whole count's. A frontier count's shards are not
// much smaller than the whole, though: its states mix within a column or
// two, so each shard soon keeps nearly every state (7x7 in 4 shards: 26
// million states at the peak in each, 29 million in the whole count).
func WithShard(i, n int) ShardOption {
	return shardOpt{option: option{func(cfg *config) error {
		if n < 1 || n > maxShards || i < 0 || i >= n {
			return fmt.Errorf("%w: shard %d/%d (want 0 <= i < n <= %d)", ErrBadOption, i, n, maxShards)
		}
		cfg.shard, cfg.shards = i, n
		return nil
	}}}
}

// WithNodeBudget stops a search after about n nodes (squares entered) with
// ErrGaveUp, for callers that would rather have no answer than wait: the
// first tour of a large board may be found at once or take years. A budget
// makes the search run on one goroutine, so that it means the same work
// every time. For FindTour it is the budget of each method it tries (the
// construction has none, and refuses it when it is the method asked for).
func WithNodeBudget(n int) SearchOption {
	return searchOpt{option: option{func(cfg *config) error {
		if n < 1 {
			return fmt.Errorf("%w: node budget %d (want at least 1)", ErrBadOption, n)
		}
		cfg.budget = uint64(n)
		cfg.given |= givenBudget
		return nil
	}}}
}

// withoutRetry keeps FindTour from trying other start squares for a closed
// tour: it marks the retries themselves.
func withoutRetry() FindTourOption {
	return retryOpt{option: option{func(cfg *config) error {
		cfg.noRetry = true
		return nil
	}}}
}

// WithFreeEnds makes CountDP count the open tours from every square, not
// from one start: the number Census.Directed gives, found without a search
// from each square.
func WithFreeEnds() CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		cfg.free = true
		return nil
	}}}
}

// WithMemoryLimit bounds the memory CountDP may use for its states, in
// bytes; past it the count stops with ErrMemoryLimit rather than let the
// machine run out. The default is half the machine's memory. The bound
// covers the states, their tables and buffers, the filters of the demands
// a tour can still meet (about a gigabyte on 8 x 9), and what the Go heap
// grows by during the count past its first 16 MiB; the program itself and
// the heap it held before the count come on top. The heap is the whole
// program's: counts run side by side in one program each count what the
// others add to it.
func WithMemoryLimit(bytes int64) CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		if bytes < 1<<20 {
			return fmt.Errorf("%w: memory limit %d bytes (want at least 1 MiB)", ErrBadOption, bytes)
		}
		cfg.memLimit = bytes
		return nil
	}}}
}

// WithAllLengths makes CountDP count, in the same pass, the tours of every
// board it meets on the way: cut after 1, 2, ... columns along the longer
// side (R x 1 to R x C for R <= C). DPCount.ByLength holds them. A state
// is kept while some board among them can still be finished from it (by
// the demands the rest of the board can meet; the pruning by colour, which
// depends on the board's length, is off), and the start is added where it
// lies: 6x8 from the corner with every length keeps 21 million states over
// its squares, against 19.5 million for 6x8 alone with WithEarlyStart.
func WithAllLengths() CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		cfg.allLengths = true
		return nil
	}}}
}

// withBase11 makes CountDP pack its states the way it does for boards 8
// squares wide swept row by row (17 squares in base 11), so that tests
// can check that packing on small boards.
func withBase11() CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		cfg.base11 = true
		return nil
	}}}
}

// WithSpill makes CountDP keep its layers (the states after each square)
// in files in dir, an existing directory, instead of in memory: the
// operating system's page cache keeps what fits and writes the rest out,
// and the memory limit is left to the layer being made (about 20 bytes a
// state at most, against about 36 with both layers in memory). The files
// go as soon as the next layer is whole. Use it for boards whose states
// do not fit in memory, such as 8 x n from a corner.
func WithSpill(dir string) CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%w: WithSpill(%q): not a directory", ErrBadOption, dir)
		}
		cfg.spill = dir
		return nil
	}}}
}

// WithCheckpoint makes CountDP survive a stop. It keeps its layers on
// disk beside file (as WithSpill does) and, after the last square of each
// column of the board, after each pass of a square added in passes (when
// its states do not fit in memory at once) and whenever it stops early
// (cancelled, out of memory), writes to file where it got to and what it
// has counted. A
// CountDP with the same board and options finds the checkpoint and
// resumes from it (DPCount.Work.Resumed says from which square); one of
// another count, or a checkpoint torn, truncated or changed, is refused
// with ErrCheckpoint, and one another process is counting with is
// refused with ErrInUse. When the count is done it removes the checkpoint
// and its files. file's directory must exist, and file, if there, must be
// a regular file.
func WithCheckpoint(file string) CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		if st, err := os.Stat(filepath.Dir(file)); err != nil || !st.IsDir() || file == "" {
			return fmt.Errorf("%w: WithCheckpoint(%q): its directory does not exist", ErrBadOption, file)
		}
		if st, err := os.Stat(file); err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("%w: WithCheckpoint(%q): not a regular file", ErrBadOption, file)
		}
		cfg.checkpoint = file
		return nil
	}}}
}

// WithEarlyStart makes CountDP add the start square where it lies in its
// order of squares rather than at the latest of the square's images under
// the board's symmetries (which the count uses by default, as it keeps
// fewer states). The count is the same; the states on the way are others:
// a second, structurally different computation to check a new count by.
// It applies to counts from a start square.
func WithEarlyStart() CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		cfg.earlyStart = true
		return nil
	}}}
}

// WithAcross makes CountDP add the squares column by column along the
// board's shorter side, each column as long as the longer side, rather
// than along the longer side. The count is the same; the states on the
// way are others, and many more, so a count made across checks one made
// along. It takes boards up to 9 squares on the longer side, and does
// not go with WithAllLengths, whose shorter boards are cut along the
// longer side. Work.Width says which way a count went.
func WithAcross() CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		cfg.across = true
		return nil
	}}}
}

// WithSweep makes CountDP add the squares of each column in the order s
// (see Sweep) rather than the one it picks for the board's width. The
// count is the same; the states on the way are others, so a count made
// with each is a check of the other.
func WithSweep(s Sweep) CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		if s < SweepAuto || s > SweepNarrowDown {
			return fmt.Errorf("%w: WithSweep(%v): not a sweep", ErrBadOption, s)
		}
		cfg.sweep = s
		return nil
	}}}
}

// withLeanStep makes CountDP take its lean step whatever the memory, so
// that tests can check it against the buffered one.
func withLeanStep() CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		cfg.lean = true
		return nil
	}}}
}

// withAllDemands makes CountDP keep the states whose demands cannot be
// met, so that tests can check that dropping them changes no count.
func withAllDemands() CountDPOption {
	return countDPOpt{option: option{func(cfg *config) error {
		cfg.allDemands = true
		return nil
	}}}
}
