from langgraph.config import get_stream_writer


async def remember(state, config, store):
    """A node: LangGraph passes the run's config and the graph's store."""
    user = config["configurable"].get("user_id", "default")
    await store.aput(("profile", user), "language", {"value": config["configurable"].get("language", "en")})
    return {}


def progress(state, writer=None):
    (writer or get_stream_writer())({"step": "answer"})
    return {}
