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
//
// The header names the board, and "closed" if every tour must be closed.
const tourFileMagic = "# knightstour"

// TourWriter writes tours in the tour file format. It buffers: call Flush
// at the end. A TourWriter is for one goroutine; Solver.All delivers tours
// on the caller's goroutine in order, so tours from any number of workers
// reach a file whole and in order.
type TourWriter struct {
	w      *bufio.Writer
	rows   int
	cols   int
	closed bool
	wrote  bool
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
	_, err := tw.w.Write(tw.line)
	return err
}

// Flush writes out what is buffered; a file with no tours still gets its
// header.
func (tw *TourWriter) Flush() error {
	if err := tw.header(); err != nil {
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

// ErrBadFile reports a tour file whose header is missing or malformed.
var ErrBadFile = errors.New("knightstour: not a tour file")

// ReadTours reads a tour file, checking every tour with Validate (and that
// it is closed if the header says so); it yields each tour, or a
// *FileError for the first bad line and stops. The Tour is valid until the
// next one: Clone it to keep it.
func ReadTours(r io.Reader) iter.Seq2[Tour, error] {
	return func(yield func(Tour, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<16), 4*MaxSquares)
		if !sc.Scan() {
			err := sc.Err()
			if err == nil {
				err = fmt.Errorf("%w: empty", ErrBadFile)
			}
			yield(Tour{}, err)
			return
		}
		var rows, cols int
		var kind string
		header := strings.TrimPrefix(sc.Text(), tourFileMagic+" ")
		if _, err := fmt.Sscanf(header, "%dx%d %s", &rows, &cols, &kind); err != nil || header == sc.Text() ||
			(kind != "open" && kind != "closed") || checkSize(rows, cols) != nil {
			yield(Tour{}, &FileError{1, fmt.Errorf("%w: header %q, want \"%s RxC open|closed\"", ErrBadFile, sc.Text(), tourFileMagic)})
			return
		}
		order := SeedOrder()
		path := make([]Coordinate, 0, rows*cols)
		t := Tour{rows: rows, cols: cols, squares: make([]uint16, rows*cols)}
		for line := 2; sc.Scan(); line++ {
			fail := func(err error) { yield(Tour{}, &FileError{line, err}) }
			start, jumps, ok := strings.Cut(sc.Text(), ":")
			sq, err := strconv.Atoi(start)
			if !ok || err != nil || sq < 0 || sq >= rows*cols {
				fail(fmt.Errorf("%w: want START:JUMPS, got %q", ErrBadFile, sc.Text()))
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
			if err == nil && kind == "closed" && !closed {
				err = &TourError{-1, "the file holds closed tours, this one is open"}
			}
			if err != nil {
				fail(err)
				return
			}
			for i, c := range path {
				t.squares[i] = uint16(c.Row*cols + c.Col)
			}
			if !yield(t, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(Tour{}, err)
		}
	}
}
