package lsptest

import "testing"

func TestExpandSnippet(t *testing.T) {
	for in, want := range map[string]string{
		"# acg: ignore[x] ${1:reason}\n": "# acg: ignore[x] reason\n",
		`cost \$5 \} \\ $1 $0 done`:      `cost $5 } \   done`,
		"unclosed ${1:x":                 "unclosed ${1:x",
		"${2}":                           "",
	} {
		if got := ExpandSnippet(in); got != want {
			t.Errorf("ExpandSnippet(%q) = %q, want %q", in, got, want)
		}
	}
}
