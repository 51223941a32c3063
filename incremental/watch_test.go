package incremental_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/acg-dev/acg/incremental"
)

// TestWatcherReportsChanges writes, creates (in a new directory), and
// removes files, and waits for each to be reported.
func TestWatcherReportsChanges(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []string, 16)
	w, err := incremental.Watch(root, func(rels []string) { got <- rels }, func(m string) { t.Log(m) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	expect := func(what string, want string, act func()) {
		t.Helper()
		act()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case rels := <-got:
				if slices.Contains(rels, "notes.txt") {
					t.Fatalf("%s: a file no extractor reads was reported", what)
				}
				if slices.Contains(rels, want) {
					return
				}
			case <-deadline:
				t.Fatalf("%s: %s was not reported", what, want)
			}
		}
	}
	expect("write", "a.py", func() { _ = os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 2\n"), 0o644) })
	expect("new directory", "pkg/b.py", func() {
		// The file may exist before the new directory is watched: the
		// watcher lists what it finds when it adds the directory.
		_ = os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
		_ = os.WriteFile(filepath.Join(root, "pkg", "b.py"), []byte("y = 1\n"), 0o644)
	})
	expect("write in new directory", "pkg/b.py", func() {
		time.Sleep(100 * time.Millisecond)
		_ = os.WriteFile(filepath.Join(root, "pkg", "b.py"), []byte("y = 2\n"), 0o644)
	})
	expect("remove", "a.py", func() { _ = os.Remove(filepath.Join(root, "a.py")) })
	expect("ignored kinds", "a.py", func() {
		_ = os.WriteFile(filepath.Join(root, "notes.txt"), []byte("not code"), 0o644)
		_ = os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 3\n"), 0o644)
	})
}

// TestWatcherLinkedRoot: a root that is a link (the user's choice) is
// watched as the directory it names.
func TestWatcherLinkedRoot(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "root")
	if err := os.Symlink(dir, root); err != nil {
		t.Skip(err)
	}
	got := make(chan []string, 16)
	w, err := incremental.Watch(root, func(rels []string) { got <- rels }, func(m string) { t.Log(m) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := os.WriteFile(filepath.Join(dir, "pkg", "b.py"), []byte("y = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case rels := <-got:
			if slices.Contains(rels, "pkg/b.py") {
				return
			}
		case <-deadline:
			t.Fatal("pkg/b.py was not reported")
		}
	}
}
