package frontier

import (
	"cmp"
	"math/bits"
	"slices"
)

// When the tables of a lean step would pass the memory limit, the step
// makes the next layer in passes, each keeping part of the new states
// and packing them to disk before the next begins. A pass could keep the
// new states of some groups and drop the rest, but then every pass would
// expand the whole layer, and expanding is most of a step's work. Instead
// a pass expands only the states of some classes, where a state's class
// is what its squares at a few window positions are (free, done, or the
// end of a piece of path) and the positions are ones the step does not
// touch: neither the square it adds, its earlier neighbours, nor the
// squares that leave. Every new state inherits the class of the states it
// comes from, so the passes make disjoint parts of the next layer and
// each state is expanded once. A pass reads the layer back from disk and
// skips the states of other classes after a look at their keys. It reads
// only the groups that may hold its own: by the kinds each group holds
// (kindSet, below), and where the layer was itself made in passes by the
// same classes, by the classes of the pass that made the group
// (classParts).
//
// A class too large for one pass is split by the kind at one more
// position (partition), and only where no position divides it is it made
// in several passes, each keeping a range of groups: those expand the
// class again.

// A pass is one part of a lean step: the states of cur in classes (a bit
// a class) and, of their new states, those of groups [lo, hi). share is
// the part of the next layer it is expected to make.
type pass struct {
	classes uint64
	lo, hi  int
	share   float64
}

// untouched returns the window positions of a layer's keys whose kind the
// step of st keeps: the positions that stay in the window (with SweepRows
// 1 to slots-1, as position 0 leaves), less the new square's earlier
// neighbours.
func untouched(st *shift, slots int) []int {
	var keep []int
	for p := range slots {
		if st.next[p] < 0 || st.retire>>p&1 != 0 || slices.Contains(st.back[:st.nback], int8(p)) {
			continue
		}
		keep = append(keep, p)
	}
	return keep
}

// A sample is keys of a layer spread over all of it, the plan's view of
// the layer; made, once measured, is how many new states each key made
// (see stepper.measure), so that a class's share is of the new states,
// and so of the bins, its passes will hold: classes of a layer differ in
// how many new states a state makes. countLen is the bits of each key's
// count (limbsLen), for the layout of the lean step's tables.
type sample struct {
	keys     []uint64
	made     []uint32
	countLen []uint8
}

// wider returns the share of the sample's states whose counts have more
// than b bits.
func (sm *sample) wider(b int) float64 {
	if len(sm.countLen) == 0 {
		return 0
	}
	n := 0
	for _, l := range sm.countLen {
		if int(l) > b {
			n++
		}
	}
	return float64(n) / float64(len(sm.countLen))
}

// weight returns what key i of the sample weighs in a class's share.
func (sm *sample) weight(i int) float64 {
	if sm.made == nil {
		return 1
	}
	return float64(sm.made[i])
}

// lastingSteps is how many steps after its own a plan's positions should
// stay untouched, for the passes of those steps to follow its classes.
const lastingSteps = 3

// untouchedFor returns for how many steps after v, up to lastingSteps,
// the square at window position p of v's layer stays in the window
// untouched: neither added to nor leaving (see untouched).
func (f *board) untouchedFor(v, p int) int {
	n := 0
	q := p
	for u := v + 1; u < f.n && n < lastingSteps; u++ {
		if q = int(f.shifts[u-1].next[q]); q < 0 || !slices.Contains(untouched(&f.shifts[u], f.slots), q) {
			break
		}
		n++
	}
	return n
}

// place adds classes, share of the next layer, to passes of at most part
// each that keep the groups [lo, hi): into the first pass of all those
// groups with room for them, or a new one; a set too large for one pass
// (a single class, as the callers split larger sets) is made in ranges
// of the groups, at worst a group a pass.
func place(passes []pass, classes uint64, share, part float64, lo, hi int) []pass {
	if share > part {
		groups := hi - lo
		n := groups
		if part > 0 && share/part < float64(groups) {
			n = int(share/part) + 1
		}
		for i := range n {
			passes = append(passes, pass{classes: classes, lo: lo + groups*i/n, hi: lo + groups*(i+1)/n, share: share / float64(n)})
		}
		return passes
	}
	for i := range passes {
		if p := &passes[i]; p.lo == lo && p.hi == hi && p.share+share <= part {
			p.classes |= classes
			p.share += share
			return passes
		}
	}
	return append(passes, pass{classes: classes, lo: lo, hi: hi, share: share})
}

// kindBits is the bits a window position takes in a kindSet: four on a
// packed board, where they line up with the key's nibbles, and three on
// others, whose up to 18 positions would not fit four each.
func (f *board) kindBits() int {
	if f.packed {
		return 4
	}
	return 3
}

// kindsOf returns the kinds the states of entries (stride words each)
// hold: bit kindBits*p+k is set where some state has kind k at window
// position p.
func (f *board) kindsOf(entries []uint64, stride int) kindSet {
	if !f.packed {
		return f.kindsOfDigits(entries, stride)
	}
	var free, done, end uint64
	for i := 0; i < len(entries); i += stride {
		x := entries[i] & f.nibbles
		used, two := (x|x>>1|x>>2|x>>3)&nibbleLow, (x>>1|x>>2|x>>3)&nibbleLow
		free |= nibbleLow &^ used
		done |= used &^ two
		end |= two
	}
	return kindSet((free | done<<1 | end<<2) & f.nibbles)
}

// kindsOfDigits is kindsOf on a board whose keys are digits, which it
// reads without their codes where they are all in base 11 (needs11) and
// decodes where they are not, as a group is written: a pass that skips a
// group spares reading and decoding its block from disk and telling each
// state's class. It stops once every kind is seen at every position,
// which on 8 rows few groups reach: some positions never hold some kind.
func (f *board) kindsOfDigits(entries []uint64, stride int) kindSet {
	all := uint32(1)<<f.slots - 1
	base11 := f.slots <= base11Slots
	var a slotCodes
	var free, done, end uint32
	for i := 0; i < len(entries) && free&done&end != all; i += stride {
		var fr, en uint32
		if base11 {
			fr, en = needs11(entries[i], f.slots)
		} else {
			_, fr, en = f.decode(entries[i], &a)
		}
		free |= fr
		end |= en
		done |= all &^ (fr | en)
	}
	var ks kindSet
	for p := range f.slots {
		ks |= kindSet(free>>p&1|done>>p&1<<1|end>>p&1<<2) << (3 * p)
	}
	return ks
}

// validKinds reports whether ks could be the kinds of a group of states
// of f: unknown, or some kind at each window position and nothing else.
func (f *board) validKinds(ks kindSet) bool {
	if ks == 0 {
		return true
	}
	x := uint64(ks)
	if f.packed {
		return x&^(f.nibbles&(7*nibbleLow)) == 0 && (x|x>>1|x>>2)&nibbleLow&f.nibbles == nibbleLow&f.nibbles
	}
	var low uint64 // bit 3p of each position p
	for p := range f.slots {
		low |= 1 << (3 * p)
	}
	return x&^(7*low) == 0 && (x|x>>1|x>>2)&low == low
}

// A layer made in passes by classes holds each class in the groups of
// the passes that made it, and its states keep their classes at the
// window positions one lower (the window moved on a square). Where the
// next step leaves those positions alone too, its passes can be the same
// classes, and each reads only the groups of the passes it follows:
// without that, every pass reads and decodes the whole layer and drops
// all but its share, about a tenth of the work of a step in four passes.

// alignedPasses plans the passes of a step by the classes of the parts
// of cur (usable), for tables of at most part of the next layer each.
// The classes of each range of cur's groups (a pass of the step before)
// stay together where their states' share of cur fits in a pass: first
// fit, largest first, so that a pass reads the groups of few ranges.
// The classes of a range too large for one pass go into passes one at a
// time, by their shares in sample (keys of cur), and a single class too
// large for one pass is split by positions of splitBy, which the step
// leaves alone (classifier.refine), or else made in ranges of the next
// layer's groups, as planPasses does. A pass that turns out too large is
// made again as two (lean).
func alignedPasses(f *board, cp *classParts, cur *layer, stride int, sm *sample, part float64, groups int, splitBy []int) ([]pass, *classifier) {
	c := &classifier{f: f}
	c.setPartition(cp.partition)
	var units []classShare
	for _, r := range cp.ranges {
		n := 0
		for _, g := range cur.groups[r.lo:r.hi] {
			n += g.states(stride)
		}
		sh := float64(n) / float64(max(cur.n, 1))
		if i := slices.IndexFunc(units, func(u classShare) bool { return u.classes == r.classes }); i >= 0 {
			units[i].share += sh
			continue
		}
		units = append(units, classShare{r.classes, sh})
	}
	shares := c.shares(sm) // before any split: the classes of cp
	if sm.made != nil {
		// A unit's share of cur, as a share of the new states: by how
		// many its classes' states made in the sample, against the
		// sample's states in them.
		held := c.shares(&sample{keys: sm.keys})
		for i, u := range units {
			m, h := 0.0, 0.0
			for cl := u.classes; cl != 0; cl &= cl - 1 {
				if j := bits.TrailingZeros64(cl); j < len(held) {
					m += shares[j]
					h += held[j]
				}
			}
			if h > 0 {
				units[i].share *= m / h
			}
		}
	}
	slices.SortStableFunc(units, byShare)
	var passes []pass
	for _, u := range units {
		if u.share <= part {
			passes = place(passes, u.classes, u.share, part, 0, groups)
			continue
		}
		// The unit's share, split among its classes as the sample does,
		// and a class too large for a pass by positions of splitBy.
		var classes []classShare
		sum := 0.0
		for m := u.classes; m != 0; m &= m - 1 {
			cl := bits.TrailingZeros64(m)
			sh := 0.0
			if cl < len(shares) {
				sh = shares[cl]
			}
			classes = append(classes, classShare{1 << cl, sh})
			sum += sh
		}
		var parts []classShare
		for _, cl := range classes {
			if sum > 0 {
				cl.share *= u.share / sum
			} else {
				cl.share = u.share / float64(len(classes))
			}
			if cl.share > part && len(sm.keys) > 0 && len(splitBy) > 0 {
				parts = append(parts, c.refine(bits.TrailingZeros64(cl.classes), cl.share, part, splitBy, sm)...)
				continue
			}
			parts = append(parts, cl)
		}
		slices.SortStableFunc(parts, byShare)
		for _, p := range parts {
			passes = place(passes, p.classes, p.share, part, 0, groups)
		}
	}
	return passes, c
}

// byShare orders classes by their shares, largest first.
func byShare(a, b classShare) int { return cmp.Compare(b.share, a.share) }

// nextPartition returns the partition by which the layer after square v
// groups its states for the passes of the step after it
// (groupsByNextClass): three window positions of that layer that the
// step leaves alone, and false where there are none. Positions whose
// squares this step leaves alone too are picked by the kinds the sample
// of cur (nil where there is none) holds there, to split it as evenly as
// they can; the others, whose kinds the sample cannot tell, fill in.
func (f *board) nextPartition(v int, sm *sample) (partition, bool) {
	if v+1 >= f.n-1 {
		return partition{}, false // the last step makes no layer
	}
	keep := untouched(&f.shifts[v+1], f.slots)
	st := &f.shifts[v]
	var known []int // positions before the step, where it leaves them
	for _, p := range untouched(st, f.slots) {
		if q := int(st.next[p]); q >= 0 && slices.Contains(keep, q) {
			known = append(known, p)
		}
	}
	var pos []int
	if sm != nil && len(sm.keys) > 0 && len(known) > 0 {
		c, _ := chooseClasses(f, known, sm, 0, nil)
		known = c.pos
	}
	for _, p := range known[:min(len(known), maxClassPositions)] {
		pos = append(pos, int(st.next[p]))
	}
	for _, q := range keep {
		if len(pos) < maxClassPositions && !slices.Contains(pos, q) {
			pos = append(pos, q)
		}
	}
	pt := partition{pos: pos}
	if len(pos) == 0 || !f.validPartition(v+1, pt) {
		return partition{}, false
	}
	return pt, true
}

// classBits returns the bits that tell the classes of pt.
func (pt partition) classBits() uint { return uint(bits.Len(uint(pt.count() - 1))) }
