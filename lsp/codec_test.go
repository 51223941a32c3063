package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestCodecOwnsDecodedStrings: what the codec decodes stays as it was when
// the connection reuses its buffer for the next message (a code action's
// title once read as the text of the log message that followed it).
func TestCodecOwnsDecodedStrings(t *testing.T) {
	buf := []byte(`[{"title":"Require a human approval before send_http","kind":"quickfix","isPreferred":true}]`)
	var acts []protocol.CommandOrCodeAction
	if err := (Codec{}).Unmarshal(buf, &acts); err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = 'x'
	}
	a, ok := acts[0].(*protocol.CodeAction)
	if !ok || a.Title != "Require a human approval before send_http" {
		t.Fatalf("decoded action changed with the input buffer: %#v", acts[0])
	}
}
