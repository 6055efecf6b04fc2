// Package enum is the enumeration engine: it walks the knight's tours of a
// board depth first, in move order, with pruning that cuts only branches
// that cannot become tours, so that its tours and their order are those of
// plain backtracking.
//
// A Graph is the board's knight graph under one move order; a Job is one
// search over it (the tours from a root, ending on given squares), which
// Walk runs on one goroutine or cuts into tasks for several, delivering
// the tours in order either way. Boards of up to 64 squares are searched
// on bitboards (search.go), larger ones by the wide search (search_wide.go),
// which derives the same pruning a second way. Warnsdorff is the same wide
// search with its candidates sorted by Warnsdorff's rule.
//
// The root package owns the API: options, Coordinate and Move, Stats with
// the job's name, and the errors it exports (ErrGaveUp is this package's).
package enum
