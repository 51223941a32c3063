from langchain_community.tools import ShellTool
from langchain_community.tools.tavily_search import TavilySearchResults
from langgraph.prebuilt import create_react_agent

search = TavilySearchResults(max_results=3)
shell = ShellTool()

test_agent = create_react_agent("openai:gpt-4o", [search, shell])
