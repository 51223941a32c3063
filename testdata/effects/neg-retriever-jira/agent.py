"""A support agent whose tools come from factories: a retriever over the
team's vector store and a Jira issue search, the way LangChain's own
wrappers are used."""

from langchain_community.utilities.jira import JiraAPIWrapper
from langchain_core.tools import tool
from langchain_core.vectorstores import InMemoryVectorStore, VectorStore
from langchain_core.embeddings import DeterministicFakeEmbedding
from langgraph.prebuilt import create_react_agent


def make_retriever_tool(vector_store: VectorStore, params: dict | None = None):
    params = params or {}

    @tool("search_contracts")
    def search_contracts(query: str) -> str:
        """Find the contract passages closest to the query."""
        retriever = vector_store.as_retriever(search_kwargs=params.get("search_kwargs", {"k": 2}))
        docs = retriever.invoke(query)
        return "\n\n".join(d.page_content for d in docs)

    return search_contracts


def make_jira_search(jira: JiraAPIWrapper):
    @tool("search_issues")
    def search_issues(jql: str) -> str:
        """Search the team's Jira board with a JQL query."""
        return str(jira.search(jql))

    return search_issues


store = InMemoryVectorStore(embedding=DeterministicFakeEmbedding(size=16))


def build_support(jira: JiraAPIWrapper):
    # The wrapper reads its credentials from the environment when built,
    # so the caller builds it.
    tools = [make_retriever_tool(store), make_jira_search(jira)]
    return create_react_agent("openai:gpt-4.1", tools=tools)
