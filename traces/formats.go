package traces

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// --- OpenAI Agents SDK -------------------------------------------------
//
// Trace.export() / Span.export() of openai-agents (agents/tracing/traces.py,
// spans.py, span_data.py; checked against 0.24.0): a trace is
// {"object": "trace", "id", "workflow_name", "group_id", "metadata"}, a span
// {"object": "trace.span", "id", "trace_id", "parent_id", "started_at",
// "ended_at", "span_data": {"type", "name", "input", "output", …}, "error"};
// the backend exporter batches them as {"data": [...]}. A tool call is a
// span of type "function"; the agent is the nearest "agent" span above it;
// the session is the trace's group_id (the SDK's conversation id), else
// the trace.

func isOpenAI(obj map[string]json.RawMessage) bool {
	var o string
	_ = json.Unmarshal(obj["object"], &o)
	return o == "trace" || o == "trace.span"
}

type oaSpan struct {
	ID, TraceID string
	ParentID    *string `json:"parent_id"`
	StartedAt   string  `json:"started_at"`
	SpanData    struct {
		Type   string `json:"type"`
		Name   string `json:"name"`
		Input  any    `json:"input"`
		Output any    `json:"output"`
		Data   any    `json:"data"` // custom spans
	} `json:"span_data"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	line, seq int
}

type openaiReader struct {
	groups map[string]string // trace id -> group id
	wf     map[string]string // trace id -> workflow name
	spans  []*oaSpan
}

func newOpenAIReader() *openaiReader {
	return &openaiReader{groups: map[string]string{}, wf: map[string]string{}}
}

func (r *openaiReader) add(rec record, obj map[string]json.RawMessage) error {
	var o string
	_ = json.Unmarshal(obj["object"], &o)
	if o == "trace" {
		var t struct {
			ID       string  `json:"id"`
			Workflow string  `json:"workflow_name"`
			Group    *string `json:"group_id"`
		}
		if err := json.Unmarshal(rec.raw, &t); err != nil || t.ID == "" {
			return errors.New("OpenAI Agents SDK trace without an id")
		}
		if t.Group != nil {
			r.groups[t.ID] = *t.Group
		}
		r.wf[t.ID] = t.Workflow
		return nil
	}
	s := &oaSpan{line: rec.line, seq: len(r.spans)}
	var raw struct {
		ID      string `json:"id"`
		TraceID string `json:"trace_id"`
	}
	if err := json.Unmarshal(rec.raw, s); err != nil {
		return fmt.Errorf("OpenAI Agents SDK span: %w", err)
	}
	_ = json.Unmarshal(rec.raw, &raw)
	s.ID, s.TraceID = raw.ID, raw.TraceID
	if s.ID == "" || s.TraceID == "" {
		return errors.New("OpenAI Agents SDK span without id or trace_id")
	}
	r.spans = append(r.spans, s)
	return nil
}

func (r *openaiReader) sessions(file string) []*Session {
	byID := map[string]*oaSpan{}
	for _, s := range r.spans {
		byID[s.ID] = s
	}
	agentOf := func(s *oaSpan) string {
		for p, n := s, 0; p != nil && n < 256; n++ {
			if p.SpanData.Type == "agent" && p.SpanData.Name != "" {
				return p.SpanData.Name
			}
			if p.ParentID == nil {
				break
			}
			p = byID[*p.ParentID]
		}
		return ""
	}
	ss := newSessions(file, FormatOpenAI)
	sorted := append([]*oaSpan(nil), r.spans...)
	slices.SortStableFunc(sorted, func(a, b *oaSpan) int { return isoTime(a.StartedAt).Compare(isoTime(b.StartedAt)) })
	for _, s := range sorted {
		id := s.TraceID
		if g := r.groups[s.TraceID]; g != "" {
			id = g
		}
		se := ss.get(id)
		if se.Agent == "" {
			se.Agent = agentOf(s)
		}
		ts := isoTime(s.StartedAt)
		switch {
		case s.SpanData.Type == "function" && approvalKind(s.SpanData.Name) == "":
			se.Calls = append(se.Calls, Call{SpanID: s.ID, TraceID: s.TraceID, Tool: s.SpanData.Name, TS: ts,
				Args: Preview(str(s.SpanData.Input)), Result: Preview(str(s.SpanData.Output)), Error: s.Error != nil, Line: s.line, seq: s.seq})
		case approvalKind(s.SpanData.Name) != "":
			se.Approvals = append(se.Approvals, Approval{SpanID: s.ID, Kind: approvalKind(s.SpanData.Name), TS: ts, Line: s.line, seq: s.seq,
				Tool: orStr(toolOf(s.SpanData.Data), toolOf(s.SpanData.Input))})
		case s.Error != nil && approvalKind(s.Error.Message) != "":
			se.Approvals = append(se.Approvals, Approval{SpanID: s.ID, Kind: approvalKind(s.Error.Message), TS: ts, Line: s.line, seq: s.seq, Tool: s.SpanData.Name})
		}
	}
	return ss.list()
}

// toolOf reads the tool an approval record names ({"tool": …},
// {"tool_name": …}, {"name": …}).
func toolOf(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range []string{"tool", "tool_name", "name", attrToolName} {
		if s, ok := m[k].(string); ok {
			return s
		}
	}
	return ""
}

// --- Langfuse -----------------------------------------------------------
//
// GET /api/public/traces/{id} (TraceWithFullDetails: "id", "name",
// "sessionId", "timestamp", "observations") and the observations list
// (GET /api/public/observations, {"data": [...]}): an observation has
// "id", "traceId", "type" (SPAN, GENERATION, EVENT, AGENT, TOOL, CHAIN,
// RETRIEVER, EVALUATOR, EMBEDDING, GUARDRAIL), "name", "startTime",
// "parentObservationId", "input", "output", "level", "statusMessage". A
// tool call is a TOOL observation; its agent the nearest AGENT above it,
// else the trace's name; the session is the trace's sessionId, else the
// trace.

func isLangfuse(obj map[string]json.RawMessage) bool {
	if obj["observations"] != nil && obj["id"] != nil {
		return true
	}
	return obj["traceId"] != nil && obj["type"] != nil && obj["startTime"] != nil
}

type lfObs struct {
	ID        string  `json:"id"`
	TraceID   string  `json:"traceId"`
	Type      string  `json:"type"`
	Name      string  `json:"name"`
	StartTime string  `json:"startTime"`
	Parent    *string `json:"parentObservationId"`
	Input     any     `json:"input"`
	Output    any     `json:"output"`
	Level     string  `json:"level"`
	line, seq int
}

type langfuseReader struct {
	obs    []*lfObs
	sessOf map[string]string // trace id -> session id
	names  map[string]string // trace id -> trace name
}

func newLangfuseReader() *langfuseReader {
	return &langfuseReader{sessOf: map[string]string{}, names: map[string]string{}}
}

func (r *langfuseReader) add(rec record, obj map[string]json.RawMessage) error {
	if obj["observations"] != nil {
		var t struct {
			ID        string  `json:"id"`
			Name      string  `json:"name"`
			SessionID *string `json:"sessionId"`
		}
		if err := json.Unmarshal(rec.raw, &t); err != nil {
			return fmt.Errorf("Langfuse trace: %w", err)
		}
		if t.SessionID != nil {
			r.sessOf[t.ID] = *t.SessionID
		}
		r.names[t.ID] = t.Name
		obs, ok := elements(rec, "observations")
		if !ok {
			return fmt.Errorf("Langfuse trace %s: observations is not a list", t.ID)
		}
		var bad int
		for _, o := range obs {
			if err := r.addObs(o, t.ID); err != nil {
				bad++
			}
		}
		if bad > 0 {
			return fmt.Errorf("Langfuse trace %s: %d observation(s) without id skipped", t.ID, bad)
		}
		return nil
	}
	return r.addObs(rec, "")
}

func (r *langfuseReader) addObs(rec record, trace string) error {
	o := &lfObs{line: rec.line, seq: len(r.obs)}
	if err := json.Unmarshal(rec.raw, o); err != nil {
		return fmt.Errorf("Langfuse observation: %w", err)
	}
	if o.TraceID == "" {
		o.TraceID = trace
	}
	if o.ID == "" || o.TraceID == "" {
		return errors.New("Langfuse observation without id or traceId")
	}
	r.obs = append(r.obs, o)
	return nil
}

func (r *langfuseReader) sessions(file string) []*Session {
	byID := map[string]*lfObs{}
	for _, o := range r.obs {
		byID[o.ID] = o
	}
	ss := newSessions(file, FormatLangfuse)
	sorted := append([]*lfObs(nil), r.obs...)
	slices.SortStableFunc(sorted, func(a, b *lfObs) int { return isoTime(a.StartTime).Compare(isoTime(b.StartTime)) })
	for _, o := range sorted {
		id := o.TraceID
		if s := r.sessOf[o.TraceID]; s != "" {
			id = s
		}
		se := ss.get(id)
		if se.Agent == "" {
			for p, n := o, 0; p != nil && n < 256; n++ {
				if p.Type == "AGENT" && p.Name != "" {
					se.Agent = p.Name
					break
				}
				if p.Parent == nil {
					break
				}
				p = byID[*p.Parent]
			}
		}
		ts := isoTime(o.StartTime)
		switch {
		case approvalKind(o.Name) != "":
			se.Approvals = append(se.Approvals, Approval{SpanID: o.ID, Kind: approvalKind(o.Name), TS: ts, Line: o.line, seq: o.seq, Tool: toolOf(o.Input)})
		case o.Type == "TOOL":
			se.Calls = append(se.Calls, Call{SpanID: o.ID, TraceID: o.TraceID, Tool: o.Name, TS: ts, Args: Preview(str(o.Input)),
				Result: Preview(str(o.Output)), Error: o.Level == "ERROR", Line: o.line, seq: o.seq})
		}
	}
	for _, se := range ss.order {
		if se.Agent == "" {
			// A session is named after its first trace.
			for _, o := range sorted {
				if (r.sessOf[o.TraceID] == se.ID || o.TraceID == se.ID) && r.names[o.TraceID] != "" {
					se.Agent = r.names[o.TraceID]
					break
				}
			}
		}
	}
	return ss.list()
}

// --- Claude Code hook log -------------------------------------------------
//
// What a command hook gets on stdin (code.claude.com/docs/en/hooks, common
// input fields and the PostToolUse / PostToolUseFailure / PermissionRequest
// inputs): "session_id", "transcript_path", "cwd", "permission_mode",
// "hook_event_name", "tool_name", "tool_input", "tool_response",
// "tool_use_id", and "agent_id" / "agent_type" inside subagents. The hook of
// docs/traces.md appends each input as one JSON line; the input carries no
// time, so the line order is the order of events. A PermissionRequest (the
// dialog that asks the user) is an approval of its tool; a Notification of
// type permission_prompt one that names no tool.

type claudeReader struct{ ss *sessions }

func newClaudeReader() *claudeReader { return &claudeReader{} }

func (r *claudeReader) add(rec record, obj map[string]json.RawMessage) error {
	var h struct {
		Session   string `json:"session_id"`
		Event     string `json:"hook_event_name"`
		Tool      string `json:"tool_name"`
		Input     any    `json:"tool_input"`
		Response  any    `json:"tool_response"`
		Error     any    `json:"error"`
		UseID     string `json:"tool_use_id"`
		AgentType string `json:"agent_type"`
		NType     string `json:"notification_type"`
		TS        string `json:"ts"`
	}
	if err := json.Unmarshal(rec.raw, &h); err != nil {
		return fmt.Errorf("Claude Code hook record: %w", err)
	}
	if h.Session == "" {
		return errors.New("Claude Code hook record without session_id")
	}
	if r.ss == nil {
		r.ss = newSessions("", FormatClaudeCode)
	}
	se := r.ss.get(h.Session)
	if se.Agent == "" {
		se.Agent = "claude-code"
		if h.AgentType != "" {
			se.Agent = h.AgentType
		}
	}
	ts := isoTime(h.TS)
	seq := len(se.Calls) + len(se.Approvals)
	switch h.Event {
	case "PostToolUse", "PostToolUseFailure":
		if h.Tool == "" {
			return errors.New("Claude Code " + h.Event + " record without tool_name")
		}
		res := h.Response
		if h.Event == "PostToolUseFailure" {
			res = h.Error
		}
		se.Calls = append(se.Calls, Call{SpanID: h.UseID, Tool: h.Tool, TS: ts, Args: Preview(str(h.Input)), Result: Preview(str(res)),
			Error: h.Event == "PostToolUseFailure", Line: rec.line, seq: seq})
	case "PermissionRequest":
		se.Approvals = append(se.Approvals, Approval{SpanID: h.UseID, Tool: h.Tool, Kind: "permission_request", TS: ts, Line: rec.line, seq: seq})
	case "Notification":
		if h.NType == "permission_prompt" {
			se.Approvals = append(se.Approvals, Approval{Kind: "permission_prompt", TS: ts, Line: rec.line, seq: seq})
		}
	}
	return nil
}

func (r *claudeReader) sessions(file string) []*Session {
	if r.ss == nil {
		return nil
	}
	for _, s := range r.ss.order {
		s.File = file
	}
	return r.ss.list()
}

// sessions keeps sessions in the order they were first seen.
type sessions struct {
	file, format string
	byID         map[string]*Session
	order        []*Session
}

func newSessions(file, format string) *sessions {
	return &sessions{file: file, format: format, byID: map[string]*Session{}}
}

func (s *sessions) get(id string) *Session {
	se := s.byID[id]
	if se == nil {
		se = &Session{ID: id, Format: s.format, File: s.file}
		s.byID[id] = se
		s.order = append(s.order, se)
	}
	return se
}

func (s *sessions) list() []*Session { return s.order }
