package report

import (
	"sort"
	"time"
)

// Options are the settings the batch formats share.
type Options struct {
	// ToolVersion is acg's version, written where a format names the tool.
	ToolVersion string
	// Baseline is set when findings were filtered against a baseline: the
	// SARIF results are then marked new.
	Baseline bool
	// Now stamps chain events; tests fix it. Nil means time.Now.
	Now func() time.Time
	// Color styles text output with ANSI escapes (see UseColor).
	Color bool
	// Root is the absolute directory the output's paths are relative to;
	// SARIF names it as %SRCROOT% so viewers can place the results.
	Root string
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func sortBy[T any](xs []T, key func(T) string) {
	sort.SliceStable(xs, func(i, j int) bool { return key(xs[i]) < key(xs[j]) })
}
