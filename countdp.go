package knightstour

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/euler1758/knightstour/internal/frontier"
	"github.com/euler1758/knightstour/internal/shard"
	"github.com/euler1758/knightstour/internal/sysmem"
)

// maxFrontierWidth is the widest board side CountDP handles: the counter
// walks along the longer side, and its states describe up to 2w+1 squares
// of the last two columns and a bit (w the shorter side; 2w with the
// narrow sweeps). A state's key is one 64-bit word, which holds up to 18
// squares: 9 wide by the narrow sweeps, 8 by SweepRows.
const maxFrontierWidth = frontier.MaxWidth

// Sweep is the order in which CountDP adds the squares of each column
// (WithSweep). It changes how many states a count keeps on the way, never
// the count.
type Sweep int

const (
	// SweepAuto is the sweep that keeps the fewest states: SweepNarrow.
	SweepAuto Sweep = iota
	// SweepRows adds each column's squares row by row: the states describe
	// the last 2w+1 squares added (w the shorter side). It is the sweep
	// the counts before SweepNarrow were made with.
	SweepRows
	// SweepNarrow adds each column's odd rows up, then its even rows down,
	// then its last row: then at most 2w squares added still have
	// neighbours to come, and a state describes only those. It keeps
	// about half the states of SweepRows (8x8 closed: at most 100 million
	// against 230), and so takes about half the memory and less time. On
	// an odd width a count from a start also keeps a state and its
	// reflection as one until the start's column, which SweepRows cannot
	// (7x7 from the corner: at most 9.5 million states against 29, and
	// 18 s of processor time against 48).
	SweepNarrow
	// SweepNarrowDown adds each column's rows from the one below the last
	// downwards two at a time, then the other rows upwards, then the last
	// row: a frontier as narrow as SweepNarrow's and about as many states
	// (7x7 from the corner: 87.0 million in all against 88.0), but other
	// ones at nearly every square. A count made with it checks a count
	// made with SweepNarrow at about the same cost.
	SweepNarrowDown
)

// String names the sweep: "auto", "rows", "narrow" or "narrow-down", the
// last three as the CLI's -sweep flag takes them.
func (s Sweep) String() string {
	switch s {
	case SweepAuto:
		return "auto"
	case SweepRows, SweepNarrow, SweepNarrowDown:
		return s.engine().String()
	}
	return fmt.Sprintf("Sweep(%d)", int(s))
}

// resolve returns the sweep a count made with s uses: s itself, or
// SweepNarrow for SweepAuto. A result's Sweep is always resolved.
func (s Sweep) resolve() Sweep {
	if s == SweepAuto {
		return SweepNarrow
	}
	return s
}

// engine returns the frontier engine's sweep that s, not SweepAuto, names.
func (s Sweep) engine() frontier.Sweep {
	switch s {
	case SweepNarrow:
		return frontier.SweepNarrow
	case SweepNarrowDown:
		return frontier.SweepNarrowDown
	}
	return frontier.SweepRows
}

// fallbackMemoryLimit is the default memory limit where the machine's
// memory cannot be read.
const fallbackMemoryLimit = 4 << 30

// defaultMemoryLimit is half the memory the process may use, so that a
// count in a container, a pod or a batch job stops with ErrMemoryLimit
// instead of being killed.
func defaultMemoryLimit() int64 {
	if total := sysmem.Total(); total > 0 {
		return total / 2
	}
	return fallbackMemoryLimit
}

// DPCount is the result of CountDP: what was asked (the board, the start,
// the kind, the shard) and what was found (the tours), with how the count
// went in Work, which no count depends on.
type DPCount struct {
	Rows, Cols int
	// Start is the square the tours start on, or nil for WithFreeEnds and
	// WithClosed.
	Start *Coordinate
	// Kind is Closed for a count of closed tours, else Open.
	Kind Kind
	// Shard and Shards say which part of the count this is (WithShard):
	// the Tours of shards 0..Shards-1 add up to the whole count (MergeDP).
	// Shards is 1 for a whole count.
	Shard, Shards int
	// Tours counts directed tours the way the enumerating calls do: from
	// Start, Solver.Count; with free ends, Census.Directed (every tour once
	// from each end); closed, the tours from any one square, both
	// directions (Solver.Count with WithClosed).
	Tours *big.Int
	// Undirected counts paths (open) or cycles (closed) without direction:
	// from Start, equal to Tours (a path from a square has one direction);
	// with free ends and closed, Tours/2.
	Undirected *big.Int
	// ByLength, with WithAllLengths, holds the Tours of the board cut to
	// 1, 2, ... columns along its longer side: ByLength[k-1] is for R x k
	// when R <= C (k x C otherwise), counted as Tours is. A cut board that
	// does not hold Start has none.
	ByLength []*big.Int
	// Work describes how the count went.
	Work Work
}

// CountDP counts knight's tours by dynamic programming over a frontier
// (the transfer-matrix method of Knuth's DYNAHAM): it adds the squares
// one at a time, column by column along the longer side, and keeps, for
// each distinct way the partial paths can meet the squares not yet added,
// the number of partial solutions that do so. Its time grows with the
// number of such states (exponential in the shorter side, linear in the
// longer), not with the number of tours, so it reaches boards far beyond
// enumeration; boards up to 9 squares on the shorter side (8 with
// SweepRows).
//
// Before counting, it works out which degree demands on the frontier (how
// many more jumps each square needs) the rest of the board can still meet,
// and drops every state whose demands it cannot: near the far end of the
// board most states are such dead ends. It also starts from whichever
// image of the start square under the board's symmetries comes latest in
// its order, which leaves fewer states. From a start on a diagonal of a
// square board, a corner among them, it counts the tours whose first
// move is one of half of the start's moves and doubles them: turning the
// board over the diagonal maps those one to one onto the others
// (Work.Halved). WithAllLengths keeps the states that can still finish
// the whole board or a shorter one.
//
// Without options it counts the open tours from the lower-left corner,
// like NewSolver; WithStart picks another start, WithFreeEnds counts open
// tours from every square, and WithClosed closed tours. WithWorkers spreads
// each step over goroutines, WithProgress reports after steps, and
// WithMemoryLimit bounds the state tables (ErrMemoryLimit). For counts of
// hours, WithSpill keeps the states on disk, WithCheckpoint survives a stop
// and resumes, and WithShard splits the count for many machines;
// WithEarlyStart, WithSweep and WithAcross count the same tours through
// other states, to check a count by. The options of the searches (a move order, a
// limit, ...) are not CountDPOptions, and do not compile here.
// Counts are exact at any size: they use as many 64-bit words as they
// need.
func CountDP(ctx context.Context, rows, cols int, opts ...CountDPOption) (*DPCount, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	cfg, err := newConfig(rows, cols, maxSquares, opts)
	if err != nil {
		return nil, err
	}
	if min(rows, cols) > maxFrontierWidth {
		return nil, fmt.Errorf("%w: counting by frontier handles boards up to %d squares on the shorter side, not %dx%d",
			ErrBadSize, maxFrontierWidth, rows, cols)
	}
	if cfg.across && max(rows, cols) > maxFrontierWidth {
		return nil, fmt.Errorf("%w: counting by frontier across the board handles boards up to %d squares on the longer side, not %dx%d",
			ErrBadSize, maxFrontierWidth, rows, cols)
	}
	width := min(rows, cols) // how long the count's columns are
	if cfg.across {
		width = max(rows, cols)
	}
	if cfg.sweep == SweepRows && width == maxFrontierWidth {
		return nil, fmt.Errorf("%w: WithSweep(SweepRows) handles columns up to %d squares long, not %d (%dx%d): its states describe 2w+1 squares, one more than the narrow sweeps'",
			ErrBadOption, maxFrontierWidth-1, width, rows, cols)
	}
	if cfg.across && cfg.allLengths {
		return nil, fmt.Errorf("%w: WithAcross and WithAllLengths: the shorter boards are cut along the longer side", ErrBadOption)
	}
	if cfg.spill != "" && cfg.checkpoint != "" {
		return nil, fmt.Errorf("%w: WithSpill and WithCheckpoint: a checkpoint keeps its layers beside it", ErrBadOption)
	}
	fc := frontier.Config{Rows: rows, Cols: cols, Workers: cfg.workers, MemoryLimit: cfg.memLimit,
		AllLengths: cfg.allLengths, Base11: cfg.base11, AllDemands: cfg.allDemands, Lean: cfg.lean,
		SpillDir: cfg.spill, Checkpoint: cfg.checkpoint, Shard: cfg.shard, Shards: cfg.shards, EarlyStart: cfg.earlyStart, Across: cfg.across}
	sweep := cfg.sweep.resolve()
	fc.Sweep = sweep.engine()
	if fc.MemoryLimit == 0 {
		fc.MemoryLimit = defaultMemoryLimit()
	}
	res := &DPCount{Rows: rows, Cols: cols, Kind: kindOf(cfg.closed), Work: Work{Workers: cfg.workers, Sweep: sweep}}
	switch {
	case cfg.free && cfg.closed:
		return nil, fmt.Errorf("%w: closed tours have no ends to leave free", ErrBadOption)
	case cfg.free && cfg.start != nil:
		return nil, fmt.Errorf("%w: WithFreeEnds counts tours from every square; WithStart has no meaning", ErrBadOption)
	case cfg.earlyStart && (cfg.free || cfg.closed):
		return nil, fmt.Errorf("%w: WithEarlyStart places the start square; a count with free ends or of closed tours has none", ErrBadOption)
	case cfg.free:
		fc.Mode = frontier.FreeEnds
	case cfg.closed:
		fc.Mode = frontier.Closed
	default:
		start, err := cfg.startOn(rows, cols)
		if err != nil {
			return nil, err
		}
		res.Start = &start
		fc.Mode, fc.StartRow, fc.StartCol = frontier.FromStart, start.Row, start.Col
	}
	begin := time.Now()
	if cfg.progress != nil {
		fc.Progress, fc.Every = func(p frontier.Progress) {
			cfg.progress(Progress{TasksDone: p.Squares, Tasks: p.Of, States: p.States,
				Pass: p.Pass, Passes: p.Passes, Expanded: p.Expanded, Demands: p.Demands, Checked: p.Checked, Resumes: p.Resumes, Halved: p.Halved, DiskFree: p.DiskFree, ByLength: p.ByLength, Elapsed: p.Elapsed})
		}, cfg.every
	}
	out, err := frontier.Count(ctx, fc)
	if err != nil {
		return nil, err
	}
	res.Tours, res.Undirected, res.ByLength = out.Tours, out.Undirected, out.ByLength
	res.Work.States, res.Work.PeakStates, res.Work.PeakBytes, res.Work.Limbs = out.States, out.PeakStates, out.PeakBytes, out.Limbs
	res.Work.Passes, res.Work.Narrowed, res.Work.Width, res.Work.DemandTime = out.Passes, out.Narrowed, out.Width, out.DemandTime
	res.Work.Halved = out.Halved
	if out.ShardAt >= 0 {
		res.Work.PartedAt, res.Work.Followed = out.ShardAt, out.Followed
	}
	res.Work.Resumed, res.Shard, res.Shards = out.Resumed, cfg.shard, max(1, cfg.shards)
	res.Work.Elapsed = time.Since(begin)
	return res, nil
}

// MergeDP adds the DPCounts of the shards of one frontier count (see
// WithShard), given in any order, into the whole count's: Tours,
// Undirected, ByLength and Narrowed are the sums, and Workers, PeakStates,
// PeakBytes, Passes, Limbs, Elapsed and DemandTime the most that one shard had or
// needed, which is what a machine running one must have (as in
// MergeStats).
// States is nil: the shards reach some states alike, so the whole count's
// states are not the sum of theirs.
//
// It fails with ErrMerge unless the parts are of one count (the same
// board, start, kind, sweep and lengths) and are shards 0 to n-1 of one
// split, each once, and, as far as their numbers can tell, each the part
// its label says: they parted after the same square with the same states
// there, and the states each followed add up to those.
func MergeDP(parts ...*DPCount) (*DPCount, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: no results", ErrMerge)
	}
	first := parts[0]
	if first == nil {
		return nil, fmt.Errorf("%w: a nil result", ErrMerge)
	}
	out := &DPCount{Rows: first.Rows, Cols: first.Cols, Start: first.Start, Kind: first.Kind, Work: Work{Sweep: first.Work.Sweep, Width: first.Work.Width, Halved: first.Work.Halved},
		Tours: new(big.Int), Undirected: new(big.Int), Shards: 1}
	if len(first.ByLength) > 0 {
		out.ByLength = make([]*big.Int, len(first.ByLength))
		for i := range out.ByLength {
			out.ByLength[i] = new(big.Int)
		}
	}
	ids := make([]shard.ID, len(parts))
	followed := 0
	for i, p := range parts {
		if err := p.partOf(first); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrMerge, err)
		}
		ids[i] = shard.ID{Index: p.Shard, Count: p.Shards}
		followed += p.Work.Followed
		out.Tours.Add(out.Tours, p.Tours)
		out.Undirected.Add(out.Undirected, p.Undirected)
		for k, n := range p.ByLength {
			out.ByLength[k].Add(out.ByLength[k], n)
		}
		out.Work.Workers = max(out.Work.Workers, p.Work.Workers)
		out.Work.PeakStates, out.Work.PeakBytes = max(out.Work.PeakStates, p.Work.PeakStates), max(out.Work.PeakBytes, p.Work.PeakBytes)
		out.Work.Passes, out.Work.Limbs = max(out.Work.Passes, p.Work.Passes), max(out.Work.Limbs, p.Work.Limbs)
		out.Work.Narrowed += p.Work.Narrowed
		out.Work.Elapsed = max(out.Work.Elapsed, p.Work.Elapsed)
		out.Work.DemandTime = max(out.Work.DemandTime, p.Work.DemandTime)
	}
	if err := shard.Complete(ids); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMerge, err)
	}
	if first.Shards > 1 && followed != first.Work.States[first.Work.PartedAt-1] {
		return nil, fmt.Errorf("%w: the shards followed %d of the %d states where they parted: a shard is not the part its label says",
			ErrMerge, followed, first.Work.States[first.Work.PartedAt-1])
	}
	return out, nil
}

// partOf reports why p cannot be a shard of the count first is a shard
// of, or nil.
func (p *DPCount) partOf(first *DPCount) error {
	if p == nil {
		return fmt.Errorf("a nil result")
	}
	label := shard.ID{Index: p.Shard, Count: p.Shards}
	sameStart := p.Start == nil && first.Start == nil || p.Start != nil && first.Start != nil && *p.Start == *first.Start
	switch {
	case p.Rows != first.Rows || p.Cols != first.Cols || !sameStart || p.Kind != first.Kind || p.Work.Sweep != first.Work.Sweep || p.Work.Width != first.Work.Width:
		return fmt.Errorf("shard %v counts another board, start, kind, sweep or width than shard %d/%d", label, first.Shard, first.Shards)
	case p.Work.Halved != first.Work.Halved:
		return fmt.Errorf("shard %v halved %v, shard %d/%d %v: the shards of a count that halves follow other states than those of one that does not", label, p.Work.Halved, first.Shard, first.Shards, first.Work.Halved)
	case p.Tours == nil || p.Tours.Sign() < 0 || p.Undirected == nil || p.Undirected.Sign() < 0:
		return fmt.Errorf("shard %v has no count, or a negative one", label)
	case p.Work.Workers < 1 || p.Work.Elapsed < 0 || p.Work.Followed < 0:
		return fmt.Errorf("shard %v: %d workers, %v, %d states followed: not a result a count made", label, p.Work.Workers, p.Work.Elapsed, p.Work.Followed)
	case len(p.ByLength) != len(first.ByLength):
		return fmt.Errorf("shard %v counts %d lengths, shard %d/%d %d", label, len(p.ByLength), first.Shard, first.Shards, len(first.ByLength))
	case len(p.ByLength) > 0 && (p.ByLength[len(p.ByLength)-1] == nil || p.ByLength[len(p.ByLength)-1].Cmp(p.Tours) != 0):
		return fmt.Errorf("shard %v counts %v tours of the whole board by length and %v in all", label, p.ByLength[len(p.ByLength)-1], p.Tours)
	case p.Shards == 1 && p.Work.PartedAt != 0:
		return fmt.Errorf("shard %v parted its states after square %d: it is a part of a split count, not a whole one", label, p.Work.PartedAt)
	case p.Shards > 1 && (p.Work.PartedAt < 1 || p.Work.PartedAt > len(p.Work.States) || p.Work.PartedAt != first.Work.PartedAt):
		return fmt.Errorf("shard %v parted after square %d, shard %d/%d after square %d", label, p.Work.PartedAt, first.Shard, first.Shards, first.Work.PartedAt)
	case p.Shards > 1 && (first.Work.PartedAt > len(first.Work.States) || p.Work.States[p.Work.PartedAt-1] != first.Work.States[first.Work.PartedAt-1]):
		return fmt.Errorf("shard %v had %d states where the shards parted, shard %d/%d another number", label, p.Work.States[p.Work.PartedAt-1], first.Shard, first.Shards)
	}
	for k, n := range p.ByLength {
		if n == nil || n.Sign() < 0 {
			return fmt.Errorf("shard %v has a negative count for length %d", label, k+1)
		}
	}
	return nil
}
