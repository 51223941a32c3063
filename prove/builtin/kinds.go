package builtin

import (
	"strings"

	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
)

// sourceKind says whether a call's result is a source, from its rule kind
// (effects/rules.yaml).
func sourceKind(c *extract.Call, kind string) string {
	switch kind {
	case "http_read", "http_send", "agent_send", "http_method", "http_client", "http_fetch", "http_config", "http_delete", "email_read", "message_read", "shared_read", "page_read",
		"socket_recv", "vector_read", "browser":
		return prove.SourceUntrusted
	case "llm":
		if asksModel(c) {
			return prove.SourceLLM
		}
	}
	return ""
}

// sinkKind says what reaching an argument of a call means.
func sinkKind(c *extract.Call, kind, name string) string {
	switch kind {
	case "http_send", "agent_send", "http_read", "http_method", "http_client", "http_fetch", "http_config", "http_delete", "browser", "email_send", "message_send",
		"socket_send", "cloud_send", "git_push", "remote_write", "payment":
		return prove.SinkEgress
	case "exec", "eval":
		return prove.SinkExec
	case "file_write", "file_delete", "db_exec", "db_write", "cloud_write", "vector_write", "memory_write", "remote_delete":
		return prove.SinkWrite
	case "file_open":
		if opensForWrite(c) {
			return prove.SinkWrite
		}
	case "llm":
		if asksModel(c) {
			return prove.SinkPrompt
		}
	}
	return ""
}

// sinkArgs returns the arguments through which data reaches a sink, as
// effects decides it: a read sends data out only through a URL whose host
// is not fixed (a search API's query parameters are not egress), a SELECT
// writes nothing; other sinks take every argument.
func sinkArgs(c *extract.Call, kind string) []extract.Arg {
	switch kind {
	case "http_method":
		if a := c.ArgAt(0, "method"); a != nil && a.Lit != nil {
			switch strings.ToUpper(*a.Lit) {
			case "GET", "HEAD", "OPTIONS":
				return urlArg(c, 1)
			}
		}
	case "http_fetch", "http_config":
		// fetch(url) and axios(config) without a method read: only the URL
		// (the options object for axios) carries data out.
		if m, ok := effects.RequestMethod(c, kind); ok && (m == "GET" || m == "HEAD" || m == "OPTIONS") {
			return urlArg(c, 0)
		}
	case "http_client":
		if c.ArgAt(1, "data") == nil && c.ArgAt(-1, "json") == nil {
			return urlArg(c, 0)
		}
	case "http_read", "browser":
		return urlArg(c, 0)
	case "db_exec":
		// A literal read-only statement writes nothing, whatever its bound
		// parameters carry; other SQL (and SQL the caller writes) may.
		if verb, _ := effects.SQLStatement(c); effects.ReadOnlySQL(verb) {
			return nil
		}
	}
	return c.Args
}

// urlArg is the URL argument at pos (effects.URLArg) when its host is not
// fixed in the source.
func urlArg(c *extract.Call, pos int) []extract.Arg {
	a := effects.URLArg(c, pos)
	if a == nil || effects.FixedHost(a.Prefix) {
		return nil
	}
	return []extract.Arg{*a}
}

// asksModel tells a model call (invoke, create, Runner.run) from building
// a client or a chat model object.
func asksModel(c *extract.Call) bool {
	m := c.Method()
	if m == "" || (m[0] >= 'A' && m[0] <= 'Z') {
		return false
	}
	switch m {
	case "bind_tools", "with_structured_output", "init_chat_model":
		return false
	}
	return !strings.HasPrefix(m, "embed") // embeddings are vectors, not text a model wrote
}

// opensForWrite reads open()'s mode: unknown modes may write.
func opensForWrite(c *extract.Call) bool {
	a := c.ArgAt(1, "mode")
	if a == nil {
		return false
	}
	if a.Lit == nil {
		return true
	}
	return strings.ContainsAny(*a.Lit, "wax+")
}

func sourceMessage(kind, call, what string) string {
	if what != "" && !strings.HasPrefix(call, what) {
		call += " (" + what + ")"
	}
	switch kind {
	case prove.SourceUntrusted:
		return "untrusted source: " + call + " returns content a third party can write"
	case prove.SourceLLM:
		return "model output: " + call + " returns text the model wrote"
	}
	return call
}

func sinkMessage(kind, name string) string {
	switch kind {
	case prove.SinkEgress:
		return "sink: " + name + " sends the data out"
	case prove.SinkExec:
		return "sink: " + name + " runs it as code or a command"
	case prove.SinkWrite:
		return "sink: " + name + " writes it to persistent state"
	case prove.SinkPrompt:
		return "sink: " + name + " puts it into a model prompt"
	}
	return "sink: " + name
}
