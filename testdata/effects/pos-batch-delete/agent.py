"""Google Sheets tools on the API client: a batchUpdate does what the
requests in its body say. Formatting a range changes the sheet; a
deleteSheet request removes a tab for good."""
from google.adk.agents import Agent
from google.adk.tools import FunctionTool
from googleapiclient.discovery import build


def bold_header(spreadsheet_id: str, sheet_id: int) -> str:
    """Make the first row of a sheet bold."""
    requests = [{
        "repeatCell": {
            "range": {"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": 1},
            "cell": {"userEnteredFormat": {"textFormat": {"bold": True}}},
            "fields": "userEnteredFormat.textFormat.bold",
        }
    }]
    body = {"requests": requests}
    build("sheets", "v4").spreadsheets().batchUpdate(spreadsheetId=spreadsheet_id, body=body).execute()
    return "formatted"


def remove_tab(spreadsheet_id: str, sheet_id: int) -> str:
    """Delete one tab of a spreadsheet."""
    requests = [{"deleteSheet": {"sheetId": sheet_id}}]
    build("sheets", "v4").spreadsheets().batchUpdate(
        spreadsheetId=spreadsheet_id, body={"requests": requests}
    ).execute()
    return "deleted"


sheets_agent = Agent(name="sheets_agent", model="gemini-2.5-flash",
                     tools=[FunctionTool(func=bold_header), FunctionTool(func=remove_tab)])
