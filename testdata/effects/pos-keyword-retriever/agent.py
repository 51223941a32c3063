from langchain_community.retrievers import BM25Retriever
from langchain_core.documents import Document
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent


def _retriever(docs: list[Document]) -> BM25Retriever:
    return BM25Retriever.from_documents(docs, k=5)


@tool
def search_docs(query: str) -> str:
    """Search the documents loaded for this session by keyword."""
    retriever = _retriever([Document(page_content=t) for t in open("corpus.txt").read().split("\n\n")])
    return "\n\n".join(d.page_content for d in retriever.invoke(query))


docs_agent = create_react_agent("openai:gpt-4.1", tools=[search_docs])
