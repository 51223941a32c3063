package lsptest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// PropertyRun is how much of the incremental-equals-cold property tests
// (incremental and lsp) to run: seeds First..Last, Steps edits each.
type PropertyRun struct {
	First, Last int64
	Steps       int
}

// Property returns def, or what ACG_PROPERTY_SEEDS ("N" or "N-M") and
// ACG_PROPERTY_STEPS ("N") say instead, so that a long run needs no code
// change (docs/testing.md):
//
//	ACG_PROPERTY_SEEDS=1-200 ACG_PROPERTY_STEPS=50 go test ./incremental -run EditsEqualColdScan
func Property(t testing.TB, def PropertyRun) PropertyRun {
	t.Helper()
	r, err := parseProperty(def, os.Getenv("ACG_PROPERTY_SEEDS"), os.Getenv("ACG_PROPERTY_STEPS"))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func parseProperty(r PropertyRun, seeds, steps string) (PropertyRun, error) {
	if seeds != "" {
		lo, hi, ranged := strings.Cut(seeds, "-")
		first, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		last, err2 := first, error(nil)
		if ranged {
			last, err2 = strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
		}
		if err1 != nil || err2 != nil || first > last {
			return r, fmt.Errorf("ACG_PROPERTY_SEEDS=%q: want N or N-M with N <= M", seeds)
		}
		r.First, r.Last = first, last
	}
	if steps != "" {
		n, err := strconv.Atoi(strings.TrimSpace(steps))
		if err != nil || n < 0 {
			return r, fmt.Errorf("ACG_PROPERTY_STEPS=%q: want a count", steps)
		}
		r.Steps = n
	}
	return r, nil
}
