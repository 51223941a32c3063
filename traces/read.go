package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MaxFileSize bounds one trace file; a larger one is a Problem, not read.
const MaxFileSize = 256 << 20

// Set is what was read from trace files.
type Set struct {
	Sessions []*Session `json:"sessions"`
	Problems []Problem  `json:"problems"`
	Files    []string   `json:"files"`
}

// Read reads trace files, and the files of trace directories (recursively;
// files whose names start with "." are skipped). A file that is not a
// trace of a known format, or whose records are partly broken, gives a
// Problem; every readable record of it is kept. The error is for a path
// that cannot be read at all.
func Read(paths ...string) (*Set, error) {
	set := &Set{Sessions: []*Session{}, Problems: []Problem{}, Files: []string{}}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			set.readFile(p)
			continue
		}
		var files []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if q != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				files = append(files, q)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
		for _, f := range files {
			set.readFile(f)
		}
	}
	return set, nil
}

func (set *Set) readFile(path string) {
	name := filepath.ToSlash(path)
	set.Files = append(set.Files, name)
	f, err := os.Open(path)
	if err != nil {
		set.Problems = append(set.Problems, Problem{File: name, Message: err.Error()})
		return
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		set.Problems = append(set.Problems, Problem{File: name, Message: err.Error()})
		return
	}
	if len(data) > MaxFileSize {
		set.Problems = append(set.Problems, Problem{File: name, Message: fmt.Sprintf("larger than %d bytes: not read", MaxFileSize)})
		return
	}
	ss, ps := Parse(name, data)
	set.Sessions = append(set.Sessions, ss...)
	set.Problems = append(set.Problems, ps...)
}

// Parse reads one file's bytes: JSON (one value, a stream of values or
// JSON lines) of any of the JSON formats, else OTLP protobuf.
func Parse(name string, data []byte) ([]*Session, []Problem) {
	trim := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trim) == 0 {
		return nil, []Problem{{File: name, Message: "empty file"}}
	}
	if trim[0] != '{' && trim[0] != '[' {
		return parseProto(name, data)
	}
	return parseJSON(name, data)
}

// record is one top-level JSON value (or an element of a top-level array
// or of a {"data": [...]} page) with the line it starts on.
type record struct {
	raw  json.RawMessage
	line int
}

// jsonRecords splits a JSON stream into records. A broken value is a
// Problem at its line; reading resumes at the next line that starts a
// value in its first column (JSON lines, and the SDK's pretty-printed
// spans, start each record there), so one bad record loses nothing else.
func jsonRecords(name string, data []byte) ([]record, []Problem) {
	var recs []record
	var probs []Problem
	lines := newLineIndex(data)
	off := 0
	for off < len(data) {
		dec := json.NewDecoder(bytes.NewReader(data[off:]))
		for {
			var raw json.RawMessage
			start := off + int(skipSpace(data[off:], int(dec.InputOffset())))
			err := dec.Decode(&raw)
			if errors.Is(err, io.EOF) {
				return recs, probs
			}
			if err != nil {
				msg := err.Error()
				if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(msg, "unexpected end of JSON input") {
					msg = "truncated: the record is cut off (" + msg + ")"
				}
				probs = append(probs, Problem{File: name, Line: lines.at(start), Message: msg})
				next := nextRecordStart(data, start+1)
				if next < 0 {
					return recs, probs
				}
				off = next
				break
			}
			recs = append(recs, record{raw: raw, line: lines.at(start)})
		}
	}
	return recs, probs
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// nextRecordStart is the offset of the next line at or after from that
// begins with '{' or '['.
func nextRecordStart(data []byte, from int) int {
	for i := from; i < len(data); i++ {
		if data[i] == '\n' && i+1 < len(data) && (data[i+1] == '{' || data[i+1] == '[') {
			return i + 1
		}
	}
	return -1
}

type lineIndex []int

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for i, b := range data {
		if b == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) at(off int) int {
	i, found := slices.BinarySearch(l, off)
	if !found {
		i--
	}
	return i + 1
}

// parseJSON classifies each record by its shape and hands it to its
// format's reader; spans of one file are grouped into sessions together.
func parseJSON(name string, data []byte) ([]*Session, []Problem) {
	recs, probs := jsonRecords(name, data)
	var flat []record
	for _, r := range recs {
		flat = append(flat, expand(r)...)
	}
	var (
		otelSpans []*span
		otelFmt   string
		oa        = newOpenAIReader()
		lf        = newLangfuseReader()
		cc        = newClaudeReader()
	)
	for i, r := range flat {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(r.raw, &obj); err != nil {
			probs = append(probs, Problem{File: name, Line: r.line, Message: "not a trace record: want a JSON object"})
			continue
		}
		var err error
		switch {
		case obj["resourceSpans"] != nil || obj["resource_spans"] != nil:
			var ss []*span
			ss, err = otlpJSONSpans(r, i)
			otelSpans, otelFmt = append(otelSpans, ss...), FormatOTLPJSON
		case obj["context"] != nil && obj["name"] != nil:
			var s *span
			s, err = sdkSpan(r, i)
			if s != nil {
				otelSpans = append(otelSpans, s)
				if otelFmt == "" {
					otelFmt = FormatOTelSDK
				}
			}
		case isOpenAI(obj):
			err = oa.add(r, obj)
		case isLangfuse(obj):
			err = lf.add(r, obj)
		case obj["hook_event_name"] != nil:
			err = cc.add(r, obj)
		default:
			err = errors.New("not a record of a known trace format (OTLP JSON, OpenTelemetry SDK span, OpenAI Agents SDK trace export, Langfuse export, Claude Code hook input)")
		}
		if err != nil {
			probs = append(probs, Problem{File: name, Line: r.line, Message: err.Error()})
		}
	}
	var out []*Session
	if len(otelSpans) > 0 {
		out = append(out, sessionsOfSpans(name, otelFmt, otelSpans)...)
	}
	out = append(out, oa.sessions(name)...)
	out = append(out, lf.sessions(name)...)
	out = append(out, cc.sessions(name)...)
	return out, probs
}

// expand opens a top-level array and a {"data": [...]} page (the OpenAI
// Agents SDK's export batch, a Langfuse list response) into records, each
// with its own line.
func expand(r record) []record {
	b := bytes.TrimSpace(r.raw)
	if len(b) > 0 && b[0] == '[' {
		if out, ok := elements(r, ""); ok {
			return out
		}
		return []record{r}
	}
	if hasOtherKeys(b, "data", "meta") {
		return []record{r}
	}
	if out, ok := elements(r, "data"); ok {
		return out
	}
	return []record{r}
}

// elements splits the array r holds (or, with key, the array under that
// key of the object r holds) into records, each with the line it starts
// on.
func elements(r record, key string) ([]record, bool) {
	dec := json.NewDecoder(bytes.NewReader(r.raw))
	if key != "" {
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil, false
		}
		for {
			t, err := dec.Token()
			if err != nil || t == json.Delim('}') {
				return nil, false
			}
			if k, _ := t.(string); k == key {
				break
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil, false
			}
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, false
	}
	var out []record
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		end := int(dec.InputOffset())
		start := end - len(raw)
		out = append(out, record{raw: raw, line: r.line + bytes.Count(r.raw[:max(start, 0)], []byte("\n"))})
	}
	return out, true
}

func hasOtherKeys(b []byte, keys ...string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return true
	}
	for k := range m {
		if !slices.Contains(keys, k) {
			return true
		}
	}
	return false
}
