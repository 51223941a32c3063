import os

from agents import Agent, function_tool
from exa_py import Exa
from firecrawl import Firecrawl
from langchain_community.utilities import BraveSearchWrapper
from serpapi import BingSearch
from tavily import TavilyClient

tavily = TavilyClient(api_key=os.getenv("TAVILY_API_KEY"))


@function_tool
def crawl_site(url: str, instructions: str) -> str:
    """Crawl a documentation site with Tavily."""
    return str(tavily.crawl(url, instructions=instructions, max_depth=2))


@function_tool
def site_map(url: str) -> list[str]:
    """List the pages of a site with Tavily's map."""
    return tavily.map(url=url)["results"]


@function_tool
def scrape_page(url: str) -> str:
    """Scrape one page as markdown with Firecrawl (v2 SDK)."""
    app = Firecrawl(api_key=os.getenv("FIRECRAWL_API_KEY"))
    return str(app.scrape(url, formats=["markdown"]))


@function_tool
def exa_answer(question: str) -> str:
    """Answer a question from the web with Exa, streamed."""
    exa = Exa(api_key=os.environ["EXA_API_KEY"])
    return "".join(str(chunk) for chunk in exa.stream_answer(question))


@function_tool
def bing(query: str) -> dict:
    """Search Bing through SerpAPI."""
    return BingSearch({"q": query, "api_key": os.getenv("SERPAPI_KEY")}).get_dict()


@function_tool
def brave(query: str) -> str:
    """Search the web with Brave through LangChain's wrapper."""
    return BraveSearchWrapper(api_key=os.getenv("BRAVE_SEARCH_API_KEY")).run(query)


researcher = Agent(
    name="Researcher",
    instructions="Answer from the web; cite the pages you read.",
    tools=[crawl_site, site_map, scrape_page, exa_answer, bing, brave],
)
