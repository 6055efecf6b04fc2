package knightstour

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMethodString(t *testing.T) {
	got := []string{MethodSearch.String(), MethodWarnsdorff.String(), MethodConstruct.String(), Method(0).String()}
	want := []string{"search", "warnsdorff", "construct", "Method(0)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Method.String (-want +got):\n%s", diff)
	}
}

func TestKindString(t *testing.T) {
	got := []string{Open.String(), Closed.String(), kindOf(true).String(), Kind(5).String()}
	want := []string{"open", "closed", "closed", "Kind(5)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Kind.String (-want +got):\n%s", diff)
	}
}
