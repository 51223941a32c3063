package traces

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// span is an OpenTelemetry span in any of its encodings, reduced to what
// the analysis reads.
type span struct {
	traceID, spanID, parentID string
	name                      string
	start                     time.Time
	attrs                     map[string]any
	events                    []spanEvent
	statusError               string
	line                      int
	seq                       int
}

type spanEvent struct {
	name  string
	ts    time.Time
	attrs map[string]any
}

// GenAI semantic conventions (gen-ai-spans, gen-ai-agent-spans).
const (
	attrOperation    = "gen_ai.operation.name"
	attrToolName     = "gen_ai.tool.name"
	attrToolArgs     = "gen_ai.tool.call.arguments"
	attrToolResult   = "gen_ai.tool.call.result"
	attrConversation = "gen_ai.conversation.id"
	attrAgentName    = "gen_ai.agent.name"
	opExecuteTool    = "execute_tool"
	opInvokeAgent    = "invoke_agent"
)

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// approvalKind says whether a span or event name (or an exception type)
// records a person being asked: its words include interrupt, approval,
// approve, confirm or confirmation, or permission with request. Names are
// split into words (snake, dotted, kebab and camel case), never matched as
// substrings, so "disapproval_count" is no approval.
func approvalKind(name string) string {
	ws := words(name)
	for _, w := range ws {
		switch w {
		case "interrupt", "interrupted", "interruption":
			return "interrupt"
		case "approval", "approve", "approved", "approvals":
			return "approval"
		case "confirm", "confirmation", "confirmed":
			return "confirmation"
		}
	}
	if slices.Contains(ws, "permission") && slices.Contains(ws, "request") {
		return "permission_request"
	}
	return ""
}

func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// sessionsOfSpans groups spans into sessions: by gen_ai.conversation.id
// (on the span or an ancestor), else by trace. A tool call is a span whose
// gen_ai.operation.name is execute_tool; its agent is the nearest
// invoke_agent ancestor's gen_ai.agent.name. An approval is a span or span
// event whose name (or exception.type) says so; on a tool span it means
// the call waited for a person and did not complete as a call.
func sessionsOfSpans(file, format string, spans []*span) []*Session {
	byID := map[string]*span{}
	for _, s := range spans {
		byID[s.traceID+"/"+s.spanID] = s
	}
	parent := func(s *span) *span {
		if s.parentID == "" {
			return nil
		}
		return byID[s.traceID+"/"+s.parentID]
	}
	// inherited walks up the parents (bounded: a cycle of parent ids in
	// a hostile file must not loop).
	inherited := func(s *span, key string, op string) string {
		for p, n := s, 0; p != nil && n < 256; p, n = parent(p), n+1 {
			if op != "" && str(p.attrs[attrOperation]) != op {
				continue
			}
			if v := str(p.attrs[key]); v != "" {
				return v
			}
		}
		return ""
	}
	sessions := map[string]*Session{}
	var order []string
	get := func(s *span) *Session {
		id := inherited(s, attrConversation, "")
		if id == "" {
			id = s.traceID
		}
		se := sessions[id]
		if se == nil {
			se = &Session{ID: id, Format: format, File: file}
			sessions[id] = se
			order = append(order, id)
		}
		if se.Agent == "" {
			se.Agent = inherited(s, attrAgentName, "")
		}
		return se
	}
	sorted := append([]*span(nil), spans...)
	slices.SortStableFunc(sorted, func(a, b *span) int {
		if c := a.start.Compare(b.start); c != 0 {
			return c
		}
		return a.seq - b.seq
	})
	for _, s := range sorted {
		op := str(s.attrs[attrOperation])
		tool := str(s.attrs[attrToolName])
		if op == opExecuteTool && tool == "" {
			tool = strings.TrimSpace(strings.TrimPrefix(s.name, opExecuteTool))
		}
		kind := approvalKind(s.name)
		var evAppr []Approval
		for _, e := range s.events {
			k := approvalKind(e.name)
			if k == "" && e.name == "exception" {
				k = approvalKind(lastDot(str(e.attrs["exception.type"])))
			}
			if k == "" {
				continue
			}
			t := str(e.attrs[attrToolName])
			if t == "" {
				t = tool
			}
			evAppr = append(evAppr, Approval{SpanID: s.spanID, Tool: t, Kind: k, TS: orTime(e.ts, s.start), Line: s.line, seq: s.seq})
		}
		switch {
		case op == opExecuteTool && tool != "" && kind == "" && len(evAppr) == 0:
			se := get(s)
			se.Calls = append(se.Calls, Call{SpanID: s.spanID, TraceID: s.traceID, Tool: tool, TS: s.start,
				Args: Preview(str(s.attrs[attrToolArgs])), Result: Preview(str(s.attrs[attrToolResult])),
				Error: s.statusError != "", Line: s.line, seq: s.seq})
		case kind != "":
			se := get(s)
			se.Approvals = append(se.Approvals, Approval{SpanID: s.spanID, Tool: tool, Kind: kind, TS: s.start, Line: s.line, seq: s.seq})
			se.Approvals = append(se.Approvals, evAppr...)
		case len(evAppr) > 0:
			se := get(s)
			se.Approvals = append(se.Approvals, evAppr...)
		case op == opInvokeAgent:
			get(s) // a session with no calls is still a session read
		}
	}
	out := make([]*Session, 0, len(order))
	for _, id := range order {
		out = append(out, sessions[id])
	}
	return out
}

func orTime(a, b time.Time) time.Time {
	if a.IsZero() {
		return b
	}
	return a
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}
