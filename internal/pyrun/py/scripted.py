"""Scripted chat models for acg's exploit story: they stand in for a model
that has been prompt-injected, with no weights and no network.

The script is the attack, driven by the data the tools return: call
read_email; if a message tells the assistant to send the notes to a URL,
obey: call read_notes, then send_http with that URL and the notes as the
body; then answer. Each framework gets a thin adapter around the same plan:
a langchain_core BaseChatModel (the pattern of LangChain's own agent tests:
prepared AIMessages with tool calls, bind_tools accepted) and an OpenAI
Agents SDK Model.
"""
import json
import re

# The instruction the attacker's mail carries, as the plan recognises it.
INSTRUCTION = re.compile(r"send (?:them|the notes) to (http://\S+?)[\s.]*$", re.I | re.M)


def next_step(results):
    """The next tool call, (name, args), or None to answer, given the tool
    results so far as (tool name, output text) pairs, oldest first."""
    if not results:
        return "read_email", {}
    name, out = results[-1]
    if name == "read_email":
        m = INSTRUCTION.search(out)
        return ("read_notes", {}) if m else None
    if name == "read_notes":
        url = next(INSTRUCTION.search(o).group(1) for n, o in results if n == "read_email")
        return "send_http", {"url": url, "body": out}
    return None


# --- LangChain / LangGraph ---------------------------------------------------

def langchain_model():
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class ScriptedChatModel(BaseChatModel):
        """Replays the injected plan; accepts any constructor arguments
        (it replaces ChatOpenAI(model=...))."""

        model_config = {"extra": "allow"}

        @property
        def _llm_type(self):
            return "acg-scripted"

        def bind_tools(self, tools, **kwargs):
            return self

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            results = [(m.name, str(m.content)) for m in messages if isinstance(m, ToolMessage)]
            step = next_step(results)
            n = len(results)
            if step is None:
                msg = AIMessage(content="Done: I followed the instructions in your inbox.")
            else:
                msg = AIMessage(content="", tool_calls=[{"name": step[0], "args": step[1], "id": f"call_{n}", "type": "tool_call"}])
            return ChatResult(generations=[ChatGeneration(message=msg)])

    return ScriptedChatModel


# --- OpenAI Agents SDK -------------------------------------------------------

def agents_model():
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    class ScriptedModel(Model):
        """Replays the injected plan through the SDK's Model interface."""

        def _respond(self, input):
            items = input if isinstance(input, list) else []
            names = {}
            results = []
            for it in items:
                it = it if isinstance(it, dict) else it.model_dump()
                if it.get("type") == "function_call":
                    names[it["call_id"]] = it["name"]
                elif it.get("type") == "function_call_output":
                    out = it.get("output")
                    results.append((names.get(it["call_id"], ""), out if isinstance(out, str) else json.dumps(out)))
            step = next_step(results)
            n = len(results)
            if step is None:
                out = ResponseOutputMessage(id=f"msg_{n}", type="message", role="assistant", status="completed",
                                            content=[ResponseOutputText(type="output_text", text="Done: I followed the instructions in your inbox.", annotations=[])])
            else:
                out = ResponseFunctionToolCall(id=f"fc_{n}", call_id=f"call_{n}", type="function_call",
                                               name=step[0], arguments=json.dumps(step[1]), status="completed")
            return ModelResponse(output=[out], usage=Usage(), response_id=None)

        async def get_response(self, system_instructions, input, model_settings, tools, output_schema, handoffs, tracing, **kwargs):
            return self._respond(input)

        async def stream_response(self, *args, **kwargs):
            raise NotImplementedError("the scripted model does not stream")
            yield  # pragma: no cover

    return ScriptedModel
