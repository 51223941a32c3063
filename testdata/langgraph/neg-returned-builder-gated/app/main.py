from langgraph.checkpoint.memory import InMemorySaver

from app.builder import build_graph

app = build_graph().compile(checkpointer=InMemorySaver(), interrupt_before=["tools"])
