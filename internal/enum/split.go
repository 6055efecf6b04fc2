package enum

// split cuts the search tree below the prefix root into tasks: the prefixes
// of depth more jumps (fewer where the board is too small) that survive pruning, listed
// in depth-first order, so that doing the tasks in turn finds the tours in
// exactly the order of one unbroken search. With depth < 0 it cuts level
// by level until there are at least target tasks. nodes counts the prefixes
// expanded on the way, so that their sum with the tasks' own node counts
// equals the nodes of the unbroken search.
func split(s searcher, n int, root []uint16, depth, target int) (tasks [][]uint16, nodes uint64) {
	level := [][]uint16{root}
	var buf []uint16
	for d := len(root) - 1; d < n-1 && (depth < 0 && len(level) < target || d < len(root)-1+depth); d++ {
		flat := make([]uint16, 0, len(level)*4*(d+2))
		var starts []int
		for _, p := range level {
			nodes++
			buf = s.next(buf[:0], p)
			for _, t := range buf {
				starts = append(starts, len(flat))
				flat = append(append(flat, p...), t)
			}
		}
		level = make([][]uint16, len(starts))
		for i, at := range starts {
			level[i] = flat[at : at+d+2 : at+d+2]
		}
		if len(level) == 0 {
			break
		}
	}
	return level, nodes
}
