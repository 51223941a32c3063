# OTLP JSON as the Collector's file exporter writes it (one
# ExportTraceServiceRequest per line; ids hex, per the OTLP JSON encoding).
import base64, json, sys
from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
def hexids(o):
    if isinstance(o, dict):
        for k, v in list(o.items()):
            if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str):
                o[k] = base64.b64decode(v).hex()
            else:
                hexids(v)
    elif isinstance(o, list):
        for x in o: hexids(x)
    return o
for path in sys.argv[1:]:
    m = ExportTraceServiceRequest(); m.ParseFromString(open(path, "rb").read())
    print(json.dumps(hexids(MessageToDict(m)), separators=(",", ":")))
