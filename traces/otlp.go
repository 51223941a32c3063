package traces

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// OTLP JSON (opentelemetry-proto docs/specification.md, "JSON Protobuf
// Encoding"): lowerCamelCase keys (snake_case accepted), trace and span
// ids as hex strings, 64-bit integers as decimal strings, enums as
// integers, AnyValue as {"stringValue": …} and so on. protojson cannot
// read it (it wants base64 ids), hence these structs.
type otlpDoc struct {
	ResourceSpans []struct {
		ScopeSpans []struct {
			Spans []otlpSpan `json:"spans"`
		} `json:"scopeSpans"`
		ScopeSpansSnake []struct {
			Spans []otlpSpan `json:"spans"`
		} `json:"scope_spans"`
	} `json:"resourceSpans"`
}

type otlpSpan struct {
	TraceID      string     `json:"traceId"`
	SpanID       string     `json:"spanId"`
	ParentSpanID string     `json:"parentSpanId"`
	Name         string     `json:"name"`
	Start        numString  `json:"startTimeUnixNano"`
	Attributes   []otlpKV   `json:"attributes"`
	Events       []otlpEvnt `json:"events"`
	Status       struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	} `json:"status"`
}

type otlpEvnt struct {
	Time       numString `json:"timeUnixNano"`
	Name       string    `json:"name"`
	Attributes []otlpKV  `json:"attributes"`
}

type otlpKV struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

type otlpValue struct {
	String *string    `json:"stringValue"`
	Bool   *bool      `json:"boolValue"`
	Int    *numString `json:"intValue"`
	Double *float64   `json:"doubleValue"`
	Array  *struct {
		Values []otlpValue `json:"values"`
	} `json:"arrayValue"`
	KV *struct {
		Values []otlpKV `json:"values"`
	} `json:"kvlistValue"`
}

// numString is a 64-bit integer written as a string (or a number).
type numString string

func (n *numString) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	*n = numString(s)
	return nil
}

func (n numString) time() time.Time {
	v, err := strconv.ParseUint(string(n), 10, 64)
	if err != nil || v == 0 {
		return time.Time{}
	}
	return time.Unix(0, int64(v)).UTC()
}

func (v otlpValue) any() any {
	switch {
	case v.String != nil:
		return *v.String
	case v.Bool != nil:
		return *v.Bool
	case v.Int != nil:
		return string(*v.Int)
	case v.Double != nil:
		return *v.Double
	case v.Array != nil:
		out := make([]any, 0, len(v.Array.Values))
		for _, x := range v.Array.Values {
			out = append(out, x.any())
		}
		return out
	case v.KV != nil:
		return kvMap(v.KV.Values)
	}
	return nil
}

func kvMap(kvs []otlpKV) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value.any()
	}
	return m
}

// otlpID reads a trace or span id: hex as the OTLP JSON encoding says,
// or base64 as protojson writes it (some tools do).
func otlpID(s string) string {
	s = strings.TrimPrefix(strings.ToLower(s), "0x")
	if _, err := hex.DecodeString(s); err == nil {
		return s
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && (len(b) == 8 || len(b) == 16) {
		return hex.EncodeToString(b)
	}
	return s
}

func otlpJSONSpans(r record, seq int) ([]*span, error) {
	var doc otlpDoc
	if err := json.Unmarshal(r.raw, &doc); err != nil {
		return nil, fmt.Errorf("OTLP JSON: %w", err)
	}
	var out []*span
	var bad int
	for _, rs := range doc.ResourceSpans {
		for _, ss := range append(rs.ScopeSpans, rs.ScopeSpansSnake...) {
			for _, s := range ss.Spans {
				if s.TraceID == "" || s.SpanID == "" {
					bad++
					continue
				}
				sp := &span{traceID: otlpID(s.TraceID), spanID: otlpID(s.SpanID), parentID: otlpID(s.ParentSpanID), name: s.Name,
					start: s.Start.time(), attrs: kvMap(s.Attributes), line: r.line, seq: seq*1_000_000 + len(out)}
				if c := strings.Trim(string(s.Status.Code), `"`); c == "2" || c == "STATUS_CODE_ERROR" {
					sp.statusError = orStr(s.Status.Message, "error")
				}
				for _, e := range s.Events {
					sp.events = append(sp.events, spanEvent{name: e.Name, ts: e.Time.time(), attrs: kvMap(e.Attributes)})
				}
				out = append(out, sp)
			}
		}
	}
	if bad > 0 {
		return out, fmt.Errorf("OTLP JSON: %d span(s) without traceId or spanId skipped", bad)
	}
	return out, nil
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sdkSpan reads one span as the OpenTelemetry Python SDK's
// ConsoleSpanExporter writes it (ReadableSpan.to_json(): "context" with
// 0x-prefixed hex ids, "parent_id", ISO "start_time", "attributes" as a
// plain object, "events" with ISO timestamps).
func sdkSpan(r record, seq int) (*span, error) {
	var s struct {
		Name    string `json:"name"`
		Context *struct {
			TraceID string `json:"trace_id"`
			SpanID  string `json:"span_id"`
		} `json:"context"`
		ParentID  *string        `json:"parent_id"`
		StartTime string         `json:"start_time"`
		Attrs     map[string]any `json:"attributes"`
		Status    struct {
			Code        string `json:"status_code"`
			Description string `json:"description"`
		} `json:"status"`
		Events []struct {
			Name  string         `json:"name"`
			TS    string         `json:"timestamp"`
			Attrs map[string]any `json:"attributes"`
		} `json:"events"`
	}
	if err := json.Unmarshal(r.raw, &s); err != nil {
		return nil, fmt.Errorf("OpenTelemetry SDK span: %w", err)
	}
	if s.Context == nil || s.Context.TraceID == "" || s.Context.SpanID == "" {
		return nil, errors.New("OpenTelemetry SDK span without context.trace_id and context.span_id")
	}
	sp := &span{traceID: otlpID(s.Context.TraceID), spanID: otlpID(s.Context.SpanID), name: s.Name, start: isoTime(s.StartTime),
		attrs: s.Attrs, line: r.line, seq: seq}
	if sp.attrs == nil {
		sp.attrs = map[string]any{}
	}
	if s.ParentID != nil {
		sp.parentID = otlpID(*s.ParentID)
	}
	if s.Status.Code == "ERROR" {
		sp.statusError = orStr(s.Status.Description, "error")
	}
	for _, e := range s.Events {
		sp.events = append(sp.events, spanEvent{name: e.Name, ts: isoTime(e.TS), attrs: e.Attrs})
	}
	return sp, nil
}

func isoTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02 15:04:05.999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// parseProto reads OTLP protobuf: one TracesData (the same wire form as
// the collector's ExportTraceServiceRequest: field 1, resource spans), or
// a stream of messages each prefixed by its length as 4 big-endian bytes
// (the Collector's file exporter). A truncated or corrupt message keeps
// every resource, scope and span before the damage.
func parseProto(name string, data []byte) ([]*Session, []Problem) {
	var spans []*span
	var probs []Problem
	add := func(rs *tracepb.ResourceSpans) {
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				spans = append(spans, protoSpan(s, len(spans)))
			}
		}
	}
	bodies := [][]byte{data}
	var base []int64
	base = append(base, 0)
	if len(data) > 0 && data[0] != 0x0a { // not field 1 (length-delimited): length-prefixed stream
		bodies, base = bodies[:0], base[:0]
		for off := 0; off < len(data); {
			if len(data)-off < 4 {
				probs = append(probs, Problem{File: name, Offset: int64(off), Message: "OTLP protobuf: truncated length prefix"})
				break
			}
			n := int(data[off])<<24 | int(data[off+1])<<16 | int(data[off+2])<<8 | int(data[off+3])
			off += 4
			if n > len(data)-off {
				probs = append(probs, Problem{File: name, Offset: int64(off), Message: fmt.Sprintf("OTLP protobuf: truncated message (%d of %d bytes)", len(data)-off, n)})
				bodies, base = append(bodies, data[off:]), append(base, int64(off))
				break
			}
			bodies, base = append(bodies, data[off:off+n]), append(base, int64(off))
			off += n
		}
	}
	for i, b := range bodies {
		if at, err := salvage(b, 1, func(m []byte) error {
			rs := &tracepb.ResourceSpans{}
			if err := proto.Unmarshal(m, rs); err != nil {
				// A damaged resource: keep its complete scopes.
				_, e2 := salvage(m, 2, func(sm []byte) error {
					ss := &tracepb.ScopeSpans{}
					if err := proto.Unmarshal(sm, ss); err != nil {
						_, e3 := salvage(sm, 2, func(spb []byte) error {
							s := &tracepb.Span{}
							if err := proto.Unmarshal(spb, s); err != nil {
								return err
							}
							spans = append(spans, protoSpan(s, len(spans)))
							return nil
						})
						return e3
					}
					add(&tracepb.ResourceSpans{ScopeSpans: []*tracepb.ScopeSpans{ss}})
					return nil
				})
				return orErr(e2, err)
			}
			add(rs)
			return nil
		}); err != nil {
			probs = append(probs, Problem{File: name, Offset: base[i] + int64(at), Message: "OTLP protobuf: " + err.Error() + " (the records before it were read)"})
		}
	}
	if len(spans) == 0 && len(probs) == 0 {
		return nil, []Problem{{File: name, Message: "not a trace of a known format: no OTLP spans in it"}}
	}
	return sessionsOfSpans(name, FormatOTLPProto, spans), probs
}

func orErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// damage is where a message broke, relative to the bytes salvage was
// given.
type damage struct {
	at  int
	err error
}

func (d *damage) Error() string { return d.err.Error() }
func (d *damage) Unwrap() error { return d.err }

// salvage walks a message's fields and passes each complete
// length-delimited field number `field` to fn; it stops at the first
// damage and says where (the innermost place, through nested salvages).
func salvage(b []byte, field protowire.Number, fn func([]byte) error) (int, error) {
	off := 0
	inner := func(start int, err error) (int, error) {
		var d *damage
		if errors.As(err, &d) {
			return start + d.at, &damage{start + d.at, d.err}
		}
		return start, &damage{start, err}
	}
	for off < len(b) {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return off, &damage{off, fmt.Errorf("corrupt field tag: %w", protowire.ParseError(n))}
		}
		if typ == protowire.BytesType && num == field {
			v, m := protowire.ConsumeBytes(b[off+n:])
			if m < 0 {
				// Cut off inside this field: what is complete in it is
				// still read.
				if _, k := protowire.ConsumeVarint(b[off+n:]); k > 0 {
					if err := fn(b[off+n+k:]); err != nil {
						// The inner damage is this cut: say so, where it is.
						at, _ := inner(off+n+k, err)
						return at, &damage{at, fmt.Errorf("truncated: %w", protowire.ParseError(m))}
					}
				}
				return off, &damage{off, fmt.Errorf("truncated: %w", protowire.ParseError(m))}
			}
			_, k := protowire.ConsumeVarint(b[off+n:])
			if err := fn(v); err != nil {
				return inner(off+n+k, err)
			}
			off += n + m
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b[off+n:])
		if m < 0 {
			return off, &damage{off, fmt.Errorf("truncated: %w", protowire.ParseError(m))}
		}
		off += n + m
	}
	return off, nil
}

func protoSpan(s *tracepb.Span, seq int) *span {
	sp := &span{traceID: hex.EncodeToString(s.GetTraceId()), spanID: hex.EncodeToString(s.GetSpanId()),
		parentID: hex.EncodeToString(s.GetParentSpanId()), name: s.GetName(),
		start: time.Unix(0, int64(s.GetStartTimeUnixNano())).UTC(), attrs: protoAttrs(s.GetAttributes()), seq: seq}
	if s.GetStatus().GetCode() == tracepb.Status_STATUS_CODE_ERROR {
		sp.statusError = orStr(s.GetStatus().GetMessage(), "error")
	}
	for _, e := range s.GetEvents() {
		sp.events = append(sp.events, spanEvent{name: e.GetName(), ts: time.Unix(0, int64(e.GetTimeUnixNano())).UTC(), attrs: protoAttrs(e.GetAttributes())})
	}
	return sp
}

func protoAttrs(kvs []*commonpb.KeyValue) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[kv.GetKey()] = protoValue(kv.GetValue())
	}
	return m
}

func protoValue(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_ArrayValue:
		var out []any
		for _, e := range x.ArrayValue.GetValues() {
			out = append(out, protoValue(e))
		}
		return out
	case *commonpb.AnyValue_KvlistValue:
		return protoAttrs(x.KvlistValue.GetValues())
	}
	return nil
}
