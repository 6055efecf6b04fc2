package knightstour

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestSVG checks that the pictures are well-formed XML with an svg root,
// one polyline with a point per square (one more when closed), both
// markers, and the move numbers when asked.
func TestSVG(t *testing.T) {
	for _, tt := range []struct {
		rows, cols int
		closed     bool
		numbers    bool
	}{{3, 4, false, true}, {6, 6, true, true}, {8, 8, false, false}, {1, 1, false, true}} {
		opts := []Option{}
		if tt.closed {
			opts = append(opts, WithClosed())
		}
		tour, err := mustSolver(t, tt.rows, tt.cols, pick[SolverOption](opts)...).First(context.Background())
		if err != nil {
			tour, _, err = warnsdorff(context.Background(), tt.rows, tt.cols, pick[FindTourOption](opts)...)
		}
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteSVG(&buf, tour, SVGOptions{Numbers: tt.numbers}); err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
		var root string
		texts, circles, points := 0, 0, 0
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%dx%d: not well-formed XML: %v", tt.rows, tt.cols, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = se.Name.Local
				}
				switch se.Name.Local {
				case "text":
					texts++
				case "circle":
					circles++
				case "polyline":
					for _, a := range se.Attr {
						if a.Name.Local == "points" {
							points = len(strings.Fields(a.Value))
						}
					}
				}
			}
		}
		wantPoints := tour.Len()
		if tour.closed() {
			wantPoints++
		}
		wantTexts := 0
		if tt.numbers {
			wantTexts = tour.Len()
		}
		if root != "svg" || points != wantPoints || circles != 2 || texts != wantTexts {
			t.Errorf("%dx%d: root %q, %d points (want %d), %d circles, %d numbers (want %d)", tt.rows, tt.cols, root, points, wantPoints, circles, texts, wantTexts)
		}
	}
	if err := WriteSVG(io.Discard, Tour{}, SVGOptions{}); !isErr(err, errTour) {
		t.Errorf("empty tour: %v", err)
	}
}
