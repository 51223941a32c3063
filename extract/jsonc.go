package extract

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/acg-dev/acg/internal/secret"
)

// JSON configs (MCP client configs, Claude Code settings) are read with a
// small scanner of our own rather than encoding/json: diagnostics need the
// position of every key and value, and VS Code's mcp.json is JSONC
// (comments and trailing commas are allowed).

// JSONKind is the type of a JSON value.
type JSONKind uint8

const (
	JSONNull JSONKind = iota
	JSONBool
	JSONNumber
	JSONString
	JSONArray
	JSONObject
)

// JSONValue is one value of a document with its byte range.
type JSONValue struct {
	Kind JSONKind
	// Str is the decoded string, the number's text, or "true"/"false".
	Str        string
	Bool       bool
	Start, End int // byte offsets of the value in the source
	Members    []JSONMember
	Elems      []*JSONValue
}

// JSONMember is one key of an object.
type JSONMember struct {
	Key              string
	KeyStart, KeyEnd int
	Value            *JSONValue
}

// Get returns the value of a key of an object (the last one if repeated,
// as JSON parsers do), or nil.
func (v *JSONValue) Get(key string) *JSONValue {
	if m := v.Member(key); m != nil {
		return m.Value
	}
	return nil
}

// Member returns the member of an object with the given key, or nil.
func (v *JSONValue) Member(key string) *JSONMember {
	if v == nil || v.Kind != JSONObject {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return &v.Members[i]
		}
	}
	return nil
}

// String returns a string value, or "" and false.
func (v *JSONValue) String() (string, bool) {
	if v == nil || v.Kind != JSONString {
		return "", false
	}
	return v.Str, true
}

// Strings returns the string elements of an array (others skipped).
func (v *JSONValue) Strings() []string {
	if v == nil || v.Kind != JSONArray {
		return nil
	}
	var out []string
	for _, e := range v.Elems {
		if s, ok := e.String(); ok {
			out = append(out, s)
		}
	}
	return out
}

// JSONError is a syntax error at a byte offset.
type JSONError struct {
	Offset int
	Msg    string
}

func (e *JSONError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack.
const maxJSONDepth = 256

// ParseJSONC parses a JSON document that may contain // and /* */
// comments and trailing commas. A UTF-8 byte order mark is skipped.
func ParseJSONC(src []byte) (*JSONValue, error) {
	p := &jsonParser{src: src}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		p.pos = 3
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos >= len(src) {
		return nil, &JSONError{p.pos, "the file is empty"}
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos < len(src) {
		return nil, &JSONError{p.pos, "unexpected text after the end of the document"}
	}
	return v, nil
}

type jsonParser struct {
	src []byte
	pos int
}

func (p *jsonParser) errf(format string, args ...any) error {
	return &JSONError{p.pos, fmt.Sprintf(format, args...)}
}

// space skips whitespace and comments.
func (p *jsonParser) space() error {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			end := bytes.Index(p.src[p.pos+2:], []byte("*/"))
			if end < 0 {
				return p.errf("unterminated /* comment")
			}
			p.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *jsonParser) value(depth int) (*JSONValue, error) {
	if depth > maxJSONDepth {
		return nil, p.errf("nesting is deeper than %d levels", maxJSONDepth)
	}
	if p.pos >= len(p.src) {
		return nil, p.errf("unexpected end of file: a value is missing")
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &JSONValue{Kind: JSONString, Str: s, Start: start, End: p.pos}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		for p.pos < len(p.src) && strings.IndexByte("+-.eE0123456789", p.src[p.pos]) >= 0 {
			p.pos++
		}
		text := string(p.src[start:p.pos])
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			p.pos = start
			return nil, p.errf("invalid number") // the text may be a value worth hiding
		}
		return &JSONValue{Kind: JSONNumber, Str: text, Start: start, End: p.pos}, nil
	}
	for _, lit := range []struct {
		word string
		kind JSONKind
		b    bool
	}{{"true", JSONBool, true}, {"false", JSONBool, false}, {"null", JSONNull, false}} {
		if strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+5)]), lit.word) {
			p.pos += len(lit.word)
			v := &JSONValue{Kind: lit.kind, Bool: lit.b, Start: start, End: p.pos}
			if lit.kind == JSONBool {
				v.Str = lit.word
			}
			return v, nil
		}
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return nil, p.errf("unexpected character %q: a value is expected", r)
}

func (p *jsonParser) object(depth int) (*JSONValue, error) {
	v := &JSONValue{Kind: JSONObject, Start: p.pos}
	p.pos++ // {
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.src) {
			return nil, p.errf("unexpected end of file: the object opened at offset %d is not closed", v.Start)
		}
		if p.src[p.pos] == '}' {
			p.pos++
			v.End = p.pos
			return v, nil
		}
		if p.src[p.pos] != '"' {
			return nil, p.errf("a key in double quotes is expected")
		}
		ks := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		m := JSONMember{Key: key, KeyStart: ks, KeyEnd: p.pos}
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.errf("':' is expected after the key %s", secret.QuoteKey(key))
		}
		p.pos++
		if err := p.space(); err != nil {
			return nil, err
		}
		if m.Value, err = p.value(depth + 1); err != nil {
			return nil, err
		}
		v.Members = append(v.Members, m)
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			continue
		}
		if p.pos >= len(p.src) {
			return nil, p.errf("unexpected end of file: the object opened at offset %d is not closed", v.Start)
		}
		return nil, p.errf("',' or '}' is expected after the value of %s", secret.QuoteKey(key))
	}
}

func (p *jsonParser) array(depth int) (*JSONValue, error) {
	v := &JSONValue{Kind: JSONArray, Start: p.pos}
	p.pos++ // [
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.src) {
			return nil, p.errf("unexpected end of file: the array opened at offset %d is not closed", v.Start)
		}
		if p.src[p.pos] == ']' {
			p.pos++
			v.End = p.pos
			return v, nil
		}
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, e)
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			continue
		}
		if p.pos >= len(p.src) {
			return nil, p.errf("unexpected end of file: the array opened at offset %d is not closed", v.Start)
		}
		return nil, p.errf("',' or ']' is expected in the array")
	}
}

// str reads a string literal and decodes its escapes.
func (p *jsonParser) str() (string, error) {
	start := p.pos
	p.pos++ // "
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				return "", p.errf("unterminated string")
			}
			esc := p.src[p.pos+1]
			p.pos += 2
			switch esc {
			case '"', '\\', '/':
				b.WriteByte(esc)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) && p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
					p.pos += 2
					r2, err := p.hex4()
					if err != nil {
						return "", err
					}
					r = utf16.DecodeRune(r, r2)
				}
				b.WriteRune(r)
			default:
				p.pos -= 2
				return "", p.errf("invalid escape \\%c in a string", esc)
			}
		case c < 0x20:
			if c == '\n' {
				return "", &JSONError{start, "unterminated string (a newline inside quotes)"}
			}
			return "", p.errf("control character in a string")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return "", &JSONError{start, "unterminated string"}
}

func (p *jsonParser) hex4() (rune, error) {
	if p.pos+4 > len(p.src) {
		return 0, p.errf("truncated \\u escape")
	}
	n, err := strconv.ParseUint(string(p.src[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.errf("invalid \\u escape")
	}
	p.pos += 4
	return rune(n), nil
}

// jsonDoc converts byte ranges of one JSON file into locations.
type jsonDoc struct {
	f   *File
	src []byte
}

func (d jsonDoc) loc(start, end int) Loc {
	return Loc{File: d.f.Path, Start: PointAt(d.src, d.f.Lines, start), End: PointAt(d.src, d.f.Lines, end)}
}

func (d jsonDoc) valueLoc(v *JSONValue) Loc { return d.loc(v.Start, v.End) }

func (d jsonDoc) keyLoc(m *JSONMember) Loc { return d.loc(m.KeyStart, m.KeyEnd) }

// memberLoc spans a member from its key to the end of its value.
func (d jsonDoc) memberLoc(m *JSONMember) Loc { return d.loc(m.KeyStart, m.Value.End) }

// parseJSONFile parses src for f; a syntax error becomes a Problem at its
// position and the result is nil.
func parseJSONFile(f *File, src []byte) *JSONValue {
	f.Lines = LineStarts(src)
	v, err := ParseJSONC(src)
	if err != nil {
		off := 0
		msg := err.Error()
		if je, ok := err.(*JSONError); ok {
			off, msg = je.Offset, je.Msg
		}
		d := jsonDoc{f, src}
		f.Problems = append(f.Problems, Problem{Loc: d.loc(off, off), Message: "invalid JSON: " + msg})
		return nil
	}
	if v.Kind != JSONObject {
		d := jsonDoc{f, src}
		f.Problems = append(f.Problems, Problem{Loc: d.valueLoc(v), Message: "the file must hold a JSON object"})
		return nil
	}
	return v
}
