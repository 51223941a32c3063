package demo

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestMailServerSpeaksIMAP: the stand-in answers the commands imaplib's
// IMAP4_SSL sends for the inbox tools (CAPABILITY, LOGIN, SELECT, SEARCH,
// FETCH RFC822) with the literal imaplib parses.
func TestMailServerSpeaksIMAP(t *testing.T) {
	msg := []byte("From: a@example.com\r\nSubject: hi\r\n\r\nbody\r\n")
	s, err := StartMailServer([][]byte{msg})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := tls.Dial("tcp", s.Addr, &tls.Config{InsecureSkipVerify: true}) // the stand-in's throwaway certificate
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	line := func() string {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		return l
	}
	if g := line(); !strings.HasPrefix(g, "* OK") {
		t.Fatalf("greeting %q", g)
	}
	for _, step := range []struct{ cmd, untagged string }{
		{"a1 CAPABILITY", "* CAPABILITY IMAP4rev1"},
		{`a2 LOGIN you "pw"`, ""},
		{"a3 SELECT INBOX", "* 1 EXISTS"},
		{"a4 SEARCH ALL", "* SEARCH 1"},
	} {
		fmt.Fprintf(c, "%s\r\n", step.cmd)
		tag := strings.Fields(step.cmd)[0]
		var got []string
		for l := line(); ; l = line() {
			got = append(got, strings.TrimSpace(l))
			if strings.HasPrefix(l, tag+" ") {
				break
			}
		}
		if !strings.HasPrefix(got[len(got)-1], tag+" OK") || step.untagged != "" && got[0] != step.untagged {
			t.Errorf("%s: %q", step.cmd, got)
		}
	}
	fmt.Fprintf(c, "a5 FETCH 1 (RFC822)\r\n")
	if h := line(); h != fmt.Sprintf("* 1 FETCH (RFC822 {%d}\r\n", len(msg)) {
		t.Fatalf("fetch header %q", h)
	}
	body := make([]byte, len(msg))
	if _, err := io.ReadFull(r, body); err != nil || string(body) != string(msg) {
		t.Fatalf("literal %q %v", body, err)
	}
	if l := line(); l != ")\r\n" {
		t.Errorf("after the literal %q", l)
	}
	if l := line(); !strings.HasPrefix(l, "a5 OK") {
		t.Errorf("fetch status %q", l)
	}
	if s.Fetched() != 1 {
		t.Errorf("fetched %d", s.Fetched())
	}
}

// TestCanaryRecords: the attacker's webhook keeps what is posted to it.
func TestCanaryRecords(t *testing.T) {
	c, err := StartCanary()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, err := http.Post(c.URL, "text/plain", strings.NewReader("notes"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := c.Received(); len(got) != 1 || got[0] != "notes" {
		t.Errorf("received %q", got)
	}
	c.Reset()
	if got := c.Received(); len(got) != 0 {
		t.Errorf("after reset %q", got)
	}
}

// TestLineDiff: the fix is shown as the inserted lines with one line of
// context, one hunk per change.
func TestLineDiff(t *testing.T) {
	got := lineDiff("a.py", "a\nb\nc\nd\ne\n", "a\nX\nb\nc\nd\nY\ne\n")
	want := "--- a.py\n+++ a.py (fixed)\n@@ line 1 @@\n a\n+X\n b\n@@ line 5 @@\n d\n+Y\n e\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
