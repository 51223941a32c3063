package resolve

import (
	"strings"

	"github.com/acg-dev/acg/extract"
)

// Tool wrappers: a library function that takes a tool and returns it with
// something around each call. Auth0's AI SDKs make them in two steps: a
// factory on an Auth0AI object configures the wrapper
// (withAsyncAuthorization = auth0AI.withAsyncAuthorization({...})), and the
// wrapper is then called with the tool (withAsyncAuthorization(tool(...))).
// The wrapped tool is the tool itself; an asynchronous-authorization
// wrapper (CIBA: the user approves each call on their own device before it
// runs, https://auth0.com/ai/docs) also puts a human approval in front of
// it. Credential wrappers (token vault, federated connections) only hand
// the tool a token.

// toolWrappers are the wrapper factories by their method name; true when
// the wrapper asks the user before each call.
var toolWrappers = map[string]bool{
	"withAsyncAuthorization": true, "with_async_authorization": true,
	"withAsyncUserConfirmation": true, "with_async_user_confirmation": true,
	"withTokenVault": false, "with_token_vault": false,
	"withTokenForConnection": false, "with_token_for_connection": false,
	"withFederatedConnection": false, "with_federated_connection": false,
	"withGoogleConnection": false, "with_google_connection": false,
}

// wrapperModules are the packages whose wrappers these are.
var wrapperModules = []string{"@auth0/ai", "auth0_ai"}

// wrapped resolves a call of a tool wrapper to the tool it wraps (its first
// argument), with the wrapper's approval when it asks the user. ok is false
// when e calls no known wrapper.
func (b *builder) wrapped(e *extract.Expr, depth int) ([]member, bool) {
	if e.Kind != extract.ExprCall || e.Recv != nil || e.Scope == nil || len(e.Args) == 0 || strings.Contains(e.Name, ".") {
		return nil, false
	}
	t, ok := b.ix.lookupOrQualified(e.Scope, e.Name)
	if !ok || t.bind == nil || t.bind.Kind != extract.BindAssign {
		return nil, false
	}
	method, ok := b.wrapperFactory(extract.Deref(t.bind.Value), 0)
	if !ok {
		return nil, false
	}
	asks := toolWrappers[method]
	ms := b.members(e.Args[0], depth+1)
	if !asks {
		return ms, true
	}
	gate := &extract.Approval{Kind: "async_authorization", Loc: e.Loc, All: true, Expr: e,
		Detail: "the tool runs only after the user approves the request on their device (Auth0 asynchronous authorization, " + method + ")"}
	for i := range ms {
		if ms[i].tool != nil {
			ms[i].gates = append(ms[i].gates, gate)
		}
	}
	return ms, true
}

// wrapperFactory is the wrapper method a value is made by: a call of a
// known factory (auth0AI.withTokenVault({...})), or of a function of the
// tree whose every return is one (withConnection(name, scopes) returning
// auth0AI.withTokenVault({...})). ok is false otherwise.
func (b *builder) wrapperFactory(v *extract.Expr, depth int) (string, bool) {
	if v == nil || v.Kind != extract.ExprCall || v.Call == nil || depth > 3 {
		return "", false
	}
	if m := extract.LastDot(v.Call.Qual); fromModules(v.Call.Qual, wrapperModules) {
		_, known := toolWrappers[m]
		return m, known
	}
	fn := b.ix.callee(v.Call)
	if fn == nil || fn == noCode || len(fn.ReturnExprs) == 0 {
		return "", false
	}
	method := ""
	for _, r := range fn.ReturnExprs {
		m, ok := b.wrapperFactory(extract.Deref(r), depth+1)
		if !ok || method != "" && m != method {
			return "", false
		}
		method = m
	}
	return method, true
}

func fromModules(q string, mods []string) bool {
	for _, m := range mods {
		if strings.HasPrefix(q, m) {
			return true
		}
	}
	return false
}
