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
