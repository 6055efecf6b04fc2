package shard

import (
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	tests := []struct {
		ids  []ID
		want string // in the error; "" for none
	}{
		{[]ID{{0, 1}}, ""},
		{[]ID{{2, 3}, {0, 3}, {1, 3}}, ""},
		{nil, "no results"},
		{[]ID{{0, 3}, {2, 3}}, "1/3 is missing"},
		{[]ID{{0, 2}, {0, 2}, {1, 2}}, "0/2 is given twice"},
		{[]ID{{0, 2}, {1, 3}}, "another split"},
		{[]ID{{0, 1}, {1, 1}}, "1/1 is out of range"},
		{[]ID{{-1, 2}}, "out of range"},
		// Forged splits: no allocation the size of the split.
		{[]ID{{0, 1 << 40}}, "1/1099511627776 is missing"},
		{[]ID{{0, 1 << 62}, {1, 1 << 62}}, "2/4611686018427387904 is missing"},
		{[]ID{{0, 0}}, "out of range"},
	}
	for _, tt := range tests {
		err := Complete(tt.ids)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Complete(%v) = %v, want %q", tt.ids, err, tt.want)
		}
	}
}
