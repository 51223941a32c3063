package lsptest

import "go.lsp.dev/protocol"

func yes() *bool { b := true; return &b }

// RichCaps is a client like VS Code that takes pushed diagnostics: related
// information, code descriptions, data, versions, code action literals with
// disabled actions, versioned workspace edits, progress, configuration and
// dynamic file watching.
func RichCaps() protocol.ClientCapabilities {
	return protocol.ClientCapabilities{
		General: &protocol.GeneralClientCapabilities{PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF16}},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{
				DiagnosticsCapabilities: protocol.DiagnosticsCapabilities{RelatedInformation: yes(), CodeDescriptionSupport: yes(), DataSupport: yes()},
				VersionSupport:          yes()},
			CodeAction: &protocol.CodeActionClientCapabilities{
				CodeActionLiteralSupport: protocol.ClientCodeActionLiteralOptions{CodeActionKind: protocol.ClientCodeActionKindOptions{
					ValueSet: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}}},
				IsPreferredSupport: yes(), DisabledSupport: yes(), DataSupport: yes()},
			Hover: &protocol.HoverClientCapabilities{ContentFormat: []protocol.MarkupKind{protocol.MarkupKindMarkdown, protocol.MarkupKindPlainText}},
		},
		Workspace: &protocol.WorkspaceClientCapabilities{
			ApplyEdit:             yes(),
			WorkspaceEdit:         &protocol.WorkspaceEditClientCapabilities{DocumentChanges: yes()},
			Configuration:         yes(),
			DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: yes()},
		},
		Window: &protocol.WindowClientCapabilities{WorkDoneProgress: yes()},
	}
}

// PullCaps is RichCaps for a client that pulls diagnostics.
func PullCaps() protocol.ClientCapabilities {
	c := RichCaps()
	c.TextDocument.Diagnostic = &protocol.DiagnosticClientCapabilities{
		DiagnosticsCapabilities: protocol.DiagnosticsCapabilities{RelatedInformation: yes(), CodeDescriptionSupport: yes(), DataSupport: yes()}}
	c.Workspace.Diagnostics = &protocol.DiagnosticWorkspaceClientCapabilities{RefreshSupport: yes()}
	return c
}

// PlainCaps is a client that states nothing: push diagnostics without
// related information, plain commands instead of code action literals.
func PlainCaps() protocol.ClientCapabilities { return protocol.ClientCapabilities{} }

// UTF8 adds utf-8 to the offered position encodings.
func UTF8(c protocol.ClientCapabilities) protocol.ClientCapabilities {
	c.General = &protocol.GeneralClientCapabilities{PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF8, protocol.PositionEncodingKindUTF16}}
	return c
}
