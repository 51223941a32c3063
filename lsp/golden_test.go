package lsp_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/lsp/golden")

// TestGoldenDiagnostics records what the server publishes for each fixture
// (URIs relative to the fixture) in testdata/lsp/golden; regenerate with
// `go test ./lsp -run GoldenDiagnostics -update` and read the diff.
func TestGoldenDiagnostics(t *testing.T) {
	fixtures := []string{"../testdata/inbox", "../testdata/inbox-fixed"}
	entries, _ := os.ReadDir("../testdata/lsp")
	for _, e := range entries {
		if e.IsDir() && e.Name() != "golden" {
			fixtures = append(fixtures, "../testdata/lsp/"+e.Name())
		}
	}
	for _, fx := range fixtures {
		name := filepath.Base(fx)
		t.Run(name, func(t *testing.T) {
			c, _ := start(t, fx, lsptest.Options{Caps: lsptest.RichCaps()})
			// The first analysis publishes every file with findings; a
			// rescan waits until it is done.
			execute(t, c, "acg.rescan")
			var files []string
			c.Wait("", func() bool {
				seen := map[string]bool{}
				for _, d := range c.Diags {
					seen[string(d.URI)] = true
				}
				for u := range seen {
					files = append(files, u)
				}
				return true
			})
			sort.Strings(files)
			var out []protocol.PublishDiagnosticsParams
			for _, u := range files {
				rel := strings.TrimPrefix(u, string(c.URI(""))+"/")
				if p := c.LastDiags(rel); p != nil && len(p.Diagnostics) > 0 {
					out = append(out, *p)
				}
			}
			b, err := protocol.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			b = bytes.ReplaceAll(b, []byte(string(c.URI(""))+"/"), []byte("file:///FIXTURE/"))
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, b, "", "  "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			golden := filepath.Join("../testdata/lsp/golden", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("published diagnostics differ from %s:\n%s", golden, pretty.String())
			}
		})
	}
}
