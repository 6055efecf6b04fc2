package frontier

import "math/bits"

// A classTable tells the class of a key in base 11 by a few lookups
// instead of a division for each position a partition looks at. A pass
// of a step made in passes tells the class of every state it reads, and
// keeps only those of its own classes: on squares 47 and 48 of 8x12 with
// free ends, in 8 and 10 passes, that took 7.5% of the processor's time
// (perf), as each division waits for the divider the one before used.
//
// The key is cut into its digits four at a time (divisions by constants,
// which the compiler turns into products), and each group of four is
// looked up in a table that gives what its digits add to the number of
// the kinds at the partition's positions, a base-3 digit a position; a
// last table turns that number into the class.
type classTable struct {
	// adds[i] holds, for each number the i-th group of four digits from
	// the lowest can hold, what its digits add to the number of the
	// kinds. A group that holds no position reads entry 0 of noAdds
	// (mask[i] 0), so that every key takes the same steps, none a branch.
	adds    [base11Chunks]*[pow11x4]uint16
	mask    [base11Chunks]uint32
	classes []uint8 // the class of each number of kinds
}

// pow11x4 is 11^4, the numbers four digits in base 11 hold.
const pow11x4 = 11 * 11 * 11 * 11

// base11Chunks is how many groups of four digits a key in base 11 has.
const base11Chunks = (base11Slots + 3) / 4

// recip11x4 divides by 11^4 by one product, the high word of x times
// it: exact for x below 2^64/11^4, as the digits of a key above its
// eighth are (below 2^64/11^8).
const recip11x4 = 1<<64/pow11x4 + 1

// noAdds is the table of a group of digits that holds no position.
var noAdds [pow11x4]uint16

// maxTablePositions is the most positions a classTable looks at: its
// last table has 3^9 entries, 19.7 KB.
const maxTablePositions = 9

// pow11x8 is 11^8, the numbers of eight digits in base 11.
const pow11x8 = pow11x4 * pow11x4

// newClassTable returns the table of c, or nil where c's keys are not in
// base 11 or it looks at too many positions: c tells classes by
// division there.
func newClassTable(c *classifier) *classTable {
	f := c.f
	pos := c.positions()
	if f.packed || f.slots > base11Slots || len(pos) == 0 || len(pos) > maxTablePositions {
		return nil
	}
	t := &classTable{}
	// The number of the kinds: the kind at pos[i] is its digit i.
	place := make([]uint16, len(pos))
	n := uint16(1)
	for i := range pos {
		place[i] = n
		n *= 3
	}
	var kinds [11]uint16 // the kind of each digit
	for d := range kinds {
		kinds[d] = uint16(kind(uint64(d)))
	}
	for chunk := range base11Chunks {
		t.adds[chunk] = &noAdds
		var at [4]uint16 // what a kind adds at each digit of the group
		for i, p := range pos {
			if p/4 == chunk {
				at[p%4] += place[i]
				t.mask[chunk] = ^uint32(0)
			}
		}
		if t.mask[chunk] == 0 {
			continue
		}
		adds := new([pow11x4]uint16)
		x := 0
		for d3 := range 11 {
			for d2 := range 11 {
				for d1 := range 11 {
					high := kinds[d3]*at[3] + kinds[d2]*at[2] + kinds[d1]*at[1]
					for d0 := range 11 {
						adds[x] = high + kinds[d0]*at[0]
						x++
					}
				}
			}
		}
		t.adds[chunk] = adds
	}
	// Each number of the kinds as a window whose codes are those kinds (a
	// kind's code is the kind itself), told by the classifier's own rule.
	t.classes = make([]uint8, n)
	var a slotCodes
	var from [MaxSlots]int8
	for p := range from {
		from[p] = int8(p)
	}
	for k := range t.classes {
		t.classes[k] = uint8(c.classOfWindow(&a, &from))
		for _, p := range pos { // the next number: its kind at pos[i] is digit i
			if a[p] < 2 {
				a[p]++
				break
			}
			a[p] = 0
		}
	}
	return t
}

// class returns the class of key.
func (t *classTable) class(key uint64) int {
	hi := key / pow11x8
	lo := uint32(key - hi*pow11x8)
	q, _ := bits.Mul64(hi, recip11x4) // hi / 11^4
	top := uint32(q)
	k := int(t.adds[0][lo%pow11x4&t.mask[0]]) +
		int(t.adds[1][lo/pow11x4%pow11x4&t.mask[1]]) +
		int(t.adds[2][uint32(hi-q*pow11x4)%pow11x4&t.mask[2]]) +
		int(t.adds[3][top%pow11x4&t.mask[3]]) +
		int(t.adds[4][top/pow11x4%pow11x4&t.mask[4]])
	return int(t.classes[k])
}
