package svgcheck

import "testing"

func TestParse(t *testing.T) {
	const ok = `<svg xmlns="http://www.w3.org/2000/svg"><g class="lane x"><title>tip</title><text>a &amp; b</text></g></svg>`
	root, err := Parse([]byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	g := root.All(Class("lane"))
	if len(g) != 1 || g[0].Title() != "tip" || g[0].Drawn() != "a & b" || g[0].AllText() != "tipa & b" {
		t.Errorf("tree: %+v", g)
	}
	if txt := root.All(func(n *Node) bool { return n.Name == "text" }); len(txt) != 1 || txt[0].Ancestor(Class("x")) != g[0] {
		t.Error("Ancestor")
	}
	for name, bad := range map[string]string{
		"NUL":            "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a\x00b</text></svg>",
		"ESC":            "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a\x1bb</text></svg>",
		"in an attr":     "<svg xmlns=\"http://www.w3.org/2000/svg\"><g id=\"a\x0bb\"/></svg>",
		"invalid UTF-8":  "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a\xffb</text></svg>",
		"U+FFFE":         "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a\uFFFEb</text></svg>",
		"raw <":          `<svg xmlns="http://www.w3.org/2000/svg"><text>a < b</text></svg>`,
		"raw &":          `<svg xmlns="http://www.w3.org/2000/svg"><text>a & b</text></svg>`,
		"unknown entity": `<svg xmlns="http://www.w3.org/2000/svg"><text>&nbsp;</text></svg>`,
		"mismatched":     `<svg xmlns="http://www.w3.org/2000/svg"><g></svg>`,
		"two roots":      `<svg xmlns="http://www.w3.org/2000/svg"/><svg xmlns="http://www.w3.org/2000/svg"/>`,
		"not svg":        `<html/>`,
		"no namespace":   `<svg/>`,
		"empty":          ``,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
