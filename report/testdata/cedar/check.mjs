// Checks a Cedar policy file written by `acg scan --cedar` with the real
// Cedar implementation (cedar-wasm): it must parse, validate strictly
// against acg's schema, and decide the given requests as expected.
//
//   node check.mjs POLICIES SCHEMA SCENARIOS
//
// SCENARIOS is JSON: [{agent, tool, previous_tools, human_approved,
// expect: "allow"|"deny"}]. Each request is evaluated against the
// policies plus `permit(principal, action, resource);`, so a deny can only
// come from an acg forbid. Prints {"ids": [...@id of every policy...]}
// and exits 1 on any failure.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cedar = require('@cedar-policy/cedar-wasm/nodejs');

const [policyPath, schemaPath, scenarioPath] = process.argv.slice(2);
const policies = readFileSync(policyPath, 'utf8');
const schema = readFileSync(schemaPath, 'utf8');
const scenarios = JSON.parse(readFileSync(scenarioPath, 'utf8'));
const failures = [];

const parsed = cedar.checkParsePolicySet({ staticPolicies: policies });
if (parsed.type !== 'success') {
  failures.push({ parse: parsed.errors.map((e) => e.message) });
}
const parsedSchema = cedar.checkParseSchema(schema);
if (parsedSchema.type !== 'success') {
  failures.push({ schema: parsedSchema.errors.map((e) => e.message) });
}

const ids = [];
const parts = cedar.policySetTextToParts(policies);
if (parts.type === 'success') {
  for (const p of parts.policies) {
    const j = cedar.policyToJson(p);
    if (j.type !== 'success') {
      failures.push({ toJson: j.errors.map((e) => e.message) });
      continue;
    }
    ids.push(j.json.annotations ? j.json.annotations.id : null);
  }
} else {
  failures.push({ parts: parts.errors.map((e) => e.message) });
}

const validation = cedar.validate({ schema, policies: { staticPolicies: policies }, validationSettings: { mode: 'strict' } });
if (validation.type !== 'success') {
  failures.push({ validate: validation.errors.map((e) => e.message) });
} else if (validation.validationErrors.length > 0) {
  failures.push({ validate: validation.validationErrors.map((e) => `${e.policyId}: ${e.error.message}`) });
}

const withPermit = policies + '\npermit (principal, action, resource);\n';
for (const s of scenarios) {
  const answer = cedar.isAuthorized({
    principal: { type: 'Agent', id: s.agent },
    action: { type: 'Action', id: 'call_tool' },
    resource: { type: 'Tool', id: s.tool },
    context: { previous_tools: s.previous_tools, human_approved: s.human_approved },
    schema,
    validateRequest: true,
    policies: { staticPolicies: withPermit },
    entities: [],
  });
  if (answer.type !== 'success') {
    failures.push({ scenario: s, errors: answer.errors.map((e) => e.message) });
  } else if (answer.response.decision !== s.expect) {
    failures.push({ scenario: s, got: answer.response.decision, reasons: answer.response.diagnostics.reason });
  }
}

console.log(JSON.stringify({ ids, failures }));
process.exit(failures.length === 0 ? 0 : 1);
