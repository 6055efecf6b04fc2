package frontier

import "math/bits"

// The counting step on packed states (window.go), for boards whose states describe at
// most 16 squares (up to 7 wide, and 8 wide with the narrow sweeps): there
// a state is one 64-bit word, 4 bits a square (a nibble), and the step
// works on it with whole-word operations instead of unpacking it into
// bytes. With 16 squares the nibbles fill the key, and z's state is told
// by the squares (zOf). Boards 8 wide swept row by row (17 squares) take
// expand's byte arrays; tests run both on the same boards.

// expandPacked adds square v to one packed state in every way it can take
// 0, 1 or 2 edges to its earlier neighbours: expand on one word.
func (w *worker) expandPacked(key uint64, val []uint64) {
	f, st := w.r.f, w.st
	s := f.slots
	x := window{lo: key & f.nibbles}
	z := w.zOf(key)
	free, ends := nibbleKinds(x.lo)
	free &= 1<<s - 1
	self := uint32(1) << s
	room := 2
	if w.v == w.r.start {
		x = x.set(s, slotToZ) // the start's other edge goes to z
		ends |= self
		room = 1
	} else {
		free |= self
	}
	var cand [4]int8
	nc := 0
	for k, p := range st.back[:st.nback] {
		if x.nib(int(p)) != slotDone && !w.barred.has(k) {
			cand[nc] = p
			nc++
		}
	}
	closed := w.r.mode == Closed
	none, one, pairs := w.options(w.memoAt(ends, free, z), ends, free, z, cand[:nc], room)
	if none {
		w.finishPacked(x, z, free, ends, false, true, val)
	}
	fs := x.far(s)
	var fc [4]int // the far end of each candidate's piece of path
	for m := linked(one, pairs); m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		fc[i] = x.far(int(cand[i]))
	}
	for i := range nc {
		if one>>i&1 == 0 && pairs.of(i) == 0 {
			continue
		}
		bends, bfree := takeEdge(ends, free, self|1<<cand[i])
		b, complete, ok := x.link(s, int(cand[i]), fs, fc[i], freshFirst, closed)
		if !ok {
			continue
		}
		if one>>i&1 != 0 {
			// An edge to a piece of path that leads to z leaves the
			// labels as they were; any other makes a fresh one.
			w.finishPacked(b, z, bfree, bends, complete, x.nib(int(cand[i])) == slotToZ, val)
		}
		if complete {
			continue
		}
		for m := pairs.of(i); m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m)
			if c, complete, ok := b.link(s, int(cand[j]), fc[i], secondFar(fc[j], int(cand[i]), s), freshSecond, closed); ok {
				cends, cfree := takeEdge(bends, bfree, self|1<<cand[j])
				w.finishPacked(c, z, cfree, cends, complete, false, val)
			}
		}
	}
}

// zOf returns the z-state of a packed key: above its nibbles, or, where
// they fill the key, told by its squares whose piece of path leads to z
// (code slotToZ). z gave an edge to each of those pieces, but for the
// start's: zFull is the z-state of this step's keys with none.
func (w *worker) zOf(key uint64) int {
	f := w.r.f
	if f.zInKey {
		return int(key >> (4 * f.slots))
	}
	return w.zFull - bits.OnesCount64(nibbleZeros(key^slotToZ*nibbleLow))
}

// finishPacked is finish on a window: free and ends are the positions of
// squares with no edge and with one. canon says that x's labels are those
// of the state it came from, in order of first appearance still: then,
// unless a piece of path leaves or the reflection is kept, the new state
// needs no renaming: 14% of the new states of 7x7 from the corner.
func (w *worker) finishPacked(x window, z int, free, ends uint32, complete, canon bool, val []uint64) {
	st := w.st
	if free&st.retire != 0 || bits.OnesCount32(free&st.thin) > zLeft[z] || free&st.thin&w.notEnd[z] != 0 {
		return
	}
	for m := ends & st.retire; m != 0; m &= m - 1 {
		if complete {
			return // a second piece of path besides the whole cycle
		}
		p := bits.TrailingZeros32(m)
		if zLeft[z] == 0 || w.notEnd[z]>>p&1 != 0 {
			return // no end of the path left, or not one of this colour
		}
		z = w.r.zAfter(z, st.black>>p&1)
		if c := x.nib(p); c == slotToZ {
			complete = true
		} else {
			x = x.set(x.partner(p, c), slotToZ)
			canon = false // a pair of labels gone: those after it move down
		}
		x = x.set(p, slotDone)
	}
	if w.cut != nil {
		w.endBoardPacked(x, z, free, ends&^st.retire, complete, val)
	}
	if w.final {
		if complete && addLimbs(w.total, val) {
			w.err = errOverflow
		}
		return
	}
	if complete || bits.OnesCount32(free&st.thin) > zLeft[z] {
		return
	}
	c := st.shiftWindow(x)
	if w.mirror {
		kept := c
		c, z = w.r.lesser(c, z, st, w.classAt, w.classLater)
		canon = canon && c == kept
	}
	if e := w.buffered; e != nil && e.by.byDemand {
		// Bins group by demand, which renaming labels leaves as it is: a
		// state of another pass is dropped before its labels are renamed,
		// the costliest part of making it. On 7x8 from the corner at
		// -memory 600M (up to 7 passes a square) that spares 14% of the
		// renamings.
		if h, ok := e.bucket(w.r.f.withZ(c, z)); ok {
			if !canon {
				c = relabel(c)
			}
			e.put(h, w.r.f.withZ(c, z), val)
		}
		return
	}
	if !canon {
		c = relabel(c)
	}
	w.emit(w.r.f.withZ(c, z), val)
}

// endBoardPacked is endBoard on a window: free and ends are the positions
// of squares with no edge and with one.
func (w *worker) endBoardPacked(x window, z int, free, ends uint32, complete bool, val []uint64) {
	if free != 0 {
		return // a square no path reaches
	}
	for m := ends; m != 0; m &= m - 1 {
		if complete || zLeft[z] == 0 {
			return
		}
		p := bits.TrailingZeros32(m)
		z = w.r.zAfter(z, w.st.black>>p&1)
		if c := x.nib(p); c == slotToZ {
			complete = true
		} else {
			x = x.set(x.partner(p, c), slotToZ)
		}
		x = x.set(p, slotDone)
	}
	if complete && addLimbs(w.cut, val) {
		w.err = errOverflow
	}
}

// lesser returns, of the window c (made by st, which the reflection maps
// onto itself) with z-state z and its reflection across the board's
// length, the one a count with counter.mirror keeps: c where the two
// are of different classes (worker.classAt, classLater). It compares
// them with the last square added's nibble the most significant: the
// squares added last stay longest, and choosing by them makes states that
// differ only in squares about to leave choose alike, so that their
// successors still meet. It compares first the kinds of their squares
// (free, done, an end), and only where those are alike the labels, named
// from the last square, which takes renaming both. On boards of an even
// width the reflection swaps the colours, and with them the z-states that
// name the colour of the second end.
func (r *counter) lesser(c uint64, z int, st *shift, classAt uint32, classLater *classifier) (uint64, int) {
	m, zm := st.reflectNibbles(c), r.f.reflectZ(z)
	kc, km := nibbleKindBits(c), nibbleKindBits(m)
	switch {
	case classAt != 0 && (kc^km)&(3*spread(classAt)) != 0 && (classLater == nil || classLater.class(c) != classLater.class(m)):
		return c, z // of another class: another pass's
	case km < kc:
		return m, zm
	case km > kc:
		return c, z
	}
	a, b := reverseNibbles(relabel(reverseNibbles(c))), reverseNibbles(relabel(reverseNibbles(m)))
	if b < a || b == a && zm < z {
		return m, zm
	}
	return c, z
}
