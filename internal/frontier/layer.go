package frontier

// A layer holds the states of a count after some squares were added, each
// with the number of partial solutions in it: an entry is the state's key
// followed by its count in k 64-bit limbs, least significant first. The
// entries are split into groups by the high bits of the key's hash, so
// that the next layer can be built a group at a time: every group of the
// next layer is a hash table of its own, filled from all workers in
// batches and packed into a dense array when the step is done, and every
// group of this layer is freed as soon as its states have been expanded.
// So a step holds about one layer of dense entries plus the tables being
// filled, never the unmerged products of a whole step.
type layer struct {
	groups []group // dense entries of 1+k words
	n      int
	files  []*layerFile // where its groups lie on disk, if they do
	// parts, when not nil, says which classes of states its groups hold,
	// for a layer made in passes by classes (see classParts).
	parts *classParts
}

// free returns the layer's memory and removes its files.
func (l *layer) free(a *arena) {
	for g := range l.groups {
		a.free(l.groups[g])
		l.groups[g] = group{}
	}
	for _, f := range l.files {
		f.remove()
	}
	l.files = nil
}

// onDisk reports whether all of the layer is in files.
func (l *layer) onDisk() bool {
	for _, g := range l.groups {
		if g.file == nil && g.words > 0 {
			return false
		}
	}
	return true
}

// The buffered step frees the slabs of the layer it expands while it
// fills bins, and then fills as many slabs with the next layer: a slab
// fresh from the kernel costs a fault and the zeroing of every page (9%
// of the time of 7x7 from the corner), where one given back in the same
// step can be used again as it is. So while recycle is set, the slabs the
// arenas give back wait in spare, still counted as used, for the arenas'
// next slabs, whatever their size. The peak stays that of the step's
// start and end, when the layers and the bins are whole: what waits in
// spare is memory the step held a moment before. Other steps do not
// recycle: the lean step's tables come from spaces of their own, and the
// memory a layer gives back there must be free for them.

// hashKey scrambles a key over 64 bits (the splitmix64 finaliser): its
// high bits pick a state's group in the buffered step, and it orders the
// states of a compact layer and picks a shard's states. The lean step's
// tables mix keys within their own width instead (mixer).
func hashKey(key uint64) uint64 {
	key ^= key >> 30
	key *= 0xbf58476d1ce4e5b9
	key ^= key >> 27
	key *= 0x94d049bb133111eb
	return key ^ key>>31
}
