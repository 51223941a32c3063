from crewai.hooks import before_tool_call


@before_tool_call
def approve_email(context):
    if context.tool_name == "Send email":
        answer = context.request_human_input(
            prompt=f"Send {context.tool_input}?", default_message="Type 'yes' to approve:"
        )
        if answer.strip().lower() != "yes":
            return False
    return None
