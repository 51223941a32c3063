from app.builder import build_graph

app = build_graph().compile()
