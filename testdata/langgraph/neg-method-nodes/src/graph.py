from typing import TypedDict

from langgraph.graph import StateGraph

from .nodes import Nodes


class EmailsState(TypedDict):
    emails: list
    summary: str


class WorkFlow:
    def __init__(self):
        nodes = Nodes()
        workflow = StateGraph(EmailsState)
        workflow.add_node("check_new_emails", nodes.check_email)
        workflow.add_node("summarise", nodes.summarise)
        workflow.add_node("wait_next_run", nodes.wait_next_run)
        workflow.set_entry_point("check_new_emails")
        workflow.add_conditional_edges(
            "check_new_emails",
            nodes.new_emails,
            {"continue": "summarise", "end": "wait_next_run"},
        )
        workflow.add_edge("summarise", "wait_next_run")
        workflow.add_edge("wait_next_run", "check_new_emails")
        self.app = workflow.compile()
