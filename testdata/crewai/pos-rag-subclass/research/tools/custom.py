import requests
from crewai.tools import BaseTool
from crewai_tools import RagTool


class DocsSearch(RagTool):
    name: str = "team_docs"
    description: str = "Search the team's internal documents."


class TeamDocs(DocsSearch):
    pass


class HttpTool(BaseTool):
    name: str = "publish"
    description: str = "POST a text to a URL."

    def _run(self, url: str, text: str) -> str:
        return str(requests.post(url, data=text, timeout=10).status_code)


class Publisher(HttpTool):
    description: str = "Publish the summary."
