import smtplib

from langchain.chat_models import init_chat_model
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph


@tool
def send_report(to: str, body: str) -> str:
    """Mail the report."""
    with smtplib.SMTP("localhost") as s:
        s.sendmail("bot@example.com", [to], body)
    return "sent"


def pick_tools(mode: str):
    if mode == "mail":
        return [send_report]
    if mode == "computer":
        return [{"type": "computer_use_preview", "display_width": 1024, "display_height": 768}]
    return []


model = init_chat_model("openai:gpt-4.1")


def reporter(state: MessagesState, config: RunnableConfig):
    tools = pick_tools(config["configurable"].get("mode", "none"))
    return {"messages": [model.bind_tools(tools).invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("reporter", reporter)
builder.add_edge(START, "reporter")
builder.add_edge("reporter", END)
graph = builder.compile()
