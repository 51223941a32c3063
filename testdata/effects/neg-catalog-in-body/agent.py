import jinja2
import tiktoken
from langchain_community.tools.tavily_search import TavilySearchResults
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import PromptTemplate
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

_search = TavilySearchResults(max_results=3)


@tool
def web_search(query: str) -> str:
    """Search the web."""
    hits = _search.invoke({"query": query})
    return "\n".join(h["content"] for h in hits)


@tool
def render(topic: str) -> str:
    """Render the briefing prompt for a topic."""
    prompt = PromptTemplate.from_template("Brief me on {topic}").format(topic=topic)
    page = jinja2.Template("<h1>{{ t }}</h1>").render(t=topic)
    msgs = [SystemMessage(content="You brief."), HumanMessage(content=prompt)]
    n = len(tiktoken.get_encoding("cl100k_base").encode(prompt))
    return StrOutputParser().parse(page) + str(n) + str(len(msgs))


researcher = create_react_agent("openai:gpt-4o", [web_search, render])
