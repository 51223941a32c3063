from google.adk.agents import Agent
from google import genai
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


bq_client = None


def get_bq_client():
    """The shared BigQuery client, made on first use."""
    global bq_client
    if bq_client is None:
        bq_client = bigquery.Client(project="analytics")
    return bq_client


def count_orders(day: str) -> str:
    """Counts the orders of a day."""
    job = get_bq_client().query("SELECT COUNT(*) AS n FROM orders WHERE day = @day")
    rows = job.result()
    return str(next(iter(rows)).n)


def draft_sql(question: str) -> str:
    """Drafts SQL for a question (the model writes it; nothing runs it here)."""
    llm = genai.Client()
    resp = llm.models.generate_content(model="gemini-2.0-flash", contents=question)
    return resp.text.replace("```sql", "").replace("```", "").strip()


analyst_agent = Agent(name="analyst", model="gemini-2.0-flash", tools=[count_orders, draft_sql])
