/**
 * Suggestions built in code: literals the question names lifted into typed parameters, paraphrases
 * grouped by the plan modulo those literals, evidence counted, and nothing suggested twice.
 */
import type { FeedbackRecord } from '../../../src/engine/feedback/feedback-record';
import { importSql } from '../../../src/engine/plan';
import type { Query } from '../../../src/engine/plan/types';
import { MemoryPlanCache } from '../../../src/engine/run/plan-cache';
import { liftLiterals } from '../../../src/engine/verified/suggestions/lift-literals';
import {
  buildSuggestions,
  type SuggestionSources,
} from '../../../src/engine/verified/suggestions/suggestions';
import { templateSql } from '../../../src/engine/verified/suggestions/template-sql';
import { SHOP } from '../../support/plan-fixtures';

const plan = (sql: string): Query => importSql(sql, 'sqlite', SHOP);
const BY_COUNTRY = (country: string) =>
  plan(
    `SELECT count(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = '${country}' AND o.code <> 'X'`,
  );

let n = 0;
function rated(
  question: string,
  p: Query | null,
  rating: 'up' | 'down',
  extra: Partial<FeedbackRecord> = {},
) {
  n++;
  return {
    id: `f${n}`,
    request_id: `run${n}`,
    rating,
    comment: null,
    corrected_sql: null,
    corrected_plan: null,
    corrected_datasource_id: null,
    created_at: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
    by: { roles: ['analyst'], user_id: null },
    run: {
      question,
      roles: ['analyst'],
      user_id: null,
      status: 'success',
      source: { type: 'generated', id: null },
      sub_queries: [
        {
          id: 'sq1',
          intent: question,
          datasource_id: 'shop',
          schema_version: 'test',
          sql: null,
          plan: p,
          plan_source: 'llm' as const,
          status: 'success' as const,
        },
      ],
    },
    ...extra,
  } satisfies FeedbackRecord;
}

const sources = (over: Partial<SuggestionSources>): SuggestionSources => ({
  feedback: [],
  served: [],
  snapshotOf: (id) => (id === 'shop' ? SHOP : null),
  existing: [],
  takenIds: new Set(),
  ...over,
});

describe('lifting literals', () => {
  it('lifts the values the question names, typed, and leaves the others as part of the query', () => {
    const lifted = liftLiterals(
      plan(
        "SELECT id FROM orders o WHERE o.amount > 10 AND o.placed BETWEEN '2024-01-01' AND '2024-03-31' AND o.code <> 'X' AND o.customer_id IN (3)",
      ),
      'Orders above 10 between 2024-01-01 and 2024-03-31 of customer 3',
      SHOP,
    );
    expect(lifted.question).toBe(
      'Orders above :amount between :placed_from and :placed_to of customer :customer_id',
    );
    expect(lifted.params).toEqual({
      amount: { type: 'number', description: 'Compared with orders.amount, e.g. 10', example: 10 },
      placed_from: {
        type: 'date',
        description: 'Compared with orders.placed, e.g. 2024-01-01',
        example: '2024-01-01',
      },
      placed_to: {
        type: 'date',
        description: 'Compared with orders.placed, e.g. 2024-03-31',
        example: '2024-03-31',
      },
      customer_id: { type: 'integer', description: 'Compared with orders.customer_id, e.g. 3', example: 3 },
    });
    const template = templateSql(lifted.plan, lifted.params, SHOP);
    expect(template?.sql).toBe(
      'SELECT "id" FROM "orders" AS "o" WHERE ("o"."amount" > :amount) AND ("o"."placed" BETWEEN :placed_from AND :placed_to) AND ("o"."code" <> \'X\') AND ("o"."customer_id" IN (:customer_id))',
    );
  });

  it('names a value compared through a function after the function and its column', () => {
    const lifted = liftLiterals(
      plan("SELECT count(*) AS n FROM orders WHERE substr(placed, 1, 4) = '2024'"),
      'How many orders in 2024?',
      SHOP,
    );
    // '2024' is text here, and the question writes it as a number: a word of the question all the same.
    expect(Object.keys(lifted.params)).toEqual(['substring_placed']);
    expect(lifted.question).toBe('How many orders in :substring_placed?');
  });

  it('lifts nothing the question does not name', () => {
    const lifted = liftLiterals(BY_COUNTRY('France'), 'How many French orders?', SHOP);
    expect(lifted.params).toEqual({});
    expect(lifted.question).toBe('How many French orders?');
  });
});

describe('building suggestions', () => {
  it('groups two up-rated paraphrases with different values into one suggestion with a lifted parameter', () => {
    const [s, ...rest] = buildSuggestions(
      sources({
        feedback: [
          rated('How many orders came from France?', BY_COUNTRY('France'), 'up'),
          rated('Number of orders placed from Finland', BY_COUNTRY('Finland'), 'up'),
        ],
      }),
    );
    expect(rest).toEqual([]);
    expect(s!.verified_query).toMatchObject({
      datasource_id: 'shop',
      question: 'How many orders came from :country?',
      paraphrases: ['Number of orders placed from :country'],
      params: { country: { type: 'string', description: 'Compared with customers.country, e.g. France' } },
    });
    expect(s!.verified_query.id).toMatch(/^many_orders_came_[0-9a-f]{4}$/);
    expect(s!.verified_query.sql).toContain('"c"."country" = :country');
    expect(s!.verified_query.sql).toContain(`"o"."code" <> 'X'`);
    expect(s!.evidence.ratings).toEqual({ up: 2, down: 0 });
    expect(s!.evidence.runs.map((r) => r.question)).toEqual([
      'How many orders came from France?',
      'Number of orders placed from Finland',
    ]);
  });

  it('leaves out a plan rated down as often as up, and one a verified query already has', () => {
    const feedback = [
      rated('How many orders came from France?', BY_COUNTRY('France'), 'up'),
      rated('How many orders came from Finland?', BY_COUNTRY('Finland'), 'down'),
    ];
    expect(buildSuggestions(sources({ feedback }))).toEqual([]);
    const [suggested] = buildSuggestions(sources({ feedback: feedback.slice(0, 1) }));
    const existing = [
      { datasource_id: 'shop', plan: importSql(suggested!.verified_query.sql, 'sqlite', SHOP) },
    ];
    expect(buildSuggestions(sources({ feedback: feedback.slice(0, 1), existing }))).toEqual([]);
  });

  it('suggests a correction and a plan the cache served repeatedly, each with its evidence', () => {
    const correction = plan('SELECT count(*) AS n FROM orders WHERE amount > 20');
    const list = buildSuggestions(
      sources({
        feedback: [
          rated('How many orders above 20?', plan('SELECT count(*) AS n FROM orders'), 'down', {
            corrected_sql: 'SELECT count(*) AS n FROM orders WHERE amount > 20',
            corrected_plan: correction,
            corrected_datasource_id: 'shop',
          }),
        ],
        served: [
          {
            question: 'customers of France',
            datasourceId: 'shop',
            plan: plan("SELECT name FROM customers WHERE country = 'France'"),
            hits: 3,
          },
          {
            question: 'customers of Spain',
            datasourceId: 'shop',
            plan: plan("SELECT name FROM customers WHERE country = 'Spain'"),
            hits: 1,
          },
        ],
      }),
    );
    expect(
      list.map((s) => [s.verified_query.question, s.evidence.corrections, s.evidence.plan_cache.hits]),
    ).toEqual([
      ['How many orders above :amount?', 1, 0],
      ['customers of :country', 0, 4],
    ]);
    // 'customers of France' and 'customers of Spain' are one template.
    expect(list[1]!.verified_query.paraphrases).toEqual([]);
    expect(list[1]!.evidence.plan_cache.questions).toEqual(['customers of France', 'customers of Spain']);
  });
});

it('the plan cache counts the hits of each plan and lists those served repeatedly', () => {
  const cache = new MemoryPlanCache(10);
  const key = { intent: 'q', datasourceId: 'shop', schemaVersion: 'v', roleScope: 'r' };
  cache.set(key, BY_COUNTRY('France'));
  cache.set({ ...key, intent: 'other' }, BY_COUNTRY('Spain'));
  cache.get(key);
  expect(cache.served(2)).toEqual([]);
  cache.get(key);
  expect(cache.served(2)).toEqual([{ key, plan: BY_COUNTRY('France'), hits: 2 }]);
});
