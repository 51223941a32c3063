from typing import List, Optional


def get_tools(tool_names: Optional[List[str]] = None, include_gmail: bool = False):
    """Get the named tools, or every tool when tool_names is None."""
    from assistant.tools.default import check_calendar, schedule_meeting, write_email

    all_tools = {
        "write_email": write_email,
        "schedule_meeting": schedule_meeting,
        "check_calendar": check_calendar,
    }

    if include_gmail:
        try:
            from assistant.tools.gmail import fetch_emails_tool, send_email_tool

            all_tools.update({
                "fetch_emails_tool": fetch_emails_tool,
                "send_email_tool": send_email_tool,
            })
        except ImportError:
            pass

    if tool_names is None:
        return list(all_tools.values())

    return [all_tools[name] for name in tool_names if name in all_tools]
