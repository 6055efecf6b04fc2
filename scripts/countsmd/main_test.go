package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHoursCell(t *testing.T) {
	rs := []running{
		{Board: "8x8", Mode: "corner", Found: "12"},
		{Board: "8x8 (second computation)", Mode: "corner", Found: "12", Checks: "8x8"},
		{Board: "8x9", Mode: "corner", Found: "34"},
		{Board: "8x10", Mode: "corner"},
		{Board: "8x11", Mode: "corner", Found: "56"},
		{Board: "8x11 (second computation)", Mode: "corner", Found: "57", Checks: "8x11"},
		{Board: "8x12", Mode: "closed", Found: "78"},
		{Board: "8x12 (second computation)", Mode: "closed", Found: "78", Checks: "8x12"},
	}
	for _, tc := range []struct{ board, want string }{
		{"8x8", "12 ‡"},         // two computations agree
		{"8x9", "running"},      // found once
		{"8x10", "running"},     // under way
		{"8x11", "running"},     // two computations disagree: no result
		{"8x12", "not reached"}, // only closed tours counted
		{"9x9", "not reached"},  // nothing recorded
	} {
		if diff := cmp.Diff(tc.want, hoursCell(rs, tc.board)); diff != "" {
			t.Errorf("hoursCell(%s) (-want +got):\n%s", tc.board, diff)
		}
	}
}

func TestHoursTable(t *testing.T) {
	rs := []running{
		{Board: "8x8", Mode: "corner", Found: "1234"},
		{Board: "8x8 (second computation)", Mode: "corner", Found: "1234", Checks: "8x8"},
		{Board: "8x9", Mode: "corner", Found: "34"},
		{Board: "8x10", Mode: "corner", Squares: 80, States: []int64{1, 1, 2}},
		{Board: "8x11", Mode: "corner", Found: "56"},
		{Board: "8x11 (second computation)", Mode: "corner", Found: "57", Checks: "8x11"},
	}
	want := [][3]string{
		{"corner 8x8", "**1,234** ‡", "2 agree"},
		{"corner 8x9", "", "found once (34), to be confirmed"},
		{"corner 8x10", "", "running: 3 of 80 squares added"},
		{"corner 8x11", "", "found 56 and 57: no result"},
	}
	if diff := cmp.Diff(want, hoursTable(rs)); diff != "" {
		t.Errorf("hoursTable (-want +got):\n%s", diff)
	}
}

func TestPrintTables(t *testing.T) {
	var out strings.Builder
	checked, failed := printTables(&out, []table{
		{Mode: "closed", Rows: 8, ByLength: []string{"0", "0", "0", "0", "88404", "110976284", "1"}},
	})
	if checked != 3 || failed != 1 {
		t.Errorf("checked %d, failed %d; want 3 and 1 (8x7 is wrong)", checked, failed)
	}
	for _, want := range []string{"| 5 | 88,404 | 44,202 | ✓ |", "| 6 | 110,976,284 | 55,488,142 | ✓ |", "| 7 | 1 | 34,524,432,316 | ✗ |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

func TestPrintNine(t *testing.T) {
	var out strings.Builder
	checked, failed, err := printNine(&out, []nineCount{
		{Board: "9x3", Mode: "free", Tours: "1120", Width: 9},
		{Board: "9x6", Mode: "closed", Tours: "3374967940", Width: 9}, // undirected: half the count
		{Board: "3x4", Mode: "corner", Tours: "2", Width: 4},
		{Board: "9x9", Mode: "free", Tours: "1", Width: 9}, // unpublished: no reference
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked != 2 || failed != 1 {
		t.Errorf("checked %d published, failed %d; want 2 and 1", checked, failed)
	}
	for _, want := range []string{"| free 9x3 | 1,120 | 2 x A391009 = 2 x 560 | ✓ |", "| closed 9x6 | 3,374,967,940 | 2 x A391999 = 2 x 3,374,967,940 | ✗ |",
		"| corner 3x4 | 2 | along, 3 wide, counted now | ✓ |", "| free 9x9 | 1 |  |  |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no line %q in:\n%s", want, out.String())
		}
	}
}

func TestNineByNineColumns(t *testing.T) {
	rs := []running{
		{Board: "9x9", Mode: "corner", Squares: 81, States: []int64{1, 1, 1, 1, 1, 1, 1, 1, 2, 8, 32, 4}},
		{Board: "9x9", Mode: "free", Squares: 81, States: []int64{9, 9, 9}},
	}
	want := [][]string{
		{"column", "squares", "corner: states after it", "most within it", "free: states after it", "most within it"},
		{"---", "---", "---", "---", "---", "---"},
		{"1", "1 to 9", "2", "2", "", "9"},
		{"2", "10 to 18", "", "32", "", ""},
	}
	if diff := cmp.Diff(want, nineByNineColumns(rs)); diff != "" {
		t.Errorf("nineByNineColumns (-want +got):\n%s", diff)
	}
}

func TestReplaceSection(t *testing.T) {
	const md = "# T\n\n## A\n\na\n\n## B\n\nb\n\n### B1\n\nb1\n\n## C\n\nc\n"
	for _, tc := range []struct {
		name, section, want string
		fails               bool
	}{
		{"middle", "## B\n\nnew\n\n", "# T\n\n## A\n\na\n\n## B\n\nnew\n\n## C\n\nc\n", false},
		{"first", "## A\n\nnew\n\n", "# T\n\n## A\n\nnew\n\n## B\n\nb\n\n### B1\n\nb1\n\n## C\n\nc\n", false},
		{"last", "## C\n\nnew\n", "# T\n\n## A\n\na\n\n## B\n\nb\n\n### B1\n\nb1\n\n## C\n\nnew\n", false},
		{"missing", "## D\n\nnew\n", "", true},
		{"heading's prefix", "## Bee\n\nnew\n", "", true},
	} {
		got, err := replaceSection(md, tc.section)
		if (err != nil) != tc.fails {
			t.Errorf("%s: error %v, want one: %v", tc.name, err, tc.fails)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
