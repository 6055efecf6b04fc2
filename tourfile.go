package knightstour

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
)

// The tour file format is for very many tours: a header line, then one
// line per tour of the start square's number (row*cols+col), a colon, and
// one digit per jump, the jump's index in SeedOrder (0 for (2,1), 1 for
// (1,2), ...): about one byte per square.
//
//	# knightstour 3x4 open
//	8:13230316231
//	8:13230316563
//	# end 2
//
// The header names the board, and "closed" if every tour must be closed.
// The last line counts the tours: a file without it was cut short (its
// writer was stopped), and a reader says so instead of taking the tours
// it holds for all of them.
const (
	tourFileMagic = "# knightstour"
	tourFileEnd   = "# end"
)

// TourWriter writes tours in the tour file format. It buffers: call Close
// at the end, which writes the line that marks the file as whole, or Flush
// to write out what is buffered of a file that is not (yet) whole. A TourWriter is for one goroutine; Solver.All delivers tours
// on the caller's goroutine in order, so tours from any number of workers
// reach a file whole and in order.
type TourWriter struct {
	w      *bufio.Writer
	rows   int
	cols   int
	closed bool
	wrote  bool
	n      int // tours written
	line   []byte
	jump   map[Move]byte
	err    error // why no tour can be written: a bad board or writer
}

// NewTourWriter returns a writer of tours of an R x C board to w; a file of
// kind Closed promises closed tours only (an Open file takes any tour).
// Given a board no tour file can hold, or a nil w, it returns a writer
// whose every call fails with the reason.
func NewTourWriter(w io.Writer, rows, cols int, kind Kind) *TourWriter {
	jump := make(map[Move]byte, 8)
	for i, m := range SeedOrder() {
		jump[m] = byte('0' + i)
	}
	tw := &TourWriter{w: bufio.NewWriterSize(w, 1<<16), rows: rows, cols: cols, closed: kind == Closed, jump: jump}
	switch {
	case w == nil:
		tw.err = fmt.Errorf("%w: a TourWriter to a nil io.Writer", ErrMisuse)
	default:
		tw.err = checkSizeUpTo(rows, cols, maxConstructSquares)
	}
	return tw
}

// Write writes one tour. It fails for a tour of another board, an open
// tour in a closed file, and errors of the underlying writer.
func (tw *TourWriter) Write(t Tour) error {
	if err := tw.usable(); err != nil {
		return err
	}
	if t.rows != tw.rows || t.cols != tw.cols || t.Len() == 0 {
		return &TourError{-1, fmt.Sprintf("a tour of %dx%d written to a %dx%d file", t.rows, t.cols, tw.rows, tw.cols)}
	}
	if tw.closed && !t.closed() {
		return &TourError{-1, "an open tour written to a file of closed tours"}
	}
	if err := tw.header(); err != nil {
		return err
	}
	tw.line = strconv.AppendInt(tw.line[:0], int64(t.index(0)), 10)
	tw.line = append(tw.line, ':')
	prev := t.At(0)
	for i := 1; i < t.Len(); i++ {
		c := t.At(i)
		tw.line = append(tw.line, tw.jump[Move{c.Row - prev.Row, c.Col - prev.Col}])
		prev = c
	}
	tw.line = append(tw.line, '\n')
	if _, err := tw.w.Write(tw.line); err != nil {
		return err
	}
	tw.n++
	return nil
}

// Flush writes out what is buffered; a file with no tours still gets its
// header. The file is not whole until Close.
func (tw *TourWriter) Flush() error {
	if err := tw.header(); err != nil {
		return err
	}
	return tw.w.Flush()
}

// Close ends the file with the line that counts its tours and writes out
// what is buffered. It does not close the underlying writer.
func (tw *TourWriter) Close() error {
	if err := tw.header(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(tw.w, "%s %d\n", tourFileEnd, tw.n); err != nil {
		return err
	}
	return tw.w.Flush()
}

// usable reports why tw can write nothing, if it cannot.
func (tw *TourWriter) usable() error {
	if tw == nil || tw.w == nil {
		return fmt.Errorf("%w: a TourWriter not made by NewTourWriter", ErrMisuse)
	}
	return tw.err
}

func (tw *TourWriter) header() error {
	if err := tw.usable(); err != nil {
		return err
	}
	if tw.wrote {
		return nil
	}
	tw.wrote = true
	_, err := fmt.Fprintf(tw.w, "%s %dx%d %s\n", tourFileMagic, tw.rows, tw.cols, kindOf(tw.closed))
	return err
}

// FileError reports a bad line in a tour file; it wraps the reason, for
// example a *TourError.
type FileError struct {
	Line int
	Err  error
}

// Error names the line and what is wrong with it.
func (e *FileError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the reason.
func (e *FileError) Unwrap() error { return e.Err }

// maxHeader is the longest header line a reader takes.
const maxHeader = 256

// A TourReader reads a tour file (see NewTourWriter): the header when it is
// made, the tours as Tours asks for them. It reads boards of any size that
// the construction builds (up to 2^30 squares), a line at a time: its
// memory is a few bytes a square of the board, whatever the number of
// tours.
type TourReader struct {
	rows, cols int
	closed     bool
	r          *bufio.Reader
	buf        []byte
	line       int  // the number of the line last read
	unended    bool // the line last read ended the file without a newline
}

// NewTourReader reads the header of a tour file. It fails with a
// *FileError wrapping ErrBadFile when the file is empty or its first line
// is not a header exactly as TourWriter writes it.
func NewTourReader(r io.Reader) (*TourReader, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: a TourReader of a nil io.Reader", ErrMisuse)
	}
	tr := &TourReader{r: bufio.NewReaderSize(r, 1<<16)}
	text, ok, err := tr.readLine(maxHeader)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, &FileError{1, fmt.Errorf("%w: empty", ErrBadFile)}
	}
	bad := &FileError{1, fmt.Errorf("%w: header %q, want \"%s RxC open|closed\"", ErrBadFile, text, tourFileMagic)}
	size, kind, ok := strings.Cut(strings.TrimPrefix(text, tourFileMagic+" "), " ")
	r1, c1, ok2 := strings.Cut(size, "x")
	rows, err1 := strconv.Atoi(r1)
	cols, err2 := strconv.Atoi(c1)
	if !ok || !ok2 || err1 != nil || err2 != nil || checkSizeUpTo(rows, cols, maxConstructSquares) != nil ||
		(kind != "open" && kind != "closed") || text != fmt.Sprintf("%s %dx%d %s", tourFileMagic, rows, cols, kind) {
		return nil, bad // the last test refuses signs, zeros in front, spaces and junk after the kind
	}
	tr.rows, tr.cols, tr.closed = rows, cols, kind == "closed"
	return tr, nil
}

// Header returns what the file's header says: the size of its board, and
// Closed if it promises closed tours only, else Open.
func (tr *TourReader) Header() (rows, cols int, kind Kind) {
	if tr == nil {
		return 0, 0, Open
	}
	return tr.rows, tr.cols, kindOf(tr.closed)
}

// readLine returns the next line without its newline (\n or \r\n), false
// at the end of the file, or a *FileError for a line longer than limit
// bytes or a read that failed. tr.unended says whether the line ended the
// file without a newline, as the last line of a file cut short does.
func (tr *TourReader) readLine(limit int) (string, bool, error) {
	tr.buf = tr.buf[:0]
	for {
		chunk, err := tr.r.ReadSlice('\n')
		tr.buf = append(tr.buf, chunk...)
		switch {
		case len(tr.buf) > limit+2:
			return "", false, &FileError{tr.line + 1, fmt.Errorf("%w: a line longer than %d bytes, the most this board's tours take", ErrBadFile, limit)}
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(tr.buf) == 0:
			return "", false, nil
		case err != nil && !errors.Is(err, io.EOF):
			return "", false, &FileError{tr.line + 1, err}
		}
		tr.line++
		text, ended := strings.CutSuffix(string(tr.buf), "\n")
		tr.unended = !ended
		return strings.TrimSuffix(text, "\r"), true, nil
	}
}

// Tours yields the tours of the file, each checked to be a knight's tour
// of the board (and closed if the header says so), or a *FileError for the
// first bad line, or for a file cut short, and stops. The Tour is valid
// until the next one: Clone it to keep it.
func (tr *TourReader) Tours() iter.Seq2[Tour, error] {
	return func(yield func(Tour, error) bool) {
		if tr == nil || tr.r == nil {
			yield(Tour{}, fmt.Errorf("%w: a TourReader not made by NewTourReader", ErrMisuse))
			return
		}
		rows, cols, n := tr.rows, tr.cols, tr.rows*tr.cols
		t := Tour{rows: rows, cols: cols}
		if n <= maxSquares {
			t.squares = make([]uint16, n)
		} else {
			t.wide = make([]uint32, n)
		}
		seen := make([]uint64, (n+63)/64) // Tour.check's scratch, for every tour
		limit := len(strconv.Itoa(n)) + n // the start, a colon and n-1 jumps
		count := 0
		for {
			text, ok, err := tr.readLine(limit)
			if err != nil {
				yield(Tour{}, err)
				return
			}
			if !ok {
				break
			}
			fail := func(err error) { yield(Tour{}, &FileError{tr.line, err}) }
			if tr.unended && !strings.HasPrefix(text, tourFileEnd+" ") {
				fail(fmt.Errorf("%w: cut short within this line (its writer was stopped)", ErrBadFile))
				return
			}
			if rest, ok := strings.CutPrefix(text, tourFileEnd+" "); ok {
				if rest != strconv.Itoa(count) {
					fail(fmt.Errorf("%w: the end line says %q tours, the file holds %d", ErrBadFile, rest, count))
				} else if _, more, err := tr.readLine(limit); err != nil {
					yield(Tour{}, err)
				} else if more {
					fail(fmt.Errorf("%w: a line after the end line", ErrBadFile))
				}
				return
			}
			start, jumps, ok := strings.Cut(text, ":")
			sq, err := strconv.Atoi(start)
			if !ok || err != nil || sq < 0 || sq >= n || start != strconv.Itoa(sq) {
				fail(fmt.Errorf("%w: want START:JUMPS, got %q", ErrBadFile, text))
				return
			}
			if err := t.decode(sq, jumps, seen, tr.closed); err != nil {
				fail(err)
				return
			}
			count++
			if !yield(t, nil) {
				return
			}
		}
		yield(Tour{}, &FileError{tr.line + 1, fmt.Errorf("%w: cut short after %d tours: no %q line (its writer was stopped)", ErrBadFile, count, tourFileEnd+" N")})
	}
}

// decode fills t with the tour from square start by the jumps, digits of
// SeedOrder, and checks that it is a knight's tour of t's board (closed if
// closed says so); seen is Tour.check's scratch.
func (t *Tour) decode(start int, jumps string, seen []uint64, closed bool) error {
	rows, cols, n := t.rows, t.cols, t.rows*t.cols
	if len(jumps) != n-1 {
		return &TourError{-1, fmt.Sprintf("%d squares, a %dx%d board has %d", len(jumps)+1, rows, cols, n)}
	}
	order := SeedOrder()
	r, c := start/cols, start%cols
	set := func(i, sq int) {
		if t.wide != nil {
			t.wide[i] = uint32(sq)
		} else {
			t.squares[i] = uint16(sq)
		}
	}
	set(0, start)
	for i, j := range []byte(jumps) {
		if j < '0' || j > '7' {
			return fmt.Errorf("%w: jump %q is not a digit 0-7", ErrBadFile, j)
		}
		m := order[j-'0']
		if r, c = r+m.DRow, c+m.DCol; r < 0 || r >= rows || c < 0 || c >= cols {
			// A square off the board has no number to keep: check here.
			return &TourError{i + 1, fmt.Sprintf("%v is off the board", Coordinate{r, c})}
		}
		set(i+1, r*cols+c)
	}
	if err := t.check(seen); err != nil {
		return err
	}
	if closed && !t.closed() {
		return &TourError{-1, "the file holds closed tours, this one is open"}
	}
	return nil
}

// readTours reads a tour file: NewTourReader, then its Tours; a bad header
// is the first and only error it yields.
func readTours(r io.Reader) iter.Seq2[Tour, error] {
	return func(yield func(Tour, error) bool) {
		tr, err := NewTourReader(r)
		if err != nil {
			yield(Tour{}, err)
			return
		}
		tr.Tours()(yield)
	}
}
