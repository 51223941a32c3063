package extract

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
)

// Embedded is the code a container file holds (a Jupyter notebook is JSON
// whose code cells are Python) as one text a front end parses, with the
// way back from each byte of that text to the byte of the file that holds
// it. A front end extracts the code as if it were a file; Relocate then
// moves every position of the facts into the container, so findings,
// steps, notices and the editor point into the file the user has.
type Embedded struct {
	// Code is the text the front end parses.
	Code []byte
	// Problems are about the container itself (a cell acg did not read),
	// already in file positions.
	Problems []Problem
	runs     []run
}

// run says where the code bytes from code on come from: copied bytes map
// one to one (file+i), a made byte (an escape decoded, a newline between
// cells, text put in place of a magic) maps to the one file offset.
type run struct {
	code, file int
	copied     bool
}

// Copy records that the next n code bytes, about to be appended, are the
// file's bytes from off on.
func (e *Embedded) Copy(off int, b []byte) {
	if len(b) == 0 {
		return
	}
	e.mark(run{len(e.Code), off, true})
	e.Code = append(e.Code, b...)
}

// Make appends text that stands for the file's bytes at off (an escape
// sequence decoded, a line put in place of one that is not code).
func (e *Embedded) Make(off int, text string) {
	if text == "" {
		return
	}
	e.mark(run{len(e.Code), off, false})
	e.Code = append(e.Code, text...)
}

func (e *Embedded) mark(r run) {
	if n := len(e.runs); n > 0 {
		last := e.runs[n-1]
		if last.code == r.code {
			e.runs[n-1] = r
			return
		}
		// A copy that continues the last one is the same run, and so is
		// made text for the same file offset.
		if r.copied && last.copied && last.file+(r.code-last.code) == r.file {
			return
		}
		if !r.copied && !last.copied && last.file == r.file {
			return
		}
	}
	e.runs = append(e.runs, r)
}

// FileOffset is the byte of the file that holds the code byte off. The end
// of the code (and any offset past it) is the file offset just after the
// last code byte; the mapping never goes backwards.
func (e *Embedded) FileOffset(off int) int {
	if len(e.runs) == 0 {
		return 0
	}
	i := sort.Search(len(e.runs), func(i int) bool { return e.runs[i].code > off }) - 1
	if i < 0 {
		i = 0
	}
	r := e.runs[i]
	if !r.copied {
		return r.file
	}
	end := len(e.Code)
	if i+1 < len(e.runs) {
		end = e.runs[i+1].code
	}
	if off >= end { // past the end of the code: just after its last byte
		return r.file + (end - r.code)
	}
	return r.file + (off - r.code)
}

// Relocate moves every position in f from the code to the file src: each
// Point is recomputed from its byte offset mapped into src (so its line
// and its UTF-16 column are the file's), and f.Lines become src's line
// starts. It walks the facts by reflection rather than by naming fields:
// a position added to the facts later moves too (TestRelocateReachesEveryPoint
// checks that every field it cannot reach holds no position). Each Point
// in memory is moved once, however many slices or pointers share it.
func (e *Embedded) Relocate(f *File, src []byte) error {
	lines := LineStarts(src)
	r := relocator{e: e, src: src, lines: lines, done: map[uintptr]bool{}, ptrs: map[ptrKey]bool{}}
	if err := r.walk(reflect.ValueOf(f).Elem()); err != nil {
		return err
	}
	f.Lines = lines
	return nil
}

type ptrKey struct {
	p uintptr
	t reflect.Type
}

type relocator struct {
	e     *Embedded
	src   []byte
	lines []int
	done  map[uintptr]bool // Points already moved, by address
	ptrs  map[ptrKey]bool  // pointers already walked (the facts have cycles: Scope.Parent, Call.Func)
}

var pointType = reflect.TypeOf(Point{})

func (r *relocator) walk(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == pointType {
			return r.point(v)
		}
		if !hasPoint(v.Type()) {
			return nil
		}
		for i := 0; i < v.NumField(); i++ {
			if err := r.walk(v.Field(i)); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		if v.IsNil() || !hasPoint(v.Type()) {
			return nil
		}
		k := ptrKey{v.Pointer(), v.Type()}
		if r.ptrs[k] {
			return nil
		}
		r.ptrs[k] = true
		return r.walk(v.Elem())
	case reflect.Slice, reflect.Array:
		if !hasPoint(v.Type()) {
			return nil
		}
		for i := 0; i < v.Len(); i++ {
			if err := r.walk(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.IsNil() || !hasPoint(v.Type()) {
			return nil
		}
		if hasPoint(v.Type().Key()) {
			return fmt.Errorf("relocate: map keyed by a position (%s)", v.Type())
		}
		iter := v.MapRange()
		for iter.Next() {
			val := iter.Value()
			if val.Kind() == reflect.Pointer || val.Kind() == reflect.Slice || val.Kind() == reflect.Map {
				if err := r.walk(val); err != nil {
					return err
				}
				continue
			}
			// A value held in a map is not addressable: move a copy, put it back.
			c := reflect.New(val.Type()).Elem()
			c.Set(val)
			if err := r.walk(c); err != nil {
				return err
			}
			v.SetMapIndex(iter.Key(), c)
		}
	case reflect.Interface:
		if !v.IsNil() {
			return fmt.Errorf("relocate: an interface in the facts (%s) may hide a position", v.Type())
		}
	}
	return nil
}

func (r *relocator) point(v reflect.Value) error {
	if !v.CanAddr() || !v.CanSet() {
		return fmt.Errorf("relocate: a position acg cannot move")
	}
	addr := v.UnsafeAddr()
	if r.done[addr] {
		return nil
	}
	r.done[addr] = true
	p := v.Addr().Interface().(*Point)
	if p.Line == 0 { // not set: stays the zero Point
		return nil
	}
	*p = PointAt(r.src, r.lines, r.e.FileOffset(int(p.Byte)))
	return nil
}

var pointTypes sync.Map // reflect.Type → bool

// hasPoint reports whether a value of t can hold a Point (memoised: the
// facts' types form a graph of about 140 types).
func hasPoint(t reflect.Type) bool {
	if v, ok := pointTypes.Load(t); ok {
		return v.(bool)
	}
	res := typeHasPoint(t, map[reflect.Type]bool{})
	pointTypes.Store(t, res)
	return res
}

func typeHasPoint(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == pointType {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return typeHasPoint(t.Elem(), seen)
	case reflect.Map:
		return typeHasPoint(t.Key(), seen) || typeHasPoint(t.Elem(), seen)
	case reflect.Interface:
		return true // unknown: walk it, and fail if a value is there
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if typeHasPoint(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
