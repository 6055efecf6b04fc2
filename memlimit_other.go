//go:build !linux

package knightstour

// defaultMemoryLimit is CountDP's bound on memory for states where the
// machine's memory is not known.
func defaultMemoryLimit() int64 { return fallbackMemoryLimit }
