package construct

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
)

// A strip is a board 3 or 4 squares wide. Blocks cannot cut it (no 4-wide
// block has a closed tour), so Construct finds its tours with an exact
// frontier search instead: the squares are added across the strip, then
// along it, and a state records how the path's pieces meet the last 2w+1
// squares, whose jumps to squares still to come are the only ones left.
// The states after each square form a layer, tens to a few thousand of
// them however long the strip, and a tour is a chain of choices through
// the layers from the empty frontier to a finished tour. The search keeps
// every layer's states only at checkpoints, one every sqrt(n) squares, and
// traces the chain back one stretch between checkpoints at a time, so it
// takes time linear in the length and memory of a byte a square.
//
// An open tour is treated as a cycle through an imaginary square z, which
// both ends of the path jump to: the start at once, the other end when it
// leaves the frontier with one jump. A state packs, four bits a slot, the
// frontier's squares oldest first, then how many jumps z has.

// Slot codes of a frontier square, as in the frontier counter's states:
// the two searches walk the same frontier, but this one keeps a single way
// to reach each state and the choice that led there, where the counter
// keeps the number of ways.
const (
	slotFree  = 0 // no jump yet: the square needs two more
	slotDone  = 1 // two jumps, or no longer on the frontier
	slotToZ   = 2 // one jump; the other end of its piece of path is z
	slotLabel = 3 // one jump; codes from here on pair the two ends of a piece
)

// strip is one frontier search.
type strip struct {
	rows, cols int
	h, n       int // squares across the strip, squares in all
	win        int // frontier slots: 2h+1
	start      int // index along the search's order, or -1 for a closed tour
	closed     bool
	endColour  int // the colour the other end of an open tour must have
	length     int // squares along the strip

	// Tables of back and later for squares away from the strip's ends,
	// where they depend only on the position across it.
	backFrom  [][4]int // back(k) - k, or a positive value where off the board
	laterFrom [][]int  // later(k-win+1+j, k) by k mod h and j
}

// newStrip prepares the search of a rows x cols strip.
func newStrip(rows, cols int, start Square, closed bool) *strip {
	h := min(rows, cols)
	s := &strip{rows: rows, cols: cols, h: h, n: rows * cols, win: 2*h + 1, start: -1, closed: closed}
	if !closed {
		s.start = s.index(start)
		// A path alternates colours: on an even board its ends differ, on
		// an odd one both have the start's.
		s.endColour = (start.Row + start.Col + s.n + 1) % 2
	}
	s.length = s.n / h
	s.backFrom, s.laterFrom = make([][4]int, h), make([][]int, h)
	for a := range h {
		k := 4*h + a // a square with room on both sides, if the strip had it
		s.backFrom[a] = s.backOf(k)
		for i, u := range s.backFrom[a] {
			s.backFrom[a][i] = u - k
			if u < 0 {
				s.backFrom[a][i] = 1
			}
		}
		s.laterFrom[a] = make([]int, s.win)
		for j := range s.win {
			s.laterFrom[a][j] = s.laterOf(k-s.win+1+j, k, math.MaxInt/h)
		}
	}
	return s
}

// index returns the place of square c in the search's order.
func (s *strip) index(c Square) int {
	if s.rows == s.h {
		return c.Col*s.h + c.Row
	}
	return c.Row*s.h + c.Col
}

// colour returns the colour of square k: (row+column) mod 2.
func (s *strip) colour(k int) int { return (k%s.h + k/s.h) % 2 }

// later counts the neighbours of square q that come after square k.
func (s *strip) later(q, k int) int {
	if k < s.n-3*s.h {
		return s.laterFrom[k%s.h][q-(k-s.win+1)]
	}
	return s.laterOf(q, k, s.length)
}

// laterOf is later on a strip length squares long.
func (s *strip) laterOf(q, k, length int) int {
	a, p := q%s.h, q/s.h
	n := 0
	for _, d := range [4][2]int{{-2, 1}, {2, 1}, {-1, 2}, {1, 2}} {
		if aa, pp := a+d[0], p+d[1]; aa >= 0 && aa < s.h && pp < length && pp*s.h+aa > k {
			n++
		}
	}
	return n
}

// feasible reports whether every square on the frontier after square k can
// still get the jumps it needs from the squares to come: a square with
// fewer left than it needs must be an end of the path, of the right colour,
// and an open tour has only one end besides the start.
func (s *strip) feasible(f *stripState, k int) bool {
	ends := 0
	for j := range s.win {
		q := k - s.win + 1 + j
		c := f.slot[j]
		if q < 0 || c == slotDone {
			continue
		}
		left := s.later(q, k)
		need := 1
		if c == slotFree {
			need = 2
		}
		if left >= need {
			continue
		}
		if c == slotToZ || left+1 < need || s.closed || s.colour(q) != s.endColour {
			return false
		}
		ends++
	}
	used := int(f.z) // ends joined to z so far, the start among them once added
	if s.start >= 0 && s.start <= k {
		used--
	}
	return ends+used <= 1
}

// back lists the squares before k that a knight reaches from it, as
// indices, -1 where off the board: the bits of a choice follow this order.
func (s *strip) back(k int) [4]int {
	if k < 2*s.h {
		return s.backOf(k)
	}
	b := s.backFrom[k%s.h]
	for i := range b {
		if b[i] > 0 {
			b[i] = -1
		} else {
			b[i] += k
		}
	}
	return b
}

// backOf is back without the tables.
func (s *strip) backOf(k int) [4]int {
	a, p := k%s.h, k/s.h
	out := [4]int{-1, -1, -1, -1}
	for i, d := range [4][2]int{{-2, -1}, {2, -1}, {-1, -2}, {1, -2}} {
		if aa, pp := a+d[0], p+d[1]; aa >= 0 && aa < s.h && pp >= 0 {
			out[i] = pp*s.h + aa
		}
	}
	return out
}

// coord returns square k of the search's order on the board.
func (s *strip) coord(k int) Square {
	a, p := k%s.h, k/s.h
	if s.rows == s.h {
		return Square{a, p}
	}
	return Square{p, a}
}

// stripState is a state unpacked: slot j holds square k-win+j before k is
// added.
type stripState struct {
	slot [16]uint8
	z    uint8 // jumps to z so far
}

func (s *strip) unpack(st uint64) stripState {
	var f stripState
	for j := range s.win {
		f.slot[j] = uint8(st >> (4 * j) & 15)
	}
	f.z = uint8(st >> (4 * s.win))
	return f
}

// pack relabels the pairs in order of first appearance, so that equal
// frontiers pack to equal states.
func (s *strip) pack(f *stripState) uint64 {
	var rename [16]uint8
	next := uint8(slotLabel)
	var st uint64
	for j := range s.win {
		c := f.slot[j]
		if c >= slotLabel {
			if rename[c] == 0 {
				rename[c] = next
				next++
			}
			c = rename[c]
		}
		st |= uint64(c) << (4 * j)
	}
	return st | uint64(f.z)<<(4*s.win)
}

// initial is the state before any square: the slots of squares before the
// board count as done.
func (s *strip) initial() uint64 {
	var f stripState
	for j := range s.win {
		f.slot[j] = slotDone
	}
	return s.pack(&f)
}

// partner returns the other slot holding label c, other than j.
func (f *stripState) partner(c uint8, j int, win int) int {
	for i := range win {
		if i != j && f.slot[i] == c {
			return i
		}
	}
	return -1
}

// step adds square k to state f with the jumps to its earlier neighbours
// nb (back(k)) that choice selects, and retires the square leaving the
// frontier. It reports false if that breaks the tour.
func (s *strip) step(f stripState, k int, nb [4]int, choice uint8) (uint64, bool) {
	w := s.win
	v := w // the new square's slot, for now one past the others
	f.slot[v] = slotFree
	if k == s.start {
		f.slot[v] = slotToZ
		if f.z++; f.z > 2 {
			return 0, false
		}
	}
	last := k == s.n-1
	closedNow := false
	base := k - w
	jumps := 0
	for i, u := range nb {
		if choice&(1<<i) == 0 {
			continue
		}
		if u < 0 {
			return 0, false
		}
		jumps++
		j := u - base
		us, vs := f.slot[j], f.slot[v]
		if us == slotDone || vs == slotDone || jumps > 2 {
			return 0, false
		}
		fresh := uint8(slotLabel + 7) // a label unused by any packed state
		switch {
		case us == slotFree && vs == slotFree:
			f.slot[j], f.slot[v] = fresh, fresh
		case us == slotFree: // u takes v's place as the end of v's piece
			f.slot[j], f.slot[v] = vs, slotDone
		case vs == slotFree:
			f.slot[v], f.slot[j] = us, slotDone
		case us == slotToZ && vs == slotToZ, us == vs: // a piece closes on itself
			if !last || (us == slotToZ) == s.closed {
				return 0, false
			}
			f.slot[j], f.slot[v] = slotDone, slotDone
			closedNow = true
		case us == slotToZ:
			f.slot[f.partner(vs, v, w+1)] = slotToZ
			f.slot[j], f.slot[v] = slotDone, slotDone
		case vs == slotToZ:
			f.slot[f.partner(us, j, w+1)] = slotToZ
			f.slot[j], f.slot[v] = slotDone, slotDone
		default: // two pieces join: their far ends now pair up
			f.slot[f.partner(vs, v, w+1)] = us
			f.slot[j], f.slot[v] = slotDone, slotDone
		}
	}
	if k == s.start && jumps > 1 {
		return 0, false
	}
	if closedNow {
		// The piece that just closed must hold every square.
		for j := 0; j <= w; j++ {
			if f.slot[j] != slotDone {
				return 0, false
			}
		}
		f.z = 3 // marks a finished tour
		return s.pack(&f), true
	}
	// Square k-w leaves the frontier: it is done, or an end of the path.
	if !s.retire(&f, 0, k-w) {
		return 0, false
	}
	copy(f.slot[:w], f.slot[1:w+1])
	if k < s.n-1 && !s.feasible(&f, k) {
		return 0, false
	}
	return s.pack(&f), true
}

// retire finishes slot j, square q: a square with one jump becomes the end
// of the path, joined to z. Joining z to the far end of a piece whose other
// end is already z finishes the tour, which only the flush after the last
// square may do.
func (s *strip) retire(f *stripState, j int, q int) bool {
	switch c := f.slot[j]; {
	case c == slotDone || q < 0:
		return true
	case c == slotFree || s.closed || s.colour(q) != s.endColour:
		return false
	case c == slotToZ:
		if q < s.n-s.win || f.z != 1 {
			return false
		}
		f.z = 3
	default:
		if f.z >= 2 {
			return false
		}
		f.z++
		f.slot[f.partner(c, j, s.win+1)] = slotToZ
	}
	f.slot[j] = slotDone
	return true
}

// finished reports whether state st, after the last square, is a tour once
// the squares still on the frontier are retired.
func (s *strip) finished(st uint64) bool {
	f := s.unpack(st)
	for j := range s.win {
		if !s.retire(&f, j, s.n-s.win+j) {
			return false
		}
	}
	return f.z == 3
}

// constructStrip finds a tour of a board 3 or 4 squares wide by the
// frontier search.
func constructStrip(ctx context.Context, rows, cols int, start Square, closed bool) ([]uint32, error) {
	s := newStrip(rows, cols, start, closed)
	var stretches []stretch
	var last []uint64
	var ways []map[uint64]via
	if s.n <= oneStretch {
		// Small enough to keep every layer: one pass.
		stretches = []stretch{{from: 0, to: s.n, in: []uint64{s.initial()}}}
		var err error
		if ways, err = s.ways(ctx, stretches[0]); err != nil {
			return nil, err
		}
		last = slices.Sorted(maps.Keys(ways[s.n-1]))
	} else {
		var err error
		if stretches, last, err = s.forward(ctx); err != nil {
			return nil, err
		}
	}
	target, found := uint64(0), false
	for _, st := range last {
		if s.finished(st) {
			target, found = st, true
			break
		}
	}
	if !found {
		return nil, ErrNoTour
	}
	choices := make([]uint8, s.n)
	for i := len(stretches) - 1; i >= 0; i-- {
		if ways == nil || i < len(stretches)-1 {
			var err error
			if ways, err = s.ways(ctx, stretches[i]); err != nil {
				return nil, err
			}
		}
		target = follow(stretches[i], ways, target, choices)
	}
	return s.tour(ctx, choices, start)
}

// oneStretch is the most squares for which the search keeps every layer
// rather than checkpoints: a few megabytes.
const oneStretch = 1024

// A stretch is a run of steps whose layers the backward pass recomputes
// from the layer before its first step: steps from..to-1, which are
// steps base..base+period-1 over and over when period > 0.
type stretch struct {
	from, to int
	base     int
	period   int
	in       []uint64 // the layer before step from (before step base, periodic)
}

// successors calls yield with each state that step k makes of st, and the
// choice of jumps that makes it: jumps to at most two earlier neighbours
// still on the frontier with a jump free.
func (s *strip) successors(st uint64, k int, yield func(uint64, uint8)) {
	f := s.unpack(st)
	var open uint8
	base := k - s.win
	nb := s.back(k)
	for i, u := range nb {
		if u >= 0 && f.slot[u-base] != slotDone {
			open |= 1 << i
		}
	}
	for c := open; ; c = (c - 1) & open { // every subset of open
		if bits.OnesCount8(c) <= 2 {
			if t, ok := s.step(f, k, nb, c); ok {
				yield(t, c)
			}
		}
		if c == 0 {
			return
		}
	}
}

// forward runs the steps, keeping only what the backward pass needs: the
// layer at the start of each stretch. Away from the ends of the strip and
// from the start, the rules repeat every two columns (a column shifts the
// colours), so when a layer equals the one two columns before it, every
// layer repeats until the next end or the start, and forward skips them.
func (s *strip) forward(ctx context.Context) ([]stretch, []uint64, error) {
	every := max(64, int(math.Sqrt(float64(s.n))))
	period := 2 * s.h
	layer := []uint64{s.initial()}
	recent := make([][]uint64, period) // the layers of the last two columns, by k mod period
	var out []stretch
	cur := stretch{from: 0, in: layer}
	for k := 0; k < s.n; k++ {
		if ctx.Err() != nil { // a step handles up to thousands of states: checking costs nothing
			return nil, nil, ctx.Err()
		}
		if k-cur.from == every {
			cur.to = k
			out = append(out, cur)
			cur = stretch{from: k, in: layer}
		}
		var next []uint64
		for _, st := range layer {
			s.successors(st, k, func(t uint64, _ uint8) { next = append(next, t) })
		}
		slices.Sort(next)
		layer = slices.Compact(next)
		// layer is now the one before step k+1.
		at := k + 1
		if prev := recent[at%period]; prev != nil && s.repeats(at, period) && slices.Equal(prev, layer) {
			end := s.n - 3*s.win - period
			if s.start >= at {
				end = min(end, s.start-period)
			}
			if jump := (end - at) / period * period; jump > 0 {
				cur.to = at
				out = append(out, cur, stretch{from: at, to: at + jump, base: at - period, period: period, in: prev})
				clear(recent)
				k = at + jump - 1
				cur = stretch{from: at + jump, in: layer}
				continue
			}
		}
		recent[at%period] = layer
	}
	cur.to = s.n
	return append(out, cur), layer, nil
}

// repeats reports whether steps at-period..at-1 follow the same rules as
// steps at..at+period-1: past the first columns, with the start, if any,
// added before both or after both.
func (s *strip) repeats(at, period int) bool {
	return at-period >= 3*s.win && (s.start < at-period || s.start >= at+period)
}

// via is how a state was reached: from state prev, by a choice of jumps.
type via struct {
	prev   uint64
	choice uint8
}

// ways computes a stretch's layers with the way each state was reached
// (for a periodic stretch, the layers of one period).
func (s *strip) ways(ctx context.Context, r stretch) ([]map[uint64]via, error) {
	first, steps := r.from, r.to-r.from
	if r.period > 0 {
		first, steps = r.base, r.period
	}
	out := make([]map[uint64]via, steps)
	prev := r.in
	for i := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := make(map[uint64]via, len(prev))
		for _, st := range prev {
			s.successors(st, first+i, func(t uint64, c uint8) {
				if _, ok := m[t]; !ok {
					m[t] = via{st, c}
				}
			})
		}
		out[i] = m
		prev = prev[:0:0]
		for t := range m {
			prev = append(prev, t)
		}
	}
	return out, nil
}

// follow traces target back through a stretch, records the choices, and
// returns the state before the stretch that the chain comes from.
func follow(r stretch, ways []map[uint64]via, target uint64, choices []uint8) uint64 {
	for k := r.to - 1; k >= r.from; k-- { // a map lookup a square: fast enough not to check for cancellation
		v := ways[(k-r.from)%len(ways)][target]
		choices[k] = v.choice
		target = v.prev
	}
	return target
}

// tour turns the chosen jumps into the tour from start. A square's jumps
// are those its own choice made to earlier squares and those the choices
// of later squares made to it, so the walk needs no other table: a byte a
// square besides the tour.
func (s *strip) tour(ctx context.Context, choices []uint8, start Square) ([]uint32, error) {
	jumps := func(k int) (out [2]int) {
		out, n := [2]int{-1, -1}, 0
		for i, u := range s.back(k) {
			if choices[k]&(1<<i) != 0 && n < 2 {
				out[n], n = u, n+1
			}
		}
		a, p := k%s.h, k/s.h
		for _, d := range [4][2]int{{-2, 1}, {2, 1}, {-1, 2}, {1, 2}} {
			aa, pp := a+d[0], p+d[1]
			if aa < 0 || aa >= s.h || pp >= s.length {
				continue
			}
			q := pp*s.h + aa
			back := s.back(q)
			if i := slices.Index(back[:], k); i >= 0 && choices[q]&(1<<i) != 0 && n < 2 {
				out[n], n = q, n+1
			}
		}
		return out
	}
	t := make([]uint32, 0, s.n)
	prev, cur := -1, s.index(start)
	for i := 0; cur >= 0 && i < s.n; i++ {
		c := s.coord(cur)
		t = append(t, uint32(c.Row*s.cols+c.Col))
		j := jumps(cur)
		nxt := j[0]
		if nxt == prev || nxt < 0 {
			nxt = j[1]
		}
		prev, cur = cur, nxt
		if i%(1<<18) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if err := check(s.rows, s.cols, t, s.closed); err != nil {
		return nil, fmt.Errorf("construct: internal error: the strip search built no tour: %v", err)
	}
	return t, nil
}
