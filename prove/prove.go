// Package prove owns proven data flows: the Flow type every prover produces
// (a source, a sink and the steps between them), the Prover interface the
// CLI and the language server drive, and merging of flows from several
// provers. The provers live in subpackages: builtin (the embedded taint
// engine over extract's flow facts), opengrep and codeql (external tools);
// sarif reads and writes the SARIF 2.1.0 paths they all exchange.
package prove

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Source kinds: what kind of value starts a flow.
const (
	SourceUntrusted = "untrusted" // content a third party can write (mail, web pages, search results, retrievers)
	SourceParam     = "param"     // a function parameter: for a tool, chosen by the model
	SourceLLM       = "llm"       // the output of a model call
)

// Sink kinds: where a flow ends.
const (
	SinkEgress = "egress" // data leaves the trust boundary (HTTP, mail, sockets, a fetched URL)
	SinkExec   = "exec"   // code or command execution
	SinkWrite  = "write"  // persistent state: files, databases, stores
	SinkPrompt = "prompt" // text sent to a model
	SinkReturn = "return" // the return value of a function (a tool's result enters its agent's context)
)

// IsAction reports whether a sink kind acts outward.
func IsAction(kind string) bool { return kind == SinkEgress || kind == SinkExec || kind == SinkWrite }

// Step roles.
const (
	RoleSource = "source"
	RoleStep   = "step"
	RoleCall   = "call" // a call site the flow enters or leaves (Opengrep "Call:")
	RoleSink   = "sink"
)

// Step is one location on a flow's path.
type Step struct {
	Loc     extract.Loc
	Message string
	Role    string
	// Nesting is the SARIF nestingLevel (Opengrep: callee steps are one
	// level deeper than the call site).
	Nesting int
}

// Flow is one proven path from a source to a sink, as every prover
// reports it (SARIF codeFlows/threadFlows).
type Flow struct {
	Tool    string // builtin, opengrep, codeql (or the SARIF driver name)
	RuleID  string
	Message string
	// SourceKind and SinkKind classify the ends (the constants above); ""
	// when the prover did not say.
	SourceKind string
	SinkKind   string
	Source     Step
	Sink       Step
	// Steps is the whole path in order, Source first and Sink last.
	Steps []Step
}

// Key identifies a flow by its ends, for de-duplication across provers.
func (f *Flow) Key() string {
	return fmt.Sprintf("%s:%d:%d>%s:%d:%d", f.Source.Loc.File, f.Source.Loc.Start.Line, f.Source.Loc.Start.Col,
		f.Sink.Loc.File, f.Sink.Loc.Start.Line, f.Sink.Loc.Start.Col)
}

// Merge joins flows from several provers, keeping the first flow for each
// source and sink location (pass the most trusted prover first), in a
// stable order.
func Merge(sets ...[]Flow) []Flow {
	// Sized up front and keyed by value: on a large tree the flows are
	// tens of megabytes, and growing the slice by doubling (or formatting
	// a key string per flow, as Key does) cost as much again at the peak.
	n := 0
	for _, s := range sets {
		n += len(s)
	}
	seen := make(map[flowEnds]bool, n)
	out := make([]Flow, 0, n)
	for _, s := range sets {
		for _, f := range s {
			k := flowEnds{f.Source.Loc.File, f.Source.Loc.Start.Line, f.Source.Loc.Start.Col,
				f.Sink.Loc.File, f.Sink.Loc.Start.Line, f.Sink.Loc.Start.Col}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool { return Less(&out[i], &out[j]) })
	return out
}

// flowEnds is what Key says, as a map key.
type flowEnds struct {
	srcFile           string
	srcLine, srcCol   int32
	sinkFile          string
	sinkLine, sinkCol int32
}

// Less orders flows by source, then sink position (file, line, column).
func Less(a, b *Flow) bool {
	if c := cmpLoc(a.Source.Loc, b.Source.Loc); c != 0 {
		return c < 0
	}
	return cmpLoc(a.Sink.Loc, b.Sink.Loc) < 0
}

func cmpLoc(a, b extract.Loc) int {
	switch {
	case a.File != b.File:
		return strings.Compare(a.File, b.File)
	case a.Start.Line != b.Start.Line:
		return int(a.Start.Line) - int(b.Start.Line)
	}
	return int(a.Start.Col) - int(b.Start.Col)
}

// Request is what an external prover is asked to prove.
type Request struct {
	// Root is the workspace root; every location of the answer is inside
	// it and relative to it.
	Root string
	// Files are root-relative paths to analyse; empty means the whole tree.
	Files []string
	// Fingerprint identifies the content of the tree (CodeQL reuses its
	// database while it is unchanged). Empty disables reuse.
	Fingerprint string
	// Source returns the current bytes of a file (an editor buffer may be
	// newer than the disk); nil reads nothing and leaves byte offsets
	// unset.
	Source func(rel string) []byte
	// Progress, when set, is told what the prover is doing.
	Progress func(Progress)
}

// Progress is a report from a running prover ($/progress in the LSP).
type Progress struct {
	Prover  string
	Message string
	Percent int // 0-100, or -1 when unknown
	Done    bool
}

// Report sends a progress report when the request wants them.
func (r *Request) Report(p Progress) {
	if r != nil && r.Progress != nil {
		r.Progress(p)
	}
}

// Prover is an external flow prover (Opengrep, CodeQL). Run stops when ctx
// is cancelled and then returns ctx's error.
type Prover interface {
	Name() string
	// Version runs the tool to report its version; an error says why it
	// cannot be used.
	Version(ctx context.Context) (string, error)
	Run(ctx context.Context, req Request) ([]Flow, error)
}
