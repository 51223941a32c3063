package version

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFrom(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}
	dirty := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}
	cases := []struct {
		name    string
		release string
		info    *debug.BuildInfo
		want    string
	}{
		{"no build info", "", nil, "dev"},
		{"go install @v", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: rev}, "v1.4.0"},
		{"pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260101000000-0123456789ab"}}, "v0.0.0-20260101000000-0123456789ab"},
		{"checkout build", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "dev-0123456789ab"},
		{"modified checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty}, "dev-0123456789ab-modified"},
		{"no vcs info", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"release wins", "v2.0.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v2.0.0"},
	}
	for _, c := range cases {
		if got := from(c.release, c.info); got != c.want {
			t.Errorf("%s: from = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestBuiltBinary builds the CLI the way a release does and checks that
// the linker flag reaches `acg version`.
func TestBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "acg")
	build := exec.Command("go", "build", "-o", bin, "-ldflags", "-X github.com/acg-dev/acg/internal/version.Release=v9.8.7", "github.com/acg-dev/acg/cmd/acg")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "acg v9.8.7" {
		t.Errorf("acg version = %q, want %q", got, "acg v9.8.7")
	}
}
