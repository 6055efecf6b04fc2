package frontier

import (
	"encoding/binary"
	"math/bits"
)

// A worker expands states: it adds the step's square to each state of a
// piece and emits the states that follow, or counts the tours they end.

// failure returns the error a worker met while expanding, if any.
func (w *worker) failure(v, size int) error {
	switch {
	case w.err != nil:
		return w.err
	case w.lean != nil && w.lean.overflow:
		return errOverflow
	case w.lean != nil && w.lean.overLimit, w.buffered != nil && w.buffered.overLimit:
		return w.r.memoryError(v, size)
	}
	return nil
}

// notEnd returns, for each z-state, the positions of a step whose squares
// cannot end a tour for their colour: none when the count is of every
// length, whose boards' colours differ.
func (r *counter) notEnd(st *shift) (ne [4]uint32) {
	switch {
	case r.cfg.AllLengths:
	case r.mode == FromStart && r.f.n%2 == 0 && r.startColour == 0:
		ne = [4]uint32{0, ^st.black, 0, 0}
	case r.mode == FromStart && r.f.n%2 == 0:
		ne = [4]uint32{0, st.black, 0, 0}
	case r.f.n%2 == 1: // both ends on the corners' colour, which has one more square
		ne = [4]uint32{0, st.black, st.black, 0}
	case r.mode == FreeEnds:
		ne = [4]uint32{0, st.black, 0, ^st.black}
	}
	return ne
}

// worker expands states for one step on one goroutine.
type worker struct {
	r     *counter
	st    *shift
	v     int
	final bool
	// barred are the earlier neighbours the new square may not take an
	// edge to: at the start's step, the moves that do not start the tours
	// counted (diagonal.go).
	barred moveSet
	// cut, when not nil, sums the tours of the board cut after square v,
	// the end of a column (WithAllLengths).
	cut []uint64
	// lean or buffered takes the new states, as the step chose.
	lean     *stager
	buffered *emitter
	// in holds a piece of a layer read from disk.
	in    []uint64
	block []byte // a compact block of cur, read from disk
	total []uint64
	err   error
	// memo holds the options of recent demands (options), 2^(64-memoShift)
	// of them.
	memo      []uint64
	memoShift uint
	// touched sums the memo entries expandAll reads ahead, so that the
	// compiler keeps the reads.
	touched uint64
	// shard makes the worker expand only this shard's states.
	shard bool
	// notEnd[z] marks the positions whose squares have the wrong colour to
	// end an open tour in z-state z: a path alternates colours, so on a
	// board with an even number of squares it ends on the colour it did
	// not start on, and on an odd one it starts and ends on the colour of
	// the corners.
	notEnd [4]uint32
	// made counts the new states of a worker with neither tables nor bins
	// (measure).
	made int
	// zFull is the z-state of this step's packed keys with no square whose
	// piece of path leads to z, where the keys leave z out (zOf).
	zFull int
	// mirror says that the states this worker makes in the pass under way
	// are kept as the lesser of themselves and their reflection (see
	// counter.mirror, stepper.expand). In a pass of some classes, classAt
	// holds the window positions after the step that tell a state's class
	// (classifier.after): a state is kept as its reflection only where the
	// two are of the same class, so that the pass makes states of its own
	// classes alone, as the next step's passes expect (classParts). Where
	// the squares there are of the same kinds, they are; where they are
	// not, classLater, the classifier of the states the step makes, tells
	// whether a split class makes them one (nil: they are not). Where the
	// next layer is grouped by the classes of its own keys (stepper.next),
	// classAt is empty: a pass keeps every state as its reflection.
	mirror     bool
	classAt    uint32
	classLater *classifier
	_          apart // made is written for every state of a sample
}

// A state's z-state says how many edges z has left to give, and for free
// ends on boards with an even number of squares, which colour the second
// end must have: 0 none, 1 one (to a square of colour 0), 2 two, 3 one (to
// a square of colour 1).
var zLeft = [4]int{0, 1, 2, 1}

// zAfter returns the z-state after z gives an edge to a square of the
// given colour.
func (r *counter) zAfter(z int, colour uint32) int {
	if z == 2 && r.mode == FreeEnds && r.f.n%2 == 0 {
		return 3 - 2*int(colour) // the other end must have the other colour
	}
	return zLeft[z] - 1
}

// A decoded state is a state of the layer being expanded, decoded from its
// key in digits, with the square the step adds at position slots: the
// codes of its squares, its z-state, the positions of its squares with no
// edge yet (free) and of the ends of pieces of path (ends), and the entry
// of the memo of choices its demands look up.
type decoded struct {
	a          slotCodes
	z          int
	free, ends uint32
	memo       int
}

// decode decodes key for the step, into d.
func (w *worker) decode(key uint64, d *decoded) {
	f := w.r.f
	var free, ends uint32
	d.z, free, ends = f.decode(key, &d.a)
	self := uint32(1) << f.slots
	d.a[f.slots] = slotFree
	free |= self
	if w.v == w.r.start {
		d.a[f.slots] = slotToZ // the start's other edge goes to z
		free &^= self
		ends |= self
	}
	d.free, d.ends = free, ends
	d.memo = w.memoAt(ends, free, d.z)
}

// expandBatch is how many states in digits expandAll decodes before it
// expands them. A lean step's groups hold about as many demands as
// states, and their memo of choices, 16 MiB a worker, is far larger than
// the processor's caches: nearly every lookup waits for memory, and
// options took a fifth of a step at square 45 of 8x12 with free ends.
// Read one after another as loads that do not depend on each other, the
// entries of a batch wait for memory together (as stager.flush does for
// the tables).
const expandBatch = 16

// expandAll expands the states of entries at the offsets at, keys in
// digits, each followed by its count: k words for stride k+1.
func (w *worker) expandAll(entries []uint64, at []int, stride int) {
	var ds [expandBatch]decoded
	for len(at) > 0 {
		n := min(len(at), expandBatch)
		for i, j := range at[:n] {
			w.decode(entries[j], &ds[i])
		}
		var touch uint64
		for i := range n {
			touch += w.memo[ds[i].memo]
		}
		w.touched += touch
		for i, j := range at[:n] {
			w.expandDecoded(&ds[i], entries[j+1:j+stride])
		}
		at = at[n:]
	}
}

// expandKey expands one state, its key packed or in digits.
func (w *worker) expandKey(key uint64, val []uint64) {
	if w.r.f.packed {
		w.expandPacked(key, val)
	} else {
		w.expand(key, val)
	}
}

// expand adds square v to one state in digits in every way it can take
// 0, 1 or 2 edges to its earlier neighbours.
func (w *worker) expand(key uint64, val []uint64) {
	var d decoded
	w.decode(key, &d)
	w.expandDecoded(&d, val)
}

// expandDecoded is expand of a state decoded already.
func (w *worker) expandDecoded(d *decoded, val []uint64) {
	st := w.st
	// The window is read where decode wrote it, not from a copy: its
	// stores are long done (expandAll decodes a batch ahead), and a
	// copy's, 16 bytes at 0 and at 8, were not when the first read of
	// the copy's codes as words came, which waited for both to reach the
	// cache: 7% of the samples of a pass of square 57 of 8x12 with free
	// ends, in sameBytes or, codes 24 bytes long, in the first copy
	// made of the copy.
	a, z, free, ends := &d.a, d.z, d.free, d.ends
	s := int8(w.r.f.slots)
	self := uint32(1) << s
	room := 2
	if a[s] == slotToZ {
		room = 1 // the start, whose other edge goes to z (decode)
	}
	var cand [4]int8
	nc := 0
	for k, p := range st.back[:st.nback] {
		if a[p] != slotDone && !w.barred.has(k) {
			cand[nc] = p
			nc++
		}
	}
	closed := w.r.mode == Closed
	none, one, pairs := w.options(d.memo, ends, free, z, cand[:nc], room)
	// finish changes the codes it is given, so each state is made in a
	// copy of a, and a stays as decode wrote it for relinked to read.
	// Each copy is of a, not of a copy just changed: a copy reads the codes
	// as words, and codes just written a byte at a time must be stored
	// before they can be read so, which took half of expandDecoded's
	// samples at square 52 of 8x12 with free ends.
	fs := far(a, s)
	var fc [4]int8 // the far end of each candidate's piece of path
	for m := linked(one, pairs); m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		fc[i] = far(a, cand[i])
	}
	for i := range nc {
		if one>>i&1 == 0 && pairs.of(i) == 0 {
			continue
		}
		bfree := free &^ (self | 1<<cand[i]) // an edge leaves neither end unused
		b := *a
		complete, ok := linkSlots(&b, s, cand[i], fs, fc[i], closed)
		if !ok {
			continue
		}
		if !complete {
			for m := pairs.of(i); m != 0; m &= m - 1 {
				j := bits.TrailingZeros32(m)
				c := *a
				linkSlots(&c, s, cand[i], fs, fc[i], closed) // as b
				second := secondFar(fc[j], cand[i], s)
				if complete, ok := linkSlots(&c, s, cand[j], fc[i], second, closed); ok {
					w.finish(&c, relinked{a, linkEnds(fs, fc[i]) | linkEnds(fc[i], second)<<16, 2}, z, bfree&^(1<<cand[j]), complete, val)
				}
			}
		}
		if one>>i&1 != 0 {
			w.finish(&b, relinked{a, linkEnds(fs, fc[i]), 1}, z, bfree, complete, val)
		}
	}
	if none {
		b := *a
		w.finish(&b, relinked{orig: a}, z, free, false, val)
	}
}

// relinked is how the links of one of a step's choices changed the
// pieces of path of the window they were made in (orig): each joined two
// pieces into one whose ends are the far ends it was given, and every
// other end has the other end it had. finish finds far ends through it,
// in orig's codes, whose stores are long done: in the copy the links had
// just written a byte at a time, the read of its codes as words waited
// for those stores, 4.4% of the samples of a pass of square 60 of 8x12
// with free ends (BenchmarkFar: changed-copy against relinked).
//
// The far ends each link joined are a pair of bytes of links (linkEnds),
// the first link's lowest: a number made in registers. As an array,
// written a byte at a time, the call copied it as words at once, and
// waited for those bytes: 68% of expandDecoded's samples.
type relinked struct {
	orig  *slotCodes
	links uint32
	n     int
}

// linkEnds returns the far ends fx and fy that a link joined as the two
// bytes of a relinked's links.
func linkEnds(fx, fy int8) uint32 { return uint32(uint8(fx)) | uint32(uint8(fy))<<8 }

// far returns the position of the other end of the piece of path that
// ends at position x after the links, or -1 for z. It is asked only of
// the ends of pieces: a square that a link made an inner one is done.
func (l *relinked) far(x int8) int8 {
	for i := l.n - 1; i >= 0; i-- {
		fx, fy := int8(l.links>>(16*i)), int8(l.links>>(16*i+8))
		switch x {
		case fx:
			return fy
		case fy:
			return fx
		}
	}
	return far(l.orig, x)
}

// linked returns the candidates that some choice of a step links (one,
// and both of each pair): those whose far ends the step needs.
func linked(one uint32, pairs pairSet) uint32 {
	x := uint32(pairs)
	some := (x | x>>1 | x>>2 | x>>3) & 0x1111 // a bit at 4i where i takes a second edge
	return one | (some|some>>3|some>>6|some>>9)&15 | (x|x>>4|x>>8|x>>12)&15
}

// A pairSet holds, for each of a step's up to four candidates i, the
// later candidates j that can be taken with it: bit 4i+j. Four bits a
// candidate in one word, where an array of four was stored a word at a
// time and read back whole, which waited for the stores.
type pairSet uint32

// of returns the candidates that can be taken with candidate i.
func (ps pairSet) of(i int) uint32 { return uint32(ps) >> (4 * i) & 15 }

// secondFar returns the far end, after the step's first edge (from the
// new square s, which had none, to candidate first), of a candidate whose
// far end before it was f: s where the candidate's piece of path was
// first's, which the edge extended to s, else f. The new square's own far
// end after the edge is first's before it.
func secondFar[P int8 | int](f, first, s P) P {
	if f == first {
		return s
	}
	return f
}

// memoBits is the log2 of the entries of a worker's memo of choices: 2^13
// (64 KiB, in the processor's second-level cache) where the step's
// demand filter is small enough for the third-level cache, and 2^15
// where it is not (bigMemoFilter): a miss then waits for memory, and the
// demands of 8x8 are many. On 7x7 (filters up to 2 MiB) 2^17 entries cost
// 6% more time than 2^13 for a quarter of the misses; at square 44 of
// 8x8 from the corner (a filter of 16 MiB) 2^15 take 128 ns a state for
// the choices against 138 to 165 with 2^13, hitting for 45% of the
// states against 23%. Where keys are digits and the states of a group
// have as many demands as states (manyDemands: a lean step's groups, or a
// buffered step's grouped by hash), the memo takes 2^21 entries (16 MiB):
// on 9x5 with free ends across, 76% of the lookups missed 2^15, and the
// count took 164 s on one worker against 187.
//
// A layer of n states has at most n demands, and a memo of twice as many
// entries is enough: on small boards a larger one costs more to clear at
// every square than it saves (3x45 cleared 17 MB a count).
func (r *counter) memoBits(v int, mix demandMix, states int) uint {
	enough := max(minMemoBits, uint(bits.Len(uint(states)))+1)
	switch {
	case r.vb == nil || len(r.vb.after[v].words)*8 < bigMemoFilter:
		return min(13, enough)
	case !r.f.packed && mix == manyDemands:
		return min(21, enough)
	}
	return min(15, enough)
}

// minMemoBits is the log2 of the fewest entries of a memo of choices.
const minMemoBits = 6

// A demandMix tells how many demands the states of a group a worker
// expands have, which sizes its memo of choices (memoBits).
type demandMix int

const (
	// fewDemands: the group's states share a few demands (grouped by
	// demand), or the worker expands a sample only.
	fewDemands demandMix = iota
	// manyDemands: about as many demands as states (a lean step's groups,
	// or a buffered step's grouped by hash).
	manyDemands
)

// bigMemoFilter is the size of a demand filter from which a step's memo
// of choices is larger.
const bigMemoFilter = 8 << 20

// A memo entry remembers the choices of one demand in one word: the
// demand (ends and free, 20 bits each, and z+1, so that a zero entry is
// empty) in its low memoKeyBits, the answer above: half the bytes of a
// key and an answer apart, so that twice the entries stay in cache.
const memoKeyBits = 43

// The demand's masks hold a bit for each window position and the new
// square: a wider window would not fit its 20 bits.
const _ = uint(20 - (MaxSlots + 1))

// memoKey returns the key of a demand in the memo of choices.
func memoKey(ends, free uint32, z int) uint64 {
	return uint64(ends) | uint64(free)<<20 | uint64(z+1)<<40
}

// memoAt returns the entry of the memo of choices that the demand
// looks up.
func (w *worker) memoAt(ends, free uint32, z int) int {
	return int(memoKey(ends, free, z) * 0x9e3779b97f4a7c15 >> w.memoShift)
}

// options returns whether the state may take no edge to the new square,
// and choices' answer; at is the memo's entry for the demand (memoAt).
// They depend only on the state's demand, which many states share, and
// each costs several lookups in tables larger than the processor's
// caches: a small memo per worker and step keeps the answers for recent
// demands.
func (w *worker) options(at int, ends, free uint32, z int, cand []int8, room int) (none bool, one uint32, pairs pairSet) {
	key := memoKey(ends, free, z)
	e := &w.memo[at]
	if *e&(1<<memoKeyBits-1) != key {
		none = w.viable(ends, free, z)
		one, pairs = w.choices(ends, free, z, cand, room)
		val := uint64(one)<<1 | uint64(pairs)<<5
		if none {
			val |= 1
		}
		*e = key | val<<memoKeyBits
	}
	val := uint32(*e >> memoKeyBits)
	return val&1 != 0, val >> 1 & 15, pairSet(val >> 5 & 0xffff)
}

// choices returns, as bits, the candidates i whose edge to the new square
// (at bit self) can alone still lead to a tour, and for each i the later
// candidates j that can be taken with it where the square has room for
// two: where the demands rule a choice out, expand skips the work of
// linking.
func (w *worker) choices(ends, free uint32, z int, cand []int8, room int) (one uint32, pairs pairSet) {
	self := uint32(1) << w.r.f.slots
	for i := range cand {
		bends, bfree := takeEdge(ends, free, self|1<<cand[i])
		if w.viable(bends, bfree, z) {
			one |= 1 << i
		}
		if room < 2 {
			continue
		}
		for j := i + 1; j < len(cand); j++ {
			if cends, cfree := takeEdge(bends, bfree, self|1<<cand[j]); w.viable(cends, cfree, z) {
				pairs |= 1 << (4*i + j)
			}
		}
	}
	return one, pairs
}

// viable reports whether the demands after this step's edges, the squares
// needing one more (ends) and two more (free), can still be met; always
// true when the count keeps every state.
func (w *worker) viable(ends, free uint32, z int) bool {
	vb := w.r.vb
	if vb == nil {
		return true
	}
	d, ok := w.r.settle(w.v, ends, free, z, &w.notEnd)
	return ok && (w.final || vb.viable(w.v, d))
}

// far returns the position of the other end of the piece of path that
// ends at position x, or -1 for z. It looks for the other square of x's
// label in all at once, eight a word (a loop over them took three
// times as long, its end unpredictable).
func far(a *slotCodes, x int8) int8 {
	switch c := a[x]; c {
	case slotFree:
		return x
	case slotToZ:
		return -1
	default:
		if p := sameBytes(a, c) &^ (1 << uint(x)); p != 0 {
			return int8(bits.TrailingZeros32(p))
		}
		panic("knightstour: frontier state with an unpaired end")
	}
}

// sameBytes returns the positions of a that hold c, as bits.
func sameBytes(a *slotCodes, c uint8) uint32 {
	pat := uint64(c) * 0x0101010101010101
	m0 := zeroBytes(binary.LittleEndian.Uint64(a[0:8]) ^ pat)
	m1 := zeroBytes(binary.LittleEndian.Uint64(a[8:16]) ^ pat)
	m2 := zeroBytes(uint64(binary.LittleEndian.Uint32(a[16:20]))^pat&0xffffffff) & 0x808080 // positions 16..18
	return uint32(gatherBytes(m0) | gatherBytes(m1)<<8 | gatherBytes(m2)<<16)
}

// zeroBytes returns the top bit of each byte of w that is zero.
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^(w&low7 + low7 | w | low7)
}

// gatherBytes returns the top bits of the eight bytes of m, which has no
// other bits, as the low eight bits: the product puts the bit of byte i
// at bit 56+i, and nothing carries into those.
func gatherBytes(m uint64) uint64 {
	return (m >> 7) * 0x0102040810204080 >> 56
}

// linkSlots adds the edge x-y, where fx and fy are the far ends of x and
// y (far): the step finds those of its candidates once, before its first
// edge, and knows them after it (secondFar). It reports whether the edge
// closes the cycle (which must then be the whole tour) and false if it
// closes a cycle that cannot be one.
func linkSlots(a *slotCodes, x, y, fx, fy int8, closed bool) (complete, ok bool) {
	if fx == y || fx < 0 && fy < 0 {
		// A cycle: without z it is a closed tour, through z an open one.
		if closed != (fx == y) {
			return false, false
		}
		a[x], a[y] = slotDone, slotDone
		return true, true
	}
	if a[x] != slotFree {
		a[x] = slotDone
	}
	if a[y] != slotFree {
		a[y] = slotDone
	}
	switch {
	case fx < 0:
		a[fy] = slotToZ
	case fy < 0:
		a[fx] = slotToZ
	default:
		label := 24 + uint8(y) // unique within this step's edges
		a[fx], a[fy] = label, label
	}
	return false, true
}

// finish retires the squares that have no later neighbours, checks that
// the state can still become a tour, and adds it to the next layer (or,
// after the last square, its count to the total). It changes a's codes:
// the caller's copy, which a copy here would read back as words just
// after the caller wrote them as bytes (see expandDecoded); their far
// ends it finds through l, the links that made a.
func (w *worker) finish(a *slotCodes, l relinked, z int, free uint32, complete bool, val []uint64) {
	st := w.st
	// A square that leaves unused is a square no path reaches; squares
	// with one later neighbour and no edge yet must end the path, so need
	// an edge from z and the right colour.
	if free&st.retire != 0 || bits.OnesCount32(free&st.thin) > zLeft[z] || free&st.thin&w.notEnd[z] != 0 {
		return
	}
	for m := st.retire; m != 0; m &= m - 1 {
		p := int8(bits.TrailingZeros32(m))
		c := a[p]
		if c == slotDone {
			continue
		}
		if complete {
			return // a second piece of path besides the whole cycle
		}
		if zLeft[z] == 0 || w.notEnd[z]>>p&1 != 0 {
			return // no end of the path left, or not one of this colour
		}
		// The square ends the path: it takes an edge from z.
		z = w.r.zAfter(z, st.black>>p&1)
		if c == slotToZ {
			complete = true // the path now runs from z to z: the tour is whole
		} else {
			a[l.far(p)] = slotToZ
		}
		a[p] = slotDone
	}
	if w.cut != nil {
		w.endBoard(*a, z, complete, val)
	}
	if w.final {
		if complete && addLimbs(w.total, val) {
			w.err = errOverflow
		}
		return
	}
	if complete {
		return // a whole tour or cycle, but squares are left
	}
	if bits.OnesCount32(free&st.thin) > zLeft[z] {
		return
	}
	if w.mirror {
		w.emit(w.lesserKey(a, z), val)
		return
	}
	w.emit(w.r.f.encode(a, z, st), val)
}

// lesserKey returns the key of the window after the step, or that of its
// reflection if less and of the same class: in digits the z-state and
// then the square added last weigh most, and labels are named from it
// (see counter.lesser). On an even width the reflection swaps the
// colours, and so the z-states of one end (1 and 3): there the z-states
// decide alone, and one key is made, not two; a third of the states of
// 8x8 with free ends have one end.
func (w *worker) lesserKey(a *slotCodes, z int) uint64 {
	f, st := w.r.f, w.st
	zm := f.reflectZ(z)
	switch {
	case z < zm:
		return f.encodeFrom(a, z, &st.from)
	case zm < z && w.sameClass(a):
		return f.encodeFrom(a, zm, &st.mfrom)
	case zm < z:
		return f.encodeFrom(a, z, &st.from)
	}
	key := f.encodeFrom(a, z, &st.from)
	if m := f.encodeFrom(a, zm, &st.mfrom); m < key && w.sameClass(a) {
		return m
	}
	return key
}

// sameClass reports whether the window after the step, as a and the
// step's from have it, and its reflection (mfrom) are of the same class:
// of the same kinds at the positions classAt, or of one class by
// classLater.
func (w *worker) sameClass(a *slotCodes) bool {
	st := w.st
	for m := w.classAt; m != 0; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		if kind(uint64(a[st.from[q]])) != kind(uint64(a[st.mfrom[q]])) {
			return w.classLater != nil && w.classLater.classOfWindow(a, &st.from) == w.classLater.classOfWindow(a, &st.mfrom)
		}
	}
	return true
}

// endBoard finishes a state as if the board ended after square v: every
// square left on the frontier leaves now. The states after v are all
// those of the shorter board and more, as every square has at least as
// many later neighbours on the longer board, so a count of the longer
// board also counts all its shorter ones, in one pass.
func (w *worker) endBoard(arr slotCodes, z int, complete bool, val []uint64) {
	a := &arr
	for p := range int8(w.r.f.slots + 1) {
		c := a[p]
		if c == slotDone {
			continue
		}
		if complete || c == slotFree || zLeft[z] == 0 {
			return
		}
		z = w.r.zAfter(z, w.st.black>>p&1)
		if c == slotToZ {
			complete = true
		} else {
			a[far(a, p)] = slotToZ
		}
		a[p] = slotDone
	}
	if complete && addLimbs(w.cut, val) {
		w.err = errOverflow
	}
}

// newWorker returns a worker for the step adding square v; shard makes
// it expand only the count's shard of the states, and mix how many
// demands the states of a group it expands have and states how many
// states it may expand (memoBits). It has
// neither tables nor bins yet: the step gives it one or the other.
func (r *counter) newWorker(v int, shard bool, mix demandMix, states int) *worker {
	mb := r.memoBits(v, mix, states)
	w := &worker{r: r, st: &r.f.shifts[v], v: v, final: v == r.f.n-1, shard: shard, memo: make([]uint64, 1<<mb), memoShift: 64 - mb,
		total: make([]uint64, r.k)}
	if r.cfg.AllLengths && (v+1)%r.f.w == 0 && !w.final {
		w.cut = make([]uint64, r.k)
	}
	w.notEnd = r.notEnd(&r.f.shifts[v])
	if v == r.start {
		w.barred = r.firstBarred
	}
	if w.zFull = r.firstZ(); r.mode == FromStart && v > r.start {
		w.zFull++ // the start's piece leads to z too
	}
	return w
}

// emit hands a new state to the step: to the worker's bins or tables, or,
// where it has neither, to the tally of a measure.
func (w *worker) emit(key uint64, val []uint64) {
	switch {
	case w.buffered != nil:
		w.buffered.emit(key, val)
	case w.lean != nil:
		w.lean.emit(w.r.f.mixer.Mix(key), val)
	default:
		w.made++
	}
}

// takeEdge takes one from the demands of the two ends of an edge, the
// bits of m.
func takeEdge(one, two, m uint32) (uint32, uint32) {
	// A square needing two now needs one; one needing one, none.
	return one ^ m, two &^ m
}

// settle applies the checks of the counting step's finish to the demands
// of positions 0..slots after square v took its edges, and retires the
// squares with no later neighbour, each taking an edge from z. It returns
// the demand after v, or 0 after the last square, and false where no tour
// can follow.
func (r *counter) settle(v int, one, two uint32, z int, notEnd *[4]uint32) (uint64, bool) {
	st := &r.f.shifts[v]
	if two&st.retire != 0 || bits.OnesCount32(two&st.thin) > zLeft[z] || two&st.thin&notEnd[z] != 0 {
		return 0, false
	}
	for m := one & st.retire; m != 0; m &= m - 1 {
		p := bits.TrailingZeros32(m)
		if zLeft[z] == 0 || notEnd[z]>>p&1 != 0 {
			return 0, false
		}
		z = r.zAfter(z, st.black>>p&1)
	}
	if bits.OnesCount32(two&st.thin) > zLeft[z] {
		return 0, false
	}
	if v == r.f.n-1 {
		return 0, zLeft[z] == 0
	}
	return r.f.packDemand(st.shiftMask(one&^st.retire), st.shiftMask(two), z), true
}
