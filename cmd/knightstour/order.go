package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/euler1758/knightstour"
)

// parseOrder reads the -order flag: the names "seed" (SeedOrder) and
// "wirth" (WirthOrder), or jumps written as "(2,1) (1,2) ..." with any mix
// of spaces, commas and slashes between them. It reads the jumps only;
// the library refuses a list that is not the eight knight jumps once each
// when the option is used (ErrBadOption).
func parseOrder(s string) ([]knightstour.Move, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "seed", "default":
		return knightstour.SeedOrder(), nil
	case "wirth", "pascal":
		return knightstour.WirthOrder(), nil
	}
	var order []knightstour.Move
	rest := strings.TrimSpace(s)
	for rest != "" {
		open := strings.IndexByte(rest, '(')
		end := strings.IndexByte(rest, ')')
		if open < 0 || end < open || strings.Trim(rest[:open], " ,/;") != "" {
			return nil, fmt.Errorf(`invalid move order: cannot read %q (want "seed", "wirth" or eight jumps like "(2,1) (1,2) ...")`, s)
		}
		dr, dc, ok := strings.Cut(rest[open+1:end], ",")
		r, err1 := strconv.Atoi(strings.TrimSpace(dr))
		c, err2 := strconv.Atoi(strings.TrimSpace(dc))
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("invalid move order: cannot read jump %q", rest[open:end+1])
		}
		order = append(order, knightstour.Move{DRow: r, DCol: c})
		rest = strings.TrimLeft(rest[end+1:], " ,/;")
	}
	if len(order) == 0 {
		return nil, fmt.Errorf(`invalid move order: no jumps in %q`, s)
	}
	return order, nil
}
