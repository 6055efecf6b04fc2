package frontier

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"

	"github.com/euler1758/knightstour/internal/frontier/memory"
)

// The demand filters of a count with a checkpoint are kept beside it, in
// FILE.demands, so that a count that resumes takes them from there: on 8
// rows with free ends the demand passes take an hour, which every resume
// would otherwise spend again. The file is a cache of what the passes
// compute from the count's board and options alone: one that does not
// match them, is torn or fails its checksum is made again.
//
// Its format: the line "knightstour demands 1", a line naming the count
// (demandsIdentity), the number of filters (uint32), then each filter as
// a byte (1: present, as every square's is), its shift (byte), its vary bits and its number of
// words (uint64 each) and the words, all little-endian, and last the
// CRC-32C of all that comes before.
const demandsMagic = "knightstour demands 1\n"

// demandsFile names the file of the demand filters beside the checkpoint.
func (r *counter) demandsFile() string { return r.cfg.Checkpoint + ".demands" }

// demandsIdentity names what the demand filters depend on.
func (r *counter) demandsIdentity() string {
	c := r.cfg
	id := fmt.Sprintf("rows %d cols %d mode %d start %d,%d sweep %d all lengths %v early start %v base 11 %v squares %d",
		c.Rows, c.Cols, c.Mode, c.StartRow, c.StartCol, c.Sweep, c.AllLengths, c.EarlyStart, c.Base11, r.f.n)
	if c.Across {
		id += " across"
	}
	if r.paired {
		id += " paired" // the demands of the tours from the start or its reflection
	}
	if r.halved() {
		id += fmt.Sprintf(" barred first moves %#x %#x", r.firstBarred, r.pairBarred) // (diagonal.go)
	}
	return id + "\n"
}

// demandsBytes is the size of the file of demand filters beside the
// checkpoint; 0 if there is none.
func (r *counter) demandsBytes() int64 {
	fi, err := os.Stat(r.demandsFile())
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}

// loadDemands returns the demand filters kept beside the checkpoint, or
// nil when there are none that fit this count. Progress counts the bytes
// it reads (counter.checked).
func (r *counter) loadDemands(ctx context.Context) *viability {
	f, err := os.Open(r.demandsFile())
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	in := io.TeeReader(stoppable{ctx, f}, (*byteTally)(&r.checked))
	vb, err := r.readDemands(bufio.NewReaderSize(in, 1<<20), fi.Size())
	if err != nil {
		vb.free()
		return nil
	}
	return vb
}

// readDemands reads the filters of the file in br, size bytes, checking
// each part: no filter is larger than the file or the memory limit.
func (r *counter) readDemands(br *bufio.Reader, size int64) (*viability, error) {
	crc := crc32.New(castagnoli)
	in := io.TeeReader(br, crc)
	head := make([]byte, len(demandsMagic))
	if _, err := io.ReadFull(in, head); err != nil || string(head) != demandsMagic {
		return nil, errors.New("not a file of demand filters")
	}
	id, err := readLine(in, 512)
	if err != nil || id != r.demandsIdentity() {
		return nil, errors.New("the demand filters of another count")
	}
	var n uint32
	if err := binary.Read(in, binary.LittleEndian, &n); err != nil || int(n) != r.f.n {
		return nil, errors.New("the wrong number of filters")
	}
	vb := &viability{after: make([]*filter, n)}
	for v := range vb.after {
		limit := size
		if r.cfg.MemoryLimit > 0 {
			limit = min(limit, r.cfg.MemoryLimit)
		}
		fl, err := readFilter(in, limit)
		if err != nil {
			return vb, err
		}
		vb.after[v] = fl
	}
	sum := crc.Sum32()
	var want uint32
	if err := binary.Read(br, binary.LittleEndian, &want); err != nil || want != sum {
		return vb, errors.New("the checksum does not match")
	}
	return vb, nil
}

// readLine reads one line of at most limit bytes, with its newline.
func readLine(in io.Reader, limit int) (string, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) < limit {
		if _, err := io.ReadFull(in, b); err != nil {
			return "", err
		}
		line = append(line, b[0])
		if b[0] == '\n' {
			return string(line), nil
		}
	}
	return "", errors.New("line too long")
}

// readFilter reads one filter. A filter's words are a power of two
// lines, of at most limit bytes.
func readFilter(in io.Reader, limit int64) (*filter, error) {
	var head struct {
		Present, Shift uint8
		Vary, Words    uint64
	}
	if err := binary.Read(in, binary.LittleEndian, &head); err != nil {
		return nil, err
	}
	if head.Present != 1 {
		return nil, errors.New("a filter missing") // every square has one
	}
	words := head.Words
	if words < lineWords || words&(words-1) != 0 || words > uint64(limit)/8 ||
		uint(head.Shift) != uint(64-bits.TrailingZeros64(words/lineWords)) {
		return nil, errors.New("a filter of an impossible size")
	}
	fl := &filter{shift: uint(head.Shift), vary: head.Vary}
	if words >= mappedFilterWords {
		if w, err := memory.AllocWords(int(words)); err == nil {
			fl.words, fl.mapped = w, true
		}
	}
	if fl.words == nil {
		fl.words = make([]uint64, words)
	}
	if nativeOrder() == 1 { // little-endian, as the file: read in place
		if _, err := io.ReadFull(in, wordBytes(fl.words)); err != nil {
			(&viability{after: []*filter{fl}}).free()
			return nil, err
		}
		return fl, nil
	}
	buf := make([]byte, 8<<10)
	for i := 0; i < len(fl.words); {
		k := min(len(buf)/8, len(fl.words)-i)
		if _, err := io.ReadFull(in, buf[:8*k]); err != nil {
			(&viability{after: []*filter{fl}}).free()
			return nil, err
		}
		for j := range k {
			fl.words[i+j] = binary.LittleEndian.Uint64(buf[8*j:])
		}
		i += k
	}
	return fl, nil
}

// demands returns the demand filters: with a checkpoint, those kept beside
// it if they fit this count, else the demand passes' and then kept there.
func (r *counter) demands(ctx context.Context) (*viability, error) {
	if r.cfg.Checkpoint != "" {
		if vb := r.loadDemands(ctx); vb != nil {
			return vb, nil
		}
	}
	vb, err := r.viability(ctx, r.f.packDemand(0, 0, r.firstZ()))
	if err != nil || r.cfg.Checkpoint == "" {
		return vb, err
	}
	if err := r.saveDemands(vb); err != nil {
		vb.free()
		return nil, err
	}
	return vb, nil
}

// saveDemands writes the filters beside the checkpoint: to a file of its
// own name first, then renamed over the old, so that a stop while writing
// leaves no torn file behind the name.
func (r *counter) saveDemands(vb *viability) (err error) {
	name := r.demandsFile()
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return fmt.Errorf("saving the demand filters: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("saving the demand filters: %w", err)
		}
	}()
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(tmp, crc), 1<<20)
	bw.WriteString(demandsMagic)
	bw.WriteString(r.demandsIdentity())
	binary.Write(bw, binary.LittleEndian, uint32(len(vb.after)))
	buf := make([]byte, 0, 8<<10)
	for _, fl := range vb.after {
		binary.Write(bw, binary.LittleEndian, struct {
			Present, Shift uint8
			Vary, Words    uint64
		}{1, uint8(fl.shift), fl.vary, uint64(len(fl.words))})
		for _, w := range fl.words {
			if buf = binary.LittleEndian.AppendUint64(buf, w); len(buf) == cap(buf) {
				bw.Write(buf)
				buf = buf[:0]
			}
		}
		bw.Write(buf)
		buf = buf[:0]
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := binary.Write(tmp, binary.LittleEndian, crc.Sum32()); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
