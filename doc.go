// Package knightstour finds, lists and counts knight's tours: paths on which
// a chess knight visits every square of an R x C board exactly once.
//
// It started as a Go port of the C++ case study "Das Springerproblem" (a
// Coordinate, a KnightProblemBoard of move numbers and a KnightProblemSolver
// with findMovesSequential and findMovesParallel) and keeps its conventions:
// squares are {row,col} from the top-left corner, the knight starts in the
// lower-left corner {rows-1, 0} unless told otherwise, and tours are listed
// in the order the case study's depth-first search finds them, trying the
// jumps in SeedOrder. Its non-type template parameters for the board size
// become arguments and functional options of NewSolver.
//
// # Move orders
//
// A move order is the order in which the search tries the eight knight
// jumps from each square. It changes neither which tours exist nor how
// many, only the order in which FindMoves, All and the tour files list them
// and which tour First returns: the first in that order. SeedOrder, the
// default, is the order of the program this package started from, so that
// its listings come out line for line as that program printed them;
// WirthOrder goes round the compass, as in Wirth's Pascal program; WithMoveOrder
// takes any other.
//
// # Speed
//
// The search keeps the unvisited squares of boards up to 64 squares in one
// uint64 and prunes every branch that provably cannot become a tour: a
// square with no way in, more than one square that could only be the last,
// a last square of the wrong colour, and on 4-row boards the rule that the
// two outer rows must alternate with the inner ones. Pruning never removes
// a tour, so counts and order equal those of the plain backtracking; it only
// makes the work follow the number of tours (6x6 from the corner: about 21
// squares entered per tour, 2.5 million tours a second on one core).
//
// The parallel calls cut the search tree into thousands of prefixes, hand
// them to idle workers one at a time, and put the results back into the
// sequential order, so the answers never depend on the number of workers.
//
// # Use
//
//	s, err := knightstour.NewSolver(4, 7)               // a 4x7 board
//	tours, err := s.FindMovesParallel(ctx)             // all 1682 tours, in order
//	stats, err := s.Count(ctx)                         // just the number
//	for tour, err := range s.All(ctx) { ... }          // stream them
//	first, err := s.First(ctx)                         // the first tour only
//
// With WithClosed the solver keeps to closed tours, whose last square is a
// jump from the first; RunCensus counts the tours from every square of a
// board, Unique counts them up to the board's symmetries, and TourWriter and
// TourReader store very many tours in about a byte per square.
//
// To count tours far beyond what can be listed, CountDP counts them by
// dynamic programming over a frontier of squares (open from a start, with
// free ends, or closed), exactly and in big integers, dropping the partial
// solutions whose degree demands the rest of the board cannot meet: 7x7
// from a corner in under a minute. For counts of hours it keeps its states
// on disk (WithSpill), survives a stop (WithCheckpoint) and splits into
// shards for many machines (WithShard).
//
// For one tour on any board, FindTour picks among three methods, or takes
// the one WithMethod names: the exact search; Warnsdorff's rule with exact
// pruning and bounded backtracking; and the construction, which builds a
// tour on any board that has one, from any square that can start one, in
// linear time (blocks with closed tours joined through their ports; an
// exact frontier search on strips 3 or 4 wide). Exists answers from the
// existence theorems without searching, and WriteSVG draws a tour.
//
// Every call that can run long takes a context.Context and returns soon
// after it is cancelled; WithProgress reports how far a search has got.
// Errors wrap the sentinel values in errors.go, for errors.Is: a call the
// package cannot serve as made (a nil context or option, a zero Solver)
// returns ErrMisuse rather than panic, and a checkpoint that another
// process is counting with returns ErrInUse.
package knightstour
