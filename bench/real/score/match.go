package main

import (
	"sort"
	"strings"
)

// Scan is the part of `acg scan --format json` the scorer reads. Fields that older
// binaries lack (agent_id, triage_reason) are simply empty.
type Scan struct {
	Agents   []ScanAgent   `json:"agents"`
	Findings []ScanFinding `json:"findings"`
	Notices  []struct {
		File, Kind, Message string
	} `json:"notices"`
}

// ScanAgent is one agent acg reports.
type ScanAgent struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Framework string `json:"framework"`
	File      string `json:"file"`
	Line      int    `json:"line"`
}

// ScanFinding is one finding acg reports.
type ScanFinding struct {
	ID        string `json:"id"`
	Rule      string `json:"rule"`
	Agent     string `json:"agent"`
	AgentID   string `json:"agent_id"`
	Location  Where  `json:"location"`
	Triage    string `json:"triage"`
	DecidedBy string `json:"decided_by"`
}

// Where is a finding's location.
type Where struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// NeedsReview is true for a finding whose triage says it rests on an assumption.
// Older binaries put the reason into triage ("needs review: ..."), newer ones use
// triage "needs_review" with triage_reason beside it; both are read.
func (f ScanFinding) NeedsReview() bool {
	t := strings.ToLower(strings.TrimSpace(f.Triage))
	return strings.HasPrefix(t, "needs_review") || strings.HasPrefix(t, "needs review")
}

// LineWindow is how far (in lines) an acg agent may sit from the labelled line and
// still be the same agent when the names differ. Agents are reported on their
// constructor call, which is within a few lines of the labelled definition (a
// decorated method, an assignment, a StateGraph(...) line).
const LineWindow = 3

func normName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.Trim(s, "\"'` ")
	return strings.Join(strings.Fields(s), " ")
}

// sameName compares normalised names; a method named with its class
// ("Executor._process_request") is the same as the bare method name.
func sameName(a, b string) bool {
	return a == b || a != "" && b != "" && (strings.HasSuffix(a, "."+b) || strings.HasSuffix(b, "."+a))
}

// Match pairs labelled agents with acg agents of the same repository, one to one.
//
// A pair is possible when the acg agent's file is the labelled file (or one of its
// `also` files) and either a name matches (the label's name or an alias, compared
// without case, quotes or repeated spaces, a Class.method name matching the bare
// method name) or the line is within LineWindow. Pairs are
// taken greedily: name and line both matching first, then name only (nearest line
// first), then line only. The result maps a labelled agent's index to an acg agent's
// index.
func Match(labelled []*LabelledAgent, found []ScanAgent) map[int]int {
	type pair struct {
		l, f, rank, dist int
	}
	var pairs []pair
	for li, la := range labelled {
		for fi, fa := range found {
			if rank, dist, ok := pairRank(la, fa); ok {
				pairs = append(pairs, pair{li, fi, rank, dist})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		if pairs[i].rank != pairs[j].rank {
			return pairs[i].rank < pairs[j].rank
		}
		return pairs[i].dist < pairs[j].dist
	})
	out := map[int]int{}
	used := map[int]bool{}
	for _, p := range pairs {
		if _, done := out[p.l]; done || used[p.f] {
			continue
		}
		out[p.l], used[p.f] = p.f, true
	}
	return out
}

// FindingAgent says which acg agent a finding belongs to: by agent_id when the binary
// reports it, else by agent name, preferring an agent in the finding's file and then the
// nearest one above the finding. It returns -1 when no agent carries the name.
func FindingAgent(f ScanFinding, found []ScanAgent) int {
	if f.AgentID != "" {
		for i, a := range found {
			if a.ID == f.AgentID {
				return i
			}
		}
	}
	best, bestScore := -1, 0
	for i, a := range found {
		if a.Name != f.Agent {
			continue
		}
		score := 1
		if a.File == f.Location.File {
			score = 1000000 - abs(f.Location.Line-a.Line)
		}
		if best < 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// pairRank ranks how well an acg agent fits a labelled one: 0 name and line, 1 name
// only, 2 line only; dist is the line distance. ok is false when they cannot pair.
func pairRank(la *LabelledAgent, fa ScanAgent) (rank, dist int, ok bool) {
	nameOK := false
	for _, n := range la.Names() {
		if sameName(normName(n), normName(fa.Name)) {
			nameOK = true
		}
	}
	rank = 3
	for _, loc := range append([]Loc{la.Loc}, la.Also...) {
		if loc.File != fa.File {
			continue
		}
		d := abs(loc.Line - fa.Line)
		r := 3
		switch {
		case nameOK && d <= LineWindow:
			r = 0
		case nameOK:
			r = 1
		case d <= LineWindow:
			r = 2
		}
		if r < rank || (r == rank && d < dist) {
			rank, dist = r, d
		}
	}
	return rank, dist, rank < 3
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
