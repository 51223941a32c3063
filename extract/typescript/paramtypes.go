package typescript

import (
	"strings"

	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/extract/syntax"
)

// Parameter types. A parameter annotated with an imported class or
// interface (`client: OpenAI`, `writer: UIMessageStreamWriter<M>`) is a
// value of that type, so a method called on it is that type's method
// (`ai.UIMessageStreamWriter().write`) and the rules decide it, as for a
// value a known call built. A destructured parameter takes each field's
// type from the annotation: an object type written inline
// (`{ stream }: { stream: Writer }`) or an alias or interface of the same
// module (`({ session, dataStream }: Props)` with `type Props = {...}`).
// Only names bound by an import are typed: a global or local type says
// nothing the rules know, and the parameter stays data.

// collectShapes records the module's top-level object type aliases and
// interfaces (exported or not), and the names of all its type aliases and
// interfaces (File.TypeNames).
func (b *builder) collectShapes(root *syntax.Node) {
	for _, n := range root.NamedChildren() {
		if n.Type() == "export_statement" {
			if d := n.ChildByFieldName("declaration"); d != nil {
				n = d
			}
		}
		var name, body *syntax.Node
		switch n.Type() {
		case "type_alias_declaration":
			name, body = n.ChildByFieldName("name"), n.ChildByFieldName("value")
		case "interface_declaration":
			name, body = n.ChildByFieldName("name"), n.ChildByFieldName("body")
		default:
			continue
		}
		if name == nil || body == nil {
			continue
		}
		if b.f.TypeNames == nil {
			b.f.TypeNames = map[string]bool{}
		}
		b.f.TypeNames[b.text(name)] = true
		if m := b.members(body); m != nil {
			if b.shapes == nil {
				b.shapes = map[string]map[string]string{}
			}
			b.shapes[b.text(name)] = m
		}
	}
}

// members reads the property signatures of an object type or interface
// body: member -> type as written.
func (b *builder) members(body *syntax.Node) map[string]string {
	if t := body.Type(); t != "object_type" && t != "interface_body" {
		return nil
	}
	out := map[string]string{}
	for _, p := range body.NamedChildren() {
		if p.Type() != "property_signature" {
			continue
		}
		k, t := p.ChildByFieldName("name"), p.ChildByFieldName("type")
		if k == nil || t == nil {
			continue
		}
		out[propKey(b, k)] = strings.TrimSpace(strings.TrimPrefix(b.text(t), ":"))
	}
	return out
}

// typeParams types fn's annotated parameters and the fields of its
// annotated destructured parameters (see above).
func (w *walker) typeParams(fn *extract.Func) {
	for _, p := range fn.Params {
		if p.Annotation == "" || strings.HasPrefix(p.Name, "{") || strings.HasPrefix(p.Name, "[") {
			continue
		}
		if ty := w.importedType(p.Annotation); ty != "" {
			w.types[p.Name] = ty
		}
	}
	for _, d := range w.b.destructured[fn] {
		if d.typ == "" || d.pat.Type() != "object_pattern" {
			continue
		}
		shape := w.shape(d.typ)
		if shape == nil {
			continue
		}
		for _, p := range d.pat.NamedChildren() {
			key, local := "", ""
			switch p.Type() {
			case "shorthand_property_identifier_pattern":
				key = w.b.text(p)
				local = key
			case "pair_pattern":
				if v := p.ChildByFieldName("value"); v != nil && v.Type() == "identifier" {
					key, local = propKey(w.b, p.ChildByFieldName("key")), w.b.text(v)
				}
			}
			if key == "" {
				continue
			}
			if ty := w.importedType(shape[key]); ty != "" {
				w.types[local] = ty
			}
		}
	}
}

// shape is the member types of an annotation that names an object type:
// written inline, or an alias or interface of this module.
func (w *walker) shape(typ string) map[string]string {
	typ = strings.TrimSpace(typ)
	if strings.HasPrefix(typ, "{") {
		return inlineShape(typ)
	}
	return w.b.shapes[bareTypeName(typ)]
}

// inlineShape reads `{ a: T; b: U }` written inline, at its top level.
func inlineShape(typ string) map[string]string {
	inner := strings.TrimSuffix(strings.TrimPrefix(typ, "{"), "}")
	out := map[string]string{}
	depth, start := 0, 0
	flush := func(part string) {
		k, v, ok := strings.Cut(part, ":")
		if ok {
			out[strings.TrimSuffix(strings.TrimSpace(k), "?")] = strings.TrimSpace(v)
		}
	}
	for i, r := range inner {
		switch r {
		case '{', '<', '(', '[':
			depth++
		case '}', '>', ')', ']':
			depth--
		case ';', ',':
			if depth == 0 {
				flush(inner[start:i])
				start = i + 1
			}
		}
	}
	flush(inner[start:])
	return out
}

// bareTypeName drops type arguments and surrounding space: "Writer<M>" is
// "Writer".
func bareTypeName(typ string) string {
	typ = strings.TrimSpace(typ)
	if i := strings.IndexByte(typ, '<'); i >= 0 {
		typ = typ[:i]
	}
	return strings.TrimSpace(typ)
}

// importedType is the value type ("mod.Name()") of an annotation naming an
// imported type (Name, Name<T>, ns.Name), else "". Unions, arrays and
// function types are not one type.
func (w *walker) importedType(typ string) string {
	t := bareTypeName(typ)
	if t == "" || strings.ContainsAny(t, "|&[]() {}'\"") {
		return ""
	}
	head, rest, _ := strings.Cut(t, ".")
	bs := w.fn.Scope.Lookup(head)
	if len(bs) == 0 {
		return ""
	}
	bd := bs[len(bs)-1]
	if bd.Kind != extract.BindImport || bd.Imp == nil {
		return ""
	}
	q := bd.Imp.Qualified()
	if bd.Imp.Symbol == "" {
		q = bd.Imp.Module
	}
	if rest != "" {
		q += "." + rest
	}
	return q + "()"
}
