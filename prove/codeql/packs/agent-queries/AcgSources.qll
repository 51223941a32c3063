/** Sources and sinks shared by acg's queries. */

import python
import semmle.python.dataflow.new.DataFlow
import semmle.python.Concepts
import semmle.python.frameworks.data.ModelsAsData

/** Content a third party can write: responses of outgoing requests, and the reads modelled as `acg-untrusted`. */
predicate untrustedSource(DataFlow::Node n) {
  n instanceof Http::Client::Request
  or
  n = ModelOutput::getASourceNode("acg-untrusted").asSource()
}

/** A parameter of a tool function: the model chooses its value. */
predicate toolParameter(DataFlow::Node n) {
  n = ModelOutput::getASourceNode("acg-tool-parameter").asSource()
}

/** Data leaving the trust boundary. */
predicate egressSink(DataFlow::Node n) {
  n = any(Http::Client::Request r).getAUrlPart()
  or
  n = ModelOutput::getASinkNode("acg-egress").asSink()
}

/** Code or command execution. */
predicate execSink(DataFlow::Node n) {
  n = any(SystemCommandExecution e).getCommand()
  or
  n = any(CodeExecution e).getCode()
}

/** Persistent state: file writes and paths, SQL. */
predicate writeSink(DataFlow::Node n) {
  n = any(FileSystemWriteAccess w).getADataNode()
  or
  n = any(FileSystemWriteAccess w).getAPathArgument()
  or
  n = any(SqlExecution s).getSql()
}
