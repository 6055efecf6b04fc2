package main

import (
	"fmt"
	"io"
	"math/big"
)

// knuthTables are the counts of every 8 x n board that Knuth published
// (TAOCP pre-fascicle 8A, 2025; OEIS), undirected: a count of ours, which
// takes each tour in both directions, is twice each. The key is the
// table's mode; the values are for n = first, first+1, ...
var knuthTables = map[string]struct {
	sequence string
	first    int
	values   []string
}{
	"closed": {"A193055", 5, []string{
		"44202", "55488142", "34524432316", "13267364410532", "7112881119092574", "4235482818156697040",
		"2122880233853945590892", "1105420672289849239070962", "586820057145837880942582376",
		"311550865881297158579957164664", "162703111270636640083076205067310"}},
	"free": {"A389760", 3, []string{
		"396", "31088", "18061054", "24964893804", "20666425060328", "9795914085489952", "6132937892156709562",
		"4214075132802512266572", "2477253477516170446829358", "1473131065713863127901104228",
		"887119293216889728703404730880", "529671607280824145157294991442168"}},
}

// table is one count of every length of an 8-row board (count -method dp
// -all-lengths -json), recorded in scripts/countsmd/tables.json once it
// has finished: this script does not run counts of hours.
type table struct {
	Mode       string   `json:"mode"` // "closed" or "free"
	Rows       int      `json:"rows"`
	Command    string   `json:"command"`
	ByLength   []string `json:"by_length"` // directed, for R x 1, R x 2, ...
	Elapsed    string   `json:"elapsed"`
	PeakStates int64    `json:"peak_states"`
	MaxRSSKB   int64    `json:"max_rss_kb"` // /usr/bin/time -v
	Note       string   `json:"note"`
	// States, where recorded, are the states after each square, as the
	// counts of hours list them: the widest counts plan the next.
	States []int64 `json:"states,omitempty"`
}

// loadTables reads scripts/countsmd/tables.json; none is no table.
func loadTables() ([]table, error) { return loadJSON[table]("tables.json", true) }

// printTables writes the section that holds the counts of every length
// against Knuth's tables, and reports how many differ.
func printTables(out io.Writer, ts []table) (checked, failed int) {
	fmt.Fprintf(out, "## 8 x n against Knuth's tables\n\n")
	fmt.Fprintf(out, "Knuth published the counts of every 8 x n board, closed (OEIS A193055) and with free ends (A389760), undirected (TAOCP pre-fascicle 8A, 2025). One pass of `count -method dp -all-lengths` counts 8 x 1 to 8 x n; each count here, directed, must be twice the published value (✓).\n\n")
	if len(ts) == 0 {
		fmt.Fprintf(out, "None counted yet.\n\n")
	}
	for _, t := range ts {
		pub, ok := knuthTables[t.Mode]
		if !ok {
			fmt.Fprintf(out, "A table of mode %q, which Knuth did not publish.\n\n", t.Mode)
			continue
		}
		kind := map[string]string{"closed": "closed tours", "free": "open tours with free ends"}[t.Mode]
		fmt.Fprintf(out, "### %d x n, %s (%s)\n\n", t.Rows, kind, pub.sequence)
		fmt.Fprintf(out, "`%s`: %s on 2 cores, at most %s states, %s kB resident at most (/usr/bin/time -v). %s\n\n", t.Command, t.Elapsed, group(fmt.Sprint(t.PeakStates)), group(fmt.Sprint(t.MaxRSSKB)), t.Note)
		fmt.Fprintf(out, "| n | tours (directed) | %s | |\n|---|---|---|---|\n", pub.sequence)
		for i, s := range t.ByLength {
			n := i + 1
			k := n - pub.first
			if k < 0 || k >= len(pub.values) {
				continue
			}
			got, ok1 := new(big.Int).SetString(s, 10)
			want, ok2 := new(big.Int).SetString(pub.values[k], 10)
			mark := "✓"
			if !ok1 || !ok2 || got.Cmp(new(big.Int).Lsh(want, 1)) != 0 {
				mark = "✗"
				failed++
			}
			checked++
			fmt.Fprintf(out, "| %d | %s | %s | %s |\n", n, group(s), group(pub.values[k]), mark)
		}
		fmt.Fprintf(out, "\n")
		if t.States != nil {
			fmt.Fprintf(out, "States after each square: %v\n\n", t.States)
		}
	}
	return checked, failed
}
