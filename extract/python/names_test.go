package python

import (
	"context"
	"testing"

	"github.com/acg-dev/acg/extract/syntax"
)

// The grammar's symbol and field names are copied out of C once: a cache
// keyed by a fresh *sitter.Language per parse grew by the whole name table
// with every file extracted, which in the language server (a parse per
// edit) is memory that is never given back.
func TestNamesAreCopiedOnce(t *testing.T) {
	src := []byte("def f(x):\n    return x\n")
	for i := 0; i < 3; i++ {
		tree, err := Parse(context.Background(), src, nil)
		if err != nil {
			t.Fatal(err)
		}
		Extract("a.py", src, tree)
	}
	if n := syntax.NameTables(); n != 1 {
		t.Fatalf("%d name tables cached after three extractions, want 1", n)
	}
}

func TestContainerElement(t *testing.T) {
	for ann, want := range map[string]string{
		"dict[str, RemoteAgent]":      "RemoteAgent",
		"Dict[str, conn.Client]":      "conn.Client",
		"Optional[list[Draft]]":       "Draft",
		"typing.Mapping[str, 'Conn']": "Conn",
		"tuple[Conn, ...]":            "Conn",
		"list[Draft] | None":          "Draft",
		"dict[str, list[Conn]]":       "", // a list, not a Conn
		"tuple[Conn, Draft]":          "", // positions differ
		"Client":                      "", // not a container
		"Callable[[str], Conn]":       "",
	} {
		if got := containerElement(ann); got != want {
			t.Errorf("containerElement(%q) = %q, want %q", ann, got, want)
		}
	}
}
