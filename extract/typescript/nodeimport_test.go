package typescript

import (
	"context"
	"testing"
)

// TestNodeDefaultImport: a default import of a Node builtin through the
// node: scheme is the module itself (path.join), as without the scheme,
// not a default export of a file of the tree (path.default.join, which no
// rule knows and which failed closed).
func TestNodeDefaultImport(t *testing.T) {
	src := []byte("import path from \"node:path\";\nimport fs from \"fs\";\nexport function f(x: string) {\n  return fs.readFileSync(path.join(\"/tmp\", x), \"utf8\");\n}\n")
	tree, err := Parse(context.Background(), "a.ts", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := Extract("a.ts", src, tree)
	var quals []string
	for _, fn := range f.Funcs {
		for _, c := range fn.Calls {
			quals = append(quals, c.Qual)
		}
	}
	want := map[string]bool{"path.join": false, "fs.readFileSync": false}
	for _, q := range quals {
		if _, ok := want[q]; ok {
			want[q] = true
		}
	}
	for q, seen := range want {
		if !seen {
			t.Errorf("no call of %s; calls: %v", q, quals)
		}
	}
}
