package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/euler1758/knightstour"
)

// nineCount is one count of a board 9 squares long made across it, by a
// frontier 18 squares wide (count -method dp -across -json), recorded in
// scripts/countsmd/nine.json once it has finished: this script does not
// run counts of minutes.
type nineCount struct {
	Board      string `json:"board"` // "9x4"
	Mode       string `json:"mode"`  // "free", "closed" or "corner"
	Command    string `json:"command"`
	Tours      string `json:"tours"` // directed
	Width      int    `json:"width"`
	Elapsed    string `json:"elapsed"`
	PeakStates int64  `json:"peak_states"`
	MaxRSSKB   int64  `json:"max_rss_kb"` // /usr/bin/time
}

// ninePublished are the published counts of 9 x n boards (OEIS),
// undirected: a count of ours is twice each.
var ninePublished = map[string]struct {
	sequence string
	values   map[string]string
}{
	"free": {"A391009", map[string]string{"9x3": "560", "9x4": "189688", "9x5": "264895640", "9x6": "1770631206422",
		"9x7": "2903212163753000", "9x8": "6132937892156709562"}},
	"closed": {"A391999", map[string]string{"9x6": "3374967940", "9x8": "7112881119092574"}},
}

// loadNine reads scripts/countsmd/nine.json; none is no count.
func loadNine() ([]nineCount, error) { return loadJSON[nineCount]("nine.json", true) }

// nineReference returns what a 9-wide count must equal, and where that
// comes from: twice a published count, or, from the corner, the count of
// the same board along its longer side (at most 8 wide), made here and
// now; "" where there is neither.
func nineReference(n nineCount) (want, source string, err error) {
	if pub, ok := ninePublished[n.Mode]; ok {
		v, ok := pub.values[n.Board]
		if !ok {
			return "", "", nil
		}
		x, _ := new(big.Int).SetString(v, 10)
		return x.Lsh(x, 1).String(), fmt.Sprintf("2 x %s = 2 x %s", pub.sequence, group(v)), nil
	}
	if n.Mode != "corner" {
		return "", "", nil
	}
	rows, cols, ok := strings.Cut(n.Board, "x")
	r, err1 := strconv.Atoi(rows)
	c, err2 := strconv.Atoi(cols)
	if !ok || err1 != nil || err2 != nil {
		return "", "", fmt.Errorf("nine.json: board %q", n.Board)
	}
	along, err := knightstour.CountDP(context.Background(), r, c)
	if err != nil {
		return "", "", err
	}
	return along.Tours.String(), fmt.Sprintf("along, %d wide, counted now", along.Work.Width), nil
}

// printNine writes the section on counts with a frontier 9 squares long,
// each checked against its reference, and reports how many published
// values it checked and how many counts differ from their reference.
func printNine(out io.Writer, ns []nineCount) (checked, failed int, err error) {
	fmt.Fprintf(out, "## 9 rows\n\n")
	fmt.Fprintf(out, "Counts made across a board 9 squares long (`-across`), so that the frontier holds 18 squares, as it will on 9 x n boards: each must equal twice the published count (OEIS A391009 with free ends, A391999 closed) or, from the corner, the count of the same board along its longer side, which a frontier at most 8 wide makes. The plan for 9x9 is in [docs/nine-rows.md](docs/nine-rows.md).\n\n")
	if len(ns) == 0 {
		fmt.Fprintf(out, "None counted yet.\n\n")
		return 0, 0, nil
	}
	fmt.Fprintf(out, "| board | tours (directed) | reference | | width | peak states | time | resident |\n|---|---|---|---|---|---|---|---|\n")
	for _, n := range ns {
		want, source, err := nineReference(n)
		if err != nil {
			return checked, failed, err
		}
		mark := ""
		if want != "" {
			if n.Mode != "corner" {
				checked++ // a published value
			}
			mark = "✓"
			if want != n.Tours {
				mark = "✗"
				failed++
			}
		}
		fmt.Fprintf(out, "| %s %s | %s | %s | %s | %d | %s | %s | %s kB |\n", n.Mode, n.Board, group(n.Tours), source, mark, n.Width,
			group(fmt.Sprint(n.PeakStates)), n.Elapsed, group(fmt.Sprint(n.MaxRSSKB)))
	}
	fmt.Fprintf(out, "\nCommands: ")
	for i, n := range ns {
		if i > 0 {
			fmt.Fprintf(out, "; ")
		}
		fmt.Fprintf(out, "`%s`", n.Command)
	}
	fmt.Fprintf(out, ".\n\n")
	return checked, failed, nil
}

// printNineFile is printNine on scripts/countsmd/nine.json, followed by
// printNineByNine on ninebynine.json.
func printNineFile(out io.Writer) (checked, failed int, err error) {
	ns, err := loadNine()
	if err != nil {
		return 0, 0, err
	}
	if checked, failed, err = printNine(out, ns); err != nil {
		return checked, failed, err
	}
	rs, err := loadNineByNine()
	if err != nil {
		return checked, failed, err
	}
	printNineByNine(out, rs)
	return checked, failed, nil
}

// loadNineByNine reads scripts/countsmd/ninebynine.json: counts of 9x9
// recorded by hand from their checkpoints (the manifest's "states") as far
// as they went; none is no count.
func loadNineByNine() ([]running, error) {
	rs, err := loadJSON[running]("ninebynine.json", true)
	for _, r := range rs {
		if err == nil && (len(r.States) == 0 || len(r.States) > r.Squares) {
			err = fmt.Errorf("ninebynine.json: %s %s: %d states for %d squares", r.Mode, r.Board, len(r.States), r.Squares)
		}
	}
	return rs, err
}

// printNineByNine writes the subsection on 9x9: for each count, how far it
// went and why it stopped, then a table of the states at the end of each
// column and the most within it, a pair of cells a count.
func printNineByNine(out io.Writer, rs []running) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(out, "### 9x9, as far as counted here\n\n")
	fmt.Fprintf(out, "No count of 9x9 fits this machine (docs/nine-rows.md, \"What it takes\"). These ran from their checkpoints, layers on disk, until they stopped; the states after each square are what a count on a larger machine will make first, and what the plan for it is fitted to.\n\n")
	for _, r := range rs {
		fmt.Fprintf(out, "- %s %s: %d of %d squares added, at most %s states; `%s`\n\n", r.Mode, r.Board, len(r.States), r.Squares, group(fmt.Sprint(slices.Max(r.States))), r.Command)
		fmt.Fprintf(out, "  %s\n\n", r.Note)
		fmt.Fprintf(out, "  States after each square: %v\n\n", r.States)
	}
	for _, row := range nineByNineColumns(rs) {
		fmt.Fprintf(out, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintf(out, "\n")
}

// nineByNineColumns returns the rows of printNineByNine's table, headings
// and rule first: a row for each column of 9 squares that a count began.
func nineByNineColumns(rs []running) [][]string {
	head, rule := []string{"column", "squares"}, []string{"---", "---"}
	for _, r := range rs {
		head = append(head, r.Mode+": states after it", "most within it")
		rule = append(rule, "---", "---")
	}
	rows := [][]string{head, rule}
	for c := 0; ; c++ {
		row := []string{fmt.Sprint(c + 1), fmt.Sprintf("%d to %d", 9*c+1, 9*c+9)}
		begun := false
		for _, r := range rs {
			lo, hi := min(9*c, len(r.States)), min(9*c+9, len(r.States))
			if lo == hi {
				row = append(row, "", "")
				continue
			}
			begun = true
			end := ""
			if hi == 9*c+9 {
				end = group(fmt.Sprint(r.States[hi-1]))
			}
			row = append(row, end, group(fmt.Sprint(slices.Max(r.States[lo:hi]))))
		}
		if !begun {
			return rows
		}
		rows = append(rows, row)
	}
}
