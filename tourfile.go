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
}

// NewTourWriter returns a writer of tours of an R x C board to w; closed
// says whether the file promises closed tours only.
func NewTourWriter(w io.Writer, rows, cols int, closed bool) *TourWriter {
	jump := make(map[Move]byte, 8)
	for i, m := range SeedOrder() {
		jump[m] = byte('0' + i)
	}
	return &TourWriter{w: bufio.NewWriterSize(w, 1<<16), rows: rows, cols: cols, closed: closed, jump: jump}
}

// Write writes one tour. It fails for a tour of another board, an open
// tour in a closed file, and errors of the underlying writer.
func (tw *TourWriter) Write(t Tour) error {
	if t.rows != tw.rows || t.cols != tw.cols || t.Len() == 0 {
		return fmt.Errorf("%w: a tour of %dx%d written to a %dx%d file", ErrInvalidTour, t.rows, t.cols, tw.rows, tw.cols)
	}
	if tw.closed && !t.Closed() {
		return fmt.Errorf("%w: an open tour written to a file of closed tours", ErrInvalidTour)
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

func (tw *TourWriter) header() error {
	if tw.wrote {
		return nil
	}
	tw.wrote = true
	_, err := fmt.Fprintf(tw.w, "%s %dx%d %s\n", tourFileMagic, tw.rows, tw.cols, kind(tw.closed))
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

// ErrBadFile reports a tour file whose header, a line, or its end is
// missing or malformed.
var ErrBadFile = errors.New("knightstour: not a tour file")

// maxTourLine is the longest line a tour file can hold: the start square
// and a digit a jump on the largest board.
const maxTourLine = 4 * MaxSquares

// A TourReader reads a tour file (see NewTourWriter): the header when it is
// made, the tours as Tours asks for them.
type TourReader struct {
	rows, cols int
	closed     bool
	sc         *bufio.Scanner
	line       int // the number of the line last read
}

// NewTourReader reads the header of a tour file. It fails with a
// *FileError wrapping ErrBadFile when the file is empty or its first line
// is not a header exactly as TourWriter writes it.
func NewTourReader(r io.Reader) (*TourReader, error) {
	tr := &TourReader{sc: bufio.NewScanner(r)}
	tr.sc.Buffer(make([]byte, 1<<16), maxTourLine)
	if !tr.scan() {
		if err := tr.err(); err != nil {
			return nil, err
		}
		return nil, &FileError{1, fmt.Errorf("%w: empty", ErrBadFile)}
	}
	text := tr.sc.Text()
	bad := &FileError{1, fmt.Errorf("%w: header %q, want \"%s RxC open|closed\"", ErrBadFile, text, tourFileMagic)}
	size, kind, ok := strings.Cut(strings.TrimPrefix(text, tourFileMagic+" "), " ")
	r1, c1, ok2 := strings.Cut(size, "x")
	rows, err1 := strconv.Atoi(r1)
	cols, err2 := strconv.Atoi(c1)
	if !ok || !ok2 || err1 != nil || err2 != nil || checkSize(rows, cols) != nil ||
		(kind != "open" && kind != "closed") || text != fmt.Sprintf("%s %dx%d %s", tourFileMagic, rows, cols, kind) {
		return nil, bad // the last test refuses signs, zeros in front, spaces and junk after the kind
	}
	tr.rows, tr.cols, tr.closed = rows, cols, kind == "closed"
	return tr, nil
}

// Rows gives the number of rows of the file's board.
func (tr *TourReader) Rows() int { return tr.rows }

// Cols gives the number of columns of the file's board.
func (tr *TourReader) Cols() int { return tr.cols }

// Closed reports whether the file promises closed tours only.
func (tr *TourReader) Closed() bool { return tr.closed }

func (tr *TourReader) scan() bool {
	ok := tr.sc.Scan()
	if ok || tr.sc.Err() != nil {
		tr.line++
	}
	return ok
}

// err returns the scanner's error as a *FileError on the line it met it.
func (tr *TourReader) err() error {
	switch err := tr.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return &FileError{tr.line, fmt.Errorf("%w: a line longer than %d bytes, the most a tour of the largest board takes", ErrBadFile, maxTourLine)}
	case err != nil:
		return &FileError{tr.line, err}
	}
	return nil
}

// Tours yields the tours of the file, each checked with Validate (and
// that it is closed if the header says so), or a *FileError for the first
// bad line, or for a file cut short, and stops. The Tour is valid until the
// next one: Clone it to keep it.
func (tr *TourReader) Tours() iter.Seq2[Tour, error] {
	return func(yield func(Tour, error) bool) {
		rows, cols := tr.rows, tr.cols
		order := SeedOrder()
		path := make([]Coordinate, 0, rows*cols)
		t := Tour{rows: rows, cols: cols, squares: make([]uint16, rows*cols)}
		n := 0
		for tr.scan() {
			fail := func(err error) { yield(Tour{}, &FileError{tr.line, err}) }
			text := tr.sc.Text()
			if count, ok := strings.CutPrefix(text, tourFileEnd+" "); ok {
				if count != strconv.Itoa(n) {
					fail(fmt.Errorf("%w: the end line says %q tours, the file holds %d", ErrBadFile, count, n))
				} else if tr.scan() {
					fail(fmt.Errorf("%w: a line after the end line", ErrBadFile))
				} else if err := tr.err(); err != nil {
					yield(Tour{}, err)
				}
				return
			}
			start, jumps, ok := strings.Cut(text, ":")
			sq, err := strconv.Atoi(start)
			if !ok || err != nil || sq < 0 || sq >= rows*cols || start != strconv.Itoa(sq) {
				fail(fmt.Errorf("%w: want START:JUMPS, got %q", ErrBadFile, text))
				return
			}
			path = append(path[:0], Coordinate{sq / cols, sq % cols})
			for _, j := range jumps {
				if j < '0' || j > '7' {
					fail(fmt.Errorf("%w: jump %q is not a digit 0-7", ErrBadFile, j))
					return
				}
				m := order[j-'0']
				path = append(path, path[len(path)-1].Offset(m.DRow, m.DCol))
			}
			closed, err := Validate(rows, cols, path)
			if err == nil && tr.closed && !closed {
				err = &TourError{-1, "the file holds closed tours, this one is open"}
			}
			if err != nil {
				fail(err)
				return
			}
			for i, c := range path {
				t.squares[i] = uint16(c.Row*cols + c.Col)
			}
			n++
			if !yield(t, nil) {
				return
			}
		}
		if err := tr.err(); err != nil {
			yield(Tour{}, err)
			return
		}
		yield(Tour{}, &FileError{tr.line + 1, fmt.Errorf("%w: cut short after %d tours: no %q line (its writer was stopped)", ErrBadFile, n, tourFileEnd+" N")})
	}
}

// ReadTours reads a tour file: NewTourReader, then its Tours; a bad header
// is the first and only error it yields.
func ReadTours(r io.Reader) iter.Seq2[Tour, error] {
	return func(yield func(Tour, error) bool) {
		tr, err := NewTourReader(r)
		if err != nil {
			yield(Tour{}, err)
			return
		}
		tr.Tours()(yield)
	}
}
