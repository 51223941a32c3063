package pyrun_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acg-dev/acg/internal/pyrun"
)

// TestNetworkGuard: with NoNetwork, a fixture that connects at import is
// stopped by the guard (sitecustomize on PYTHONPATH), even to loopback;
// the listener sees no connection.
func TestNetworkGuard(t *testing.T) {
	env, err := pyrun.FromEnvironment()
	if err != nil {
		t.Skip(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	root := t.TempDir()
	port := ln.Addr().(*net.TCPAddr).Port
	src := fmt.Sprintf("import socket\nsocket.create_connection((\"127.0.0.1\", %d), timeout=5).close()\n", port)
	if err := os.WriteFile(filepath.Join(root, "probe.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := env.CheckFixtures(ctx, root, []string{"probe.py"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != "fail" || !strings.Contains(res[0].Detail, "NetworkBlocked") {
		t.Errorf("probe: %s %s; want blocked by the guard", res[0].Status, res[0].Detail)
	}
	select {
	case <-accepted:
		t.Error("the listener accepted a connection")
	case <-time.After(200 * time.Millisecond):
	}
}

// TestFixtureCheckCatchesWrongAPI: calls into a framework that name an
// attribute it lacks, or pass a keyword its signature refuses, fail the
// check even inside a function body that the import never runs; an import
// of a name the framework does not export fails the import.
func TestFixtureCheckCatchesWrongAPI(t *testing.T) {
	env, err := pyrun.FromEnvironment()
	if err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	files := map[string]string{
		"kwarg.py":   "from langgraph.types import interrupt\n\n\ndef tool(x):\n    return interrupt(valu=x)\n",
		"attr.py":    "from langgraph.types import Command\n\n\ndef node(state):\n    return Command.goto_later('x')\n",
		"import.py":  "from langchain.agents import initialize_agent\n",
		"correct.py": "from langgraph.types import interrupt\n\n\ndef tool(x):\n    return interrupt(value=x)\n",
	}
	var names []string
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := env.CheckFixtures(ctx, root, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"kwarg.py": "rejects this call", "attr.py": "has no attribute 'goto_later'", "import.py": "cannot import name 'initialize_agent'", "correct.py": ""}
	for _, r := range res {
		if w := want[r.File]; w == "" && r.Status != "ok" || w != "" && (r.Status != "fail" || !strings.Contains(r.Detail, w)) {
			t.Errorf("%s: %s %q; want %q", r.File, r.Status, r.Detail, w)
		}
	}
}
