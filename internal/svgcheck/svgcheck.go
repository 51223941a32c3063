// Package svgcheck reads an SVG document the way a strict XML parser
// does, for tests: it fails on anything that is not well-formed XML 1.0
// (characters XML cannot hold, invalid UTF-8, unknown entities,
// mismatched tags, more than one root) and gives back a small element
// tree, so that a test can check where the map put something instead of
// searching the text.
package svgcheck

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Node is an element.
type Node struct {
	Name     string // local name: svg, g, rect, text, title…
	Attr     map[string]string
	Children []*Node
	Parent   *Node
	text     strings.Builder // character data directly inside
}

const svgNS = "http://www.w3.org/2000/svg"

// Parse parses b as one SVG document.
func Parse(b []byte) (*Node, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var root, cur *Node
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &Node{Name: tok.Name.Local, Attr: map[string]string{}, Parent: cur}
			for _, a := range tok.Attr {
				n.Attr[a.Name.Local] = a.Value
			}
			if cur == nil {
				if root != nil {
					return nil, fmt.Errorf("a second root element <%s>", n.Name)
				}
				if n.Name != "svg" || tok.Name.Space != svgNS {
					return nil, fmt.Errorf("root element is <%s xmlns=%q>, want <svg xmlns=%q>", n.Name, tok.Name.Space, svgNS)
				}
				root = n
			} else {
				cur.Children = append(cur.Children, n)
			}
			cur = n
		case xml.EndElement:
			cur = cur.Parent
		case xml.CharData:
			if cur == nil {
				if len(bytes.TrimSpace(tok)) > 0 {
					return nil, fmt.Errorf("text outside the root element: %q", tok)
				}
				continue
			}
			cur.text.Write(tok)
		case xml.Directive:
			return nil, fmt.Errorf("a directive <!%s>: the map has no DTD", tok)
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// Text is the character data directly inside the element.
func (n *Node) Text() string { return n.text.String() }

// AllText is the character data inside the element and its
// descendants, tooltips included.
func (n *Node) AllText() string { return n.collect(true) }

// Drawn is the character data inside the element and its descendants
// other than <title> tooltips: what is drawn.
func (n *Node) Drawn() string { return n.collect(false) }

func (n *Node) collect(titles bool) string {
	var b strings.Builder
	var walk func(*Node)
	walk = func(n *Node) {
		if n.Name == "title" && !titles {
			return
		}
		b.WriteString(n.text.String())
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// Title is the text of the element's own <title> child, its tooltip.
func (n *Node) Title() string {
	for _, c := range n.Children {
		if c.Name == "title" {
			return c.Text()
		}
	}
	return ""
}

// HasClass reports whether the element's class attribute lists c.
func (n *Node) HasClass(c string) bool {
	for _, f := range strings.Fields(n.Attr["class"]) {
		if f == c {
			return true
		}
	}
	return false
}

// All returns the element's descendants that match, in document order.
func (n *Node) All(match func(*Node) bool) []*Node {
	var out []*Node
	var walk func(*Node)
	walk = func(n *Node) {
		for _, c := range n.Children {
			if match(c) {
				out = append(out, c)
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

// Class matches elements with a class.
func Class(c string) func(*Node) bool { return func(n *Node) bool { return n.HasClass(c) } }

// Ancestor returns the nearest enclosing element that matches, or nil.
func (n *Node) Ancestor(match func(*Node) bool) *Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if match(p) {
			return p
		}
	}
	return nil
}
