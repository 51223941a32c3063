package extract

// CrewFacts holds what one file says about CrewAI.
type CrewFacts struct {
	Crews   []*Crew
	Tasks   []*CrewTask
	Classes []*CrewClass
	Hooks   []*ToolHook
	// Config is set for a YAML config file (config/agents.yaml, tasks.yaml).
	Config *CrewConfig
}

// Crew is a Crew(...) call.
type Crew struct {
	Name string
	// Agents, Tasks and Manager are the unresolved arguments; Class is set
	// when they are self.agents / self.tasks of a @CrewBase class.
	Agents, Tasks, Manager *Expr
	Class                  string
	Hierarchical           bool
	Loc                    Loc
}

// CrewTask is a Task(...) call. Its human_input=True reviews the output
// after the tools ran: it is not a gate, so it is not kept.
type CrewTask struct {
	Agent *Expr
	Tools *Expr
	// ConfigKey is the tasks.yaml entry (config=self.tasks_config["k"]).
	ConfigKey string
	Class     string
	Loc       Loc
}

// CrewClass is a @CrewBase class.
type CrewClass struct {
	Name string
	// AgentsConfig and TasksConfig are the YAML paths relative to the scan
	// root (CrewAI resolves them against the class's file).
	AgentsConfig, TasksConfig string
	// ToolMethods are @tool methods by name: YAML tool lists name them.
	ToolMethods map[string]*Func
}

// ToolHook is a pre-tool hook that asks a human or blocks.
type ToolHook struct {
	Approval *Approval
	// Agents lists the agent roles it applies to (empty: every agent).
	Agents []string
	// Class is set for a hook method of a @CrewBase class (crew-scoped).
	Class string
}

// CrewConfig is a YAML config file of a crew.
type CrewConfig struct {
	Kind    string // agents or tasks
	Entries []*CrewEntry
}

// CrewEntry is one agent or task of a YAML config.
type CrewEntry struct {
	Key    string
	KeyLoc Loc
	// Agents: role, tools, allow_delegation. Tasks: agent, tools.
	Role            string
	Tools           []ToolName
	AllowDelegation bool
	Agent           string
}
