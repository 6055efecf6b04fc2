//go:build amd64 || arm64

package frontier

// prefetch asks the processor to bring the word at p into its caches and
// goes on at once: unlike a load, it does not hold up the instructions
// after it while the word comes from memory. Go has no way to say this
// but assembly.
//
//go:noescape
func prefetch(p *uint64)
