from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    question: str
    preferences: str
    answer: str


async def recall(state: State, config, store):
    """LangGraph injects the graph's store into a parameter named `store`."""
    namespace = ("preferences", config["configurable"]["user_id"])
    item = await store.aget(namespace, "style")
    return {"preferences": item.value["text"] if item else ""}


async def remember(state: State, store):
    await store.aput(("answers", "default"), "last", {"text": state["answer"]})
    return {}


def answer(state: State):
    return {"answer": f"{state['preferences']}: {state['question']}"}


builder = StateGraph(State)
builder.add_node("recall", recall)
builder.add_node("remember", remember)
builder.add_node("answer", answer)
builder.add_edge(START, "recall")
builder.add_edge("recall", "answer")
builder.add_edge("answer", "remember")
builder.add_edge("remember", END)
graph = builder.compile()
