//go:build !amd64 && !arm64

package frontier

// prefetch does nothing where the package has no assembly for it: the
// word comes in when it is read.
func prefetch(p *uint64) {}
