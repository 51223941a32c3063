package provers

import (
	"sort"
	"sync"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/prove"
)

// Store keeps the external provers' flows between runs, for the language
// server: Opengrep answers per saved file, CodeQL for the whole tree, and
// both answer late. A stored flow is served while every file on its path
// still has the bytes the prover read; after an edit it is dropped until the
// prover runs again (its positions would be stale).
type Store struct {
	mu   sync.Mutex
	runs map[string]storedRun
}

type storedRun struct {
	flows  []prove.Flow
	hashes map[string][32]byte
}

// Put replaces what a prover found for a scope: one file (Opengrep on
// save) or, with file "", the whole tree (CodeQL). snap is the snapshot the
// prover ran on.
func (s *Store) Put(prover, file string, snap *incremental.Snapshot, flows []prove.Flow) {
	run := storedRun{flows: flows, hashes: map[string][32]byte{}}
	for _, fl := range flows {
		for _, st := range fl.Steps {
			if f := snap.File(st.Loc.File); f != nil {
				run.hashes[f.Path] = f.Hash
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runs == nil {
		s.runs = map[string]storedRun{}
	}
	s.runs[prover+"\x00"+file] = run
}

// Flows returns the stored flows that are still valid in snap, merged and
// in a stable order.
func (s *Store) Flows(snap *incremental.Snapshot) []prove.Flow {
	s.mu.Lock()
	keys := make([]string, 0, len(s.runs))
	for k := range s.runs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sets [][]prove.Flow
	for _, k := range keys {
		run := s.runs[k]
		var keep []prove.Flow
		for _, fl := range run.flows {
			if current(snap, run.hashes, fl) {
				keep = append(keep, fl)
			}
		}
		sets = append(sets, keep)
	}
	s.mu.Unlock()
	return prove.Merge(sets...)
}

func current(snap *incremental.Snapshot, hashes map[string][32]byte, fl prove.Flow) bool {
	for _, st := range fl.Steps {
		f := snap.File(st.Loc.File)
		if f == nil || f.Hash != hashes[st.Loc.File] {
			return false
		}
	}
	return true
}
