from smolagents import Tool


class VisitTool(Tool):
    name = "visit_page"
    description = "Visit a web page and return its text."
    inputs = {"url": {"type": "string", "description": "The page to visit."}}
    output_type = "string"

    def __init__(self, browser):
        super().__init__()
        # The browser comes from whoever builds the tool: its type is what
        # every construction site passes.
        self.browser = browser

    def forward(self, url: str) -> str:
        self.browser.visit(url)
        return self.browser.current()


class LookupTool(Tool):
    name = "lookup"
    description = "Look something up with the client the tool was given."
    inputs = {"query": {"type": "string", "description": "What to look up."}}
    output_type = "string"

    def __init__(self, client):
        super().__init__()
        self.client = client

    def forward(self, query: str) -> str:
        return self.client.search(query)
