from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph.store.memory import InMemoryStore
from langmem import create_manage_memory_tool, create_search_memory_tool

store = InMemoryStore(index={"dims": 1536, "embed": "openai:text-embedding-3-small"})


@tool
def draft_reply(to: str, body: str) -> str:
    """Draft a reply for the user to review (nothing is sent)."""
    print(f"Draft to {to}:\n{body}")
    return "drafted"


assistant = create_react_agent(
    "openai:gpt-4o",
    tools=[
        create_manage_memory_tool(namespace=("assistant", "{user_id}")),
        create_search_memory_tool(namespace=("assistant", "{user_id}"), name="recall"),
        draft_reply,
    ],
    store=store,
)
