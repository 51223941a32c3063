package lsp

import (
	"slices"

	"go.lsp.dev/protocol"
)

// clientCaps is what the client said it supports, resolved once at
// initialize; every feature asks here rather than reading the raw tree.
type clientCaps struct {
	encoding            encoding
	pullDiagnostics     bool // textDocument.diagnostic
	diagnosticRefresh   bool // workspace.diagnostics.refreshSupport
	relatedInformation  bool
	codeDescription     bool
	codeActionLiterals  bool
	disabledActions     bool
	documentChanges     bool
	snippetEdits        bool // SnippetTextEdit in workspace edits (LSP 3.18)
	createFiles         bool // CreateFile among documentChanges (resourceOperations)
	workDoneProgress    bool
	configuration       bool
	watchedFilesDynamic bool
	markdownHover       bool
}

func resolveCaps(p *protocol.InitializeParams) clientCaps {
	c := clientCaps{encoding: utf16, markdownHover: true}
	caps := p.Capabilities
	if g := caps.General; g != nil && slices.Contains(g.PositionEncodings, protocol.PositionEncodingKindUTF8) {
		c.encoding = utf8Enc
	}
	if td := caps.TextDocument; td != nil {
		c.pullDiagnostics = td.Diagnostic != nil
		if pd := td.PublishDiagnostics; pd != nil {
			c.relatedInformation = isTrue(pd.RelatedInformation)
			c.codeDescription = isTrue(pd.CodeDescriptionSupport)
		}
		if d := td.Diagnostic; d != nil {
			// A pulling client states its diagnostic support here.
			c.relatedInformation = c.relatedInformation || isTrue(d.RelatedInformation)
			c.codeDescription = c.codeDescription || isTrue(d.CodeDescriptionSupport)
		}
		if ca := td.CodeAction; ca != nil {
			c.codeActionLiterals = len(ca.CodeActionLiteralSupport.CodeActionKind.ValueSet) > 0
			c.disabledActions = isTrue(ca.DisabledSupport)
		}
		if h := td.Hover; h != nil {
			c.markdownHover = len(h.ContentFormat) == 0 || slices.Contains(h.ContentFormat, protocol.MarkupKindMarkdown)
		}
	}
	if ws := caps.Workspace; ws != nil {
		c.configuration = isTrue(ws.Configuration)
		if we := ws.WorkspaceEdit; we != nil {
			c.documentChanges = isTrue(we.DocumentChanges)
			c.snippetEdits = c.documentChanges && isTrue(we.SnippetEditSupport) // only TextDocumentEdit carries them
			c.createFiles = c.documentChanges && slices.Contains(we.ResourceOperations, protocol.ResourceOperationKindCreate)
		}
		if w := ws.DidChangeWatchedFiles; w != nil {
			c.watchedFilesDynamic = isTrue(w.DynamicRegistration)
		}
		if d := ws.Diagnostics; d != nil {
			c.diagnosticRefresh = isTrue(d.RefreshSupport)
		}
	}
	if w := caps.Window; w != nil {
		c.workDoneProgress = isTrue(w.WorkDoneProgress)
	}
	return c
}

func isTrue(b *bool) bool { return b != nil && *b }

func ptr[T any](v T) *T { return &v }
