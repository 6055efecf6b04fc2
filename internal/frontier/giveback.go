package frontier

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"
)

// A step made in passes reads its layer (cur) from disk once per pass,
// so cur stays whole until the last pass, beside the next layer that the
// passes write: on the middle columns of 8 x 12 with free ends, two layers
// of 25 to 40 GB each. Where the passes are by classes that cur's groups
// record (classParts), a group that no pass left will read is done with,
// and the step gives its bytes back to the file system at once: it punches
// a hole where the group lies in its file (punchHole), and the file keeps
// its length but no longer its blocks. So the step holds less of cur with
// every pass while it writes more of the next layer.
//
// A checkpoint written after such a pass names cur's files by their size
// and CRC-32C as they are once their holes are punched, which the step
// works out from the CRC of each group it gives back (crcZeroed), and
// lists the holes (fileSum.Holes) and the states they held
// (stepPart.Freed); the groups given back are not in it. The checkpoint
// is written before the holes are punched: a count stopped between the
// two finds the holes listed and punches them again (punching twice
// changes nothing) before it checks the files.

// errGivenBack is returned where a pass would read a group whose bytes
// the step has given back: it cannot happen, as a group is given back
// only when no pass left reads it, but a count must not read the zeros
// of a hole as states.
var errGivenBack = errors.New("frontier: a pass needs a group of the layer whose disk was given back")

// giveBack gives back the disk of every group of cur that none of the
// passes left reads, and returns the states they held. It does nothing
// where the step cannot tell which groups a pass reads (no classes), or
// where cur is not all on disk, or where the file system cannot punch
// holes.
func (s *stepper) giveBack(left []pass) (int64, error) {
	r, stride := s.r, s.r.k+1
	if r.cfg.keepCur || s.cur == nil || s.classes == nil || !s.cur.onDisk() || len(left) == 0 || !s.mayGiveBack() {
		return 0, nil
	}
	var needed uint64 // the classes some pass left takes
	for _, p := range left {
		needed |= p.classes
	}
	var freed int64
	done := map[int]bool{}
	for g, gr := range s.cur.groups {
		if gr.words == 0 || gr.file == nil || !gr.file.canPunch || s.reads(g, needed) {
			continue
		}
		off, n := gr.span()
		sum, err := gr.sum()
		if err != nil {
			return freed, err
		}
		lf := gr.file
		lf.crc = crcZeroed(lf.crc, sum, n, lf.size-off-n)
		lf.holes = append(lf.holes, [2]int64{off, n})
		lf.unpunched = append(lf.unpunched, [2]int64{off, n})
		freed += int64(gr.states(stride))
		if r.cfg.onGiveBack != nil {
			r.cfg.onGiveBack(n)
		}
		s.cur.groups[g] = group{kinds: gr.kinds} // no states, and no file
		done[g] = true
	}
	if len(done) > 0 {
		s.pieces = slices.DeleteFunc(s.pieces, func(p piece) bool { return done[p.g] })
		s.freed += freed
		r.unsaved = true // until savePart
	}
	return freed, nil
}

// mayGiveBack reports whether the step may give back groups of cur: no
// count it makes can outgrow its limbs, and cur's files are of counts
// of as many limbs. A count that does goes back to its last checkpoint and
// makes the step again with wider counts, which a step that gave back
// part of cur cannot. A new state's count is the sum of the counts of
// the states that make it, each at most once and once more for its
// reflection, whether the step keeps one of a state and its reflection
// or expands both: so at most four times the sum of cur's counts, as
// are the tours the step finds; cur's states number n, with counts of
// at most b bits, so that sum is below 2^(b+bits(n)). Where that and
// the totals so far are each below half of what the limbs hold, the
// step cannot overflow them.
func (s *stepper) mayGiveBack() bool {
	r := s.r
	room := 64*r.k - 1
	b := 0
	for _, lf := range s.cur.files {
		if lf.stride != r.k+1 {
			// A layer of narrower counts, read widened after an
			// overflow: no checkpoint can name it as it is once holes
			// are punched (saveCheckpoint), and the one that names it
			// must stay good.
			return false
		}
		if lf.size == 0 {
			continue
		}
		if lf.countBits == 0 {
			return false // a file of an older checkpoint: not known
		}
		b = max(b, lf.countBits)
	}
	if b+bits.Len(uint(s.cur.n))+2 > room || limbsLen(s.total) > room {
		return false
	}
	for _, c := range r.byLength {
		if limbsLen(c) > room {
			return false
		}
	}
	return true
}

// widensFirst reports whether the count should widen its counts before
// the step starts: where its layer is compact on disk, as the checkpoint
// written after the last square holds it, and the step could give back
// none of it only because its counts could outgrow their limbs. The
// count goes back to that checkpoint with twice the limbs, as after an
// overflow, so that from the step after (which reads the layer widened,
// and gives back nothing of it) steps give their layers back: a count
// that widened only when it overflowed held two whole layers at once in
// every step until then, on 8 x 12 with free ends from about its fifth
// column to its eighth. Compact layers only: they are what fills a disk,
// and wider counts take more memory, and more passes, a state.
func (s *stepper) widensFirst(part *stepPart) bool {
	r := s.r
	if part != nil || r.cfg.Checkpoint == "" || r.held != s.v-1 || s.final || !s.cur.onDisk() || len(s.cur.files) == 0 {
		return false
	}
	for _, lf := range s.cur.files {
		if lf.stride != r.k+1 || lf.size > 0 && lf.countBits == 0 {
			return false // widened already, or of counts not known
		}
	}
	compact := slices.ContainsFunc(s.cur.groups, func(g group) bool { return g.blocks != nil })
	return compact && !s.mayGiveBack()
}

// punchHoles punches the holes of cur's files that giveBack listed: after
// the checkpoint that lists them is written, if there is one. A file
// system that cannot punch them (punchHole's error) keeps the bytes: the
// file then differs from its CRC, which a resumed count puts right by
// punching the holes the checkpoint lists, or refuses.
func (s *stepper) punchHoles() error {
	if s.cur == nil {
		return nil
	}
	skip := s.r.cfg.skipPunch
	for _, lf := range s.cur.files {
		for _, h := range lf.unpunched {
			if skip {
				break
			}
			if err := punchHole(lf.f, h[0], h[1]); err != nil {
				return fmt.Errorf("frontier: giving back %d bytes of %s: %w", h[1], lf.name, err)
			}
		}
		lf.unpunched = lf.unpunched[:0]
	}
	return nil
}

// reads reports whether a pass of classes reads group g of cur: as
// expand decides, by the kinds the group holds and the classes that
// cur's parts say it holds.
func (s *stepper) reads(g int, classes uint64) bool {
	if classes == allClasses || s.r.unfolds(s.v) {
		return true
	}
	gr := s.cur.groups[g]
	held := s.classes.holds(gr.kinds)
	switch {
	case s.aligned:
		held &= s.cur.parts.classesOf(g)
	case s.proj != nil:
		held &= s.proj.of(s.cur.parts.classesOf(g))
	}
	return held&classes != 0
}

// span returns where group g lies in its file: from byte off, n bytes.
func (g group) span() (off, n int64) {
	if g.blocks != nil {
		return g.off, g.blocks[len(g.blocks)-1] - g.off
	}
	return g.off, int64(g.words) * 8
}

// sum returns the CRC-32C of the group's bytes in its file: as the group
// was written, or read back where it came from a checkpoint.
func (g group) sum() (uint32, error) {
	if g.summed {
		return g.crc, nil
	}
	off, n := g.span()
	h := crc32.New(castagnoli)
	if _, err := io.Copy(h, io.NewSectionReader(g.file.f, off, n)); err != nil {
		return 0, fmt.Errorf("frontier: reading %s: %w", g.file.name, err)
	}
	return h.Sum32(), nil
}

// The CRC-32C of a file with a hole punched in it, from the file's CRC
// and the CRC of the bytes the hole takes, without reading the file: a
// CRC is linear over GF(2) but for terms that depend on the length
// alone, so zeroing bytes changes it by the CRC that those bytes have
// alone, followed by the rest of the file as zeros. Polynomials here are
// bit-reflected, as in hash/crc32: the coefficient of x^0 is the top bit.

// crcZeroed returns the CRC-32C of a message whose CRC is sum once n of
// its bytes, whose own CRC is hole, are zeros, with after bytes after
// them.
func crcZeroed(sum, hole uint32, n, after int64) uint32 {
	// The bytes' part of the CRC, without the terms of the CRC's start
	// and end, which depend on n alone: those of n zero bytes.
	part := hole ^ crcOfZeros(n)
	return sum ^ gfMul(part, xPow8n(after))
}

// crcOfZeros returns the CRC-32C of n zero bytes: its start, all ones,
// carried through n bytes, then inverted.
func crcOfZeros(n int64) uint32 {
	return ^gfMul(^uint32(0), xPow8n(n))
}

// gfMul returns a times b modulo the CRC-32C polynomial.
func gfMul(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		// b times x
		if b&1 != 0 {
			b = b>>1 ^ crc32.Castagnoli
		} else {
			b >>= 1
		}
	}
	return p
}

// xPow8n returns x^(8n) modulo the polynomial: what n zero bytes carry a
// CRC's register through.
func xPow8n(n int64) uint32 {
	result := uint32(1) << 31 // 1
	sq := uint32(1) << 23     // x^8
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			result = gfMul(result, sq)
		}
		sq = gfMul(sq, sq)
	}
	return result
}
