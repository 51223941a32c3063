package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// AssumedLabel is a label acg gave a tool only by the fail-closed default,
// and why nothing settled it.
type AssumedLabel struct {
	Label string
	Why   string
}

// InsertEdit inserts Text at byte Offset of a file; the reason goes at
// byte ReasonOffset of Text (the placeholder stands there).
type InsertEdit struct {
	Offset       int
	Text         string
	ReasonOffset int
}

// ToolEntryEdit computes the edit that adds a tools: entry for a tool to a
// config file's text (nil or empty for a file that does not exist yet).
// The entry is in the list form, which declares the whole set: the labels
// acg proved are listed, each assumed one is a comment line naming the
// label and why it was assumed, so that leaving it commented declares it
// absent and uncommenting keeps it. The reason is the placeholder, which
// the parser rejects until a person replaces it. The entry goes first in
// an existing block list, else a tools: key is added at the end.
func ToolEntryEdit(src []byte, tool, name string, proven []string, assumed []AssumedLabel) (InsertEdit, error) {
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	entry := func(indent string) (string, int) {
		var b strings.Builder
		b.WriteString(indent + "- tool: " + strconv.Quote(tool))
		if name != "" && name != tool {
			b.WriteString("  # " + oneLine(name))
		}
		b.WriteString(nl + indent + "  effects:" + nl)
		for _, l := range proven {
			b.WriteString(indent + "    - " + l + nl)
		}
		for _, a := range assumed {
			b.WriteString(indent + "    # - " + a.Label + "  # assumed (fail-closed default)")
			if a.Why != "" {
				b.WriteString(": " + oneLine(a.Why))
			}
			b.WriteString(nl)
		}
		b.WriteString(indent + "  reason: ")
		at := b.Len()
		b.WriteString(ReasonPlaceholder + nl)
		return b.String(), at
	}
	appendTools := func() (InsertEdit, error) {
		head := ""
		if len(src) > 0 && !bytes.HasSuffix(src, []byte("\n")) {
			head = nl
		}
		head += "tools:" + nl
		text, at := entry("  ")
		return InsertEdit{Offset: len(src), Text: head + text, ReasonOffset: len(head) + at}, nil
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(src)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return appendTools()
		}
		return InsertEdit{}, fmt.Errorf("%s does not parse: %w", FileName, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return appendTools() // only comments
	}
	if root.Kind != yaml.MappingNode {
		return InsertEdit{}, fmt.Errorf("%s is not a mapping of keys", FileName)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "tools" {
			continue
		}
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
			// `tools:` with nothing under it: the entry goes on the next line.
			off := lineStart(src, k.Line+1)
			text, at := entry(strings.Repeat(" ", k.Column-1+2))
			if off == len(src) && len(src) > 0 && !bytes.HasSuffix(src, []byte("\n")) {
				return InsertEdit{Offset: off, Text: nl + text, ReasonOffset: len(nl) + at}, nil
			}
			return InsertEdit{Offset: off, Text: text, ReasonOffset: at}, nil
		case v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0:
			first := v.Content[0]
			// The dash of the first item stands two columns before it.
			indent := max(first.Column-1-2, 0)
			text, at := entry(strings.Repeat(" ", indent))
			return InsertEdit{Offset: lineStart(src, first.Line), Text: text, ReasonOffset: at}, nil
		}
		return InsertEdit{}, fmt.Errorf("%s:%d: tools is not a block list: add the entry by hand", FileName, k.Line)
	}
	return appendTools()
}

// lineStart is the byte offset where 1-based line n starts (len(src) past
// the end).
func lineStart(src []byte, n int) int {
	off := 0
	for l := 1; l < n; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off
}

// oneLine keeps a comment on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
