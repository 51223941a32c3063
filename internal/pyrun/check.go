package pyrun

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
)

// FileResult is the fixture check's verdict on one file.
type FileResult struct {
	File    string   `json:"file"`
	Status  string   `json:"status"` // ok, skip (a framework it imports is not in this environment), fail
	Detail  string   `json:"detail"`
	Stubbed []string `json:"stubbed"` // modules neither a framework nor installed, replaced by stubs
}

// CheckFixtures compiles and imports each file (paths relative to root)
// under the environment's frameworks, with no network, and checks every
// framework call it makes against the framework's signature
// (py/fixturecheck.py).
// Of the files in importsOnly (scripts whose body must not run here: a
// hook that reads its event from stdin, a module that starts an MCP server
// at import) only the imports run, and their framework calls are checked.
func (e Env) CheckFixtures(ctx context.Context, root string, files, importsOnly []string) ([]FileResult, error) {
	req, err := json.Marshal(map[string]any{"root": root, "files": files, "imports_only": importsOnly})
	if err != nil {
		return nil, err
	}
	home, err := os.MkdirTemp("", "acg-fixture-home-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	out, err := e.Run(ctx, "fixturecheck.py", req, NoNetwork, home)
	if err != nil {
		return nil, err
	}
	var res []FileResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r FileResult
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("fixture check output %q: %w", line, err)
		}
		res = append(res, r)
	}
	if len(res) != len(files) {
		return res, fmt.Errorf("fixture check answered for %d of %d files", len(res), len(files))
	}
	return res, nil
}
