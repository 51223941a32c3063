"""Records an exploit run as OpenTelemetry spans (the OpenTelemetry Python
SDK, scripts/requirements/frameworks.txt), following the GenAI semantic
conventions: one invoke_agent span per run (gen_ai.agent.name,
gen_ai.conversation.id) and one execute_tool child span per tool call
(gen_ai.tool.name, gen_ai.tool.call.id, gen_ai.tool.call.arguments,
gen_ai.tool.call.result), fed by the frameworks' own hooks (LangChain
callbacks, OpenAI Agents SDK RunHooks). A tool that raises records the
exception (LangGraph's interrupt() raises GraphInterrupt); each approval
the run stopped for is an "interrupt" event on the agent span.

Two files, both written by the SDK: spans.json (ConsoleSpanExporter, one
ReadableSpan.to_json() per span) and spans.otlp.pb (the OTLP encoder's
ExportTraceServiceRequest, serialized).
"""
import json
import os

# The harness turns telemetry off for every framework (pyrun's
# environment); this run records its own spans, to files only.
os.environ["OTEL_SDK_DISABLED"] = "false"

from opentelemetry import trace  # noqa: E402
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402
from opentelemetry.trace import Status, StatusCode  # noqa: E402


def _text(v):
    if isinstance(v, str):
        return v
    try:
        return json.dumps(v, default=str)
    except Exception:
        return str(v)


class Recorder:
    def __init__(self, trace_dir, agent_name, conversation):
        self.dir = trace_dir
        self.json_file = open(os.path.join(trace_dir, "spans.json"), "w")
        self.memory = InMemorySpanExporter()
        self.provider = TracerProvider(resource=Resource.create({"service.name": "acg-exploit"}))
        self.provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=self.json_file)))
        self.provider.add_span_processor(SimpleSpanProcessor(self.memory))
        self.tracer = self.provider.get_tracer("acg.exploit")
        self.agent_span = self.tracer.start_span(
            "invoke_agent " + agent_name,
            attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent_name,
                        "gen_ai.conversation.id": conversation},
        )
        self.ctx = trace.set_span_in_context(self.agent_span)
        self.open = {}

    def tool_start(self, key, name, args):
        span = self.tracer.start_span(
            "execute_tool " + name, context=self.ctx,
            attributes={"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name,
                        "gen_ai.tool.call.id": str(key), "gen_ai.tool.call.arguments": _text(args)},
        )
        self.open[key] = span

    def tool_end(self, key, result):
        span = self.open.pop(key, None)
        if span is not None:
            span.set_attribute("gen_ai.tool.call.result", _text(result))
            span.end()

    def tool_error(self, key, err):
        span = self.open.pop(key, None)
        if span is not None:
            span.record_exception(err)
            span.set_status(Status(StatusCode.ERROR, type(err).__name__))
            span.end()

    def interrupts(self, items):
        for it in items:
            self.agent_span.add_event("interrupt", {"gen_ai.tool.name": str(it.get("tool") or "")})

    def close(self):
        for key in list(self.open):
            self.tool_end(key, None)
        self.agent_span.end()
        with open(os.path.join(self.dir, "spans.otlp.pb"), "wb") as f:
            f.write(encode_spans(self.memory.get_finished_spans()).SerializeToString())
        self.provider.shutdown()
        self.json_file.close()


def langchain_callback(rec):
    """A LangChain callback handler that records tool calls."""
    from langchain_core.callbacks import BaseCallbackHandler

    class Handler(BaseCallbackHandler):
        raise_error = False

        def on_tool_start(self, serialized, input_str, *, run_id, inputs=None, **kw):
            name = (serialized or {}).get("name") or kw.get("name") or "?"
            rec.tool_start(run_id, name, inputs if inputs is not None else input_str)

        def on_tool_end(self, output, *, run_id, **kw):
            rec.tool_end(run_id, getattr(output, "content", output))

        def on_tool_error(self, error, *, run_id, **kw):
            rec.tool_error(run_id, error)

    return Handler()


def agents_hooks(rec):
    """OpenAI Agents SDK RunHooks that record tool calls."""
    from agents import RunHooks

    class Hooks(RunHooks):
        async def on_tool_start(self, context, agent, tool):
            key = getattr(context, "tool_call_id", None) or id(tool)
            rec.tool_start(key, tool.name, getattr(context, "tool_arguments", None))

        async def on_tool_end(self, context, agent, tool, result):
            key = getattr(context, "tool_call_id", None) or id(tool)
            rec.tool_end(key, result)

    return Hooks()
