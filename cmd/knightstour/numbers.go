package main

import (
	"fmt"
	"strings"
)

// grouped writes a whole number for people, with a comma between groups
// of three digits: 19,023,006,776. n is any integer or *big.Int. The JSON
// output keeps plain numbers.
func grouped(n any) string {
	s := fmt.Sprint(n)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(s) % 3
	if head > 0 {
		b.WriteString(s[:head])
	}
	for i := head; i < len(s); i += 3 {
		if b.Len() > len(sign) {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// count writes n things for people, grouped and with the noun in the
// singular or the plural: "1 worker", "2 workers", "1,682 tours".
func count[T ~int | ~int64 | ~uint64](n T, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return grouped(n) + " " + many
}
