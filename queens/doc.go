// Package queens counts and lists the placements of n queens on an n x n
// board so that no two attack each other (the N-Queens problem of the
// seed "Das Problem mit den Damen").
//
// Count finds the number of solutions and of distinct ones up to the
// board's eight rotations and reflections (OEIS A000170 and A002562), by
// one of two methods with the same results (WithMethod):
//
//   - Constellations, the default from n = 15 on: every solution has one
//     queen on each border. The count lists those four queens'
//     arrangements, one per class of symmetry, weighs each by the size of
//     its class, and fills the frame between them with bitmasks, always at
//     the row or column with the fewest open squares, so that a line with
//     none ends a branch early. The
//     solutions up to symmetry come from Burnside's lemma and two small
//     searches for the solutions that a quarter and a half turn leave
//     unchanged (Result.QuarterTurn, Result.HalfTurn).
//   - Classic: a bitmask search from the top row that searches only about
//     one solution in eight, through bounds on the first rows' queens, and
//     checks the rotations of each solution found to tell whether it
//     stands for 2, 4 or 8.
//
// Either way the search is cut into thousands of tasks that idle workers
// take one at a time, and the same tasks can be split into shards for many
// machines (WithShard), whose Results Merge adds and checks.
//
// Solutions streams every placement in lexicographic order, and Validate
// checks one.
package queens
