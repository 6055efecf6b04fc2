// Package queens counts and lists the placements of n queens on an n x n
// board so that no two attack each other (the N-Queens problem of the
// seed "Das Problem mit den Damen").
//
// Count finds the number of solutions and of distinct ones up to the
// board's eight rotations and reflections (OEIS A000170 and A002562). It
// searches with bitmasks and uses the symmetry to search only about one
// solution in eight: a solution with a queen in a corner of the first row
// is never symmetric and stands for 8; any other is searched only in forms
// that can be the smallest of its class, and a check of its rotations says
// whether it stands for 2, 4 or 8. The search is cut into thousands of
// tasks that idle workers take one at a time, and the same tasks can be
// split into shards for many machines (WithShard), whose Results Merge adds.
//
// Solutions streams every placement in lexicographic order, and Validate
// checks one.
package queens
