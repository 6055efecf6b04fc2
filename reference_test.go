package knightstour

// referenceTours is the seed's plain backtracking, written as directly as
// possible and with no pruning, so that the engine can be checked against
// it: it returns every tour from start, in the order the seed finds them,
// each formatted as the seed prints it.
func referenceTours(rows, cols int, start Coordinate, order []Move) []string {
	board := make([][]int, rows)
	for r := range board {
		board[r] = make([]int, cols)
	}
	var path []Coordinate
	var out []string
	var visit func(c Coordinate)
	visit = func(c Coordinate) {
		path = append(path, c)
		board[c.Row][c.Col] = len(path)
		if len(path) == rows*cols {
			t, err := NewTour(rows, cols, path)
			if err != nil {
				panic(err)
			}
			out = append(out, t.String())
		} else {
			for _, m := range order {
				next := Coordinate{c.Row + m.DRow, c.Col + m.DCol}
				if next.contains(rows, cols) && board[next.Row][next.Col] == 0 {
					visit(next)
				}
			}
		}
		board[c.Row][c.Col] = 0
		path = path[:len(path)-1]
	}
	visit(start)
	return out
}
