package poison

import (
	"regexp"
	"strings"
)

// The prose rules read one sentence at a time, with the sentence before
// it as context (a "Before using this tool," may open the instruction
// that follows). Each rule needs two or three independent signals in the
// same sentence or window, so that ordinary descriptions that mention
// "ignore", "password" or "send" stay quiet: a word alone is never enough.

var (
	// A sentence ends at . ! ? followed by space, a blank line, or a new
	// list item, heading or docstring section line.
	sentenceEnd = regexp.MustCompile(`[.!?]["')\]]*\s+|\n[ \t]*\n|\n(?:[ \t]*(?:[-*+>#]|\d+[.)])\s)|:\n`)

	overrideRe = regexp.MustCompile(`(?i)\b(ignore|disregard|forget|bypass)\b[^.\n]{0,30}?\b(previous|prior|above|earlier|preceding|all|any|other|your|the system|original)\b[^.\n]{0,25}?\b(instructions?|rules|guidelines|directions|prompts?|directives|guardrails|policies|restrictions)\b` +
		`|(?i)\bnew (system )?instructions\s*:|(?i)\byou are no longer bound\b`)

	concealRe = regexp.MustCompile(`(?i)\b(do not|don't|dont|never)\s+(tell|inform|notify|alert|warn)\s+(the |your )?user\b` +
		`|(?i)\bwithout\s+(telling|informing|notifying|alerting|letting|warning)\s+(the |your )?user\b` +
		`|(?i)\b(do not|don't|dont|never)\s+(mention|tell|reveal|disclose|say|explain)\s+(to the user\s+)?(that you|this (step|instruction|note|request|call|action|tool call|part)|these (steps|instructions|notes)|what you (did|do|are doing|have done)|anything about (this|these|it)|the (instruction|step|request)s?\b)` +
		`|(?i)\b(hide|conceal)\s+((this|that|these|the)( (call|request|step|action|instruction|tool call|message|email|upload)s?)?|it)\s+from\s+(the |your )?user` +
		`|(?i)\bkeep (this|these instructions|this step|this note) (secret|hidden|private|between us)\b` +
		`|(?i)\bthe user (must|should|need|needs to|will) (not|never) (know|see|notice|find out|be told|be informed|be aware)\b` +
		`|(?i)\bso (that )?the user (does not|doesn't|won't|will not|cannot|can't) (know|see|notice|find out)` +
		`|(?i)\b(silently|secretly|quietly|covertly|discreetly)\s+(send|forward|copy|upload|read|include|call|post|add|append|exfiltrate|email|bcc|attach|transmit)\b`)

	fileSecretRe    = regexp.MustCompile(`(?i)(~|\$home|%userprofile%)?/?\.ssh\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.docker/config\.json|\.kube/config|/etc/(passwd|shadow)\b|(^|[\s'"\x60(])\.env\b|\bmcp\.json\b|~/\.cursor\b|claude_desktop_config\.json|\.config/gcloud|\bkeychain\b|\bwallet\.dat\b|\.gnupg\b|~/\.[a-z]+`)
	genericSecretRe = regexp.MustCompile(`(?i)\b(api[ _-]?keys?|access[ _-]?tokens?|auth(entication)?[ _-]?tokens?|bearer tokens?|secret[ _-]?keys?|private[ _-]?keys?|secrets|credentials|passwords?|passphrases?|session (tokens?|cookies?)|cookies|seed phrases?|environment variables|env vars|os\.environ)\b`)
	readVerbRe      = regexp.MustCompile(`(?i)\b(read|cat|open|load|dump|collect|gather|extract|get|grab|fetch|retrieve|copy|print|output|list|include|attach|send|upload|pass|append|add|embed|exfiltrate|leak|reveal|share|forward|post)\b`)
	// strongReadRe are the verbs that take secrets for their own sake,
	// sentence-initial (an imperative), for the generic-secret case.
	strongReadRe = regexp.MustCompile(`(?i)^\W*(and |then |also |first,? |please |now,? )?(read|collect|gather|dump|extract|grab|exfiltrate|leak|harvest|steal)\b`)
	markerRe     = regexp.MustCompile(`(?i)before (using|calling|running|invoking|executing|you use|you call) (this|the|any)|\b(first|beforehand)\b|\byou (must|should|need to|have to|are required to|will need to)\b|\balways\b|<\s*important\s*>|\bimportant\s*:|\bthe (assistant|model|ai|agent|llm) (must|should|needs to)\b|\b(is|are) (required|mandatory|necessary)\b|\botherwise\b|\bdo not skip\b|\bmake sure (to|you)\b|\bbe sure to\b|\bremember to\b|\bfrom now on\b|\bas a (precaution|security check|verification step)\b`)
	smuggleRe    = regexp.MustCompile(`(?i)\b(pass|put|include|append|add|embed|encode|insert|place|send|attach)\s+(it|them|its (content|contents|value)s?|their (content|contents|value)s?|the (content|contents|value|values|text|output)( of (it|the file|that file|them|each|both))?)\s+(as|in|into|inside|to|within|via)\b`)

	outwardRe   = regexp.MustCompile(`(?i)\b(send|forward|post|upload|email|mail|transmit|report|bcc|cc|copy|sync|submit|exfiltrate|leak|append|include)\b`)
	destRe      = regexp.MustCompile(`(?i)[\w.+-]+@[\w-]+\.[\w.]+|https?://[^\s'"\x60)>]+`)
	exfilDataRe = regexp.MustCompile(`(?i)\b(the )?(whole |entire |full |complete )?(conversation|chat history|message history|previous messages|prior messages|system prompt|your instructions|context window|user'?s? (messages|data|files|input|query|queries|prompts?))\b|\b(secrets?|credentials|api[ _-]?keys?|tokens?|passwords?|environment variables|env vars)\b|~/|\.ssh\b|(^|\s)\.env\b`)

	otherToolRe = regexp.MustCompile(`(?i)\b[\x60'"]?[a-z][a-z0-9_.-]*[\x60'"]?\s+tools?\b|\bmcp__\w+|\b(other|all|every|any)\s+(other\s+)?tools\b`)
	thisToolRe  = regexp.MustCompile(`(?i)^(this|the|a|an|that|which|each|same|one|any|its)\s+tools?$`)
	shadowModal = regexp.MustCompile(`(?i)\b(must|should|always|instead|from now on|whenever|every time|regardless|has to|have to)\b`)
	redirectRe  = regexp.MustCompile(`(?i)\b(send|forward|redirect|reroute|bcc|cc|route|copy|add)\b`)
	rewriteRe   = regexp.MustCompile(`(?i)\b(redirect|reroute|change|replace|override|rewrite|swap)\s+(the\s+)?(recipients?|destination|url|endpoint|(to\s+)?address(es)?|arguments?|parameters?|target)\b|\b(has|have) an? (very )?(important )?(hidden )?side[- ]effects?\b`)
)

// sentence is a byte range of the text.
type sentence struct{ start, end int }

func sentences(text string, from, to int) []sentence {
	var out []sentence
	s := from
	for _, m := range sentenceEnd.FindAllStringIndex(text[from:to], -1) {
		e := from + m[1]
		out = append(out, sentence{s, from + m[0] + 1})
		s = e
	}
	if s < to {
		out = append(out, sentence{s, to})
	}
	return out
}

// prose applies the prose rules to text[from:to].
func prose(text string, from, to int) []Hit {
	var hits []Hit
	ss := sentences(text, from, to)
	for i, s := range ss {
		cur := text[s.start:min(s.end, to)]
		if strings.TrimSpace(cur) == "" {
			continue
		}
		win := cur
		if i > 0 {
			win = text[ss[i-1].start:min(s.end, to)]
		}
		if rule, why := judge(cur, win); rule != "" {
			st, en := trim(text, s.start, min(s.end, to))
			hits = append(hits, Hit{Start: st, End: en, Rule: rule, Why: why})
		}
	}
	return hits
}

// judge returns the rule a sentence breaks (win is it with the sentence
// before) and why, or "".
func judge(cur, win string) (string, string) {
	switch {
	case overrideRe.MatchString(cur):
		return Override, "text addressed to the model tells it to ignore its instructions"
	case concealRe.MatchString(cur):
		return Conceal, "text addressed to the model tells it to hide what it does from the user"
	}
	file := fileSecretRe.MatchString(cur)
	generic := genericSecretRe.MatchString(cur)
	marker := markerRe.MatchString(win)
	switch {
	case file && readVerbRe.MatchString(cur) && marker:
		return Secret, "text addressed to the model tells it to read a secret file (key, credentials or client config) as a precondition"
	case smuggleRe.MatchString(cur) && (fileSecretRe.MatchString(win) || genericSecretRe.MatchString(win) && marker):
		return Secret, "text addressed to the model tells it to put a secret into a tool argument"
	case generic && marker && strongReadRe.MatchString(stripMarker(cur)):
		return Secret, "text addressed to the model tells it to collect secrets"
	}
	if outwardRe.MatchString(cur) && destRe.MatchString(cur) && exfilDataRe.MatchString(cur) {
		return Exfil, "text addressed to the model tells it to send secrets or the conversation to a fixed address"
	}
	if otherTool(cur) {
		if rewriteRe.MatchString(cur) {
			return ToolShadowing, "text tells the model to change what another tool does"
		}
		if shadowModal.MatchString(cur) && redirectRe.MatchString(cur) && (destRe.MatchString(cur) || allQuant.MatchString(cur)) {
			return ToolShadowing, "text tells the model to redirect what another tool sends"
		}
	}
	return "", ""
}

var (
	allQuant     = regexp.MustCompile(`(?i)\ball (emails|messages|mail|data|files|requests|calls|output|results)\b`)
	leadMarkerRe = regexp.MustCompile(`(?i)^\W*(<\s*important\s*>\s*)?(important\s*:\s*)?(before (using|calling|running|invoking) (this|the|any) tool,?\s*)?(you (must|should|need to|have to)\s+)?(always\s+)?`)
)

// stripMarker drops the words that address the model at the start of a
// sentence, so the imperative verb after them is sentence-initial.
func stripMarker(s string) string { return s[len(leadMarkerRe.FindString(s)):] }

// otherTool reports whether the sentence names a tool other than the one
// described (not "this tool" or "the tool").
func otherTool(s string) bool {
	for _, m := range otherToolRe.FindAllString(s, -1) {
		if !thisToolRe.MatchString(strings.Trim(strings.ToLower(m), "`'\" ")) {
			return true
		}
	}
	return false
}

// trim narrows [s,e) to its non-space text.
func trim(text string, s, e int) (int, int) {
	for s < e && strings.ContainsRune(" \t\r\n", rune(text[s])) {
		s++
	}
	for e > s && strings.ContainsRune(" \t\r\n", rune(text[e-1])) {
		e--
	}
	return s, e
}
