package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/report"
)

// ExecuteCommand runs the editors' commands:
//
//	acg.rescan             read every folder from disk again; returns {"files": n, "findings": n}
//	acg.showGraph [fmt]    the capability graph: fmt "json" (default) or "dot",
//	                       as a string or {"format": "dot"}; JSON is an object,
//	                       DOT a string
//	acg.applyFix edit      apply a quick fix's WorkspaceEdit (clients without
//	                       code action literals get the fix as this command)
func (s *Server) ExecuteCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	s.mu.Lock()
	folders := append([]*folder(nil), s.folders...)
	s.mu.Unlock()
	switch p.Command {
	case cmdRescan:
		files, findings := 0, 0
		for _, f := range folders {
			a, err := f.rescan(ctx)
			if err != nil {
				return nil, err
			}
			files += len(a.snap.Files())
			findings += len(a.res.Findings)
		}
		return toAny(map[string]int{"files": files, "findings": findings})
	case cmdShowGraph:
		format := "json"
		if len(p.Arguments) > 0 {
			var str string
			var obj struct {
				Format string `json:"format"`
			}
			if json.Unmarshal(p.Arguments[0], &str) == nil {
				format = str
			} else if json.Unmarshal(p.Arguments[0], &obj) == nil && obj.Format != "" {
				format = obj.Format
			}
		}
		var graphs []folderGraph
		for _, f := range folders {
			a, err := f.await(ctx)
			if err != nil {
				return nil, protocol.ErrRequestCancelled
			}
			st := f.s.settingsNow()
			doc := report.NewDocument(a.res.Graph, a.findings(st))
			doc.Suppressed = policy.ForTests(a.res.Suppressed, st.IncludeTests, "")
			gd := report.NewGraphDoc(doc)
			graphs = append(graphs, folderGraph{Root: f.root, Document: doc, Nodes: gd.Nodes, Edges: gd.Edges})
		}
		switch format {
		case "json":
			return toAny(map[string]any{"version": report.Version, "folders": graphs})
		case "dot":
			return toAny(graphDOT(graphs))
		}
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "acg.showGraph: format %q: want json or dot", format)
	case cmdApplyFix:
		if len(p.Arguments) != 1 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "acg.applyFix: want one WorkspaceEdit argument")
		}
		var edit protocol.WorkspaceEdit
		if err := protocol.Unmarshal(p.Arguments[0], &edit); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "acg.applyFix: %v", err)
		}
		res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: ptr("acg quick fix"), Edit: edit})
		if err != nil {
			return nil, err
		}
		b, err := protocol.Marshal(res)
		return protocol.LSPAny(b), err
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "unknown command %q", p.Command)
}

// rescan reads the folder from disk again and waits for its analysis.
func (f *folder) rescan(ctx context.Context) (*analysis, error) {
	p := f.s.startProgress("acg: rescanning " + filepath.Base(f.root))
	warns, err := f.ws.Load(ctx, p.report)
	if err != nil {
		p.end("failed")
		return nil, fmt.Errorf("rescan %s: %w", f.root, err)
	}
	f.logWarnings(warns)
	f.mu.Lock()
	f.loaded = true
	f.mu.Unlock()
	f.runNow()
	a, err := f.await(ctx)
	if err != nil {
		p.end("cancelled")
		return nil, protocol.ErrRequestCancelled
	}
	p.end(fmt.Sprintf("%d files, %d findings", len(a.snap.Files()), len(a.res.Findings)))
	f.proveTree()
	return a, nil
}

// folderGraph is one folder's output: the JSON contract of acg scan
// (agents, tools, findings) plus the nodes and edges of graph.json.
type folderGraph struct {
	Root string `json:"root"`
	*report.Document
	Nodes []report.GraphNode `json:"nodes"`
	Edges []report.GraphEdge `json:"edges"`
}

// graphDOT renders the graphs for Graphviz: agents as boxes (red with
// findings), tools with their capabilities, approvals as diamonds, MCP
// servers as components.
func graphDOT(gs []folderGraph) string {
	var b strings.Builder
	b.WriteString("digraph acg {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n")
	for i, fg := range gs {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%q;\n", i, fg.Root)
		flagged := map[string]bool{}
		for _, f := range fg.Findings {
			flagged[f.AgentID] = true
		}
		id := func(n string) string { return fmt.Sprintf("%q", fmt.Sprintf("%d:%s", i, n)) }
		for _, n := range fg.Nodes {
			label := n.Name
			if label == "" {
				label = n.ID
			}
			switch n.Kind {
			case string(capgraph.NodeAgent):
				attrs := "shape=box"
				if flagged[n.ID] {
					attrs += ", color=red, fontcolor=red"
				}
				fmt.Fprintf(&b, "    %s [label=%q, %s];\n", id(n.ID), label+"\n"+string(n.Framework), attrs)
			case string(capgraph.NodeTool):
				fmt.Fprintf(&b, "    %s [label=%q, shape=ellipse];\n", id(n.ID), label+"\n"+strings.Join(n.Capabilities, " "))
			case string(capgraph.NodeApproval):
				fmt.Fprintf(&b, "    %s [label=%q, shape=diamond];\n", id(n.ID), n.ApprovalKind)
			default:
				fmt.Fprintf(&b, "    %s [label=%q, shape=component];\n", id(n.ID), label)
			}
		}
		for _, e := range fg.Edges {
			fmt.Fprintf(&b, "    %s -> %s [label=%q];\n", id(e.From), id(e.To), e.Kind)
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func toAny(v any) (protocol.LSPAny, error) {
	b, err := json.Marshal(v)
	return protocol.LSPAny(b), err
}
