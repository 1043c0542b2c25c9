/**
 * Nodes as Nest providers, taken from the engine module in the testing module: each is built by
 * Nest with only the ports it injects, and does its one job on a sub-query's attempt.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { parseConfig } from '../../../src/config/loader';
import { DatasourceRegistry } from '../../../src/engine/datasources/registry';
import { EngineModule } from '../../../src/engine/engine.module';
import { Generator } from '../../../src/engine/run/nodes/generator';
import { LogicalValidator } from '../../../src/engine/run/nodes/logical-validator';
import { RunContext } from '../../../src/engine/run/run-context';
import { newRunState, newSubQuery, type SubQueryAttempt } from '../../../src/engine/run/run-state';
import { OperatorEvents } from '../../../src/engine/events/operator-events';
import { RunEventEmitter } from '../../../src/engine/events/run-events';
import type { ModelGateway } from '../../../src/engine/run/model-gateway';
import * as P from '../../../src/engine/plan/build';
import type { Query } from '../../../src/engine/plan/types';
import { makeSqliteFixture } from '../../support/app';

let moduleRef: TestingModule;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-nodes-'));
  const config = parseConfig(
    {
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
      policies: { roles: { admin: {}, clerk: { columns: { deny: ['shop.customers.country'] } } } },
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
      },
    },
    'nodes test config',
    { baseDir: dir },
  );
  moduleRef = await Test.createTestingModule({
    imports: [EngineModule.forRoot(config, { env: {} })],
  }).compile();
  await moduleRef.init();
});
afterAll(() => moduleRef.close());

async function attemptWith(plan: Query, roles: string[] = ['clerk']): Promise<SubQueryAttempt> {
  const run = newRunState({
    question: 'q',
    datasourceId: null,
    execute: true,
    caller: { roles, userId: null },
  });
  const sq = newSubQuery('sq1', 'q', 'shop');
  sq.snapshot = (await moduleRef.get(DatasourceRegistry).use('shop')).snapshot;
  sq.plan = plan;
  run.subQueries = [sq];
  return { run, sq, previous: null };
}

function context(): RunContext {
  const emitter = new RunEventEmitter('t', 'default', () => undefined, false);
  const models = {} as ModelGateway; // these nodes never call a model
  return new RunContext('t', 'default', emitter, new OperatorEvents(), models, new AbortController().signal);
}

const select = (column: string) =>
  P.query(P.select({ columns: [P.item(P.col(column), column)], from: P.table('customers') }));

describe('LogicalValidator', () => {
  it('refuses a column the role may not read, with no retry (a refusal, not a rejection)', async () => {
    const node = moduleRef.get(LogicalValidator);
    const attempt = await attemptWith(select('country'));
    await expect(node.run(attempt, context())).rejects.toMatchObject({ code: 'COLUMN_DENIED' });
    expect(attempt.sq.validation.find((v) => v.name === 'policy')?.passed).toBe(false);
  });

  it('rejects a misspelt column with a problem the planner can act on', async () => {
    const node = moduleRef.get(LogicalValidator);
    const attempt = await attemptWith(select('nmae'));
    await expect(node.run(attempt, context())).rejects.toMatchObject({
      code: 'UNKNOWN_COLUMN',
      problems: [expect.stringMatching(/nmae.*name/)],
    });
  });

  it('does not apply to a verified query (checked at start-up)', async () => {
    const attempt = await attemptWith(select('name'));
    attempt.sq.planSource = 'verified';
    expect(moduleRef.get(LogicalValidator).applies(attempt)).toBe(false);
  });
});

describe('Generator', () => {
  it('compiles the plan for the datasource dialect with values bound and the row cap applied', async () => {
    const attempt = await attemptWith(
      P.query(
        P.select({
          columns: [P.item(P.col('name'), 'name')],
          from: P.table('customers'),
          where: P.cmp('=', P.col('country'), P.lit('France')),
        }),
      ),
      ['admin'],
    );
    await moduleRef.get(Generator).run(attempt, context());
    expect(attempt.sq.executableSql).toMatch(/"country" = \?/);
    expect(attempt.sq.params).toEqual(['France']);
    expect(attempt.sq.datasourceRowCap).toBe(10000);
  });
});
