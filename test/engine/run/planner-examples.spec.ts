/** Planner examples: chosen by similarity to the question, not by order; only of the caller's scope. */
import { LocalEmbedder } from '../../../src/engine/index/embedders/local-embedder';
import { dot } from '../../../src/engine/index/embedders/embedder';
import { similarExamples, type ExampleCandidate } from '../../../src/engine/run/nodes/planner-examples';
import { MemoryPlanCache } from '../../../src/engine/run/plan-cache';
import type { Query } from '../../../src/engine/plan/types';

const embedder = new LocalEmbedder();
const similarities = async (q: string, texts: readonly string[]) => {
  const [qv, ...vs] = await embedder.embed([q, ...texts]);
  return vs.map((v) => dot(qv!, v));
};
const plan = (tag: string) => ({ kind: 'query', tag }) as unknown as Query;
const candidate = (question: string, sql: string): ExampleCandidate => ({ question, sql, plan: plan(sql) });

it('chooses the most similar pairs, whatever their order, and none when nothing is close', async () => {
  const candidates = [
    candidate('How many employees work in each store?', 'SELECT 1'),
    candidate('Which payment methods are used most?', 'SELECT 2'),
    candidate('What is the average age of singers from France?', 'SELECT 3'),
    candidate('List the names of singers from France', 'SELECT 4'),
  ];
  const chosen = await similarExamples('How many singers are from France?', candidates, similarities, 2);
  expect(chosen.map((c) => c.sql).sort()).toEqual(['SELECT 3', 'SELECT 4']);
  expect(chosen[0]!.similarity).toBeGreaterThanOrEqual(chosen[1]!.similarity);
  expect(await similarExamples('Show the weather forecast for tomorrow', candidates, similarities)).toEqual(
    [],
  );
  // No embedder, no examples (rather than the first ones configured).
  expect(await similarExamples('How many singers?', candidates, async () => null)).toEqual([]);
});

it('gives the plan cache pairs of one datasource, schema version and role scope only, newest first', () => {
  const cache = new MemoryPlanCache(10);
  const scope = { datasourceId: 'music', schemaVersion: 'v1', roleScope: 'analyst' };
  cache.set({ ...scope, intent: 'singers from France' }, plan('a'));
  cache.set({ ...scope, roleScope: 'admin', intent: 'salaries of singers' }, plan('admin'));
  cache.set({ ...scope, schemaVersion: 'v0', intent: 'old schema question' }, plan('old'));
  cache.set({ ...scope, datasourceId: 'shop', intent: 'orders per country' }, plan('shop'));
  cache.set({ ...scope, intent: 'songs per singer' }, plan('b'));
  expect(cache.pairs(scope, 10)).toEqual([
    { question: 'songs per singer', plan: plan('b') },
    { question: 'singers from France', plan: plan('a') },
  ]);
  expect(cache.pairs(scope, 1)).toHaveLength(1);
  expect(new MemoryPlanCache(0).pairs(scope, 10)).toEqual([]);
});
