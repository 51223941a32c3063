package sarif_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/fuzzseed"
	"github.com/acg-dev/acg/internal/outcheck"
	"github.com/acg-dev/acg/prove/builtin"
	"github.com/acg-dev/acg/prove/sarif"
	"github.com/acg-dev/acg/report"
)

// inbox loads the inbox demo, the workspace FuzzIngest's flows land in.
func inbox(tb testing.TB) *incremental.Snapshot {
	tb.Helper()
	snap, _, err := incremental.Load(context.Background(), "../../testdata/inbox", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}

// FuzzIngest is an external prover's SARIF log (what Opengrep or CodeQL
// print, which a scanned repository's code shapes) read as acg-scan reads
// it and merged into the inbox demo's analysis: every output of the result
// must pass outcheck.
//
//	go test ./prove/sarif -run '^$' -fuzz '^FuzzIngest$' -fuzztime 30m
func FuzzIngest(f *testing.F) {
	snap := inbox(f)
	source := func(rel string) []byte {
		if file := snap.File(rel); file != nil {
			return file.Src
		}
		return nil
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := sarif.Read(data, sarif.Options{Root: "/fuzz-root", Source: source})
		if err != nil {
			return
		}
		for _, withBuiltin := range []bool{true, false} {
			r := snap.AnalyzeWith(res.Flows, withBuiltin)
			doc := report.NewDocument(r.Graph, r.Findings)
			doc.Suppressed = r.Suppressed
			if _, err := outcheck.CheckAll(doc); err != nil {
				t.Fatalf("builtin %v: %v", withBuiltin, err)
			}
		}
	})
}

// TestWriteIngestSeeds writes FuzzIngest's corpus: the builtin prover's
// own SARIF for the inbox demo (flows that land on its tools) and the
// recorded Opengrep and CodeQL logs of testdata/sarif up to 16 KB.
//
//	ACG_WRITE_FUZZ_SEEDS=1 go test ./prove/sarif -run TestWriteIngestSeeds
func TestWriteIngestSeeds(t *testing.T) {
	if !fuzzseed.Wanted() {
		t.Skip("set ACG_WRITE_FUZZ_SEEDS=1 to rewrite testdata/fuzz/FuzzIngest")
	}
	seeds := map[string]string{}
	snap := inbox(t)
	for _, file := range snap.Files() {
		if file.Facts() == nil {
			continue
		}
		flows := builtin.Prove(file.Facts(), file.Src, "")
		if len(flows) == 0 {
			continue
		}
		var b bytes.Buffer
		if err := sarif.Write(flows, "").Write(&b); err != nil {
			t.Fatal(err)
		}
		seeds[fuzzseed.Name("builtin/inbox/"+file.Path)] = fuzzseed.Encode(b.Bytes())
		// A prover quotes the scanned code in its messages: code can
		// carry a terminal escape and a bidi override into them.
		hostile := bytes.ReplaceAll(b.Bytes(), []byte(`"text":"`), []byte(`"text":"\u001b[2K\u202e`))
		seeds[fuzzseed.Name("hostile-messages/inbox/"+file.Path)] = fuzzseed.Encode(hostile)
	}
	entries, err := os.ReadDir("../../testdata/sarif")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("../../testdata/sarif", e.Name()))
		if err != nil || len(b) > 16<<10 || filepath.Ext(e.Name()) != ".sarif" {
			continue
		}
		if _, err := gosarif.FromBytes(b); err != nil {
			continue
		}
		seeds[fuzzseed.Name(e.Name())] = fuzzseed.Encode(b)
	}
	if err := fuzzseed.Write("testdata", "FuzzIngest", seeds); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d seeds", len(seeds))
}
