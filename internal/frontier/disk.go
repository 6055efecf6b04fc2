package frontier

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/euler1758/knightstour/internal/frontier/compact"
)

// With a spill directory (Config.SpillDir) every layer goes to disk as it
// is made: each worker appends the groups it packs to a file of its own,
// and the next step reads its pieces back. The kernel's page cache keeps
// what memory allows and writes the rest out, so a layer costs the count
// no memory of its own, and the memory limit is left to the tables of the
// layer being made: about 20 bytes a state instead of 36. The files of a
// layer are removed when the next layer is whole, unless a checkpoint
// names them.

// A layerFile is one worker's file of one layer.
type layerFile struct {
	f            *os.File
	name         string // base name, in the spill directory
	size         int64
	crc          uint32 // CRC-32C of its bytes as they are, for checkpoints
	checkpointed bool   // a checkpoint names it: not removed with its layer
	// canPunch says that its file system gives back the disk of a range
	// of it (punchHole); holes are the ranges given back, [off, n], and
	// unpunched those that a checkpoint lists but are not punched yet.
	canPunch  bool
	holes     [][2]int64
	unpunched [][2]int64
	// countBits is the bits of the largest count of a state in it, 0
	// where not known (a file of an older checkpoint), for giveBack.
	countBits int
	guard     *diskGuard
	// stride is the words of a state. The groups a file takes are
	// compact (package compact), in key order order, if compact is set, else
	// raw entries.
	stride  int
	compact bool
	order   compact.Order
	coding  compact.Coding // of its compact blocks
	enc     compact.Encoder
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// createLayerFile creates the file of one worker for the layer after
// square v: prefix, then v and the worker, and for a step resumed after
// pass passes of it (see stepPart), the passes, as the files of the
// passes done stay.
func createLayerFile(prefix string, v, worker, passes, stride int, compacted bool, order compact.Order, guard *diskGuard) (*layerFile, error) {
	name := fmt.Sprintf("%s%d-%d.layer", prefix, v, worker)
	if passes > 0 {
		name = fmt.Sprintf("%s%d-%d-after%d.layer", prefix, v, worker, passes)
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("frontier: spill: %w", err)
	}
	return &layerFile{f: f, name: filepath.Base(name), canPunch: canPunchHoles(f), guard: guard, stride: stride, compact: compacted, order: order, coding: codingOf(compacted)}, nil
}

// write appends the group of entries words and returns the group that
// holds them.
func (lf *layerFile) write(words []uint64) (group, error) {
	g := group{file: lf, off: lf.size, words: len(words)}
	if len(words) == 0 {
		return g, nil
	}
	lf.countBits = max(lf.countBits, countBits(words, lf.stride))
	if !lf.compact {
		b := wordBytes(words)
		if err := lf.guard.wrote(len(b)); err != nil {
			return group{}, err
		}
		if _, err := lf.f.Write(b); err != nil {
			return group{}, fmt.Errorf("frontier: spill: %w", err)
		}
		g.crc, g.summed = crc32.Checksum(b, castagnoli), true
		lf.crc = crc32.Update(lf.crc, castagnoli, b)
		lf.size += int64(len(b))
		return g, nil
	}
	b, blocks := lf.enc.Encode(words, lf.stride, lf.order, lf.coding)
	if err := lf.guard.wrote(len(b)); err != nil {
		return group{}, err
	}
	if _, err := lf.f.Write(b); err != nil {
		return group{}, fmt.Errorf("frontier: spill: %w", err)
	}
	g.crc, g.summed = crc32.Checksum(b, castagnoli), true
	lf.crc = crc32.Update(lf.crc, castagnoli, b)
	for _, at := range blocks {
		g.blocks = append(g.blocks, lf.size+at)
	}
	lf.size += int64(len(b))
	g.blocks = append(g.blocks, lf.size)
	return g, nil
}

// readPiece fills entries, states of stride words, with the states [lo,
// lo+len(entries)/stride) of group g, which lies in lf; lo is a multiple
// of chunkStates. buf is scratch for the bytes of a compact block. A file
// of narrower states (counts of fewer limbs, written before the count
// overflowed them) is read widened: its counts, zero-extended.
func (lf *layerFile) readPiece(g group, lo int, entries []uint64, stride int, buf *[]byte) error {
	if g.blocks == nil { // raw entries
		n := len(entries) / stride
		raw := entries[:n*lf.stride]
		if _, err := lf.f.ReadAt(wordBytes(raw), g.off+int64(lo*lf.stride*8)); err != nil {
			return fmt.Errorf("frontier: reading %s: %w", lf.name, err)
		}
		widen(entries, lf.stride, stride)
		return nil
	}
	b := lo / chunkStates
	from, to := g.blocks[b], g.blocks[b+1]
	if int64(cap(*buf)) < to-from {
		*buf = make([]byte, to-from)
	}
	data := (*buf)[:to-from]
	if _, err := lf.f.ReadAt(data, from); err != nil {
		return fmt.Errorf("frontier: reading %s: %w", lf.name, err)
	}
	n, err := compact.Decode(data, entries[:len(entries)/stride*lf.stride], lf.stride, lf.order, lf.coding)
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrCheckpoint, err)
	} else {
		widen(entries, lf.stride, stride)
	}
	if err == nil && n != len(data) {
		err = fmt.Errorf("%w: a layer block of %d bytes where %d were expected", ErrCheckpoint, n, len(data))
	}
	if err != nil {
		return fmt.Errorf("frontier: reading %s: %w", lf.name, err)
	}
	return nil
}

// widen spreads the states of entries, packed at from words each at its
// start, to stride words each, their new limbs zero; last first, so that
// no state is overwritten before it moves.
func widen(entries []uint64, from, stride int) {
	if from == stride {
		return
	}
	for i := len(entries)/stride - 1; i >= 0; i-- {
		copy(entries[i*stride:i*stride+from], entries[i*from:i*from+from])
		clear(entries[i*stride+from : (i+1)*stride])
	}
}

// states returns the states of g, whose entries in memory are stride
// words each; on disk, its file's states may be narrower (readPiece).
func (g group) states(stride int) int {
	if g.file != nil {
		return g.words / g.file.stride
	}
	return g.words / stride
}

// blockStarts returns where the blocks of a compact group of words words
// begin in lf, from byte off, and where the last ends, reading each
// block's length; an error if they do not end at off+size. The caller,
// loading a checkpoint, says it is unusable.
func (lf *layerFile) blockStarts(off, size int64, words int) ([]int64, error) {
	n := (words/lf.stride + chunkStates - 1) / chunkStates
	starts := make([]int64, 0, n+1)
	var head [binary.MaxVarintLen64]byte
	at := off
	for range n {
		starts = append(starts, at)
		m, err := lf.f.ReadAt(head[:], at)
		if m == 0 {
			return nil, fmt.Errorf("reading %s: %v", lf.name, err)
		}
		length, k := binary.Uvarint(head[:m])
		if k <= 0 || length > uint64(off+size-at) {
			return nil, fmt.Errorf("%s: a block header at byte %d", lf.name, at)
		}
		at += int64(k) + int64(length)
	}
	if at != off+size {
		return nil, fmt.Errorf("%s: the blocks of a group end at byte %d, not %d", lf.name, at, off+size)
	}
	return append(starts, at), nil
}

// remove closes the file and, unless a checkpoint names it, deletes it.
func (lf *layerFile) remove() {
	lf.f.Close()
	if !lf.checkpointed {
		os.Remove(lf.f.Name())
	}
}

// wordBytes views words as bytes, in the machine's byte order: the files
// are for this machine (a checkpoint records the order and refuses
// another).
func wordBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8)
}

// nativeOrder is 1 on a little-endian machine, 2 on a big-endian one.
func nativeOrder() int {
	x := uint16(1)
	if *(*byte)(unsafe.Pointer(&x)) == 1 {
		return 1
	}
	return 2
}

// codingOf returns the coding of the blocks of a new layer file: Rice
// blocks where it is compact.
func codingOf(compacted bool) compact.Coding {
	if compacted {
		return compact.Rice
	}
	return compact.Varint
}

// countBits returns the bits of the largest count of the states of
// entries, stride words each: those of the limbs of all their counts
// or-ed together, limb by limb.
func countBits(entries []uint64, stride int) int {
	k := stride - 1
	var or [8]uint64
	if k > len(or) { // counts of more than 512 bits: state by state
		b := 0
		for i := 0; i < len(entries); i += stride {
			b = max(b, limbsLen(entries[i+1:i+stride]))
		}
		return b
	}
	for i := 0; i < len(entries); i += stride {
		for j, limb := range entries[i+1 : i+stride] {
			or[j] |= limb
		}
	}
	return limbsLen(or[:k])
}
