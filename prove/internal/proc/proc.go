// Package proc runs the external provers: an argument list (never a shell),
// in a directory, with a deadline, killed with its whole process group when
// the context ends; and the files they read (rules, packs) written out of
// the binary.
package proc

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// maxStderr bounds what is kept of a tool's stderr for error messages.
const maxStderr = 4 << 10

// Run runs bin with args in dir and returns its stdout. A non-zero exit is
// an error carrying the tail of stderr, unless okExit accepts the code (a
// tool that exits 1 when it finds something). When ctx ends first, the
// process group is killed and ctx's error is returned.
func Run(ctx context.Context, dir string, timeout time.Duration, okExit func(int) bool, bin string, args ...string) ([]byte, error) {
	return RunEnv(ctx, dir, timeout, okExit, nil, bin, args...)
}

// RunEnv is Run with env added to acg's own environment (later entries
// win): Semgrep is told never to phone home this way.
func RunEnv(ctx context.Context, dir string, timeout time.Duration, okExit func(int) bool, env []string, bin string, args ...string) ([]byte, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout bytes.Buffer
	stderr := &tail{max: maxStderr}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	setGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s %s: %w", bin, first(args), ctx.Err())
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && okExit != nil && okExit(ee.ExitCode()) {
			return stdout.Bytes(), nil
		}
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			return nil, fmt.Errorf("%s %s: %w: %s", bin, first(args), err, msg)
		}
		return nil, fmt.Errorf("%s %s: %w", bin, first(args), err)
	}
	return stdout.Bytes(), nil
}

func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// tail keeps the last max bytes written.
type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.buf) }

// Materialize writes an embedded directory to <user cache>/acg/<name>-<hash>
// (a temporary directory when there is no cache dir) and returns its path.
// Tools need files on disk; the hash keeps versions apart.
func Materialize(fsys embed.FS, dir, name string) (string, error) {
	h := sha256.New()
	var files []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fsys.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, p)
		h.Write([]byte(p))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("bundled %s: %w", name, err)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	out := filepath.Join(base, "acg", name+"-"+hex.EncodeToString(h.Sum(nil))[:12])
	for _, p := range files {
		data, _ := fsys.ReadFile(p)
		rel, _ := filepath.Rel(dir, filepath.FromSlash(p))
		dst := filepath.Join(out, rel)
		if old, err := os.ReadFile(dst); err == nil && string(old) == string(data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", fmt.Errorf("bundled %s: %w", name, err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", fmt.Errorf("bundled %s: %w", name, err)
		}
	}
	return out, nil
}
