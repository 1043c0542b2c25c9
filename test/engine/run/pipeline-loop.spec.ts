/**
 * The pipeline loop through Nest's testing module: the real engine module on a SQLite fixture, with
 * the model-facing nodes (resolver, decomposer, planner, answer) replaced by scripted ones, so the
 * loop's own rules are what is tested: the topology's order, a sub-query retried as a unit, a
 * cancellation honoured before the next step.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { lastValueFrom, toArray } from 'rxjs';
import { parseConfig } from '../../../src/config/loader';
import { EngineModule } from '../../../src/engine/engine.module';
import { RefusalError, RunCancelledError } from '../../../src/engine/errors';
import { OperatorEvents, type OperatorEvent } from '../../../src/engine/events/operator-events';
import type { RunEvent } from '../../../src/engine/events/run-events';
import type { RunNode, SubQueryNode } from '../../../src/engine/run/node';
import { AnswerSynthesizer } from '../../../src/engine/run/nodes/answer-synthesizer';
import { AstPlanner } from '../../../src/engine/run/nodes/ast-planner';
import { DatasourceResolver } from '../../../src/engine/run/nodes/datasource-resolver';
import { Decomposer } from '../../../src/engine/run/nodes/decomposer';
import { RunService } from '../../../src/engine/run/run-service';
import {
  newSubQuery,
  type AttemptFeedback,
  type RunRequest,
  type SubQueryAttempt,
} from '../../../src/engine/run/run-state';
import type { QueryResponse } from '../../../src/engine/run/query-response';
import * as P from '../../../src/engine/plan/build';
import type { Query } from '../../../src/engine/plan/types';
import { makeSqliteFixture } from '../../support/app';

const resolver: RunNode = {
  run: async (state) => {
    state.candidateDatasources = ['shop'];
  },
};
const decomposer: RunNode = {
  run: async (state) => {
    state.subQueries = [newSubQuery('sq1', state.request.question, 'shop')];
  },
};
const answer: RunNode = {
  applies: (state) => state.subQueries.some((s) => s.status === 'success'),
  run: async (state) => {
    state.finalAnswer = { summary: 'done', format_type: 'text', content: '', warnings: [], truncated: false };
  },
};

/** A planner that answers with the next plan of its script and records the feedback it was given. */
class ScriptedPlanner implements SubQueryNode {
  readonly seen: (AttemptFeedback | null)[] = [];
  onRun: () => void = () => undefined;
  constructor(private readonly plans: Query[]) {}
  applies(attempt: SubQueryAttempt): boolean {
    return attempt.sq.plan === null;
  }
  async run(attempt: SubQueryAttempt): Promise<void> {
    this.seen.push(attempt.previous);
    this.onRun();
    const plan = this.plans.shift();
    if (!plan) throw new Error('the planner was called more often than scripted');
    attempt.sq.plan = plan;
    attempt.sq.planSource = 'llm';
  }
}

const countCustomers = P.query(
  P.select({ columns: [P.item(P.countStar(), 'customers')], from: P.table('customers') }),
);
const misspelt = P.query(P.select({ columns: [P.item(P.col('nmae'), 'name')], from: P.table('customers') }));

let moduleRef: TestingModule;
let planner: ScriptedPlanner;

async function start(plans: Query[], maxRetries = 2): Promise<RunService> {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-loop-'));
  const config = parseConfig(
    {
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
      },
      settings: { pipeline: { max_retries: maxRetries } },
    },
    'loop test config',
    { baseDir: dir },
  );
  planner = new ScriptedPlanner(plans);
  moduleRef = await Test.createTestingModule({ imports: [EngineModule.forRoot(config, { env: {} })] })
    .overrideProvider(DatasourceResolver)
    .useValue(resolver)
    .overrideProvider(Decomposer)
    .useValue(decomposer)
    .overrideProvider(AstPlanner)
    .useValue(planner)
    .overrideProvider(AnswerSynthesizer)
    .useValue(answer)
    .compile();
  await moduleRef.init();
  return moduleRef.get(RunService);
}

afterEach(() => moduleRef?.close());

const request = (question: string): RunRequest => ({
  question,
  datasourceId: null,
  execute: true,
  caller: { roles: [], userId: null },
});

function steps(events: RunEvent[]): string[] {
  return events.filter((e) => e.name === 'node.started').map((e) => (e.data as { node: string }).node);
}

it('runs the topology in order: before, the sub-query unit, after', async () => {
  const runs = await start([countCustomers]);
  const events = await lastValueFrom(runs.stream(request('How many customers?')).pipe(toArray()));
  expect(steps(events)).toEqual([
    'datasource_resolver',
    'decomposer',
    'verified_resolver',
    'ast_planner',
    'logical_validator',
    'generator',
    'executor',
    'answer_synthesizer',
  ]);
  expect(events[0]!.name).toBe('run.started');
  expect(events.at(-1)!.name).toBe('run.finished');
  const result = (events.at(-1)!.data as { result: QueryResponse }).result;
  expect(result.sub_queries[0]!.rows!.rows).toEqual([[2]]);
});

it('retries a rejected sub-query as a unit: the planner again with the problems, then the rest', async () => {
  const runs = await start([misspelt, countCustomers]);
  const events = await lastValueFrom(runs.stream(request('Customer names')).pipe(toArray()));
  expect(steps(events)).toEqual([
    'datasource_resolver',
    'decomposer',
    'verified_resolver',
    'ast_planner',
    'logical_validator',
    // The retry: no verified resolver, no plan cache, the planner with feedback.
    'ast_planner',
    'logical_validator',
    'generator',
    'executor',
    'answer_synthesizer',
  ]);
  expect(planner.seen[0]).toBeNull();
  expect(planner.seen[1]!.plan).toEqual(misspelt);
  expect(planner.seen[1]!.problems.join(' ')).toMatch(/nmae/);
  const result = (events.at(-1)!.data as { result: QueryResponse }).result;
  expect(result.status).toBe('success');
  expect(result.sub_queries[0]!.retry_count).toBe(1);
});

it('reports the last problem when the retries run out', async () => {
  const runs = await start([misspelt, misspelt], 1);
  const result = await runs.run(request('Customer names, again'));
  expect(result.status).toBe('error');
  expect(result.errors[0]).toMatchObject({ error_code: 'UNKNOWN_COLUMN', sub_query_id: 'sq1' });
  expect(planner.seen).toHaveLength(2);
});

it('names the step that failed in errors[], from the loop, without writing on the error', async () => {
  const runs = await start([]);
  const refusal = new RefusalError('QUESTION_UNANSWERABLE', 'nothing here answers that');
  planner.onRun = () => {
    throw refusal;
  };
  const result = await runs.run(request('What is the meaning of life?'));
  expect(result.errors).toEqual([
    expect.objectContaining({
      node: 'ast_planner',
      error_code: 'QUESTION_UNANSWERABLE',
      sub_query_id: 'sq1',
    }),
  ]);
  expect(refusal).not.toHaveProperty('node');
});

it('stops before the next step once the run is cancelled, and run() rejects with RUN_CANCELLED', async () => {
  const runs = await start([countCustomers]);
  const abort = new AbortController();
  planner.onRun = () => abort.abort();
  const events = runs.stream(request('How many customers now?'), { signal: abort.signal });
  const all = await lastValueFrom(events.pipe(toArray()));
  expect(steps(all).at(-1)).toBe('ast_planner');
  expect(all.at(-1)).toMatchObject({ name: 'run.failed', data: { error_code: 'RUN_CANCELLED' } });

  const again = new AbortController();
  planner.onRun = () => again.abort();
  await expect(runs.run(request('And how many now?'), again.signal)).rejects.toBeInstanceOf(
    RunCancelledError,
  );
});

it('uses a cached plan on a repeated question instead of the planner', async () => {
  const runs = await start([countCustomers]);
  await runs.run(request('How many customers are there?'));
  const events = await lastValueFrom(runs.stream(request('how many customers are there')).pipe(toArray()));
  expect(steps(events)).not.toContain('ast_planner');
  const result = (events.at(-1)!.data as { result: QueryResponse }).result;
  expect(result.sub_queries[0]!.plan_source).toBe('cache');
  expect(result.usage).toMatchObject({ plan_cache_hits: 1 });
});

it('is cold: nothing runs until subscribed, and unsubscribing cancels the run', async () => {
  const runs = await start([countCustomers]);
  const stream = runs.stream(request('How many customers, lazily?'));
  await new Promise((r) => setImmediate(r));
  expect(planner.seen).toHaveLength(0);
  const ended = new Promise<OperatorEvent>((resolve) => {
    moduleRef.get(OperatorEvents).subscribe((e) => {
      if (e.name === 'run.ended') resolve(e);
    });
  });
  const seen: string[] = [];
  const subscription = stream.subscribe((e) => {
    seen.push(e.name === 'node.started' ? (e.data as { node: string }).node : e.name);
  });
  planner.onRun = () => subscription.unsubscribe();
  expect((await ended).data).toMatchObject({ status: 'cancelled' });
  expect(planner.seen).toHaveLength(1);
  expect(seen).toContain('ast_planner');
  expect(seen).not.toContain('logical_validator');
});
