package main

import (
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
