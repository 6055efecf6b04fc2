package frontier

import (
	"math/bits"
	"slices"
)

// The classes of a layer's states, by which the passes of a step divide
// it (passes.go): what a state's squares are at a few window positions
// the step leaves alone.

// maxClassPositions bounds the positions a partition's classes look at
// before it splits any: 3^3 classes, enough to split most layers into
// passes of a tenth of them.
const maxClassPositions = 3

// maxClasses is the most classes a partition tells: the classes of a pass
// are the bits of a uint64.
const maxClasses = 64

// A partition tells the classes of a layer's states: first by the kinds
// of their squares at the window positions pos, 3^len(pos) classes whose
// last position is the lowest digit, then by splits, in order.
//
// Kinds are seldom even: an end of a path at a position is about twice
// as likely as a free square, and the class of ends at all three
// positions held a quarter of the layer on the wide squares of 8x12 with
// free ends. A class larger than a pass is made in ranges of the next
// layer's groups, each of which expands the whole class again: on square
// 48 that class took three passes, and the square expanded half as many
// states again as it held. A split divides such a class by the kind at
// one more position instead, so that each of its parts is expanded once.
type partition struct {
	pos    []int
	splits []classSplit
}

// A classSplit divides class by the kind of the square at window
// position pos: the states free there keep the class's number, and those
// done there and those at an end there take the next two numbers, after
// every class before the split.
type classSplit struct{ class, pos int }

// count returns how many classes pt tells.
func (pt partition) count() int { return classesBy(len(pt.pos)) + 2*len(pt.splits) }

// classesBy returns how many classes positions window positions tell:
// 3^positions, a kind each.
func classesBy(positions int) int {
	n := 1
	for range positions {
		n *= 3
	}
	return n
}

// positions returns the window positions pt looks at, each once.
func (pt partition) positions() []int {
	ps := slices.Clone(pt.pos)
	for _, s := range pt.splits {
		if !slices.Contains(ps, s.pos) {
			ps = append(ps, s.pos)
		}
	}
	return ps
}

// equal reports whether pt and o tell the same classes the same way.
func (pt partition) equal(o partition) bool {
	return slices.Equal(pt.pos, o.pos) && slices.Equal(pt.splits, o.splits)
}

// clone returns a copy of pt that shares no memory with it.
func (pt partition) clone() partition {
	return partition{pos: slices.Clone(pt.pos), splits: slices.Clone(pt.splits)}
}

// through returns pt as the window after the step st sees it, and false
// if a position leaves the window in the step.
func (pt partition) through(st *shift) (partition, bool) {
	out := pt.clone()
	for i, p := range pt.pos {
		if out.pos[i] = int(st.next[p]); out.pos[i] < 0 {
			return partition{}, false
		}
	}
	for i, s := range pt.splits {
		if out.splits[i].pos = int(st.next[s.pos]); out.splits[i].pos < 0 {
			return partition{}, false
		}
	}
	return out, true
}

// moved returns pt as the step after square v sees it, its window one
// square on, and false if a position leaves the window in either step.
func (pt partition) moved(f *board, v int) (partition, bool) {
	out, ok := pt.through(&f.shifts[v])
	if !ok || slices.ContainsFunc(out.positions(), func(q int) bool { return !f.stays(v+1, q) }) {
		return partition{}, false
	}
	return out, true
}

// A posKind is a kind a class's states have at a window position.
type posKind struct{ pos, kind int }

// rules returns, for each class of pt, the kinds its states have at the
// positions it looks at, and false if pt is not a partition: a split of
// a class that does not exist yet, or by a position the class is told by
// already.
func (pt partition) rules() ([][]posKind, bool) {
	rules := make([][]posKind, classesBy(len(pt.pos)), pt.count())
	for cl := range rules {
		rest := cl
		for i := len(pt.pos) - 1; i >= 0; i-- { // the last position is the lowest digit
			rules[cl] = append(rules[cl], posKind{pt.pos[i], rest % 3})
			rest /= 3
		}
	}
	for _, s := range pt.splits {
		if s.class < 0 || s.class >= len(rules) || slices.ContainsFunc(rules[s.class], func(r posKind) bool { return r.pos == s.pos }) {
			return nil, false
		}
		base := rules[s.class]
		for k := 1; k <= 2; k++ {
			rules = append(rules, append(slices.Clip(base), posKind{s.pos, k}))
		}
		rules[s.class] = append(slices.Clip(base), posKind{s.pos, 0})
	}
	return rules, true
}

// validPartition reports whether pt, read from a checkpoint, can tell the
// classes of a step's passes before square v: at most maxClassPositions
// distinct positions, then splits of classes that exist, all by window
// positions that stay in the window after v, and at most maxClasses
// classes.
func (f *board) validPartition(v int, pt partition) bool {
	if len(pt.pos) > maxClassPositions || pt.count() > maxClasses {
		return false
	}
	for i, q := range pt.pos {
		if !f.stays(v, q) || slices.Contains(pt.pos[:i], q) {
			return false
		}
	}
	for _, s := range pt.splits {
		if !f.stays(v, s.pos) {
			return false
		}
	}
	_, ok := pt.rules()
	return ok
}

// A classifier tells the class of a state of a layer from its key, by a
// partition.
type classifier struct {
	f *board
	partition
	rules [][]posKind // partition.rules
	table *classTable // where keys are in base 11; nil: by division
}

// setPositions makes c tell classes by the window positions pos alone.
func (c *classifier) setPositions(pos []int) { c.setPartition(partition{pos: pos}) }

// setPartition makes c tell classes by pt, a valid partition.
func (c *classifier) setPartition(pt partition) {
	c.partition = pt.clone()
	c.rules, _ = c.partition.rules()
	c.table = newClassTable(c)
}

// divide splits class cl of c by the kind at window position q (see
// classSplit). c tells classes by division until its table is made
// again (refine makes it once, after its splits).
func (c *classifier) divide(cl, q int) {
	c.splits = append(c.splits, classSplit{cl, q})
	c.rules, _ = c.partition.rules()
	c.table = nil
}

// after returns the window positions after the step st (as bits) that
// hold the classifier's positions before it, the classifier of the states
// the step makes there where c splits classes (nil where their kinds at
// those positions tell their classes), and whether all the positions
// stay: a pass of some classes makes states of its classes there, and
// keeps a state's reflection in its place only where the reflection is
// of the same class (worker.classAt).
func (c *classifier) after(st *shift) (uint32, *classifier, bool) {
	pt, ok := c.partition.through(st)
	if !ok {
		return 0, nil, false
	}
	var at uint32
	for _, q := range pt.positions() {
		at |= 1 << q
	}
	if len(pt.splits) == 0 {
		return at, nil, true
	}
	later := &classifier{f: c.f}
	later.setPartition(pt)
	return at, later, true
}

// kind returns what a square's code in a key is, for its class: free (0),
// done (1), or one end of a piece of path (2), whatever the piece.
func kind(code uint64) int { return int(min(code, slotToZ)) }

// codeAt returns the code of the square at window position q of key: a
// nibble of a packed key, else a digit, key / place % 11 in base 11 (a
// constant 11 spares a division) and key / place % radix where the
// digits grow (board.place and board.radix).
func (f *board) codeAt(key uint64, q int) uint64 {
	switch {
	case f.packed:
		return key >> (4 * q) & 15
	case f.slots <= base11Slots:
		return key / f.place[q] % 11
	default:
		return key / f.place[q] % f.radix[q]
	}
}

// class returns the class of key, from 0 to c.count()-1.
func (c *classifier) class(key uint64) int {
	if c.table != nil {
		return c.table.class(key)
	}
	class := 0
	for _, p := range c.pos {
		class = 3*class + kind(c.f.codeAt(key, p))
	}
	for j, s := range c.splits {
		if class == s.class {
			class = c.split(j, kind(c.f.codeAt(key, s.pos)))
		}
	}
	return class
}

// classOfWindow returns the class of the window a, whose square at
// position p is a[from[p]].
func (c *classifier) classOfWindow(a *slotCodes, from *[MaxSlots]int8) int {
	class := 0
	for _, p := range c.pos {
		class = 3*class + kind(uint64(a[from[p]]))
	}
	for j, s := range c.splits {
		if class == s.class {
			class = c.split(j, kind(uint64(a[from[s.pos]])))
		}
	}
	return class
}

// split returns the class of a state of the class split j divides, of
// kind k at its position.
func (pt partition) split(j, k int) int {
	if k == 0 {
		return pt.splits[j].class
	}
	return classesBy(len(pt.pos)) + 2*j + k - 1
}

// take reports whether a pass of classes expands the state of key.
func (c *classifier) take(classes, key uint64) bool {
	return classes == allClasses || classes>>c.class(key)&1 != 0
}

// holds returns the classes whose states a group of kinds ks may hold:
// all, where ks is unknown.
func (c *classifier) holds(ks kindSet) uint64 {
	if ks == 0 || c.count() == 1 {
		return allClasses
	}
	var set uint64
	bits := c.f.kindBits()
	for cl, rule := range c.rules {
		held := true
		for _, r := range rule {
			if ks>>(bits*r.pos+r.kind)&1 == 0 {
				held = false
				break
			}
		}
		if held {
			set |= 1 << cl
		}
	}
	return set
}

// shares returns the part of sample in each class, each key weighed by
// the new states it made where they were measured.
func (c *classifier) shares(sm *sample) []float64 {
	w, sum := sm.weights()
	return sharesByClass(c.classesOf(sm.keys), w, sum, c.count())
}

// classesOf returns the class of each of keys.
func (c *classifier) classesOf(keys []uint64) []int {
	cls := make([]int, len(keys))
	for i, key := range keys {
		cls[i] = c.class(key)
	}
	return cls
}

// chooseClasses picks, one at a time after those of seed, the positions
// of keep whose kinds split the sample most evenly, until no class holds
// more than part of it or maxClassPositions are picked, and returns their
// classifier and each class's share of the sample.
//
// It weighs each candidate position by the kinds there and the class of
// each key by the positions picked so far, each read once from the keys,
// rather than by a classifier of each candidate: their tables would cost
// more to make than they save on a sample of a small layer.
func chooseClasses(f *board, keep []int, sm *sample, part float64, seed []int) (*classifier, []float64) {
	w, sum := sm.weights()
	cls := make([]int, len(sm.keys)) // each key's class by pos
	pos := slices.Clone(seed)
	shares := []float64{1}
	if len(seed) > 0 {
		c := &classifier{f: f}
		c.setPositions(pos)
		cls = c.classesOf(sm.keys)
		shares = sharesByClass(cls, w, sum, c.count())
	}
	kinds := make([][]uint8, len(keep)) // the kind of each key at keep[j], once read
	for len(shares) == 1 || len(pos) < maxClassPositions && slices.Max(shares) > part {
		pick := -1
		var pickShares []float64
		for j, p := range keep {
			if slices.Contains(pos, p) {
				continue
			}
			if kinds[j] == nil {
				kinds[j] = f.kindsAt(sm.keys, p)
			}
			sh := sharesBySplit(cls, kinds[j], w, sum, 3*len(shares))
			if pick < 0 || slices.Max(sh) < slices.Max(pickShares) {
				pick, pickShares = j, sh
			}
		}
		if pick < 0 {
			break // no position left
		}
		pos, shares = append(pos, keep[pick]), pickShares
		for i, k := range kinds[pick] {
			cls[i] = 3*cls[i] + int(k)
		}
	}
	c := &classifier{f: f}
	if len(pos) == 0 {
		return c, []float64{1}
	}
	c.setPositions(pos)
	return c, shares
}

// weights returns what each key of the sample weighs in a class's share
// (see shares), and their sum.
func (sm *sample) weights() ([]float64, float64) {
	w := make([]float64, len(sm.keys))
	sum := 0.0
	for i := range w {
		w[i] = sm.weight(i)
		sum += w[i]
	}
	if sum == 0 && sm.made != nil {
		return (&sample{keys: sm.keys}).weights() // nothing made: by the states
	}
	return w, sum
}

// sharesByClass returns the share of each of n classes, key i of class
// cls[i] weighing w[i] of sum.
func sharesByClass(cls []int, w []float64, sum float64, n int) []float64 {
	sh := make([]float64, n)
	for i, cl := range cls {
		sh[cl] += w[i]
	}
	return normalize(sh, sum)
}

// sharesBySplit is sharesByClass of the classes cls, each split by the
// kinds of its keys at a position: key i is of class 3*cls[i] + kinds[i].
func sharesBySplit(cls []int, kinds []uint8, w []float64, sum float64, n int) []float64 {
	sh := make([]float64, n)
	for i, cl := range cls {
		sh[3*cl+int(kinds[i])] += w[i]
	}
	return normalize(sh, sum)
}

// normalize divides each of sh by sum, where sum is not 0.
func normalize(sh []float64, sum float64) []float64 {
	if sum != 0 {
		for i := range sh {
			sh[i] /= sum
		}
	}
	return sh
}

// kindsAt returns the kind of each of keys at window position q.
func (f *board) kindsAt(keys []uint64, q int) []uint8 {
	ks := make([]uint8, len(keys))
	for i, key := range keys {
		ks[i] = uint8(kind(f.codeAt(key, q)))
	}
	return ks
}

// A classShare is some classes (a bit each) and their share of the next
// layer.
type classShare struct {
	classes uint64
	share   float64
}

// refine splits class cl, share of the next layer, by positions of keep,
// the largest part first, until every part is at most part, or no
// position divides the parts larger, or c tells maxClasses classes. It
// returns the parts, the class itself first, and their shares, by the
// weights of sample's keys in them.
func (c *classifier) refine(cl int, share, part float64, keep []int, sm *sample) []classShare {
	defer func() {
		if c.table == nil {
			c.table = newClassTable(c)
		}
	}()
	cls := c.classesOf(sm.keys) // kept as the classes split
	parts := []classShare{{1 << cl, share}}
	var stuck uint64 // the parts no position divides
	for c.count()+2 <= maxClasses {
		i := -1
		for j, p := range parts {
			if p.share > part && p.classes&stuck == 0 && (i < 0 || p.share > parts[i].share) {
				i = j
			}
		}
		if i < 0 {
			break
		}
		leaf := bits.TrailingZeros64(parts[i].classes)
		q, of, ok := c.bestSplit(leaf, keep, sm, cls)
		if !ok {
			stuck |= parts[i].classes
			continue
		}
		n := c.count()
		c.divide(leaf, q)
		for k, key := range sm.keys {
			if cls[k] == leaf {
				cls[k] = c.split(len(c.splits)-1, kind(c.f.codeAt(key, q)))
			}
		}
		whole := parts[i].share
		parts[i].share = whole * of[0]
		parts = append(parts, classShare{1 << n, whole * of[1]}, classShare{1 << (n + 1), whole * of[2]})
	}
	return parts
}

// bestSplit returns the position of keep that divides class cl most
// evenly by its kinds, weighed as in shares, and the part of the class's
// weight of each kind there; false where no position divides it, as all
// of its keys in the sample have one kind at each. cls holds the class
// of each key of the sample.
func (c *classifier) bestSplit(cl int, keep []int, sm *sample, cls []int) (int, [3]float64, bool) {
	var at []int // the positions of keep cl is not told by
	for _, q := range keep {
		if !slices.ContainsFunc(c.rules[cl], func(r posKind) bool { return r.pos == q }) {
			at = append(at, q)
		}
	}
	if len(at) == 0 {
		return 0, [3]float64{}, false
	}
	weights := make([][3]float64, len(at))
	sum := 0.0
	for i, key := range sm.keys {
		if cls[i] != cl {
			continue
		}
		w := sm.weight(i)
		for j, q := range at {
			weights[j][kind(c.f.codeAt(key, q))] += w
		}
		sum += w
	}
	if sum == 0 {
		return 0, [3]float64{}, false
	}
	best := -1
	for j, w := range weights {
		if best < 0 || max(w[0], w[1], w[2]) < max(weights[best][0], weights[best][1], weights[best][2]) {
			best = j
		}
	}
	w := weights[best]
	if max(w[0], w[1], w[2]) >= sum {
		return 0, [3]float64{}, false
	}
	return at[best], [3]float64{w[0] / sum, w[1] / sum, w[2] / sum}, true
}
