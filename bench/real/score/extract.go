package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// extractTree writes the files of commit under paths from the bare repository gitDir
// into dir. Mirrors may lack their largest blobs; those are skipped and counted, never
// fatal. Symbolic links and submodules are not written: the scan must see only the
// repository's own regular files.
func extractTree(gitDir, commit string, paths []string, dir string) (missing int, err error) {
	if out, err := exec.Command("git", "--git-dir", gitDir, "cat-file", "-e", commit+"^{commit}").CombinedOutput(); err != nil {
		return 0, fmt.Errorf("commit %s not in %s: %v %s", commit, gitDir, err, bytes.TrimSpace(out))
	}
	args := []string{"--git-dir", gitDir, "ls-tree", "-r", "-z", commit, "--"}
	args = append(args, paths...)
	list, err := exec.Command("git", args...).Output()
	if err != nil {
		return 0, fmt.Errorf("ls-tree %s: %w", commit, err)
	}
	type entry struct{ sha, path string }
	var entries []entry
	for _, rec := range bytes.Split(list, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 || f[1] != "blob" || f[0] == "120000" {
			continue
		}
		entries = append(entries, entry{f[2], string(path)})
	}
	if len(entries) == 0 {
		return 0, fmt.Errorf("no files under %v at %s", paths, commit)
	}

	cmd := exec.Command("git", "--git-dir", gitDir, "cat-file", "--batch")
	var in bytes.Buffer
	for _, e := range entries {
		in.WriteString(e.sha + "\n")
	}
	cmd.Stdin = &in
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	r := bufio.NewReader(stdout)
	for _, e := range entries {
		header, err := r.ReadString('\n')
		if err != nil {
			_ = cmd.Wait()
			return missing, fmt.Errorf("cat-file: %w", err)
		}
		f := strings.Fields(header)
		if len(f) == 2 && f[1] == "missing" {
			missing++
			continue
		}
		if len(f) != 3 {
			_ = cmd.Wait()
			return missing, fmt.Errorf("cat-file: unexpected header %q", header)
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			_ = cmd.Wait()
			return missing, fmt.Errorf("cat-file: header %q: %w", header, err)
		}
		rel := filepath.FromSlash(e.path)
		if !filepath.IsLocal(rel) {
			_ = cmd.Wait()
			return missing, fmt.Errorf("path %q leaves the tree", e.path)
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			_ = cmd.Wait()
			return missing, err
		}
		out, err := os.Create(dst)
		if err != nil {
			_ = cmd.Wait()
			return missing, err
		}
		_, cerr := io.CopyN(out, r, size)
		if err := out.Close(); cerr == nil {
			cerr = err
		}
		if cerr != nil {
			_ = cmd.Wait()
			return missing, fmt.Errorf("write %s: %w", e.path, cerr)
		}
		if _, err := r.ReadByte(); err != nil { // the newline after each object
			_ = cmd.Wait()
			return missing, fmt.Errorf("cat-file: %w", err)
		}
	}
	return missing, cmd.Wait()
}
