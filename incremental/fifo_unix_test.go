//go:build unix

package incremental_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acg-dev/acg/incremental"
)

// TestFIFONotOpened: a named pipe with a config's name, reported by the
// watcher, is skipped without being opened (opening one for reading
// waits for a writer, forever).
func TestFIFONotOpened(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, ".mcp.json"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	w := incremental.NewWorkspace(root, nil)
	done := make(chan []incremental.Warning, 1)
	go func() {
		_, warns := w.Refresh([]string{".mcp.json"})
		done <- warns
	}()
	select {
	case warns := <-done:
		if len(warns) != 1 || !strings.Contains(warns[0].Message, "not a regular file") {
			t.Errorf("warnings = %v", warns)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Refresh is blocked opening a named pipe")
	}
	if _, _, err := incremental.ReadInRoot(root, ".mcp.json"); err != nil {
		t.Errorf("ReadInRoot: %v", err)
	}
	_ = os.Remove(filepath.Join(root, ".mcp.json")) // unblocks a stuck open
}
