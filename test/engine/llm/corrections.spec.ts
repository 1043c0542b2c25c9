/**
 * Short corrections (issue 14, item 3): one slip in a plan answer is reported as one error of the
 * union branch the answer chose, with its path and the closest valid name, not as hundreds of
 * errors of every branch of the expression union.
 */
import Ajv from 'ajv';
import { briefCorrection, parseProblem } from '../../../src/engine/llm/corrections';
import { PLANNER_OUTPUT_SCHEMA } from '../../../src/engine/run/prompts/planner-plan';
import * as P from '../../../src/engine/plan/build';

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false });
const validate = ajv.compile(PLANNER_OUTPUT_SCHEMA);

function correction(answer: unknown): { text: string; raw: number } {
  expect(validate(answer)).toBe(false);
  return {
    text: briefCorrection(validate.errors ?? [], answer, PLANNER_OUTPUT_SCHEMA),
    raw: validate.errors!.length,
  };
}

const plan = () =>
  JSON.parse(
    JSON.stringify(
      P.query(P.select({ columns: [P.item(P.col('name', 'c'), 'name')], from: P.table('customers', 'c') })),
    ),
  );

it('reports a missing property of the chosen branch once, in under 1,000 characters', () => {
  const p = plan();
  delete p.body.columns[0].expr.table;
  const { text, raw } = correction({ plan: p, unanswerable_reason: null });
  expect(raw).toBeGreaterThan(20);
  expect(text).toBe('/plan/body/columns/0/expr: missing property "table"');
  expect(text.length).toBeLessThan(1000);
});

it('names the closest valid property for an extra key', () => {
  const p = plan();
  p.body.columns[0].expr.tabel = 'c';
  delete p.body.columns[0].expr.table;
  const { text } = correction({ plan: p, unanswerable_reason: null });
  expect(text).toContain('unknown property "tabel" (did you mean "table"?)');
  expect(text.length).toBeLessThan(1000);
});

it('names the closest valid value for a misspelt kind or enum value', () => {
  const p = plan();
  p.body.columns[0].expr = { ...P.agg('count', null), fn: 'cnt' };
  const { text } = correction({ plan: p, unanswerable_reason: null });
  expect(text).toMatch(/\/plan\/body\/columns\/0\/expr\/fn: "cnt" is not allowed \(did you mean "count"\?\)/);
});

it('says where a reply stops being JSON', () => {
  const text = '{\n  "plan": null,\n  "unanswerable_reason": "x",,\n}';
  let error: unknown;
  try {
    JSON.parse(text);
  } catch (e) {
    error = e;
  }
  expect(parseProblem(text, error)).toMatch(/line 3, column \d+/);
});
