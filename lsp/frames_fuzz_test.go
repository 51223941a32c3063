package lsp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// probeFrame is a valid request the fuzzer's garbage is followed by.
const probeBody = `{"jsonrpc":"2.0","id":424242,"method":"acg/probe","params":{}}`

var probeFrame = fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(probeBody), probeBody)

// pipeRWC is a connection that reads a fixed input and collects what is
// written.
type pipeRWC struct {
	io.Reader
	out bytes.Buffer
}

func (p *pipeRWC) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p *pipeRWC) Close() error                { return nil }

// readAll reads messages until the end of the input, within a time limit:
// the input is finite, so anything longer is a loop that does not consume.
func readAll(t *testing.T, in []byte) ([]jsonrpc2.Message, []byte) {
	t.Helper()
	conn := &pipeRWC{Reader: bytes.NewReader(in)}
	s := newStream(conn, func(string) {})
	done := make(chan struct{})
	var msgs []jsonrpc2.Message
	var rerr error
	go func() {
		defer close(done)
		for {
			m, _, err := s.Read(context.Background())
			if err != nil {
				rerr = err
				return
			}
			msgs = append(msgs, m)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("reading %d bytes did not end", len(in))
	}
	if !errors.Is(rerr, io.EOF) {
		t.Fatalf("the input ended with %v, want io.EOF", rerr)
	}
	return msgs, conn.out.Bytes()
}

// FuzzStream: whatever bytes come first, the frame reader never panics,
// never loops, ends at the end of the input, writes only well-framed error
// responses, and still decodes the valid frame that follows the garbage: a
// resynchronisation always finds it, because a Content-Length header line
// cannot hide inside a JSON body.
func FuzzStream(f *testing.F) {
	for _, seed := range []string{
		"", probeFrame, "Content-Length: abc\r\n\r\n{}", "Content-Length: -5\r\n\r\n", "Content-Length: 99999999999999999999999\r\n\r\n",
		"Content-Length: 104857600\r\n\r\n", "Content-Length: 5000\r\n\r\n{\"jsonrpc\":\"2.0\"", "Content-Length: 10\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}",
		"Content-Length: 0\r\n\r\n", "Content-Type: text/plain\r\n\r\n", "Content-Length: 5\r\nContent-Length: 6\r\n\r\n", "Content-Length 52\r\n\r\n",
		"Content-Length: 52\r\n", "\x00\x01\x1b[2J\r\n\r\n{]", "Content-Le", "Content-Length: 1\r\n\r\n", "Content-Length: 30\r\nX-A: ",
		"Content-Length: 3\r\n\r\n{}", "Content-Length: 16\r\n\r\n", "content-length: 2\n\n{}\r\n",
		"Content-Length: 27\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":\"x\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, garbage []byte) {
		in := append(append([]byte(nil), garbage...), probeFrame...)
		msgs, out := readAll(t, in)
		if len(msgs) == 0 {
			t.Fatalf("the probe after %q was not decoded", garbage)
		}
		req, ok := msgs[len(msgs)-1].(*jsonrpc2.Call)
		if !ok || req.Method() != "acg/probe" || req.ID() != jsonrpc2.NewNumberID(424242) {
			t.Fatalf("the last message after %q is %#v, not the probe", garbage, msgs[len(msgs)-1])
		}
		checkFramed(t, out)
	})
}

// checkFramed checks that what the stream wrote is well-framed JSON-RPC
// responses.
func checkFramed(t *testing.T, out []byte) {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF && line == "" {
			return
		}
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Length: ")
		n, aerr := strconv.Atoi(v)
		if !ok || aerr != nil {
			t.Fatalf("the server wrote the header line %q", line)
		}
		if blank, _ := r.ReadString('\n'); blank != "\r\n" {
			t.Fatalf("no empty line after the header: %q", blank)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("short body: %v", err)
		}
		if m, err := jsonrpc2.DecodeMessage(body); err != nil {
			t.Fatalf("the server wrote %q: %v", body, err)
		} else if _, isResp := m.(*jsonrpc2.Response); !isResp {
			t.Fatalf("the server wrote %q, not a response", body)
		}
	}
}

// TestFramesInARow: valid frames, with and without Content-Type, with line
// breaks between them, and long ones, all decode, in order.
func TestFramesInARow(t *testing.T) {
	var in bytes.Buffer
	big := strings.Repeat("é", 3<<20) // 6 MiB: more than one read, more than one buffer growth
	want := 0
	for i, body := range []string{
		probeBody,
		`{"jsonrpc":"2.0","method":"a","params":{"text":"` + big + `"}}`,
		`{"jsonrpc":"2.0","method":"b","params":{"s":"Content-Length: 5"}}`,
		`{"jsonrpc":"2.0","id":"s","method":"c"}`,
	} {
		if i%2 == 1 {
			fmt.Fprintf(&in, "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
		}
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(body), body)
		if i == 2 {
			in.WriteString("\r\n")
		}
		want++
	}
	msgs, out := readAll(t, in.Bytes())
	if len(msgs) != want || len(out) != 0 {
		t.Fatalf("%d messages and %q written, want %d and nothing", len(msgs), out, want)
	}
	if n := msgs[1].(*jsonrpc2.Notification); len(n.Params()) < len(big) {
		t.Errorf("the long message lost bytes: %d", len(n.Params()))
	}
}

// BenchmarkStream compares our frame reader with jsonrpc2's header stream
// on small messages (typing) and a 4 MiB didOpen.
func BenchmarkStream(b *testing.B) {
	for _, size := range []int{200, 4 << 20} {
		body := `{"jsonrpc":"2.0","method":"x","params":{"text":"` + strings.Repeat("a", size) + `"}}`
		var in bytes.Buffer
		for range 64 {
			fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(body), body)
		}
		for _, impl := range []string{"acg", "jsonrpc2"} {
			b.Run(fmt.Sprintf("%s/%d", impl, size), func(b *testing.B) {
				b.SetBytes(int64(in.Len()))
				for b.Loop() {
					conn := &pipeRWC{Reader: bytes.NewReader(in.Bytes())}
					var s jsonrpc2.Stream = newStream(conn, func(string) {})
					if impl == "jsonrpc2" {
						s = jsonrpc2.NewHeaderStream(conn)
					}
					for {
						if _, _, err := s.Read(context.Background()); err != nil {
							break
						}
					}
				}
			})
		}
	}
}
