from langchain_community.document_loaders import ArxivLoader, PubMedLoader, WebBaseLoader, WikipediaLoader
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


@tool
def search_wikipedia(query: str) -> str:
    """Look a topic up on Wikipedia."""
    docs = WikipediaLoader(query=query, load_max_docs=2).load()
    return "\n\n".join(d.page_content for d in docs)


@tool
def search_arxiv(query: str) -> str:
    """Find papers on arXiv."""
    return "\n\n".join(d.page_content for d in ArxivLoader(query=query, load_max_docs=3).load())


@tool
def search_pubmed(query: str) -> str:
    """Find abstracts on PubMed."""
    return "\n\n".join(d.page_content for d in PubMedLoader(query).lazy_load())


@tool
def read_page(url: str) -> str:
    """Read a web page."""
    return WebBaseLoader(url).load()[0].page_content


researcher = create_react_agent("openai:gpt-4o", tools=[search_wikipedia, search_arxiv, search_pubmed, read_page])
