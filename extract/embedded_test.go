package extract

import (
	"reflect"
	"testing"
)

// TestRelocateReachesEveryPoint: Relocate moves the Points it can reach by
// reflection; a position in an unexported field, behind an interface or a
// function would be left in the code's coordinates. None may exist in the
// facts' types.
func TestRelocateReachesEveryPoint(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(ty reflect.Type, path string)
	walk = func(ty reflect.Type, path string) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(ty.Elem(), path+"[]")
		case reflect.Map:
			if hasPoint(ty.Key()) {
				t.Errorf("%s: a map keyed by a position", path)
			}
			walk(ty.Elem(), path+"{}")
		case reflect.Interface, reflect.Func, reflect.Chan:
			t.Errorf("%s: %s may hide a position", path, ty)
		case reflect.Struct:
			for i := 0; i < ty.NumField(); i++ {
				f := ty.Field(i)
				if !f.IsExported() && hasPoint(f.Type) {
					t.Errorf("%s.%s: an unexported field holds a position", path, f.Name)
				}
				walk(f.Type, path+"."+f.Name)
			}
		}
	}
	walk(reflect.TypeOf(File{}), "File")
}

// TestRelocateSharedPoints: a Point shared by two slices, pointers in a
// cycle and map values are each moved exactly once.
func TestRelocateSharedPoints(t *testing.T) {
	src := []byte("xx\n  abc\n")
	var e Embedded
	e.Copy(5, []byte("abc")) // the code "abc" is at bytes 5..8 of src
	cond := &Expr{Loc: Loc{File: "f", Start: Point{Line: 1, Col: 2, Byte: 1}}}
	guards := []Guard{{Cond: cond}}
	fn := &Func{Name: "f", Loc: Loc{File: "f", Start: Point{Line: 1, Col: 1, Byte: 0}}}
	sc := NewScope(nil, fn)
	fn.Scope = sc
	sc.Bindings["a"] = []*Binding{{Name: "a", Guards: guards, Value: cond}, {Name: "b", Guards: guards[:1:1]}}
	f := &File{Path: "f", Funcs: []*Func{fn}, Scope: sc, Classes: map[string]*Class{}}
	if err := e.Relocate(f, src); err != nil {
		t.Fatal(err)
	}
	if p := fn.Loc.Start; p != (Point{Line: 2, Col: 3, Byte: 5}) {
		t.Errorf("function start %+v", p)
	}
	if p := cond.Loc.Start; p != (Point{Line: 2, Col: 4, Byte: 6}) {
		t.Errorf("shared guard moved %+v (want once: 2:4)", p)
	}
}
