package frontier

import (
	"math/bits"
	"slices"
)

// A layer holds the states of a count after some squares were added, each
// with the number of partial solutions in it: an entry is the state's key
// followed by its count in k 64-bit limbs, least significant first. The
// entries are split into groups by the high bits of the key's hash, so
// that the next layer can be built a group at a time: every group of the
// next layer is a hash table of its own, filled from all workers in
// batches and packed into a dense array when the step is done, and every
// group of this layer is freed as soon as its states have been expanded.
// So a step holds about one layer of dense entries plus the tables being
// filled, never the unmerged products of a whole step.
type layer struct {
	groups []group // dense entries of 1+k words
	n      int
	files  []*layerFile // where its groups lie on disk, if they do
	// parts, when not nil, says which classes of states its groups hold,
	// for a layer made in passes by classes (see classParts).
	parts *classParts
}

// free returns the layer's memory and removes its files.
func (l *layer) free(a *arena) {
	for g := range l.groups {
		a.free(l.groups[g])
		l.groups[g] = group{}
	}
	for _, f := range l.files {
		f.remove()
	}
	l.files = nil
}

// onDisk reports whether all of the layer is in files.
func (l *layer) onDisk() bool {
	for _, g := range l.groups {
		if g.file == nil && g.words > 0 {
			return false
		}
	}
	return true
}

// classParts says which classes the groups of a layer hold: by the
// partition, groups [lo, hi) of each range hold only states of its
// classes, and the ranges cover the layer's groups in order.
type classParts struct {
	partition
	ranges []classRange
}

// A classRange is the groups a pass made and the classes it took.
type classRange struct {
	lo, hi  int
	classes uint64
}

// add records that the groups [lo, hi) hold only states of classes.
func (cp *classParts) add(lo, hi int, classes uint64) {
	cp.ranges = append(cp.ranges, classRange{lo, hi, classes})
}

// moved returns the parts as the step after square v sees them, its
// window one square on, or nil if a position leaves the window in either
// step.
func (cp *classParts) moved(f *board, v int) *classParts {
	if cp == nil || cp.count() == 1 {
		return nil
	}
	pt, ok := cp.partition.moved(f, v)
	if !ok {
		return nil
	}
	return &classParts{partition: pt, ranges: cp.ranges}
}

// usable reports whether a step that leaves the window positions keep
// alone, and whose layer has groups groups, can pass by cp's classes.
func (cp *classParts) usable(keep []int, groups int) bool {
	if cp == nil {
		return false
	}
	for _, p := range cp.positions() {
		if !slices.Contains(keep, p) {
			return false
		}
	}
	next := 0
	for _, r := range cp.ranges {
		if r.lo != next || r.hi < r.lo || r.classes == allClasses {
			return false
		}
		next = r.hi
	}
	return next == groups
}

// classesOf returns the classes group g of a layer with parts cp holds
// (all, for nil parts or a group outside the ranges).
func (cp *classParts) classesOf(g int) uint64 {
	if cp == nil {
		return allClasses
	}
	i, found := slices.BinarySearchFunc(cp.ranges, g, func(r classRange, g int) int {
		switch {
		case r.hi <= g:
			return -1
		case r.lo > g:
			return 1
		}
		return 0
	})
	if !found {
		return allClasses
	}
	return cp.ranges[i].classes
}

// allClasses is the classes of a pass that takes every state.
const allClasses = ^uint64(0)

// A projection tells, for each class of a layer's parts, the classes of
// a step's classifier that its states may have: those that agree with it
// on the kinds at the window positions both look at. A step whose passes
// are not by cur's classes (stepper.aligned) still shares positions with
// them where some of cur's positions stay untouched, and then a pass
// skips the groups whose classes disagree with all of its own there,
// where every pass of such a step would read and decode the whole layer:
// on 8x6 with free ends, in passes of a tenth of a layer, the passes read
// 5.1 states for each state of the layers with projections and 5.5
// without (TestReadsInPasses).
type projection []uint64

// project returns the projection of cp's classes on c's, or nil where
// they share no position and every group may hold every class.
func project(cp *classParts, c *classifier) projection {
	if cp == nil || cp.count() == 1 || c.count() == 1 {
		return nil
	}
	from, ok := cp.rules()
	if !ok {
		return nil
	}
	if !slices.ContainsFunc(cp.positions(), func(p int) bool { return slices.Contains(c.positions(), p) }) {
		return nil
	}
	pr := make(projection, len(from))
	for i, fr := range from {
		for j, to := range c.rules {
			if agree(fr, to) {
				pr[i] |= 1 << j
			}
		}
	}
	return pr
}

// agree reports whether states may have both the kinds a and b: they
// give no position different kinds.
func agree(a, b []posKind) bool {
	for _, x := range a {
		for _, y := range b {
			if x.pos == y.pos && x.kind != y.kind {
				return false
			}
		}
	}
	return true
}

// of returns the classes that the states of groups holding classes (of
// the parts) may have: all, for all.
func (pr projection) of(classes uint64) uint64 {
	if pr == nil || classes == allClasses {
		return allClasses
	}
	var to uint64
	for m := classes; m != 0; m &= m - 1 {
		if from := bits.TrailingZeros64(m); from < len(pr) {
			to |= pr[from]
		} else {
			return allClasses // not a class of the parts: nothing known
		}
	}
	return to
}
