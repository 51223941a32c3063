from google.adk.agents import Agent
from google.cloud import bigquery

try:
    client = bigquery.Client()
except Exception as e:
    print(f"BigQuery client unavailable: {e}")
    client = None


def product_details(brand: str) -> str:
    """Returns the catalogue rows of a brand."""
    if client is None:
        return "BigQuery client initialization failed."
    query = "SELECT title, description FROM products WHERE brand = @brand LIMIT 3"
    config = bigquery.QueryJobConfig(query_parameters=[bigquery.ScalarQueryParameter("brand", "STRING", brand)])
    rows = client.query(query, job_config=config).result()
    return "\n".join(f"{r.title}: {r.description}" for r in rows)


catalogue_agent = Agent(name="catalogue", model="gemini-2.0-flash", tools=[product_details])
