package syntax

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// TestMirrorMatchesTreeSitter holds the one-call tree copy to
// go-tree-sitter's own traversal, node for node: Mirror relies on the
// memory layout of TSNode and TSTreeCursor declared above, which a
// go-tree-sitter upgrade could change without a compile error.
func TestMirrorMatchesTreeSitter(t *testing.T) {
	langs := map[string]*sitter.Language{
		".py":  python.GetLanguage(),
		".ts":  typescript.GetLanguage(),
		".tsx": tsx.GetLanguage(),
	}
	sources := map[string]string{
		// Syntax errors give ERROR and MISSING nodes, which Mirror flags.
		"broken.py":  "def f(:\n    return (1,\nclass C\n",
		"broken.ts":  "function f( { return [1, ; }\nconst x = ",
		"unicode.py": "s = 'ünïcödé ✓'  # 🎉\nf(s, key=\"\\u00e9\")\n",
	}
	for _, glob := range []string{"../../testdata/inbox/*.py", "../../testdata/langgraph/*/*.py", "../../testdata/ts/*/*/*.ts", "../../testdata/ts/*/*/*.tsx"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sources[f] = string(b)
		}
	}
	if len(sources) < 20 {
		t.Fatalf("only %d sources found: the fixture globs are stale", len(sources))
	}
	for name, src := range sources {
		lang := langs[filepath.Ext(name)]
		p := sitter.NewParser()
		p.SetLanguage(lang)
		tree, err := p.ParseCtx(context.Background(), nil, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var diffs []string
		compare(tree.RootNode(), Mirror(tree.RootNode(), lang), "root", &diffs)
		if len(diffs) > 0 {
			t.Errorf("%s: Mirror differs from go-tree-sitter:\n%s", name, strings.Join(diffs, "\n"))
		}
		tree.Close()
		p.Close()
	}
}

func compare(want *sitter.Node, got *Node, path string, diffs *[]string) {
	if len(*diffs) > 10 {
		return
	}
	if w, g := fmt.Sprint(want.Type(), want.StartByte(), want.EndByte(), want.IsNamed(), want.IsMissing(), want.HasError()),
		fmt.Sprint(got.Type(), got.StartByte(), got.EndByte(), got.IsNamed(), got.IsMissing(), got.HasError()); w != g {
		*diffs = append(*diffs, fmt.Sprintf("  %s: want %s, got %s", path, w, g))
		return
	}
	if want.ChildCount() != got.ChildCount() {
		*diffs = append(*diffs, fmt.Sprintf("  %s: want %d children, got %d", path, want.ChildCount(), got.ChildCount()))
		return
	}
	for i := 0; i < int(want.ChildCount()); i++ {
		// ts_node_field_name_for_child gives an extra (a comment) the field
		// of the node after it; the cursor that Mirror reads gives it none,
		// which is what the front ends want.
		if w, g := want.FieldNameForChild(i), got.FieldNameForChild(i); w != g && !(want.Child(i).IsExtra() && g == "") {
			*diffs = append(*diffs, fmt.Sprintf("  %s[%d]: want field %q, got %q", path, i, w, g))
		}
		compare(want.Child(i), got.Child(i), fmt.Sprintf("%s/%s[%d]", path, want.Child(i).Type(), i), diffs)
	}
}
