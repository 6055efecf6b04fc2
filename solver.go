package knightstour

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"slices"
	"time"

	"github.com/euler1758/knightstour/internal/enum"
	"github.com/euler1758/knightstour/internal/shard"
)

// Solver enumerates the knight's tours of an R x C board that start on one
// square, the seed's KnightProblemSolver; with WithClosed, only the closed
// tours, whose last square is a jump from the first. Tours are found depth first,
// trying the jumps in the solver's move order, and every call lists them in
// that same order whatever the number of workers. The search prunes only
// branches that cannot become tours, so counts and order equal those of the
// seed's plain backtracking.
//
// A Solver is safe for concurrent use; its calls do not change it. Make
// one with NewSolver: the zero Solver searches nothing, and its searches return
// ErrMisuse.
type Solver struct {
	rows, cols int
	start      Coordinate
	cfg        config
	job        enum.Job // the whole search, as the engine sees it: graph, root, ends
}

// NewSolver returns a solver for an R x C board. Without options the
// knight starts in the lower-left corner {rows-1, 0}, jumps in SeedOrder,
// and parallel calls use GOMAXPROCS workers. Bad sizes give ErrBadSize, a
// start off the board ErrOffBoard, and bad options ErrBadOption.
func NewSolver(rows, cols int, opts ...SolverOption) (*Solver, error) {
	cfg, err := newConfig(rows, cols, maxSquares, opts)
	if err != nil {
		return nil, err
	}
	start, err := cfg.startOn(rows, cols)
	if err != nil {
		return nil, err
	}
	g := enum.NewGraph(rows, cols, jumps(cfg.order))
	s := &Solver{rows: rows, cols: cols, start: start, cfg: cfg}
	root := uint16(start.Row*cols + start.Col)
	s.job = enum.Job{Graph: g, Root: []uint16{root}, Config: cfg.search()}
	if cfg.closed {
		// The knight always changes colour, so a closed tour, which returns
		// to its start after n jumps, needs an even number of squares n.
		if g.Squares()%2 == 1 {
			s.job.Root = nil
		}
		s.job.Ends = slices.Clone(g.Jumps(root))
	}
	return s, nil
}

// ready refuses a search by a Solver that NewSolver did not make, or
// with a nil context.
func (s *Solver) ready(ctx context.Context) error {
	if s == nil || s.job.Graph == nil {
		return fmt.Errorf("%w: a Solver not made by NewSolver", ErrMisuse)
	}
	return checkContext(ctx)
}

// FindMoves lists every tour, in order, searching on the calling goroutine
// only (the seed's findMovesSequential). It returns the tours found so far
// and ctx's error if ctx is cancelled first.
func (s *Solver) FindMoves(ctx context.Context) (*Tours, error) {
	return s.collect(ctx, 1)
}

// FindMovesParallel lists every tour like FindMoves, in the same order, but
// spreads the search over the solver's workers (the seed's
// findMovesParallel). The search tree is cut into many more tasks than
// workers and an idle worker takes the next task, so all stay busy to the
// end.
func (s *Solver) FindMovesParallel(ctx context.Context) (*Tours, error) {
	return s.collect(ctx, s.cfg.workers)
}

func (s *Solver) collect(ctx context.Context, workers int) (*Tours, error) {
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	ts := newTours(s.rows, s.cols)
	stats, err := s.walk(ctx, &s.job, workers, func(path []uint16) bool {
		ts.add(path)
		return true
	})
	ts.stats = stats
	return ts, err
}

// Count counts the tours on the solver's workers without keeping them;
// Stats.Tours is the count. With WithLimit(n) it stops at n.
//
// Closed tours are counted with the reduction of seed 004: a closed tour
// read backwards is another closed tour from the same start whose first
// and last jumps are swapped, so it searches only the tours whose first
// jump comes before their last in move order, fixing both, and doubles the
// count. Stats.Work.Nodes are those of the reduced search.
func (s *Solver) Count(ctx context.Context) (Stats, error) {
	if err := s.ready(ctx); err != nil {
		return Stats{}, err
	}
	st, err := s.count(ctx)
	st.Job = s.describe()
	return st, err
}

// walk runs j, a search of s's, on workers goroutines (see enum.Job.Walk).
func (s *Solver) walk(ctx context.Context, j *enum.Job, workers int, yield func([]uint16) bool) (Stats, error) {
	st, err := j.Walk(ctx, workers, yield)
	return Stats{Tours: new(big.Int).SetUint64(st.Tours), Shard: st.Shard, Shards: st.Shards,
		Work: Work{Nodes: st.Nodes, Tasks: st.Tasks, AllTasks: st.AllTasks, Workers: st.Workers, Elapsed: st.Elapsed}}, err
}

// describe names the count s makes, for Stats.Job: everything but the
// workers and the shard, which do not change what is counted.
func (s *Solver) describe() string {
	return fmt.Sprintf("%v tours of %dx%d from %v, move order %v, limit %d", kindOf(s.cfg.closed), s.rows, s.cols, s.start, s.cfg.order, s.cfg.limit)
}

func (s *Solver) count(ctx context.Context) (Stats, error) {
	if !s.cfg.closed || !s.cfg.reduce || s.cfg.limit > 0 || s.job.Root == nil {
		return s.walk(ctx, &s.job, s.cfg.workers, nil)
	}
	begin := time.Now()
	total := Stats{Tours: new(big.Int)}
	root := s.job.Root[0]
	for i, a := range s.job.Ends {
		for _, b := range s.job.Ends[i+1:] {
			j := s.job
			j.Root, j.Ends = []uint16{root, a}, []uint16{b}
			st, err := s.walk(ctx, &j, s.cfg.workers, nil)
			total.Tours.Add(total.Tours, st.Tours.Lsh(st.Tours, 1))
			total.Work.Nodes += st.Work.Nodes
			total.Work.Tasks += st.Work.Tasks
			total.Work.AllTasks += st.Work.AllTasks
			total.Work.Workers = max(total.Work.Workers, st.Work.Workers)
			if err != nil {
				total.Work.Elapsed = time.Since(begin)
				return total, err
			}
		}
	}
	if s.cfg.shard == 0 {
		total.Work.Nodes++ // the start square, counted once over the shards
	}
	total.Shard, total.Shards = s.cfg.shard, max(1, s.cfg.shards)
	total.Work.Elapsed = time.Since(begin)
	return total, nil
}

// All streams the tours in order, on the solver's workers, holding only a
// bounded number of them in memory however many there are. Stop the loop
// to stop the search. If ctx is cancelled the last pair carries its error.
//
// Each Tour shares memory with the search and is valid only until the loop
// moves on: call Tour.Clone to keep one.
func (s *Solver) All(ctx context.Context) iter.Seq2[Tour, error] {
	return func(yield func(Tour, error) bool) {
		if err := s.ready(ctx); err != nil {
			yield(Tour{}, err)
			return
		}
		stopped := false
		_, err := s.walk(ctx, &s.job, s.cfg.workers, func(path []uint16) bool {
			if !yield(Tour{rows: s.rows, cols: s.cols, squares: path}, nil) {
				stopped = true
				return false
			}
			return true
		})
		if err != nil && !stopped {
			yield(Tour{}, err)
		}
	}
}

// First returns the first tour in order, the one the Pascal program of
// seed 002 prints, or ErrNoTour if there is none.
func (s *Solver) First(ctx context.Context) (Tour, error) {
	for t, err := range s.All(ctx) {
		if err != nil {
			return Tour{}, err
		}
		return t.Clone(), nil
	}
	return Tour{}, fmt.Errorf("%w from %v on a %dx%d board", ErrNoTour, s.start, s.rows, s.cols)
}

// MergeStats adds the Stats of the shards of one count (see WithShard),
// given in any order, into the whole count's. It fails with ErrMerge unless
// the parts are of one count (the same Job) and are shards 0 to n-1 of one
// split, each once, of a tree cut
// into the same tasks, whose tasks add up to the tree's: a part missing,
// repeated, from another split or another count, relabelled, or with more
// tours than its search could have found.
func MergeStats(parts ...Stats) (Stats, error) {
	if len(parts) == 0 {
		return Stats{}, fmt.Errorf("%w: no results", ErrMerge)
	}
	ids := make([]shard.ID, len(parts))
	out := Stats{Job: parts[0].Job, Tours: new(big.Int), Shards: 1, Work: Work{AllTasks: parts[0].Work.AllTasks}}
	for i, p := range parts {
		if p.Job != out.Job {
			return Stats{}, fmt.Errorf("%w: shard %d/%d counts %s, shard %d/%d %s", ErrMerge, p.Shard, p.Shards, p.Job, parts[0].Shard, parts[0].Shards, out.Job)
		}
		if p.Work.AllTasks != out.Work.AllTasks || p.Work.Tasks < 0 || p.Work.Tasks > p.Work.AllTasks {
			return Stats{}, fmt.Errorf("%w: shard %d/%d walked %d of %d tasks, shard %d/%d's tree has %d", ErrMerge, p.Shard, p.Shards, p.Work.Tasks, p.Work.AllTasks, parts[0].Shard, parts[0].Shards, out.Work.AllTasks)
		}
		ids[i] = shard.ID{Index: p.Shard, Count: p.Shards}
		// Every tour ends a path of the search tree at a node of its own,
		// and a closed tour read backwards is counted with it: a count is
		// at most twice the nodes.
		if p.Tours == nil || p.Tours.Sign() < 0 || p.Tours.Cmp(new(big.Int).Lsh(new(big.Int).SetUint64(p.Work.Nodes), 1)) > 0 {
			return Stats{}, fmt.Errorf("%w: shard %d/%d counts %v tours from %d nodes of the search", ErrMerge, p.Shard, p.Shards, p.Tours, p.Work.Nodes)
		}
		out.Tours.Add(out.Tours, p.Tours)
		out.Work.Nodes += p.Work.Nodes
		out.Work.Tasks += p.Work.Tasks
		out.Work.Workers = max(out.Work.Workers, p.Work.Workers)
		out.Work.Elapsed = max(out.Work.Elapsed, p.Work.Elapsed)
	}
	if err := shard.Complete(ids); err != nil {
		return Stats{}, fmt.Errorf("%w: %v", ErrMerge, err)
	}
	if out.Work.Tasks != out.Work.AllTasks {
		return Stats{}, fmt.Errorf("%w: the shards walked %d tasks of a tree cut into %d: a shard is not the part its label says", ErrMerge, out.Work.Tasks, out.Work.AllTasks)
	}
	return out, nil
}
