// Package frontier counts knight's tours by dynamic programming over a
// frontier (the transfer-matrix method; Knuth's DYNAHAM). It numbers the
// squares column by column along the longer side and adds them one at a
// time. A partial solution is a set of jumps among the squares added so
// far; all that matters for its future is the state of the squares added
// that still have neighbours to come (the frontier): for each, whether it
// has no jump yet, is done, or ends a piece of path, and which two ends
// belong to one piece. Added row by row (SweepRows), a column's squares
// leave a frontier of up to 2w+1 squares (w is the shorter side), and a
// state describes the window of the last 2w+1 squares added; added odd
// rows first (SweepNarrow, or SweepNarrowDown, which starts from the row
// below the last and goes down), they leave at most 2w, and a state
// describes only those, which on 8 rows halves the states. Open tours become cycles through an
// imaginary square z joined to both ends of the path. A layer maps each
// state to the number of partial solutions in it, and a step turns one
// layer into the next; the count is the number in the whole-tour state
// after the last square. The cost follows the number of states, which
// grows exponentially with the width and linearly with the length, never
// with the number of tours.
//
// Before counting, a cheaper pass over degree demands (how many more jumps
// each window square needs, without the pairing) finds which demands the
// rest of the board can still meet; the count drops every state whose
// demand cannot, before it stores it.
//
// The package speaks in rows, columns and square indices; the root package
// turns its options and coordinates into a Config and its Result into a
// DPCount.
//
// # Files
//
// The files stand in five tiers: each uses only what its own tier and
// the tiers below it declare (TestFileTiers checks it). Under them all
// are three packages that import nothing of this one:
//
//   - memory (internal/frontier/memory) keeps a count within its memory
//     limit and maps the words of its layers and tables outside the Go
//     heap;
//   - mix (internal/frontier/mix) scrambles keys, to group states and to
//     order them on disk;
//   - compact (internal/frontier/compact) writes the groups of a layer
//     file in blocks of a few bytes a state, and reads them back.
//
// The tiers, from the lowest:
//
//   - State: the board and its sweeps (board.go), the window of slots a
//     state describes, packed in nibbles (window.go), keys in digits
//     (keys.go), counts in limbs (limbs.go), the sizes work is cut into
//     (sizes.go), and the errors a count returns (errors.go).
//   - Store: the arena of slabs (arena.go), layer files on disk (disk.go,
//     diskguard.go) and the holes punched in them (punch_*.go), the lean
//     step's tables (table.go), the demand filters (filter.go).
//   - Plan: the classes of states and how they split (classes.go,
//     classtable.go), the passes a step is cut into by them (passes.go),
//     layers and the classes their groups hold (layer.go), the count's
//     settings and progress reports (config.go), and the checkpoint's
//     manifest (manifest.go).
//   - Step: the counter (counter.go) and the half of the tours it counts
//     from a start on a diagonal (diagonal.go); a worker expanding states
//     (worker.go, packed.go) into the buffered step's bins (buffer.go) or
//     the lean step's tables; the demand passes (demand.go), their sets
//     (demandset.go) and their file (demandfile.go); one step's machinery
//     (stepper.go) and checkpoints (checkpoint.go); the plan of passes
//     (plan.go), and the groups of a layer given back to the disk as the
//     passes are done with them (giveback.go); the lean and buffered
//     steps (lean.go, buffered.go); and the step that picks one (step.go).
//   - Count: Count and its Result (count.go).
package frontier
