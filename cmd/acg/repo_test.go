package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestLicenseShipped checks that the repository and every package built
// from it carry the Apache-2.0 licence: the root LICENSE, and the VS Code
// extension's copy, which .vscodeignore must let into the .vsix.
func TestLicenseShipped(t *testing.T) {
	root, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(root, []byte("Apache License\n                           Version 2.0, January 2004")) ||
		!bytes.Contains(root, []byte("END OF TERMS AND CONDITIONS")) {
		t.Error("LICENSE is not the full Apache License 2.0 text")
	}
	ext, err := os.ReadFile("../../editors/vscode/LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ext, root) {
		t.Error("editors/vscode/LICENSE differs from LICENSE")
	}
	ignore, err := os.ReadFile("../../editors/vscode/.vscodeignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ignore), "\n!LICENSE\n") {
		t.Error(".vscodeignore leaves LICENSE out of the .vsix")
	}
	var pkg struct{ License string }
	b, err := os.ReadFile("../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.License != "Apache-2.0" {
		t.Errorf("editors/vscode/package.json license = %q, want Apache-2.0", pkg.License)
	}
}
