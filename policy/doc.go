// Package policy checks the capability graph against fixed rules and turns
// violations into findings: rule-of-two, missing-approval, and the checks
// added beside them (toxic-flow, dangerous-chain, unrestricted-execution).
// It owns severities, risk scores, taxonomy mapping, remediation text and
// stable finding ids. Deterministic code decides; no model has a say.
package policy
