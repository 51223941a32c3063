"""A LangGraph graph whose node runs the PydanticAI agent and streams its
answer through the stream writer LangGraph injects by name."""
from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from research import research_agent


class State(TypedDict):
    question: str
    answer: str


async def research_node(state: State, writer) -> dict:
    async with research_agent.run_stream(state["question"]) as result:
        async for chunk in result.stream_text(delta=True):
            writer(chunk)
        answer = await result.get_output()
    return {"answer": answer}


builder = StateGraph(State)
builder.add_node("research", research_node)
builder.add_edge(START, "research")
builder.add_edge("research", END)
graph = builder.compile()
