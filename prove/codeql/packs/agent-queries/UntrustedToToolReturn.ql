/**
 * @name Untrusted content reaches a function's return value
 * @description Content a third party can write is returned; when the function is a tool, it enters the agent's context.
 * @kind path-problem
 * @problem.severity warning
 * @precision high
 * @id acg/untrusted-to-return
 * @tags security acg-source:untrusted acg-sink:return
 */

import python
import semmle.python.dataflow.new.DataFlow
import semmle.python.dataflow.new.TaintTracking
import AcgSources

module Config implements DataFlow::ConfigSig {
  predicate isSource(DataFlow::Node n) { untrustedSource(n) }

  predicate isSink(DataFlow::Node n) { exists(Return r | n.asExpr() = r.getValue()) }
}

module Flow = TaintTracking::Global<Config>;

import Flow::PathGraph

from Flow::PathNode source, Flow::PathNode sink
where Flow::flowPath(source, sink)
select sink.getNode(), source, sink, "This return value depends on $@.", source.getNode(),
  "content a third party can write"
