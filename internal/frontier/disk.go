package frontier

import (
	"fmt"
	"hash"
	"hash/crc32"
	"os"
	"path/filepath"
	"unsafe"
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
	f     *os.File
	name  string // base name, in the spill directory
	size  int64
	crc   hash.Hash32 // of everything written, for checkpoints
	kept  bool        // a checkpoint names it: not removed with its layer
	guard *diskGuard
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// createLayerFile creates the file of one worker for the layer after
// square v: prefix, then v and the worker.
func createLayerFile(prefix string, v, worker int, guard *diskGuard) (*layerFile, error) {
	name := fmt.Sprintf("%s%d-%d.layer", prefix, v, worker)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("frontier: spill: %w", err)
	}
	return &layerFile{f: f, name: filepath.Base(name), crc: crc32.New(castagnoli), guard: guard}, nil
}

// write appends words and returns the group that holds them.
func (lf *layerFile) write(words []uint64) (group, error) {
	g := group{file: lf, off: lf.size, words: len(words)}
	if len(words) == 0 {
		return g, nil
	}
	b := wordBytes(words)
	if err := lf.guard.wrote(len(b)); err != nil {
		return group{}, err
	}
	if _, err := lf.f.Write(b); err != nil {
		return group{}, fmt.Errorf("frontier: spill: %w", err)
	}
	lf.crc.Write(b)
	lf.size += int64(len(b))
	return g, nil
}

// read fills buf with words of the file from word offset at.
func (lf *layerFile) read(buf []uint64, off int64) error {
	if _, err := lf.f.ReadAt(wordBytes(buf), off); err != nil {
		return fmt.Errorf("frontier: reading %s: %w", lf.name, err)
	}
	return nil
}

// remove closes the file and, unless a checkpoint names it, deletes it.
func (lf *layerFile) remove() {
	lf.f.Close()
	if !lf.kept {
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
