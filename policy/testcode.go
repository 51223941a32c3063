package policy

import (
	"path"
	"strings"
)

// InTestCode reports whether a path (relative, slash-separated) is test
// code: a tests/ or __tests__/ directory, test_*.py, *_test.py,
// conftest.py, or a *.test.* / *.spec.* JavaScript or TypeScript file
// (DESIGN.md "Tests are not production").
func InTestCode(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		if d == "tests" || d == "__tests__" {
			return true
		}
	}
	base := path.Base(p)
	switch {
	case base == "conftest.py":
		return true
	case strings.HasSuffix(base, ".py"):
		stem := strings.TrimSuffix(base, ".py")
		return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test")
	}
	for _, ext := range []string{".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"} {
		if stem, ok := strings.CutSuffix(base, ext); ok {
			return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
		}
	}
	return false
}

// ForTests returns the findings as they are reported: one in test code is
// marked TestCode and, unless include is set (--include-tests), reported at
// severity info, below every --fail-on threshold. A finding changed is a
// copy: the analysis' findings are shared (the language server keeps
// them). Findings below min (a severity threshold; "" for none) are
// dropped after the change, as the threshold speaks of what is reported.
func ForTests(fs []*Finding, include bool, min string) []*Finding {
	floor, hasFloor := ParseSeverity(min)
	out := fs[:0:0]
	for _, f := range fs {
		if InTestCode(f.Location.File) {
			c := *f
			c.TestCode = true
			if !include {
				c.Severity = Info
			}
			f = &c
		}
		if hasFloor && f.Severity.Rank() < floor.Rank() {
			continue
		}
		out = append(out, f)
	}
	return out
}
