package extract

// ExtraKey names one entry of the adapter data a Tool or an Agent carries
// (Tool.Extra, Agent.Extra): adapters write them and resolve reads them,
// so the keys are one vocabulary rather than strings spelled in two places.
type ExtraKey string

const (
	ExtraAllowDelegation ExtraKey = "allow_delegation"
	ExtraBackend         ExtraKey = "backend"
	ExtraBuilder         ExtraKey = "builder"
	ExtraBuiltins        ExtraKey = "builtins"
	ExtraCloneOf         ExtraKey = "clone_of"
	ExtraConfigKey       ExtraKey = "config_key"
	ExtraCrewClass       ExtraKey = "crew_class"
	ExtraDecidedBy       ExtraKey = "decided_by"
	ExtraDetail          ExtraKey = "detail"
	ExtraRoles           ExtraKey = "roles"
	ExtraSchemaOnly      ExtraKey = "schema_only"
	ExtraSettle          ExtraKey = "settle"
	ExtraShell           ExtraKey = "shell"
	ExtraSubagentOf      ExtraKey = "subagent_of"
)

// Framework names where an agent, a tool or an MCP server comes from: a
// framework in code, an agent client's config, or MCP itself. The values
// are the `framework` field of the JSON output.
type Framework string

const (
	FrameworkLangChain      Framework = "langchain"
	FrameworkLangGraph      Framework = "langgraph"
	FrameworkOpenAIAgents   Framework = "openai-agents"
	FrameworkCrewAI         Framework = "crewai"
	FrameworkPydanticAI     Framework = "pydantic-ai"
	FrameworkGoogleADK      Framework = "google-adk"
	FrameworkAgentFramework Framework = "agent-framework"
	FrameworkSmolagents     Framework = "smolagents"
	FrameworkMastra         Framework = "mastra"
	FrameworkMCP            Framework = "mcp"
	FrameworkClaudeCode     Framework = "claude-code"
	// FrameworkPython is a plain function no framework claims (a tool by
	// being named in a tool list).
	FrameworkPython Framework = "python"
	// FrameworkUnknown is a tool nothing recognised (it fails closed).
	FrameworkUnknown Framework = "unknown"
)

// Frameworks of the TypeScript front end (extract/typescript). OpenAI
// Agents JS is FrameworkOpenAIAgents, the same framework as in Python.
const (
	FrameworkVercelAI Framework = "vercel-ai"
)
