package lsp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// The base protocol frames each message as a header block (Content-Length,
// maybe Content-Type, each line ended by \r\n, then an empty line) and a
// body of exactly Content-Length bytes. The client is not trusted to frame
// correctly: a framing error drops what cannot be framed, says so in the
// log, and reading resumes at the next Content-Length header, so that one
// bad message never ends the session nor leaves the server waiting for
// bytes that will not come.
//
// Resynchronising relies on one fact: a Content-Length header line (the
// field name, digits, then a raw line break) cannot occur inside a JSON
// body, whose strings hold no raw line breaks and whose other tokens hold no
// letters but those of true, false and null. So when a body fails to decode,
// or while we wait for bytes that a body claims, a header line inside it is
// the next frame, and the Content-Length before it was wrong.

// maxFrameBytes is the largest body accepted: 64 MiB. Editors send whole
// documents (didOpen, full-text changes), and a document must still be read
// to be skipped with a notice when it is over the size acg analyses
// (incremental.MaxFileSize, 2 MiB); JSON escaping can grow a text several
// times. 64 MiB admits documents tens of megabytes long, while a broken or
// hostile Content-Length can make us neither allocate nor wait for a
// gigabyte. A longer message is skipped as it streams by, never held.
const maxFrameBytes = 64 << 20

// maxHeaderBytes bounds a header block: clients send one or two short
// fields. More without the empty line is not a header.
const maxHeaderBytes = 4 << 10

// minRead is how much room a read gets.
const minRead = 64 << 10

// contentLength is the header field that starts a frame, lower case (field
// names compare without case).
const contentLength = "content-length:"

// frame is what frameReader.next returns: a body, or bytes dropped.
type frame struct {
	body []byte // valid until the next call to next
	size int64  // bytes of the frame on the wire, header included
	// dropped, when set, says why the framing was wrong; body is then what
	// the frame held as far as it could be told (an id may be read from it
	// to answer the request), never a message to act on.
	dropped string
}

// frameReader reads frames from a client's byte stream.
type frameReader struct {
	r   io.Reader
	log func(string)
	buf []byte // unread input is buf[off:]
	off int
	err error // the read error that ended the input, once seen
	// The frame returned last, consumed on the next call (reject may
	// shorten it): its header length and its length in all.
	lastHeader, lastLen int
}

func newFrameReader(r io.Reader, log func(string)) *frameReader {
	return &frameReader{r: r, log: log}
}

// next returns the next frame. Its error is the input's: io.EOF at the end
// of the input, also when the input ends inside a frame (which is dropped,
// and logged).
func (fr *frameReader) next() (frame, error) {
	fr.off += fr.lastLen
	fr.lastHeader, fr.lastLen = 0, 0
	for {
		// Line breaks between frames are not an error (some clients end a
		// body with one).
		for fr.off < len(fr.buf) && isSpace(fr.buf[fr.off]) {
			fr.off++
		}
		hlen, length, problem := parseHeader(fr.buf[fr.off:])
		switch {
		case problem != "":
			fr.log("dropped input: " + problem + "; reading on at the next Content-Length header")
			if err := fr.resync(); err != nil {
				return frame{}, err
			}
			continue
		case hlen == 0:
			if err := fr.fill(); err != nil {
				return frame{}, err
			}
			continue
		}
		// Wait for the body, and meanwhile watch it for the next header: a
		// Content-Length that claims more than was sent must not leave us
		// waiting while the client waits for our answer.
		scanned := 0
		for len(fr.buf)-fr.off < hlen+length {
			body := fr.buf[fr.off+hlen:]
			i, resume := headerLine(body, scanned)
			if i >= 0 {
				fr.lastHeader, fr.lastLen = hlen, hlen+i
				return frame{body: body[:i], size: int64(hlen + i),
					dropped: fmt.Sprintf("a message claimed %d bytes, but the next header came after %d", length, i)}, nil
			}
			scanned = resume
			if err := fr.fill(); err != nil {
				return frame{}, err
			}
		}
		fr.lastHeader, fr.lastLen = hlen, hlen+length
		return frame{body: fr.buf[fr.off+hlen : fr.off+hlen+length], size: int64(hlen + length)}, nil
	}
}

// reject says the body next returned last is not a message. When a header
// starts inside it (or the body ends with the start of one), the
// Content-Length was wrong: the frame ends there and the next one is read
// from there. It returns the body as shortened.
func (fr *frameReader) reject() []byte {
	body := fr.buf[fr.off+fr.lastHeader : fr.off+fr.lastLen]
	i := indexFold(body, contentLength)
	if i < 0 {
		i = len(body) - prefixTail(body, contentLength)
	}
	fr.lastLen = fr.lastHeader + i
	return body[:i]
}

// resync drops the frame that starts at off: at least one byte, then up to
// the next Content-Length header.
func (fr *frameReader) resync() error {
	fr.off++
	for {
		if i := indexFold(fr.buf[fr.off:], contentLength); i >= 0 {
			fr.off += i
			return nil
		}
		// Keep what may be the start of the header, drop the rest.
		fr.off = len(fr.buf) - prefixTail(fr.buf[fr.off:], contentLength)
		if err := fr.fill(); err != nil {
			return err
		}
	}
}

// fill reads more input. At the end of the input, unread bytes are a
// frame cut short: dropped, with a note in the log, and the input ends as
// it would between frames.
func (fr *frameReader) fill() error {
	if fr.err == nil {
		fr.compact()
		n, err := fr.r.Read(fr.buf[len(fr.buf):cap(fr.buf)])
		fr.buf = fr.buf[:len(fr.buf)+n]
		if err != nil {
			fr.err = err
		}
		if n > 0 || err == nil {
			return nil
		}
	}
	if errors.Is(fr.err, io.EOF) {
		if rest := bytes.TrimSpace(fr.buf[fr.off:]); len(rest) > 0 {
			fr.log(fmt.Sprintf("the input ended inside a message (%d bytes, truncated): dropped", len(rest)))
		}
		fr.off = len(fr.buf)
		return io.EOF
	}
	return fr.err
}

// compact moves the unread input to the front of the buffer and makes room
// for a read, giving back a large buffer once the large message is read.
func (fr *frameReader) compact() {
	unread := len(fr.buf) - fr.off
	if cap(fr.buf) > 4*minRead && unread < minRead {
		fr.buf = append(make([]byte, 0, 2*minRead), fr.buf[fr.off:]...)
		fr.off = 0
		return
	}
	if fr.off > 0 {
		n := copy(fr.buf, fr.buf[fr.off:])
		fr.buf, fr.off = fr.buf[:n], 0
	}
	if cap(fr.buf)-len(fr.buf) < minRead {
		fr.buf = append(make([]byte, 0, max(2*cap(fr.buf), len(fr.buf)+minRead)), fr.buf...)
	}
}

// parseHeader parses the header block at the start of b. It returns the
// block's length and the Content-Length; 0, 0 when b holds only part of a
// block; a problem when it is not a valid block.
func parseHeader(b []byte) (hlen, length int, problem string) {
	seen := false
	for pos := 0; ; {
		nl := bytes.IndexByte(b[pos:], '\n')
		if nl < 0 {
			if len(b) > maxHeaderBytes {
				return 0, 0, fmt.Sprintf("a header block longer than %d bytes", maxHeaderBytes)
			}
			return 0, 0, ""
		}
		line := b[pos : pos+nl]
		pos += nl + 1
		if pos > maxHeaderBytes {
			return 0, 0, fmt.Sprintf("a header block longer than %d bytes", maxHeaderBytes)
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if indexFold(line, contentLength) > 0 {
			// The start of another frame, after a header line cut short:
			// that frame is the one to read.
			return 0, 0, "a header line cut short by the next header"
		}
		if len(line) == 0 {
			if !seen {
				return 0, 0, "a header block without Content-Length"
			}
			return pos, length, ""
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || len(name) == 0 || !isToken(name) {
			return 0, 0, fmt.Sprintf("a header line that is not a field: %s", quoteShort(line))
		}
		if !bytes.EqualFold(name, []byte(contentLength[:len(contentLength)-1])) {
			continue // Content-Type and the like
		}
		n, problem := parseLength(bytes.Trim(value, " \t"))
		switch {
		case problem != "":
			return 0, 0, problem
		case seen && n != length:
			return 0, 0, "two different Content-Length headers"
		}
		length, seen = n, true
	}
}

// parseLength parses a Content-Length value: digits, from 1 up to
// maxFrameBytes.
func parseLength(v []byte) (int, string) {
	if len(v) == 0 {
		return 0, "an empty Content-Length"
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, fmt.Sprintf("Content-Length %s is not a number of bytes", quoteShort(v))
		}
		if n = n*10 + int(c-'0'); n > maxFrameBytes {
			return 0, fmt.Sprintf("Content-Length %s is over the limit of %d bytes", quoteShort(v), maxFrameBytes)
		}
	}
	if n == 0 {
		return 0, "Content-Length 0: no message"
	}
	return n, ""
}

// headerLine finds a complete Content-Length header line in b, looking from
// from on: its start, or -1 and where to look again once b has grown.
func headerLine(b []byte, from int) (at, resume int) {
	for {
		i := indexFold(b[from:], contentLength)
		if i < 0 {
			return -1, len(b) - prefixTail(b, contentLength)
		}
		start := from + i
		j := start + len(contentLength)
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		digits := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\r') && j > digits {
			j++
		}
		switch {
		case j == len(b):
			return -1, start // the line is not complete yet
		case j > digits && b[j] == '\n':
			return start, 0
		}
		from = start + 1
	}
}

// indexFold is bytes.Index comparing ASCII letters without case, for a
// needle that ends with a colon (a header field name): it looks for colons,
// which bytes.IndexByte finds fast, so that a large body is scanned at
// memory speed.
func indexFold(b []byte, needle string) int {
	name := []byte(needle[:len(needle)-1])
	for from := len(name); from < len(b); {
		i := bytes.IndexByte(b[from:], needle[len(needle)-1])
		if i < 0 {
			return -1
		}
		at := from + i - len(name)
		if bytes.EqualFold(b[at:at+len(name)], name) {
			return at
		}
		from += i + 1
	}
	return -1
}

// prefixTail is the length of the longest end of b that is a proper start
// of needle (ASCII case ignored): a header that may go on in the input to
// come.
func prefixTail(b []byte, needle string) int {
	for n := min(len(b), len(needle)-1); n > 0; n-- {
		if bytes.EqualFold(b[len(b)-n:], []byte(needle[:n])) {
			return n
		}
	}
	return 0
}

// isToken says whether a header field name is an RFC 9110 token.
func isToken(b []byte) bool {
	for _, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0:
		default:
			return false
		}
	}
	return true
}

func isSpace(c byte) bool { return c == '\r' || c == '\n' || c == ' ' || c == '\t' }

// quoteShort quotes bytes from the client for the log: escaped, and cut to
// a length that says enough.
func quoteShort(b []byte) string {
	const most = 32
	if len(b) > most {
		return fmt.Sprintf("%q…", b[:most])
	}
	return fmt.Sprintf("%q", b)
}
