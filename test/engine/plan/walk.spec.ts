/**
 * childrenOf (plan/walk.ts) is the one place that knows what each node holds. For every node kind
 * of the AST definition, a node with every slot filled must list exactly the nodes it holds,
 * each at its JSON Pointer: what a generic walk of the object finds.
 */
import { childrenOf, walkExpr, walkPlan, paramNames, type PlanNode } from '../../../src/engine/plan/walk';
import * as b from '../../../src/engine/plan/build';
import { definition, fill, nodeDefinitions } from './schema-samples';

let counter = 0;
/** A distinct small node for each slot, so identity tells the children apart. */
function leafFor(def: string): unknown {
  counter++;
  if (def === 'Query') return b.query(b.select({ columns: [b.col(`q${counter}`)] }));
  if (def === 'Body' || def === 'Select') return b.select({ columns: [b.col(`s${counter}`)] });
  if (def === 'From' || def === 'TableRef') return b.table(`t${counter}`);
  if (def === 'FrameBound') return { bound: 'current_row', offset: null };
  if (def === 'Frame' || def === 'OrderItem' || def === 'SelectItem' || def === 'Cte')
    return fill(definition(def), leafFor);
  return b.col(`c${counter}`);
}

/** The nearest nodes (objects with a kind) below `value`, with their JSON Pointers. */
function nearestNodes(value: unknown, path = ''): { node: unknown; path: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nearestNodes(v, `${path}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  if ('kind' in value && path !== '') return [{ node: value, path }];
  return Object.entries(value).flatMap(([k, v]) => nearestNodes(v, `${path}/${k}`));
}

describe('childrenOf', () => {
  const kinds = nodeDefinitions();

  it('is generated over every node kind of the definition', () => {
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['column', 'window', 'query', 'join']));
    expect(kinds.length).toBeGreaterThanOrEqual(29);
  });

  it.each(nodeDefinitions())('$kind lists every node it holds, at its path', ({ def }) => {
    const node = fill(definition(def), leafFor) as PlanNode;
    const expected = nearestNodes(node);
    const listed = childrenOf(node).map((c) => ({ node: c.node, path: c.path }));
    expect(listed.map((c) => c.path).sort()).toEqual(expected.map((c) => c.path).sort());
    for (const c of listed) expect(expected.find((e) => e.path === c.path)?.node).toBe(c.node);
  });
});

describe('walks', () => {
  it('walkExpr stays at one query level; walkPlan enters nested queries', () => {
    const inner = b.query(b.select({ columns: [b.param('inner')] }));
    const e = b.and(b.cmp('=', b.col('a'), b.param('outer')), b.exists(inner));
    const seen: string[] = [];
    walkExpr(e, (x) => void seen.push(x.kind));
    expect(seen).toEqual(['and', 'compare', 'column', 'param', 'exists']);
    const all: string[] = [];
    walkPlan(b.query(b.select({ columns: [e] })), (n) => void all.push(n.kind));
    expect(all).toContain('select');
    expect(all.filter((k) => k === 'param')).toHaveLength(2);
    expect([...paramNames(b.query(b.select({ columns: [e] })))]).toEqual(['outer', 'inner']);
  });

  it('walks a plan nested far deeper than the call stack allows without overflowing', () => {
    let e: ReturnType<typeof b.col> | ReturnType<typeof b.not> = b.col('a');
    for (let i = 0; i < 200_000; i++) e = b.not(e);
    let n = 0;
    walkExpr(e, () => void n++);
    expect(n).toBe(200_001);
  });
});
