package incremental

import (
	"reflect"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/acg-dev/acg/extract"
)

// sameShifted reports whether the facts b, extracted from a text that
// differs from a's by the edit sh, are a's facts with every byte offset
// moved by sh and every line and column where it was: an edit of a
// docstring no check reads, of the end of a line, of a comment inside
// brackets. Everything else (names, strings, messages, the shape of the
// graph of pointers) must be equal too.
func sameShifted(a, b *extract.File, sh Shift) bool {
	if a == nil || b == nil {
		return a == b
	}
	c := &shiftCmp{sh: sh, seen: map[[2]uintptr]bool{}}
	return c.eq(reflect.ValueOf(a), reflect.ValueOf(b))
}

type shiftCmp struct {
	sh   Shift
	seen map[[2]uintptr]bool // pointer pairs being or already compared
}

var (
	pointType = reflect.TypeOf(extract.Point{})
	pointByte = field(pointType, "Byte")
	pointLine = field(pointType, "Line")
	pointCol  = field(pointType, "Col")
	fileType  = reflect.TypeOf(extract.File{})
	// fileLines is File.Lines, the line starts of the text: derived from
	// the text, like line and column.
	fileLines = field(fileType, "Lines")
)

func field(t reflect.Type, name string) int {
	f, ok := t.FieldByName(name)
	if !ok {
		panic("extract." + t.Name() + " has no field " + name)
	}
	return f.Index[0]
}

// mayKeepFacts says whether an edit is worth comparing the facts for:
// one that only changes spaces, or stays inside a string or a comment in
// both texts. An edit of a name, a number or an operator changes the facts
// (almost) always, and comparing a large file's facts costs milliseconds.
func mayKeepFacts(old, new []byte, oldTree, newTree *sitter.Tree, sh Shift) bool {
	if blank(old[sh.Start:sh.OldEnd]) && blank(new[sh.Start:sh.NewEnd]) {
		return true
	}
	for _, side := range []struct {
		tree *sitter.Tree
		end  int
	}{{oldTree, sh.OldEnd}, {newTree, sh.NewEnd}} {
		n := smallestCovering(side.tree.RootNode(), sh.Start, side.end)
		if n == nil {
			return false
		}
		switch n.Type() {
		case "string", "string_content", "string_fragment", "comment":
		default:
			return false
		}
	}
	return true
}

func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// sameComments is sameShifted for the comments that may hold directives.
func sameComments(a, b []comment, sh Shift) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].text != b[i].text || sh.Map(int(a[i].loc.Start.Byte)) != int(b[i].loc.Start.Byte) || sh.Map(int(a[i].loc.End.Byte)) != int(b[i].loc.End.Byte) {
			return false
		}
	}
	return true
}

func (c *shiftCmp) eq(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if c.seen[k] {
			return true // compared, or being compared further up (a cycle)
		}
		c.seen[k] = true
		return c.eq(a.Elem(), b.Elem())
	case reflect.Struct:
		if a.Type() == pointType {
			// Lines and columns must not move: analysis writes them into
			// ids and messages (an unresolved tool's id has its line, an
			// approval's its line and column).
			return c.sh.Map(int(a.Field(pointByte).Int())) == int(b.Field(pointByte).Int()) &&
				a.Field(pointLine).Int() == b.Field(pointLine).Int() && a.Field(pointCol).Int() == b.Field(pointCol).Int()
		}
		for i := 0; i < a.NumField(); i++ {
			if a.Type() == fileType && i == fileLines {
				continue
			}
			if !c.eq(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !c.eq(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !c.eq(it.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return c.eq(a.Elem(), b.Elem())
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	// Functions, channels and the like have no place in facts: never equal.
	return false
}
