// Package syntax is the tree-sitter tree copy the language front ends walk:
// one C call flattens a tree, and the front end walks Go nodes.
package syntax

/*
#include <stdint.h>
#include <stdbool.h>

// Layout-compatible declarations of tree-sitter's TSNode and TSTreeCursor
// (tree_sitter/api.h of the go-tree-sitter version in go.mod). The
// functions are the runtime that go-tree-sitter compiles into the binary.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } acgNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } acgCursor;
acgCursor ts_tree_cursor_new(acgNode node);
void ts_tree_cursor_delete(acgCursor *self);
acgNode ts_tree_cursor_current_node(const acgCursor *self);
uint16_t ts_tree_cursor_current_field_id(const acgCursor *self);
bool ts_tree_cursor_goto_parent(acgCursor *self);
bool ts_tree_cursor_goto_next_sibling(acgCursor *self);
bool ts_tree_cursor_goto_first_child(acgCursor *self);
uint16_t ts_node_symbol(acgNode self);
uint32_t ts_node_start_byte(acgNode self);
uint32_t ts_node_end_byte(acgNode self);
bool ts_node_is_named(acgNode self);
bool ts_node_is_missing(acgNode self);
uint32_t ts_node_descendant_count(acgNode self);

typedef struct {
	uint32_t start, end, parent;
	uint16_t symbol, field;
	uint8_t flags; // 1 named, 2 missing
} acgFlat;

// acg_flatten writes the subtree of root in pre-order, each entry with the
// index of its parent (UINT32_MAX for the root). It returns the number of
// entries, or -1 when cap is too small.
static int64_t acg_flatten(acgNode root, acgFlat *out, int64_t cap) {
	acgCursor c = ts_tree_cursor_new(root);
	int64_t n = 0;
	uint32_t parent = UINT32_MAX;
	for (;;) {
		if (n >= cap) {
			ts_tree_cursor_delete(&c);
			return -1;
		}
		acgNode node = ts_tree_cursor_current_node(&c);
		acgFlat *f = &out[n];
		f->start = ts_node_start_byte(node);
		f->end = ts_node_end_byte(node);
		f->symbol = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->flags = (ts_node_is_named(node) ? 1 : 0) | (ts_node_is_missing(node) ? 2 : 0);
		f->parent = parent;
		uint32_t self = (uint32_t)n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			parent = self;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			parent = out[parent].parent; // the siblings of the node we climbed to
		}
	}
}

static uint32_t acg_count(acgNode root) { return ts_node_descendant_count(root); }
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/acg-dev/acg/extract"
	sitter "github.com/smacker/go-tree-sitter"
)

// Node is a Go copy of a tree-sitter node. The walker visits each node
// many times (field lookups, child lists); through cgo each visit would be
// a C call and often an allocation, so the tree is flattened by one C call
// and walked in Go. The method names mirror go-tree-sitter's.
type Node struct {
	typ     string
	start   uint32
	end     uint32
	named   bool
	missing bool
	errs    bool // the node or a descendant is an error
	field   string
	parent  *Node
	kids    []*Node
	nkids   []*Node
}

// names caches a language's symbol and field names.
type names struct {
	symbols []string
	fields  []string
}

var (
	namesMu    sync.Mutex
	namesCache = map[*sitter.Language]*names{}
)

func namesOf(l *sitter.Language) *names {
	namesMu.Lock()
	defer namesMu.Unlock()
	if n, ok := namesCache[l]; ok {
		return n
	}
	n := &names{}
	for i := uint32(0); i < l.SymbolCount(); i++ {
		n.symbols = append(n.symbols, l.SymbolName(sitter.Symbol(i)))
	}
	n.fields = append(n.fields, "") // field id 0 is "no field"
	for i := 1; ; i++ {
		f := l.FieldName(i)
		if f == "" {
			break
		}
		n.fields = append(n.fields, f)
	}
	namesCache[l] = n
	return n
}

// errorSymbol is tree-sitter's ts_builtin_sym_error, (TSSymbol)-1.
const errorSymbol = 0xFFFF

// Mirror copies the subtree of root into Go nodes.
func Mirror(root *sitter.Node, lang *sitter.Language) *Node {
	// sitter.Node starts with the C TSNode it wraps.
	cn := *(*C.acgNode)(unsafe.Pointer(root))
	capacity := int64(C.acg_count(cn)) + 1
	var flat []C.acgFlat
	var count int64
	for {
		flat = make([]C.acgFlat, capacity)
		count = int64(C.acg_flatten(cn, &flat[0], C.int64_t(capacity)))
		if count >= 0 {
			break
		}
		capacity *= 2
	}
	nm := namesOf(lang)
	nodes := make([]Node, count)
	for i := int64(0); i < count; i++ {
		f := &flat[i]
		n := &nodes[i]
		switch {
		case int(f.symbol) < len(nm.symbols):
			n.typ = nm.symbols[f.symbol]
		case f.symbol == errorSymbol:
			// Outside the language's symbol table: without this an ERROR
			// node had no type, and a file whose only damage was one went
			// unreported (TestMirrorMatchesTreeSitter).
			n.typ = "ERROR"
		}
		if int(f.field) < len(nm.fields) {
			n.field = nm.fields[f.field]
		}
		n.start, n.end = uint32(f.start), uint32(f.end)
		n.named, n.missing = f.flags&1 != 0, f.flags&2 != 0
		n.errs = n.typ == "ERROR" || n.missing
		if f.parent != C.uint32_t(^uint32(0)) {
			p := &nodes[f.parent]
			n.parent = p
			p.kids = append(p.kids, n)
			if n.named {
				p.nkids = append(p.nkids, n)
			}
		}
	}
	// Children come after their parents in pre-order: propagate errors up
	// from the end.
	for i := count - 1; i > 0; i-- {
		if nodes[i].errs && nodes[i].parent != nil {
			nodes[i].parent.errs = true
		}
	}
	return &nodes[0]
}

func (n *Node) Type() string { return n.typ }

func (n *Node) StartByte() uint32 { return n.start }

func (n *Node) EndByte() uint32 { return n.end }

func (n *Node) IsNamed() bool { return n.named }

func (n *Node) IsMissing() bool { return n.missing }

func (n *Node) IsError() bool { return n.typ == "ERROR" }

func (n *Node) HasError() bool { return n.errs }

func (n *Node) Parent() *Node { return n.parent }

func (n *Node) ChildCount() uint32 { return uint32(len(n.kids)) }

func (n *Node) Child(i int) *Node { return n.kids[i] }

func (n *Node) FieldNameForChild(i int) string { return n.kids[i].field }

// ChildByFieldName returns the first child in a field, as tree-sitter does.
func (n *Node) ChildByFieldName(f string) *Node {
	for _, k := range n.kids {
		if k.field == f {
			return k
		}
	}
	return nil
}

func (n *Node) NextNamedSibling() *Node {
	if n.parent == nil {
		return nil
	}
	for i, k := range n.parent.nkids {
		if k == n && i+1 < len(n.parent.nkids) {
			return n.parent.nkids[i+1]
		}
	}
	return nil
}

func (n *Node) Equal(o *Node) bool { return n == o }

func (n *Node) Content(src []byte) string { return string(src[n.start:n.end]) }

// NamedChildren returns the named children in order (the slice is the
// node's own: callers must not modify it).
func (n *Node) NamedChildren() []*Node { return n.nkids }

// NameTables is how many languages' name tables are cached: one per grammar
// a front end uses, however many files it parsed (see namesOf).
func NameTables() int {
	namesMu.Lock()
	defer namesMu.Unlock()
	return len(namesCache)
}

// Loc is where n is in the file at path (lines from extract.LineStarts).
func Loc(path string, src []byte, lines []int, n *Node) extract.Loc {
	if n == nil {
		return extract.Loc{}
	}
	return extract.Loc{File: path,
		Start: extract.PointAt(src, lines, int(n.StartByte())),
		End:   extract.PointAt(src, lines, int(n.EndByte()))}
}

// Errors are the first max error and missing nodes under root, in source
// order: what the parser could not read, for a front end to report.
func Errors(root *Node, max int) []*Node {
	var out []*Node
	var visit func(n *Node)
	visit = func(n *Node) {
		if len(out) >= max || !n.HasError() && !n.IsMissing() {
			return
		}
		if n.IsError() || n.IsMissing() {
			out = append(out, n)
			return
		}
		for _, k := range n.kids {
			visit(k)
		}
	}
	visit(root)
	return out
}
