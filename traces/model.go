package traces

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/acg-dev/acg/internal/secret"
)

// Format names the input formats.
const (
	FormatOTLPJSON   = "otlp-json"
	FormatOTelSDK    = "otel-sdk-json" // the Python SDK's ConsoleSpanExporter (span.to_json())
	FormatOTLPProto  = "otlp-protobuf"
	FormatOpenAI     = "openai-agents"
	FormatLangfuse   = "langfuse"
	FormatClaudeCode = "claude-code-hook"
)

// Call is one tool call a run made.
type Call struct {
	SpanID  string    `json:"span_id"`
	TraceID string    `json:"trace_id,omitempty"`
	Tool    string    `json:"tool"`
	TS      time.Time `json:"ts,omitzero"`
	// Args and Result are short previews with secrets masked; never the
	// whole value.
	Args   string `json:"args_preview,omitempty"`
	Result string `json:"result_preview,omitempty"`
	Error  bool   `json:"error,omitempty"`
	Line   int    `json:"line,omitempty"` // of its record in the file (JSON inputs)
	seq    int
}

// Approval is a point where a person was asked before a tool ran (an
// interrupt, a deferred-tool approval, a confirmation record).
type Approval struct {
	SpanID string    `json:"span_id,omitempty"`
	Tool   string    `json:"tool,omitempty"` // "" when the record names none: it then covers every action
	Kind   string    `json:"kind"`
	TS     time.Time `json:"ts,omitzero"`
	Line   int       `json:"line,omitempty"`
	seq    int
}

// Session is one conversation: its calls and approvals in the order they
// happened.
type Session struct {
	ID        string     `json:"id"`
	Agent     string     `json:"agent,omitempty"` // the agent's name as the trace records it
	Format    string     `json:"format"`
	File      string     `json:"file"`
	Calls     []Call     `json:"calls"`
	Approvals []Approval `json:"approvals"`
}

// Problem is input that could not be read: the rest of the file was.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Offset  int64  `json:"offset,omitempty"` // byte offset (protobuf)
	Message string `json:"message"`
}

func (p Problem) String() string {
	switch {
	case p.Line > 0:
		return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Message
	case p.Offset > 0:
		return p.File + ": byte " + strconv.Itoa(int(p.Offset)) + ": " + p.Message
	}
	return p.File + ": " + p.Message
}

// PreviewLen bounds a preview, in characters.
const PreviewLen = 60

// Preview is what output may show of an argument or a result: secrets
// masked over the whole value first (so a secret cut by the bound is still
// found), then one line, at most PreviewLen characters.
func Preview(s string) string {
	if s == "" {
		return ""
	}
	s = secret.Mask(s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > PreviewLen {
		r := []rune(s)
		s = string(r[:PreviewLen]) + "…"
		// The cut may leave the start of a secret the mask would have
		// recognised only whole: mask the preview again.
		s = secret.Mask(s)
	}
	return s
}
