import sqlite3
from typing import TypedDict

from langchain_classic.agents import AgentExecutor, create_openai_functions_agent
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.tools import Tool
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph


class Config:
    """Settings and clients, built once and shared by the agents."""

    def __init__(self) -> None:
        self.db_path = "sales.db"
        self.llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)


class ReportAgent:
    """Answers questions about the team's own sales database."""

    def __init__(self) -> None:
        self.config = Config()
        tools = [
            Tool(name="run_report", func=self.run_report, description="Total sales per region for a year."),
        ]
        prompt = ChatPromptTemplate.from_messages(
            [("system", "Answer with the sales reports."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
        )
        agent = create_openai_functions_agent(llm=self.config.llm, prompt=prompt, tools=tools)
        self.agent_executor = AgentExecutor(agent=agent, tools=tools)

    def run_report(self, year: str) -> str:
        conn = sqlite3.connect(self.config.db_path)
        rows = conn.execute("SELECT region, SUM(total) FROM sales WHERE year = ? GROUP BY region", (year,)).fetchall()
        return "\n".join(f"{region}: {total}" for region, total in rows)

    def answer(self, question: str) -> str:
        return self.agent_executor.invoke({"input": question})["output"]


class Planner:
    def __init__(self) -> None:
        self.config = Config()

    def plan(self, question: str) -> list[str]:
        reply = self.config.llm.invoke(f"Break this question into report lookups:\n{question}")
        return [line.strip() for line in reply.content.split("\n") if line.strip()]


class State(TypedDict):
    question: str
    steps: list[str]
    answer: str


planner = Planner()
reports = ReportAgent()


def make_plan(state: State):
    return {"steps": planner.plan(state["question"])}


def run_steps(state: State):
    return {"answer": "\n".join(reports.answer(step) for step in state["steps"])}


builder = StateGraph(State)
builder.add_node("plan", make_plan)
builder.add_node("run", run_steps)
builder.add_edge(START, "plan")
builder.add_edge("plan", "run")
builder.add_edge("run", END)
app = builder.compile()
