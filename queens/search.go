package queens

import (
	mathbits "math/bits"
	"sync/atomic"
)

// The classic method runs two searches over bitmasks, one row at a time (bit c of a
// mask is column c). Solutions with a queen in a corner of the first row
// are never symmetric under any rotation or reflection, and every other
// class of 8 (or 4, or 2) solutions has a member whose first-row queen lies
// strictly between columns 0 and n-1 and is the class's smallest. So:
//
//   - family 1 puts the first queen on column 0 (the corner) and keeps, by
//     the transpose, only solutions whose second-row queen is right of
//     where the transposed one would be (bound1); each stands for 8;
//   - family 2 puts the first queen on column bound1 in 1..n/2-1 and cuts
//     every branch whose corners (sidemask, lastmask) would let a rotation
//     or reflection come out smaller; a check of the 90, 180 and 270
//     degree rotations of each solution found says how many distinct
//     solutions its class has (2, 4 or 8), or that it is not the class's
//     representative.
//
// Total = 2*c2 + 4*c4 + 8*c8 and Unique = c2 + c4 + c8.

// task is a partial placement: rows 0..y-1 filled (board), the attacked
// columns for row y (left, down, right), and the family's bounds.
type task struct {
	family            uint8
	y                 uint8
	bound1, bound2    uint8
	left, down, right uint64
	lastmask, endbit  uint64
	cols              [MaxN]uint8 // the column of each placed queen
}

// search counts the solutions below tasks; each worker has its own.
type search struct {
	n, last            int // last = n-1, the last row
	mask, topbit, side uint64
	bound1, bound2     int
	lastmask, endbit   uint64
	board              [MaxN]uint64
	c2, c4, c8         uint64
	checkBelow         int // rows above which the stop flag is read
	stop               *atomic.Bool
	stopped            bool
}

func newSearch(n int, stop *atomic.Bool) *search {
	s := &search{n: n, last: n - 1, stop: stop, checkBelow: n - checkRows}
	s.mask = 1<<uint(n) - 1
	s.topbit = 1 << uint(n-1)
	s.side = s.topbit | 1
	return s
}

// run counts the solutions below t.
func (s *search) run(t *task) {
	s.bound1, s.bound2 = int(t.bound1), int(t.bound2)
	s.lastmask, s.endbit = t.lastmask, t.endbit
	for i, c := range t.cols[:t.y] {
		s.board[i] = 1 << c
	}
	y := int(t.y)
	bits, ok := s.free(t.family, y, t.left, t.down, t.right)
	switch {
	case !ok || bits == 0:
	case y == s.last: // only for the smallest boards: the task is a whole placement
		if t.family == 1 {
			s.c8++
		} else if bits&s.lastmask == 0 {
			s.board[y] = bits
			s.classify()
		}
	case t.family == 1:
		s.corner(y, t.left, t.down, t.right, bits)
	default:
		s.inner(y, t.left, t.down, t.right, bits)
	}
}

// free returns the columns open to row y of a family's search, with its
// pruning, and false if the branch is dead. The task expansion and the
// first row of each task use it; corner, inner and innerTwo apply the same
// rules inline, in the parent's loop, for speed: a change to a rule must be
// made in all of them (the OEIS and plain-search tests catch a mismatch).
func (s *search) free(family uint8, y int, left, down, right uint64) (uint64, bool) {
	bits := s.mask &^ (left | down | right)
	if family == 1 {
		if y < s.bound1 {
			bits &^= 2
		}
		return bits, true
	}
	switch {
	case y < s.bound1:
		bits &^= s.side
	case y == s.bound2:
		if down&s.side == 0 {
			return 0, false
		}
		if down&s.side != s.side {
			bits &= s.side
		}
	}
	return bits, true
}

// A search reads its stop flag only in rows above the last checkRows: the
// subtree below such a row takes microseconds, and the rows below it hold
// nearly all the nodes, so cancellation is prompt and costs nothing.
const checkRows = 8

// corner is family 1's search from row y, whose open columns are bits. A
// parent works out each child's open columns before calling it, so the
// many children with none cost no call.
func (s *search) corner(y int, left, down, right, bits uint64) {
	if y < s.checkBelow && s.stop.Load() {
		s.stopped = true
		return
	}
	if y == s.last-1 { // settle the last row here rather than in a call
		s.c8 += s.lastTwo(left, down, right, bits)
		return
	}
	if y == s.last-2 { // and the last two rows
		for bits != 0 {
			bit := bits & -bits
			bits ^= bit
			l, d, r := (left|bit)<<1, down|bit, (right|bit)>>1
			next := s.mask &^ (l | d | r)
			if y+1 < s.bound1 {
				next &^= 2
			}
			if next != 0 {
				s.c8 += s.lastTwo(l, d, r, next)
			}
		}
		return
	}
	for bits != 0 && !s.stopped {
		bit := bits & -bits
		bits ^= bit
		l, d, r := (left|bit)<<1, down|bit, (right|bit)>>1
		next := s.mask &^ (l | d | r)
		if y+1 < s.bound1 {
			next &^= 2
		}
		if next != 0 && s.ahead(l, d, r) {
			s.corner(y+1, l, d, r, next)
		}
	}
}

// ahead reports whether rows y+2 and y+3 still have an open column when row
// y+1 is about to be filled with attacks l, d, r: the queens still to come
// only take columns away, so if either row has none now, no child of row
// y+1 can succeed. Callers use it only where rows y+2 and y+3 exist.
func (s *search) ahead(l, d, r uint64) bool {
	return s.mask&^(d|l<<1|r>>1) != 0 && s.mask&^(d|l<<2|r>>2) != 0
}

// lastTwo counts the ways to finish from the next-to-last row, whose open
// columns are bits.
func (s *search) lastTwo(left, down, right, bits uint64) uint64 {
	var found uint64
	for bits != 0 {
		bit := bits & -bits
		bits ^= bit
		if s.mask&^((left|bit)<<1|down|bit|(right|bit)>>1) != 0 {
			found++
		}
	}
	return found
}

// innerLast finishes family 2's placements from the next-to-last row y,
// whose open columns are bits, and classifies each solution.
func (s *search) innerLast(y int, left, down, right, bits uint64) {
	for bits != 0 {
		bit := bits & -bits
		bits ^= bit
		if final := s.mask &^ ((left|bit)<<1 | down | bit | (right|bit)>>1); final != 0 && final&s.lastmask == 0 {
			s.board[y] = bit
			s.board[y+1] = final
			s.classify()
		}
	}
}

// inner is family 2's search from row y, written like corner.
func (s *search) inner(y int, left, down, right, bits uint64) {
	if y < s.checkBelow && s.stop.Load() {
		s.stopped = true
		return
	}
	if y == s.last-1 { // settle the last row here (bound2 is never the last row)
		s.innerLast(y, left, down, right, bits)
		return
	}
	if y == s.last-2 { // and the last two rows
		for bits != 0 {
			bit := bits & -bits
			bits ^= bit
			s.board[y] = bit
			l, d, r := (left|bit)<<1, down|bit, (right|bit)>>1
			next := s.mask &^ (l | d | r)
			if y+1 == s.bound2 {
				if d&s.side == 0 {
					continue
				}
				if d&s.side != s.side {
					next &= s.side
				}
			}
			if next != 0 {
				s.innerLast(y+1, l, d, r, next)
			}
		}
		return
	}
	if y+1 >= s.bound1 && y+1 != s.bound2 && y+2 != s.bound2 && y+1 >= s.checkBelow && y+1 <= s.last-3 {
		s.innerTwo(y, left, down, right, bits)
		return
	}
	for bits != 0 && !s.stopped {
		bit := bits & -bits
		bits ^= bit
		s.board[y] = bit
		l, d, r := (left|bit)<<1, down|bit, (right|bit)>>1
		next := s.mask &^ (l | d | r)
		switch {
		case y+1 < s.bound1:
			next &^= s.side
		case y+1 == s.bound2:
			if d&s.side == 0 {
				continue
			}
			if d&s.side != s.side {
				next &= s.side
			}
		}
		if next != 0 && s.ahead(l, d, r) {
			s.inner(y+1, l, d, r, next)
		}
	}
}

// innerTwo is inner for a row y whose next row is an ordinary one (no
// rule for it or for its children, no stop check, three rows or more above
// the last): it does that row's loop itself and calls inner for row y+2,
// which halves the calls, the largest cost left in this search.
func (s *search) innerTwo(y int, left, down, right, bits uint64) {
	mask := s.mask
	for bits != 0 {
		bit := bits & -bits
		bits ^= bit
		s.board[y] = bit
		l, d, r := (left|bit)<<1, down|bit, (right|bit)>>1
		next := mask &^ (l | d | r)
		if next == 0 || !s.ahead(l, d, r) {
			continue
		}
		for next != 0 {
			bit2 := next & -next
			next ^= bit2
			s.board[y+1] = bit2
			l2, d2, r2 := (l|bit2)<<1, d|bit2, (r|bit2)>>1
			if next2 := mask &^ (l2 | d2 | r2); next2 != 0 && s.ahead(l2, d2, r2) {
				s.inner(y+2, l2, d2, r2, next2)
			}
		}
	}
}

// classify compares the solution on the board with its rotations by 90,
// 180 and 270 degrees, row by row: if a rotation comes out smaller the
// solution is not its class's representative and is not counted; if the
// 90 degree rotation gives the solution back its class has 2 members; if
// the 180 degree one does, 4; otherwise 8.
func (s *search) classify() {
	b, last := &s.board, s.last
	if b[s.bound2] == 1 { // 90 degrees
		own, ptn := 1, uint64(2)
		for ; own <= last; own, ptn = own+1, ptn<<1 {
			bit, you := uint64(1), last
			for b[you] != ptn && b[own] >= bit {
				bit <<= 1
				you--
			}
			if b[own] > bit {
				return
			}
			if b[own] < bit {
				break
			}
		}
		if own > last {
			s.c2++
			return
		}
	}
	if b[last] == s.endbit { // 180 degrees
		own, you := 1, last-1
		for ; own <= last; own, you = own+1, you-1 {
			bit, ptn := uint64(1), s.topbit
			for ptn != b[you] && b[own] >= bit {
				bit <<= 1
				ptn >>= 1
			}
			if b[own] > bit {
				return
			}
			if b[own] < bit {
				break
			}
		}
		if own > last {
			s.c4++
			return
		}
	}
	if b[s.bound1] == s.topbit { // 270 degrees
		own, ptn := 1, s.topbit>>1
		for ; own <= last; own, ptn = own+1, ptn>>1 {
			bit, you := uint64(1), 0
			for b[you] != ptn && b[own] >= bit {
				bit <<= 1
				you++
			}
			if b[own] > bit {
				return
			}
			if b[own] < bit {
				break
			}
		}
	}
	s.c8++
}

// roots returns the first tasks of both families, in a fixed order: family
// 1 with its first two queens placed, family 2 with its first.
func roots(n int) []task {
	var out []task
	last := n - 1
	for b1 := 2; b1 < last; b1++ {
		bit := uint64(1) << uint(b1)
		t := task{family: 1, y: 2, bound1: uint8(b1), left: (2 | bit) << 1, down: 1 | bit, right: bit >> 1}
		t.cols[0], t.cols[1] = 0, uint8(b1)
		out = append(out, t)
	}
	topbit := uint64(1) << uint(last)
	lastmask, endbit := topbit|1, topbit>>1
	for b1, b2 := 1, n-2; b1 < b2; b1, b2 = b1+1, b2-1 {
		bit := uint64(1) << uint(b1)
		t := task{family: 2, y: 1, bound1: uint8(b1), bound2: uint8(b2), left: bit << 1, down: bit, right: bit >> 1, lastmask: lastmask, endbit: endbit}
		t.cols[0] = uint8(b1)
		out = append(out, t)
		lastmask |= lastmask>>1 | lastmask<<1
		endbit >>= 1
	}
	return out
}

// expand replaces every task by its children one row further down, with
// the same pruning as the search, keeping the order.
func expand(n int, tasks []task) []task {
	s := newSearch(n, new(atomic.Bool))
	out := make([]task, 0, len(tasks)*n/3)
	for _, t := range tasks {
		s.bound1, s.bound2 = int(t.bound1), int(t.bound2)
		bits, ok := s.free(t.family, int(t.y), t.left, t.down, t.right)
		for ok && bits != 0 {
			bit := bits & -bits
			bits ^= bit
			c := t
			c.cols[t.y] = uint8(bits64(bit))
			c.y++
			c.left, c.down, c.right = (t.left|bit)<<1, t.down|bit, (t.right|bit)>>1
			out = append(out, c)
		}
	}
	return out
}

// bits64 returns the index of the single set bit of b.
func bits64(b uint64) int { return mathbits.TrailingZeros64(b) }

// classic is the classic method's counter over its task list.
type classic struct {
	s     *search
	tasks []task
}

func (c *classic) run(i int) { c.s.run(&c.tasks[i]) }

func (c *classic) solutions() uint64 { return 2*c.s.c2 + 4*c.s.c4 + 8*c.s.c8 }

func (c *classic) stopped() bool { return c.s.stopped }

// targetTasks is how many tasks the search for n is cut into: enough that
// two or hundreds of workers stay busy to the end (8192 from n = 17 on),
// few enough that cutting costs little on small boards, and fixed by n
// alone so that shards on different machines agree on the list.
func targetTasks(n int) int { return 1 << min(13, max(0, n-4)) }

// tasks returns the task list for n: the roots of both families, expanded
// row by row until there are targetTasks or the next row is the last.
func tasks(n int) []task {
	ts := roots(n)
	for y := 2; len(ts) < targetTasks(n) && y < n-2; y++ {
		ts = expand(n, ts)
	}
	return ts
}
