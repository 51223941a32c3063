package main

import (
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/acg-dev/acg/internal/svgcheck"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/report"
)

// parseSVG fails the test unless an SVG the CLI wrote is well-formed XML.
func parseSVG(t *testing.T, path string) *svgcheck.Node {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := svgcheck.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return root
}

// need returns the path of a tool the test needs, or skips the test
// (fails it under CI, where .ci/run installs it).
func need(t *testing.T, tool, install string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run installs it (%s)", tool, install)
		}
		t.Skipf("%s is not installed (%s); skipping", tool, install)
	}
	return p
}

var sizeRe = regexp.MustCompile(`<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"`)

// renderPNG renders an SVG file with headless Chromium.
func renderPNG(t *testing.T, chromium, svg string) image.Image {
	t.Helper()
	src, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	m := sizeRe.FindSubmatch(src)
	if m == nil {
		t.Fatal("no svg size")
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	out := strings.TrimSuffix(svg, ".svg") + ".png"
	abs, _ := filepath.Abs(svg)
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(), "--window-size="+strconv.Itoa(int(w))+","+strconv.Itoa(int(h)),
		"--screenshot="+out, "file://"+abs)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != int(w) || b.Dy() != int(h) {
		t.Fatalf("png is %dx%d, svg %vx%v", b.Dx(), b.Dy(), w, h)
	}
	if dir := os.Getenv("ACG_KEEP_PNG"); dir != "" {
		b, _ := os.ReadFile(out)
		_ = os.WriteFile(filepath.Join(dir, filepath.Base(out)), b, 0o644)
	}
	return img
}

// count counts the pixels close to a colour above a line (the footer with
// its legend starts there).
func count(img image.Image, c color.RGBA, above int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < min(above, b.Max.Y); y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, c.R) && near(g>>8, c.G) && near(bl>>8, c.B) {
				n++
			}
		}
	}
	return n
}

func near(a uint32, b uint8) bool { d := int(a) - int(b); return d > -12 && d < 12 }

// TestSVGRenders renders the trust-boundary maps with a real browser and
// checks what a reader must see: the three zones, the violating path in
// red where there is one and none where an approval closes it, and the
// approval gates; and from the XML, that each tool sits in the zones of
// its own effects.
func TestSVGRenders(t *testing.T) {
	chromium := need(t, "chromium", "apt-get install chromium")
	var (
		redPath = color.RGBA{0xd6, 0x28, 0x28, 255}
		amber   = color.RGBA{0xff, 0xf6, 0xe5, 255} // untrusted zone
		blue    = color.RGBA{0xea, 0xf1, 0xff, 255} // private zone
		purple  = color.RGBA{0xf5, 0xec, 0xff, 255} // action zone
		gate    = color.RGBA{0x1f, 0x8a, 0x4c, 255}
	)
	for _, tt := range []struct {
		fixture string
		red     bool
		gates   bool
		// zones: agent id → zone → the tool ids drawn there
		zones map[string]map[string]string
	}{
		{"inbox", true, false, map[string]map[string]string{"agent.py#inbox_assistant": {
			"untrusted": "tools.py#read_email", "private": "tools.py#read_email tools.py#read_notes", "action": "tools.py#send_http"}}},
		{"inbox-fixed", false, true, nil},
		{"ops-desk", true, true, map[string]map[string]string{"agents.py#research_agent": { // 30 tools
			"untrusted": "web.py#fetch_page web.py#read_feed web.py#search_web", "private": "data.py#read_note",
			"action": "web.py#fetch_page web.py#read_feed actions.py#save_note"}}},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			dir := t.TempDir()
			svg := filepath.Join(dir, tt.fixture+".svg")
			if _, errs, code := run(t, "../../testdata/"+tt.fixture, "--fail-on", "none", "--svg", svg); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			root := parseSVG(t, svg)
			for agent, zones := range tt.zones {
				for zone, want := range zones {
					var got []string
					for _, c := range root.All(func(n *svgcheck.Node) bool {
						return n.HasClass("cell") && n.Attr["data-agent"] == agent && n.Attr["data-zone"] == zone
					}) {
						for _, tool := range c.All(svgcheck.Class("tool")) {
							got = append(got, tool.Attr["data-tool"])
						}
					}
					if strings.Join(got, " ") != want {
						t.Errorf("%s, zone %s: %v, want %s", agent, zone, got, want)
					}
				}
			}
			var footer float64
			for _, l := range root.All(func(n *svgcheck.Node) bool { return n.Name == "line" && n.Parent.HasClass("footer") }) {
				footer, _ = strconv.ParseFloat(l.Attr["y1"], 64)
			}
			if footer == 0 {
				t.Fatal("no footer line")
			}
			img := renderPNG(t, chromium, svg)
			for name, c := range map[string]color.RGBA{"untrusted": amber, "private": blue, "action": purple} {
				if n := count(img, c, int(footer)); n < 2000 {
					t.Errorf("the %s zone is not visible (%d pixels)", name, n)
				}
			}
			red := count(img, redPath, int(footer))
			if tt.red && red < 300 {
				t.Errorf("no violating path in red (%d pixels)", red)
			}
			if !tt.red && red > 0 {
				t.Errorf("%d red pixels where no finding is", red)
			}
			if g := count(img, gate, int(footer)); tt.gates != (g > 50) {
				t.Errorf("gates: %d green pixels, want gates=%v", g, tt.gates)
			}
		})
	}
}

// TestCedarPolicies checks the generated policies with the real Cedar
// implementation (cedar-wasm under Node): they parse, validate strictly
// against the schema, carry one policy per finding id, and deny a
// finding's sequence unless approved.
func TestCedarPolicies(t *testing.T) {
	node := need(t, "node", "Node.js")
	checker, _ := filepath.Abs("../../report/testdata/cedar")
	if _, err := os.Stat(filepath.Join(checker, "node_modules", "@cedar-policy", "cedar-wasm")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("cedar-wasm is not installed; .ci/run runs npm ci --prefix report/testdata/cedar")
		}
		t.Skip("cedar-wasm is not installed: npm ci --prefix report/testdata/cedar")
	}
	dir := t.TempDir()
	schema := filepath.Join(dir, "schema.cedarschema")
	mustWrite(t, schema, report.CedarSchema)
	for _, fixture := range []string{"inbox", "ops-desk", "suppressed", "inbox-fixed"} {
		t.Run(fixture, func(t *testing.T) {
			pol := filepath.Join(dir, fixture+".cedar")
			out, errs, code := run(t, "../../testdata/"+fixture, "--fail-on", "none", "--format", "json", "--cedar", pol)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var doc report.Document
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			scen := []map[string]any{}
			var ids []string
			for _, f := range doc.Findings {
				ids = append(ids, f.ID)
				scen = append(scen, cedarScenarios(f)...)
			}
			// Suppressed findings get no policy: their sequence is allowed.
			for _, f := range doc.Suppressed {
				s := cedarScenarios(f)[0]
				s["expect"] = "allow"
				scen = append(scen, s)
			}
			sf := filepath.Join(dir, fixture+".json")
			b, _ := json.Marshal(scen)
			mustWrite(t, sf, string(b))
			res, err := exec.Command(node, filepath.Join(checker, "check.mjs"), pol, schema, sf).Output()
			var got struct {
				IDs      []string `json:"ids"`
				Failures []any    `json:"failures"`
			}
			if jerr := json.Unmarshal(res, &got); jerr != nil {
				t.Fatalf("checker: %v %v %s", err, jerr, res)
			}
			if err != nil || len(got.Failures) > 0 {
				t.Fatalf("cedar rejects the policies: %v\n%s", got.Failures, res)
			}
			// cedar-wasm lists the parsed policies in an order of its own:
			// compare the sets.
			sort.Strings(got.IDs)
			sort.Strings(ids)
			if strings.Join(got.IDs, ",") != strings.Join(ids, ",") {
				t.Errorf("policy ids %v, finding ids %v", got.IDs, ids)
			}
		})
	}
	t.Run("the checker rejects a broken policy", func(t *testing.T) {
		pol := filepath.Join(dir, "broken.cedar")
		mustWrite(t, pol, "forbid (principal == Agent::\"a\", action, resource) when { context.previous_tools.containsAny([\"x\") };\n")
		sf := filepath.Join(dir, "none.json")
		mustWrite(t, sf, "[]")
		if err := exec.Command(node, filepath.Join(checker, "check.mjs"), pol, schema, sf).Run(); err == nil {
			t.Fatal("a policy with a syntax error passed")
		}
	})
}

// cedarScenarios are the requests a finding's policy must decide: the
// final call of its sequence is denied, unless approved, and allowed
// before the earlier tools ran.
func cedarScenarios(f *policy.Finding) []map[string]any {
	sink := f.Sink
	var prev []string
	if len(f.Chain) > 0 {
		prev = f.Chain[:len(f.Chain)-1]
	}
	if f.Source != "" && !slices.Contains(prev, f.Source) {
		prev = append(prev, f.Source) // a tool that is its own source
	}
	req := func(prev []string, approved bool, expect string) map[string]any {
		if prev == nil {
			prev = []string{}
		}
		return map[string]any{"agent": f.Agent, "tool": sink, "previous_tools": prev, "human_approved": approved, "expect": expect}
	}
	return []map[string]any{req(prev, false, "deny"), req(prev, true, "allow"), req(nil, false, "allow")}
}

// TestCedarSkipsTextFindings: a tool-poisoning finding is about text, not
// a tool call: it gets no forbid policy (one on Tool::"" would be wrong).
func TestCedarSkipsTextFindings(t *testing.T) {
	pol := filepath.Join(t.TempDir(), "p.cedar")
	_, errs, code := run(t, "../../testdata/poisoning/pos-poisoned-server", "--fail-on", "none", "--cedar", pol)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(pol)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "@id(") || strings.Contains(string(b), `Tool::""`) {
		t.Errorf("a text finding became a policy:\n%s", b)
	}
}
