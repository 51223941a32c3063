// Package outcheck checks acg's outputs the way a hostile input would
// break them: JSON and JSON Lines that do not parse, SARIF that does not
// validate against the 2.1.0 schema, an SVG map that is not well-formed
// XML, and text that carries control characters (terminal escapes, bidi
// overrides) from a scanned file. The fuzzers, the hostile-repository test
// and the language server's tests share it, so every output is held to
// one standard.
package outcheck

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/acg-dev/acg/report"
)

// Format names, in the order Render writes them.
const (
	FormatText  = "text"
	FormatJSON  = "json"
	FormatSARIF = "sarif"
	FormatJSONL = "jsonl"
	FormatGraph = "graph"
	FormatSVG   = "svg"
	FormatCedar = "cedar"
)

// Formats are every output acg writes for a scan: the --format values and
// the --graph, --svg and --cedar side files.
var Formats = []string{FormatText, FormatJSON, FormatSARIF, FormatJSONL, FormatGraph, FormatSVG, FormatCedar}

// Render writes the document in every format. A writer's error is
// returned with its format's name.
func Render(d *report.Document, o report.Options) (map[string][]byte, error) {
	writers := map[string]func(io.Writer) error{
		FormatText:  func(w io.Writer) error { return report.Text(w, d, o) },
		FormatJSON:  func(w io.Writer) error { return report.JSON(w, d) },
		FormatSARIF: func(w io.Writer) error { return report.SARIF(w, d, o) },
		FormatJSONL: func(w io.Writer) error { return report.JSONL(w, d, o) },
		FormatGraph: func(w io.Writer) error { return report.Graph(w, d) },
		FormatSVG:   func(w io.Writer) error { return report.SVG(w, d) },
		FormatCedar: func(w io.Writer) error { return report.Cedar(w, d) },
	}
	out := map[string][]byte{}
	for _, f := range Formats {
		var b bytes.Buffer
		if err := writers[f](&b); err != nil {
			return nil, fmt.Errorf("write %s: %w", f, err)
		}
		out[f] = b.Bytes()
	}
	return out, nil
}

// Check checks one output by its format's rules.
func Check(format string, b []byte) error {
	var err error
	switch format {
	case FormatText, FormatCedar:
		err = Text(b)
	case FormatJSON, FormatGraph:
		err = JSON(b)
	case FormatSARIF:
		err = SARIF(b)
	case FormatJSONL:
		err = JSONL(b)
	case FormatSVG:
		err = SVG(b)
	default:
		return fmt.Errorf("outcheck: no check for format %q", format)
	}
	if err != nil {
		return fmt.Errorf("%s output: %w", format, err)
	}
	return nil
}

// CheckAll renders the document in every format (text without colour: the
// colours are acg's own escapes) and checks each output. It returns the
// outputs, for further checks, and every problem found.
func CheckAll(d *report.Document) (map[string][]byte, error) {
	out, err := Render(d, report.Options{ToolVersion: "0.0.0-fuzz"})
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, f := range Formats {
		if err := Check(f, out[f]); err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

// JSON checks that b is exactly one JSON value.
func JSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("not JSON: more after the first value")
	}
	return nil
}

// JSONL checks that every line is a tagged chain event or notice holding
// one JSON object, and that the output ends with a newline when it is not
// empty.
func JSONL(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if b[len(b)-1] != '\n' {
		return errors.New("last line is not terminated")
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, report.ChainEventTag)
		if !ok {
			rest, ok = strings.CutPrefix(line, report.NoticeTag)
		}
		if !ok {
			return fmt.Errorf("line %d starts with neither %q nor %q", i+1, report.ChainEventTag, report.NoticeTag)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(rest), &v); err != nil {
			return fmt.Errorf("line %d: not a JSON object: %w", i+1, err)
		}
	}
	return nil
}

// SARIF checks that b parses and validates against the SARIF 2.1.0 schema.
func SARIF(b []byte) error {
	s, err := sarifSchema()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("does not validate against the SARIF 2.1.0 schema: %w", err)
	}
	return nil
}

// SchemaURL is the $id of the SARIF 2.1.0 schema.
const SchemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var schema struct {
	once sync.Once
	s    *jsonschema.Schema
	err  error
}

// sarifSchema compiles the schema the repository keeps in
// report/testdata/sarif (found from this file's place in the source tree:
// outcheck is for tests, which run in the source tree).
func sarifSchema() (*jsonschema.Schema, error) {
	schema.once.Do(func() {
		_, self, _, ok := runtime.Caller(0)
		if !ok {
			schema.err = errors.New("outcheck: cannot locate the source tree for the SARIF schema")
			return
		}
		p := filepath.Join(filepath.Dir(self), "..", "..", "report", "testdata", "sarif", "sarif-schema-2.1.0.json")
		f, err := os.Open(p)
		if err != nil {
			schema.err = fmt.Errorf("outcheck: the SARIF schema: %w", err)
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schema.err = fmt.Errorf("outcheck: %s: %w", p, err)
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource(SchemaURL, doc); err != nil {
			schema.err = err
			return
		}
		schema.s, schema.err = c.Compile(SchemaURL)
	})
	return schema.s, schema.err
}

// SVG checks that b is one well-formed XML document whose root is an svg
// element. The standard library's decoder rejects invalid UTF-8 and
// characters XML cannot hold.
func SVG(b []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if t.Name.Local != "svg" {
					return fmt.Errorf("root element is <%s>, want <svg>", t.Name.Local)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return errors.New("text outside the root element")
			}
		}
	}
	if roots != 1 {
		return fmt.Errorf("%d root elements, want 1", roots)
	}
	return nil
}

// Text checks that b holds no character that would act on a terminal or
// reorder what a reader sees: C0 controls other than newline and tab, DEL,
// C1 controls (as characters, or as raw bytes outside valid UTF-8, which
// 8-bit terminals read as C1), and the bidi embedding, override and
// isolate characters. The error names the first one and its offset.
func Text(b []byte) error {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if b[i] >= 0x80 && b[i] <= 0x9f {
				return fmt.Errorf("raw C1 control byte 0x%02x at byte %d: %s", b[i], i, around(b, i))
			}
			i++
			continue
		}
		if Unsafe(r) {
			return fmt.Errorf("control character %U at byte %d: %s", r, i, around(b, i))
		}
		i += size
	}
	return nil
}

// Unsafe says whether r must never reach a terminal or an editor unescaped.
func Unsafe(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// TextString is Text for a string (a diagnostic message, a log line).
func TextString(s string) error { return Text([]byte(s)) }

// around quotes the text near offset i, escaped, for an error message.
func around(b []byte, i int) string {
	lo, hi := max(0, i-40), min(len(b), i+40)
	return fmt.Sprintf("%q", b[lo:hi])
}

// NoSecrets checks that none of the secrets occurs in b, and names each
// that does without echoing it (only its length and first bytes).
func NoSecrets(b []byte, secrets ...string) error {
	var errs []error
	for _, s := range secrets {
		if s == "" {
			continue
		}
		if i := bytes.Index(b, []byte(s)); i >= 0 {
			errs = append(errs, fmt.Errorf("a secret (%d bytes, starting %q…) appears at byte %d", len(s), s[:min(4, len(s))], i))
		}
	}
	return errors.Join(errs...)
}
