import os

from google.adk.agents import Agent
from google.cloud import bigquery
from google.genai import types
from vertexai import rag

MODE = os.getenv("LOOKUP_MODE", "FAST")


def fast_lookup(term: str) -> str:
    """Looks a term up in the built-in glossary."""
    return {"sla": "service level agreement"}.get(term.lower(), "unknown")


def careful_lookup(term: str) -> str:
    """Looks a term up, normalising it first."""
    return term.strip().lower().replace("-", " ")


def build_config(limit: int) -> str:
    """Describes the query settings used for reports."""
    params = [bigquery.ScalarQueryParameter("limit", "INT64", limit)]
    cfg = bigquery.QueryJobConfig(query_parameters=params, dry_run=True)
    part = types.Part(text=f"{len(params)} parameters, dry run {cfg.dry_run}")
    return part.text or ""


def search_corpus(question: str) -> str:
    """Finds passages about the question in the team's corpus."""
    config = rag.RagRetrievalConfig(top_k=3, filter=rag.Filter(vector_distance_threshold=0.5))
    response = rag.retrieval_query(rag_resources=[rag.RagResource(rag_corpus="corpus")], text=question, rag_retrieval_config=config)
    return str(response)


glossary = Agent(
    name="glossary",
    model="gemini-2.0-flash",
    instruction="Answer questions about terms.",
    tools=[
        (
            fast_lookup
            if MODE == "FAST"
            else careful_lookup
        ),
        build_config,
        search_corpus,
    ],
)
