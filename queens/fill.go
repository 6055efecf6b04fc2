package queens

import (
	"context"
	"math/bits"
	"sync/atomic"

	"github.com/euler1758/knightstour/internal/pool"
)

// unit is a work unit: a constellation with its first rows filled. Its
// masks are the columns that the queens placed so far attack in the next
// row to fill: along diagonals down to the right (right) and down to the
// left (left), and straight down (down).
type unit struct {
	plan              int32 // index into the plan list
	level             int32 // rows filled
	left, down, right uint64
}

// filler counts the solutions below work units; each worker has its own.
type filler struct {
	p       *plan
	stop    *atomic.Bool
	stopped bool
}

// framer is the constellation method's counter: its tasks are the work
// units and, last, the count of the solutions the turns leave unchanged.
type framer struct {
	n                    int
	plans                []plan
	units                []unit
	fill                 filler
	total, quarter, half uint64
}

func (f *framer) run(i int) {
	if i == len(f.units) {
		q, h, stopped := countTurns(f.n, f.fill.stop.Load)
		f.quarter, f.half, f.fill.stopped = f.quarter+q, f.half+h, stopped
		return
	}
	u := &f.units[i]
	p := &f.plans[u.plan]
	f.total += p.weight * f.fill.run(p, u)
}

func (f *framer) solutions() uint64 { return f.total }

func (f *framer) stopped() bool { return f.fill.stopped }

// frames returns the plans of the constellations for n, each oriented for
// a quick search (on the given workers), and the work units of the count.
// If ctx is done it returns early, with nothing.
func frames(ctx context.Context, n, workers int) ([]plan, []unit) {
	ks, weights := constellations(n, func() bool { return ctx.Err() != nil })
	plans := make([]plan, len(ks))
	err := pool.Run(ctx, workers, len(ks), func(_, i int) error {
		plans[i] = orient(n, ks[i], weights[i])
		return nil
	})
	if err != nil {
		return nil, nil
	}
	return plans, units(n, plans)
}

// A fill reads its stop flag only with more than checkRows rows left to
// fill; a subtree of fewer rows takes microseconds.

// run returns the solutions below u of plan p, not yet weighed.
func (f *filler) run(p *plan, u *unit) uint64 {
	f.p = p
	i := int(u.level)
	if i == p.rows {
		return 1
	}
	free := p.open[i] &^ (u.left | u.down | u.right)
	if free == 0 {
		return 0
	}
	return f.fill(i, u.left, u.down, u.right, free)
}

// fill returns the ways to fill the rows from the i-th on, whose open
// columns are free (not zero), below queens whose attacks on it are left,
// down and right.
func (f *filler) fill(i int, left, down, right, free uint64) uint64 {
	const last = MaxN - 1 // index masks: the compiler then drops the bounds checks
	p := f.p
	switch p.rows - i {
	case 1:
		return uint64(bits.OnesCount64(free))
	case 2:
		return lastTwo(p.open[(i+1)&last], p.step[(i+1)&last], left, down, right, free)
	case 3:
		var found uint64
		open1, open2 := p.open[(i+1)&last], p.open[(i+2)&last]
		s1, s2 := p.step[(i+1)&last]&63, p.step[(i+2)&last]
		for free != 0 {
			bit := free & -free
			free ^= bit
			l, d, r := (left|bit)<<s1, down|bit, (right|bit)>>s1
			if next := open1 &^ (l | d | r); next != 0 {
				found += lastTwo(open2, s2, l, d, r, next)
			}
		}
		return found
	}
	if p.rows-i > checkRows && f.stop.Load() {
		f.stopped = true
		return 0
	}
	if p.plain[i&last] {
		return f.fillPlain(i, left, down, right, free)
	}
	// Two rows per call, the calls being the search's largest cost; and a
	// queen is placed only if the two rows below it keep an open column.
	var found uint64
	open1, open2, open3 := p.open[(i+1)&last], p.open[(i+2)&last], p.open[(i+3)&last]
	s1, s2 := p.step[(i+1)&last]&63, p.step[(i+2)&last]&63
	s3 := (s2 + p.step[(i+3)&last]) & 63
	for free != 0 && !f.stopped {
		bit := free & -free
		free ^= bit
		l1, d1, r1 := (left|bit)<<s1, down|bit, (right|bit)>>s1
		next := open1 &^ (l1 | d1 | r1)
		if next == 0 || open2&^(l1<<s2|d1|r1>>s2) == 0 || open3&^(l1<<s3|d1|r1>>s3) == 0 {
			continue
		}
		for next != 0 {
			bit2 := next & -next
			next ^= bit2
			l2, d2, r2 := (l1|bit2)<<s2, d1|bit2, (r1|bit2)>>s2
			if next2 := open2 &^ (l2 | d2 | r2); next2 != 0 {
				found += f.fill(i+2, l2, d2, r2, next2)
			}
		}
	}
	return found
}

// fillPlain is fill for the i-th row when the three rows after it follow
// one another, the common case: the same loops with shifts by constants,
// which spares the registers a variable shift ties up (9% on n = 16).
func (f *filler) fillPlain(i int, left, down, right, free uint64) uint64 {
	const last = MaxN - 1
	p := f.p
	var found uint64
	open1, open2, open3 := p.open[(i+1)&last], p.open[(i+2)&last], p.open[(i+3)&last]
	for free != 0 && !f.stopped {
		bit := free & -free
		free ^= bit
		l1, d1, r1 := (left|bit)<<1, down|bit, (right|bit)>>1
		next := open1 &^ (l1 | d1 | r1)
		if next == 0 || open2&^(l1<<1|d1|r1>>1) == 0 || open3&^(l1<<2|d1|r1>>2) == 0 {
			continue
		}
		for next != 0 {
			bit2 := next & -next
			next ^= bit2
			l2, d2, r2 := (l1|bit2)<<1, d1|bit2, (r1|bit2)>>1
			if next2 := open2 &^ (l2 | d2 | r2); next2 != 0 {
				found += f.fill(i+2, l2, d2, r2, next2)
			}
		}
	}
	return found
}

// lastTwo returns the ways to fill the last two rows, the first of which
// has open columns free, the second open columns open, step rows below.
func lastTwo(open uint64, step uint, left, down, right, free uint64) uint64 {
	step &= 63
	var found uint64
	for free != 0 {
		bit := free & -free
		free ^= bit
		found += uint64(bits.OnesCount64(open &^ ((left|bit)<<step | down | bit | (right|bit)>>step)))
	}
	return found
}

// units returns the work units for n: every constellation's first rows
// filled, row by row, until there are at least targetUnits or a further
// row would fill some constellation completely. The list depends on n
// alone, so that shards on different machines agree on it.
func units(n int, plans []plan) []unit {
	us := make([]unit, len(plans))
	for i := range plans {
		us[i] = unit{plan: int32(i)}
	}
	for len(us) > 0 && len(us) < targetUnits(n) {
		deeper := true
		for _, u := range us {
			deeper = deeper && int(u.level)+1 < plans[u.plan].rows
		}
		if !deeper {
			break
		}
		us = expandUnits(plans, us)
	}
	return us
}

// targetUnits is how many work units the count for n is cut into: from
// n = 19 on, 65536, enough to spread a count over hundreds of machines.
func targetUnits(n int) int { return 1 << min(16, max(0, n-3)) }

// expandUnits replaces every unit by its children one row further down,
// keeping the order.
func expandUnits(plans []plan, us []unit) []unit {
	out := make([]unit, 0, 2*len(us))
	for _, u := range us {
		p := &plans[u.plan]
		i := int(u.level)
		free := p.open[i] &^ (u.left | u.down | u.right)
		s := p.step[i+1]
		for free != 0 {
			bit := free & -free
			free ^= bit
			out = append(out, unit{plan: u.plan, level: u.level + 1, left: (u.left | bit) << s, down: u.down | bit, right: (u.right | bit) >> s})
		}
	}
	return out
}
