package frontier

import "math/bits"

// The counting step on packed states, for boards up to 7 wide: there a
// window of 2w+1 squares and the square being added fit in one 64-bit
// word, 4 bits a square (a nibble), and the step works on that word with
// whole-word operations instead of unpacking it into bytes. Boards 8 wide
// take expand's byte arrays; tests run both on the same boards.

// nibbleLow has the lowest bit of every nibble set.
const nibbleLow = 0x1111111111111111

// nib returns the code of the square at window position p.
func nib(word uint64, p int) uint64 { return word >> (4 * p) & 15 }

// setNib returns word with the code at position p replaced by c.
func setNib(word uint64, p int, c uint64) uint64 {
	return word&^(15<<(4*p)) | c<<(4*p)
}

// nibbleZeros returns the highest bit of each nibble of x that is zero.
func nibbleZeros(x uint64) uint64 {
	const low3 = 0x7777777777777777
	return ^((x&low3 + low3) | x | low3)
}

// partner returns the position of the other square of word holding label
// c, given that position p holds it.
func partner(word uint64, p int, c uint64) int {
	same := nibbleZeros(word^c*nibbleLow) &^ (8 << (4 * p))
	return bits.TrailingZeros64(same) / 4
}

// farNib returns the position of the other end of the piece of path that
// ends at position x, x itself for a square with no edge, or -1 for z.
func farNib(word uint64, x int) int {
	switch c := nib(word, x); c {
	case slotFree:
		return x
	case slotToZ:
		return -1
	default:
		return partner(word, x, c)
	}
}

// squeeze gathers the lowest bits of the 16 nibbles of x into 16 bits.
func squeeze(x uint64) uint32 {
	x &= nibbleLow
	x = (x | x>>3) & 0x0303030303030303
	x = (x | x>>6) & 0x000f000f000f000f
	x = (x | x>>12) & 0x000000ff000000ff
	return uint32((x | x>>24) & 0xffff)
}

// nibbleKinds returns the positions of word (as bits) that hold no edge
// yet and those that hold the end of a piece of path.
func nibbleKinds(word uint64) (free, ends uint32) {
	return squeeze(^(word | word>>1 | word>>2 | word>>3)), squeeze(word>>1 | word>>2 | word>>3)
}

// linkNib adds the edge x-y to word, labelling a newly joined pair with
// fresh, a label no canonical state uses. It reports whether the edge
// closes the cycle (which must then be the whole tour) and false if it
// closes a cycle that cannot be one.
func linkNib(word uint64, x, y int, fresh uint64, closed bool) (out uint64, complete, ok bool) {
	fx, fy := farNib(word, x), farNib(word, y)
	if fx == y || fx < 0 && fy < 0 {
		if closed != (fx == y) {
			return word, false, false
		}
		return setNib(setNib(word, x, slotDone), y, slotDone), true, true
	}
	if nib(word, x) != slotFree {
		word = setNib(word, x, slotDone)
	}
	if nib(word, y) != slotFree {
		word = setNib(word, y, slotDone)
	}
	switch {
	case fx < 0:
		word = setNib(word, fy, slotToZ)
	case fy < 0:
		word = setNib(word, fx, slotToZ)
	default:
		word = setNib(setNib(word, fx, fresh), fy, fresh)
	}
	return word, false, true
}

// Labels linkNib makes: canonical states use labels from slotLabel up to
// slotLabel+7, as 16 positions hold at most 8 pairs.
const (
	freshFirst  = 15
	freshSecond = 14
)

// relabel renames the labels of word in order of first appearance, so
// that equal states get equal keys whatever labels their steps made up.
func relabel(word uint64) uint64 {
	b0, b1 := word&nibbleLow, word>>1&nibbleLow
	high := (word>>2 | word>>3) & nibbleLow
	labels := high | b0&b1 // codes from 3 on
	out := word
	next := uint64(slotLabel)
	for labels != 0 {
		p := bits.TrailingZeros64(labels)
		c := word >> p & 15
		pair := nibbleZeros(word^c*nibbleLow) >> 3 // the low bits of both ends
		labels &^= pair
		out = out&^(pair*15) | pair*next
		next++
	}
	return out
}

// expandPacked adds square v to one packed state in every way it can take
// 0, 1 or 2 edges to its earlier neighbours: expand on one word.
func (w *worker) expandPacked(key uint64, val []uint64) {
	f, st := w.r.f, w.st
	s := f.slots
	word := key & (1<<(4*s) - 1)
	z := int(key >> (4 * s))
	free, ends := nibbleKinds(word)
	free &= 1<<s - 1
	self := uint32(1) << s
	room := 2
	if w.v == w.r.start {
		word |= slotToZ << (4 * s) // the start's other edge goes to z
		ends |= self
		room = 1
	} else {
		free |= self
	}
	var cand [4]int8
	nc := 0
	for _, p := range st.back[:st.nback] {
		if nib(word, int(p)) != slotDone {
			cand[nc] = p
			nc++
		}
	}
	closed := w.r.mode == Closed
	none, one, pairs := w.options(ends, free, z, cand[:nc], room)
	if none {
		w.finishPacked(word, z, free, ends, false, val)
	}
	for i := range nc {
		if one>>i&1 == 0 && pairs[i] == 0 {
			continue
		}
		bends, bfree := takeEdge(ends, free, self|1<<cand[i])
		b, complete, ok := linkNib(word, s, int(cand[i]), freshFirst, closed)
		if !ok {
			continue
		}
		if one>>i&1 != 0 {
			w.finishPacked(b, z, bfree, bends, complete, val)
		}
		if complete {
			continue
		}
		for m := pairs[i]; m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m)
			if c, complete, ok := linkNib(b, s, int(cand[j]), freshSecond, closed); ok {
				cends, cfree := takeEdge(bends, bfree, self|1<<cand[j])
				w.finishPacked(c, z, cfree, cends, complete, val)
			}
		}
	}
}

// finishPacked is finish on one word: free and ends are the positions of
// squares with no edge and with one.
func (w *worker) finishPacked(word uint64, z int, free, ends uint32, complete bool, val []uint64) {
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
		if c := nib(word, p); c == slotToZ {
			complete = true
		} else {
			word = setNib(word, partner(word, p, c), slotToZ)
		}
		word = setNib(word, p, slotDone)
	}
	if w.cut != nil {
		w.endBoardPacked(word, z, free, ends&^st.retire, complete, val)
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
	key := relabel(st.compactWord(word)) | uint64(z)<<(4*w.r.f.slots)
	w.emit(key, val)
}

// endBoardPacked is endBoard on one word: free and ends are the positions
// of squares with no edge and with one.
func (w *worker) endBoardPacked(word uint64, z int, free, ends uint32, complete bool, val []uint64) {
	if free != 0 {
		return // a square no path reaches
	}
	for m := ends; m != 0; m &= m - 1 {
		if complete || zLeft[z] == 0 {
			return
		}
		p := bits.TrailingZeros32(m)
		z = w.r.zAfter(z, w.st.black>>p&1)
		if c := nib(word, p); c == slotToZ {
			complete = true
		} else {
			word = setNib(word, partner(word, p, c), slotToZ)
		}
		word = setNib(word, p, slotDone)
	}
	if complete && addLimbs(w.cut, val) {
		w.err = errOverflow
	}
}
