package frontier

import (
	"math/big"
	"math/bits"
)

// Counts of partial solutions in 64-bit limbs, least significant first.

// addLimbs adds src to dst (both little-endian limbs, src at least as
// long as dst) and reports whether the sum overflowed.
func addLimbs(dst, src []uint64) (overflow bool) {
	var carry uint64
	for i := range dst {
		dst[i], carry = bits.Add64(dst[i], src[i], carry)
	}
	return carry != 0
}

// limbsLen returns the bits of the count in limbs: 0 for zero.
func limbsLen(limbs []uint64) int {
	for i := len(limbs) - 1; i >= 0; i-- {
		if limbs[i] != 0 {
			return 64*i + bits.Len64(limbs[i])
		}
	}
	return 0
}

// limbsToBig converts little-endian limbs to a big.Int.
func limbsToBig(limbs []uint64) *big.Int {
	z := new(big.Int)
	for i := len(limbs) - 1; i >= 0; i-- {
		z.Lsh(z, 64)
		z.Or(z, new(big.Int).SetUint64(limbs[i]))
	}
	return z
}
