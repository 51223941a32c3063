package demo

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// MailServer is a stand-in IMAP server on 127.0.0.1, over TLS (the inbox
// tools use imaplib.IMAP4_SSL) with a throwaway self-signed certificate.
// It speaks the part of IMAP4rev1 the tools use: CAPABILITY, LOGIN,
// SELECT, SEARCH ALL, FETCH n (RFC822), LOGOUT; every login is accepted.
type MailServer struct {
	Addr     string   // host:port
	Messages [][]byte // RFC 822 messages, oldest first

	ln   net.Listener
	wg   sync.WaitGroup
	mu   sync.Mutex
	seen int // FETCH commands answered
}

// StartMailServer listens on a free loopback port.
func StartMailServer(messages [][]byte) (*MailServer, error) {
	cert, err := selfSigned()
	if err != nil {
		return nil, err
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	if err != nil {
		return nil, fmt.Errorf("mail stand-in: %w", err)
	}
	s := &MailServer{Addr: ln.Addr().String(), Messages: messages, ln: ln}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// Fetched is how many messages the server has handed out.
func (s *MailServer) Fetched() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen
}

// Close stops the server and waits for its connections.
func (s *MailServer) Close() {
	_ = s.ln.Close()
	s.wg.Wait()
}

func (s *MailServer) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(time.Minute))
			s.session(c)
		}()
	}
}

func (s *MailServer) session(c net.Conn) {
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	say := func(format string, a ...any) { fmt.Fprintf(w, format+"\r\n", a...) }
	say("* OK [CAPABILITY IMAP4rev1] acg mail stand-in ready")
	_ = w.Flush()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) < 2 {
			return
		}
		tag, cmd := f[0], strings.ToUpper(f[1])
		switch cmd {
		case "CAPABILITY":
			say("* CAPABILITY IMAP4rev1")
		case "LOGIN":
		case "SELECT", "EXAMINE":
			say("* %d EXISTS", len(s.Messages))
			say("* 0 RECENT")
			say("* FLAGS (\\Seen)")
		case "SEARCH":
			ids := make([]string, len(s.Messages))
			for i := range ids {
				ids[i] = fmt.Sprint(i + 1)
			}
			say("* SEARCH %s", strings.Join(ids, " "))
		case "FETCH":
			var n int
			if len(f) < 3 || func() bool { _, err := fmt.Sscan(f[2], &n); return err != nil }() || n < 1 || n > len(s.Messages) {
				say("%s BAD no such message", tag)
				_ = w.Flush()
				continue
			}
			m := s.Messages[n-1]
			fmt.Fprintf(w, "* %d FETCH (RFC822 {%d}\r\n", n, len(m))
			_, _ = w.Write(m)
			say(")")
			s.mu.Lock()
			s.seen++
			s.mu.Unlock()
		case "LOGOUT":
			say("* BYE")
			say("%s OK LOGOUT completed", tag)
			_ = w.Flush()
			return
		case "NOOP", "CLOSE":
		default:
			say("%s BAD unknown command", tag)
			_ = w.Flush()
			continue
		}
		say("%s OK %s completed", tag, cmd)
		if err := w.Flush(); err != nil {
			return
		}
	}
}

func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "acg mail stand-in"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

// Canary is the attacker's webhook: an HTTP server on 127.0.0.1 that
// records every request body it receives.
type Canary struct {
	URL string // where to POST, e.g. http://127.0.0.1:PORT/collect

	srv *http.Server
	ln  net.Listener
	mu  sync.Mutex
	got []string
}

// StartCanary listens on a free loopback port.
func StartCanary() (*Canary, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("canary: %w", err)
	}
	c := &Canary{URL: "http://" + ln.Addr().String() + "/collect", ln: ln}
	c.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		c.mu.Lock()
		c.got = append(c.got, string(b))
		c.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	go func() { _ = c.srv.Serve(ln) }()
	return c, nil
}

// Received are the bodies posted so far.
func (c *Canary) Received() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

// Reset forgets what was received.
func (c *Canary) Reset() {
	c.mu.Lock()
	c.got = nil
	c.mu.Unlock()
}

// Close stops the server.
func (c *Canary) Close() { _ = c.srv.Close() }
