from langchain_core.messages import ToolMessage
from langchain_openai import ChatOpenAI

from app.tools import tools

llm = ChatOpenAI(model="gpt-4o").bind_tools(tools)
tools_by_name = {tool.name: tool for tool in tools}


def call_model(state):
    return {"messages": [llm.invoke(state["messages"])]}


def tool_node(state):
    outputs = []
    for call in state["messages"][-1].tool_calls:
        result = tools_by_name[call["name"]].invoke(call["args"])
        outputs.append(ToolMessage(content=str(result), tool_call_id=call["id"]))
    return {"messages": outputs}


def route(state):
    return "tools" if state["messages"][-1].tool_calls else "__end__"
