/**
 * @name Tool parameter reaches a call that executes code or a command
 * @description The model chooses a tool's parameters; this one reaches an action with no approval in between.
 * @kind path-problem
 * @problem.severity warning
 * @precision high
 * @id acg/param-to-exec
 * @tags security acg-source:param acg-sink:exec
 */

import python
import semmle.python.dataflow.new.DataFlow
import semmle.python.dataflow.new.TaintTracking
import AcgSources

module Config implements DataFlow::ConfigSig {
  predicate isSource(DataFlow::Node n) { toolParameter(n) }

  predicate isSink(DataFlow::Node n) { execSink(n) }
}

module Flow = TaintTracking::Global<Config>;

import Flow::PathGraph

from Flow::PathNode source, Flow::PathNode sink
where Flow::flowPath(source, sink)
select sink.getNode(), source, sink, "This call executes code or a command with data from .", source.getNode(),
  "a tool parameter"
