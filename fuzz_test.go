package knightstour

import (
	"bytes"
	"context"
	"testing"
)

// The fuzz targets feed every reader of user data random input: none may
// panic or hang, and what a reader accepts must be what it promises.
// .ci/run runs each for 30 seconds; go test runs their seeds.

func FuzzReadTours(f *testing.F) {
	var buf bytes.Buffer
	tw := NewTourWriter(&buf, 3, 4, Open)
	s, err := NewSolver(3, 4)
	if err != nil {
		f.Fatal(err)
	}
	for tour, err := range s.All(context.Background()) {
		if err != nil {
			f.Fatal(err)
		}
		if err := tw.Write(tour); err != nil {
			f.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{buf.String(), "# knightstour 3x4 open\n# end 0\n", "# knightstour 5x5 closed\n", "", "# knightstour 1x1 open\n0:\n# end 1\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for tour, err := range readTours(bytes.NewReader(data)) {
			if err != nil {
				return
			}
			if err := tour.check(make([]uint64, (tour.Len()+63)/64)); err != nil {
				t.Fatalf("ReadTours accepted a tour that is not one: %v", err)
			}
		}
	})
}
