package policy

import (
	"encoding/binary"
)

// SourceSet is the untrusted sources that findings rest on beside their
// own head: the tools, the steps each brings (a source's leg, or its flow
// and the step into an agent's context) and the locations of the tools.
// A large handoff chain's missing-approval and toxic-flow findings each
// rest on the same hundreds of sources; the set is made once and every
// such finding names it, so the document grows with agents and tools, not
// with their pairs (JSON: source_sets, contract version 3).
//
// A finding with a set keeps its head (Source, the first path whole in
// Steps, its own steps and related locations); what it rests on in full is
// AllSources, AllSteps and AllRelated. A set is shared and never changed
// after it is made.
type SourceSet struct {
	Tools   []string // each once, in the finding's order
	Steps   []Step   // each once, in order
	Related []Step   // one per source tool
}

// AllSources are every source of the finding, its own then its set's.
func (f *Finding) AllSources() []string {
	if f.Set == nil {
		return f.Sources
	}
	n := len(f.Sources) + len(f.Set.Tools)
	return uniqNames(n, func(i int) string {
		if i < len(f.Sources) {
			return f.Sources[i]
		}
		return f.Set.Tools[i-len(f.Sources)]
	})
}

// AllSteps are every step the finding rests on, each once: its own, then
// its set's.
func (f *Finding) AllSteps() []Step {
	if f.Set == nil {
		return f.Steps
	}
	out := make([]Step, 0, len(f.Steps)+len(f.Set.Steps))
	seen := make(map[stepID]bool, len(f.Steps))
	for _, s := range f.Steps {
		seen[stepID{s.File, s.Line, s.Column, s.Message}] = true
		out = append(out, s)
	}
	for _, s := range f.Set.Steps {
		if !seen[stepID{s.File, s.Line, s.Column, s.Message}] {
			out = append(out, s)
		}
	}
	return out
}

// AllRelated are the finding's related locations and its set's.
func (f *Finding) AllRelated() []Step {
	if f.Set == nil {
		return f.Related
	}
	out := make([]Step, 0, len(f.Related)+len(f.Set.Related))
	return append(append(out, f.Related...), f.Set.Related...)
}

// sourceSets makes each set once: findings whose sources are the same
// parts in the same order share one. A part is a step slice the check
// memoises (one per source and path), so its identity is its first
// element's address.
type sourceSets struct {
	part map[*Step]uint64
	sets map[string]*SourceSet
	key  []byte
}

// of returns the set of the n sources whose i-th brings the steps
// part(i); make builds it when no finding has named it yet.
func (ss *sourceSets) of(n int, part func(int) []Step, make func() *SourceSet) *SourceSet {
	if ss.sets == nil {
		ss.part, ss.sets = map[*Step]uint64{}, map[string]*SourceSet{}
	}
	ss.key = ss.key[:0]
	for i := 0; i < n; i++ {
		p := part(i)
		if len(p) == 0 {
			ss.key = binary.AppendUvarint(ss.key, 0)
			continue
		}
		id, ok := ss.part[&p[0]]
		if !ok {
			id = uint64(len(ss.part) + 1)
			ss.part[&p[0]] = id
		}
		ss.key = binary.AppendUvarint(ss.key, id)
	}
	if s, ok := ss.sets[string(ss.key)]; ok {
		return s
	}
	s := make()
	ss.sets[string(ss.key)] = s
	return s
}

// joinParts is one path made of parts.
func joinParts(parts ...[]Step) []Step {
	if len(parts) == 1 {
		return parts[0]
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]Step, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// stepsOnce lists the steps of parts, each once, in order.
func stepsOnce(parts ...[]Step) []Step {
	var out []Step
	seen := map[stepID]bool{}
	for _, p := range parts {
		for _, s := range p {
			k := stepID{s.File, s.Line, s.Column, s.Message}
			if !seen[k] {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}
