package provers

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestConfine: extra rule files named by a repository's config resolve
// inside the scan root, or are refused with a reason that does not quote
// the path.
func TestConfine(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	mk := func(dir, rel string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("rules: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk(root, "rules/a.yaml")
	mk(root, "rules/dir/b.yaml")
	mk(outside, "secret.yaml")
	mk(outside, "dir/c.yaml")
	links := runtime.GOOS != "windows"
	if links {
		for link, target := range map[string]string{
			"rules/out.yaml":      filepath.Join(outside, "secret.yaml"),
			"rules/outdir":        filepath.Join(outside, "dir"),
			"rules/in.yaml":       "a.yaml",
			"rules/up.yaml":       "../../" + filepath.Base(outside) + "/secret.yaml",
			"linked/dir/out.yaml": filepath.Join(outside, "secret.yaml"),
		} {
			p := filepath.Join(root, filepath.FromSlash(link))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		rel  string
		want string // the resolved path under the root, or "!" and the error's text
		link bool
	}{
		{"rules/a.yaml", "rules/a.yaml", false},
		{"./rules//a.yaml", "rules/a.yaml", false},
		{"rules/dir", "rules/dir", false},
		{"rules/dir/../a.yaml", "rules/a.yaml", false},
		{filepath.Join(outside, "secret.yaml"), "!an absolute path", false},
		{"/etc/passwd", "!an absolute path", false},
		{"../" + filepath.Base(outside) + "/secret.yaml", "!leaves the scanned root", false},
		{"rules/../../x.yaml", "!leaves the scanned root", false},
		{"..", "!leaves the scanned root", false},
		{"", "!empty", false},
		{"rules/none.yaml", "!not found in the scanned root", false},
		{"rules/in.yaml", "rules/a.yaml", true},
		{"rules/out.yaml", "!a symbolic link out of the scanned root", true},
		{"rules/up.yaml", "!a symbolic link out of the scanned root", true},
		{"rules/outdir", "!a symbolic link out of the scanned root", true},
		{"rules/outdir/c.yaml", "!a symbolic link out of the scanned root", true},
		// A directory is read whole: a link inside it must not leave either.
		{"linked", "!holds a symbolic link out of the scanned root", true},
		{"rules", "!holds a symbolic link out of the scanned root", true},
	}
	for _, c := range cases {
		if c.link && !links {
			continue
		}
		got, err := confine(root, c.rel)
		if strings.HasPrefix(c.want, "!") {
			if err == nil {
				t.Errorf("%q: accepted as %q", c.rel, got)
			} else if !strings.Contains(err.Error(), c.want[1:]) {
				t.Errorf("%q: %v, want %q", c.rel, err, c.want[1:])
			} else if c.rel != "" && strings.Contains(err.Error(), c.rel) {
				t.Errorf("%q: the error quotes the path: %v", c.rel, err)
			}
			continue
		}
		if want := filepath.Join(real, filepath.FromSlash(c.want)); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", c.rel, got, err, want)
		}
	}
}
