import operator
from typing import Annotated

from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import PromptTemplate
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import InjectedStore, create_react_agent
from langgraph.store.base import BaseStore
from tavily import TavilyClient

_client: TavilyClient | None = None

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def _get_client():
    global _client
    if _client is None:
        _client = TavilyClient()
    return _client


@tool
def search_web(query: str) -> str:
    """Search the web."""
    return str(_get_client().search(query))


@tool
def headlines(topic: str) -> str:
    """Search the news about a topic."""
    return search_web.invoke(topic + " news")


@tool
def remember(key: str, value: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Remember a value."""
    store.put(("notes",), key, {"value": value})
    return "saved"


@tool
def calc(a: float, b: float, op: str) -> str:
    """Apply an arithmetic operator."""
    fn = OPS.get(op)
    if fn is None:
        fn = OPS["+"]
    return str(fn(a, b))


@tool
def grade(question: str, document: str) -> str:
    """Grade a document's relevance to a question."""
    prompt = PromptTemplate.from_template("Is {document} relevant to {question}?")
    chain = {"question": lambda x: question, "document": lambda x: document} | prompt | ChatOpenAI() | StrOutputParser()
    return chain.invoke({})


def _lookup(client, q):
    return client.search(q)


@tool
def lookup(query: str) -> str:
    """Look something up."""
    client = TavilyClient()
    return str(_lookup(client, query))


def _save(store, key, value):
    store.put(("notes",), key, {"value": value})


@tool
def remember_via_helper(key: str, value: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Remember a value through a helper."""
    _save(store, key, value)
    return "saved"


agent = create_react_agent("openai:gpt-4o", [search_web, headlines, remember, calc, grade, lookup, remember_via_helper])
