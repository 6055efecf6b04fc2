//go:build !linux

package frontier

import (
	"errors"
	"os"
)

// punchHole is not supported here: canPunchHoles says no.
func punchHole(f *os.File, off, n int64) error { return errors.ErrUnsupported }

// canPunchHoles reports false: on systems other than Linux a layer stays
// whole until its step ends.
func canPunchHoles(f *os.File) bool { return false }
