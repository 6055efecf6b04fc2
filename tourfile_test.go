package knightstour

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTourFileRoundTrip writes tours from a parallel stream and reads them
// back: the same tours, in the same order.
func TestTourFileRoundTrip(t *testing.T) {
	for _, closed := range []bool{false, true} {
		opts := []SolverOption{WithWorkers(4)}
		if closed {
			opts = append(opts, WithClosed())
		}
		s := withoutProbe(mustSolver(t, 5, 6, opts...))
		var buf bytes.Buffer
		tw := NewTourWriter(&buf, 5, 6, kindOf(closed))
		var want []string
		for tour, err := range s.All(context.Background()) {
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, tour.String())
			if err := tw.Write(tour); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		if per := float64(buf.Len()) / float64(len(want)); per > 30+6 {
			t.Errorf("%.1f bytes per 30-square tour; the format promises about one per square", per)
		}
		var got []string
		for tour, err := range readTours(&buf) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, tour.String())
		}
		if diff := cmp.Diff(want, got); diff != "" || len(got) == 0 {
			t.Errorf("closed=%v: round trip (-want +got):\n%s", closed, diff)
		}
	}
}

func TestTourFileFormat(t *testing.T) {
	var buf bytes.Buffer
	tw := NewTourWriter(&buf, 3, 4, Open)
	ts, err := mustSolver(t, 3, 4).FindMoves(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tour := range ts.All() {
		if err := tw.Write(tour); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	// {2,0} is square 8; (-1,2) is jump 3, (-1,-2) jump 7, (2,1) jump 0, ...
	want := "# knightstour 3x4 open\n8:37037025165\n8:37037073073\n# end 2\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := NewTourWriter(&buf, 3, 4, Closed).Write(ts.At(0)); !isErr(err, errTour) {
		t.Errorf("open tour into a closed file: %v", err)
	}
	if err := NewTourWriter(&buf, 4, 3, Open).Write(ts.At(0)); !isErr(err, errTour) {
		t.Errorf("tour of another board: %v", err)
	}
}

// TestReadToursCRLF reads a file whose lines end in \r\n, as an editor
// or a copy through another system may leave it.
func TestReadToursCRLF(t *testing.T) {
	file := "# knightstour 3x4 open\r\n8:37037025165\r\n# end 1\r\n"
	n := 0
	for _, err := range readTours(strings.NewReader(file)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1 {
		t.Errorf("read %d tours, want 1", n)
	}
}

func TestReadToursRejects(t *testing.T) {
	const head, tour = "# knightstour 3x4 open\n", "8:37037025165\n"
	tests := []struct {
		name, file string
		want       error
		line       int
	}{
		{"empty", "", ErrBadFile, 1},
		{"no header", "8:37037025165\n", ErrBadFile, 1},
		{"bad size", "# knightstour 0x4 open\n", ErrBadFile, 1},
		{"bad kind", "# knightstour 3x4 circular\n", ErrBadFile, 1},
		{"junk after the header", "# knightstour 3x4 open junk\n", ErrBadFile, 1},
		{"header with a sign", "# knightstour +3x4 open\n", ErrBadFile, 1},
		{"header with a zero in front", "# knightstour 03x4 open\n", ErrBadFile, 1},
		{"no colon", head + "837132631714\n", ErrBadFile, 2},
		{"bad jump", head + "8:3703702516x\n", ErrBadFile, 2},
		{"start off board", head + "12:37037025165\n", ErrBadFile, 2},
		{"start with a sign", head + "+8:37037025165\n", ErrBadFile, 2},
		{"too short", head + "8:3703702516\n", errTour, 2},
		{"off the board", head + "8:00000000000\n", errTour, 2},
		{"repeats", head + tour + "8:37373737373\n", errTour, 3},
		{"open in closed file", "# knightstour 3x4 closed\n" + tour, errTour, 2},
		{"header only, cut short", head, ErrBadFile, 2},
		{"cut short", head + tour, ErrBadFile, 3},
		{"cut short within a line", head + tour + "8:3703", ErrBadFile, 3},
		{"cut short within the end line", head + tour + "# end", ErrBadFile, 3},
		{"end line counts wrong", head + tour + "# end 3\n", ErrBadFile, 3},
		{"line after the end line", head + tour + "# end 1\n" + tour, ErrBadFile, 4},
		{"line over the longest tour", head + "8:" + strings.Repeat("3", 5*maxSquares) + "\n# end 1\n", ErrBadFile, 2},
	}
	for _, tt := range tests {
		var err error
		n := 0
		for _, e := range readTours(strings.NewReader(tt.file)) {
			if e != nil {
				err = e
				break
			}
			n++
		}
		var fe *FileError
		if !isErr(err, tt.want) || tt.line > 0 && (!errors.As(err, &fe) || fe.Line != tt.line) {
			t.Errorf("%s: after %d tours err = %v; want %v on line %d", tt.name, n, err, tt.want, tt.line)
		}
	}
}

// TestTourReaderHeader checks that a reader knows its board before any
// tour, even in a file with none.
func TestTourReaderHeader(t *testing.T) {
	var buf bytes.Buffer
	if err := NewTourWriter(&buf, 5, 5, Closed).Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := NewTourReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range tr.Tours() {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	rows, cols, kind := tr.Header()
	got := []int{rows, cols, n}
	if diff := cmp.Diff([]int{5, 5, 0}, got); diff != "" || kind != Closed {
		t.Errorf("a file of no closed tours of 5x5 (-want +got):\n%s kind %v", diff, kind)
	}
}
