/**
 * A datasource's instructions and glossary as the planner and the decomposer see them: rules apart
 * from the schema, instructions first, the glossary terms the question names next (matched through
 * case, accents and plurals), the rest while a token budget lasts, SQL meanings shown as SQL.
 * Budgets are checked with a real tokenizer (o200k), not with the estimate the code uses.
 */
import { encode } from 'gpt-tokenizer';
import { describeCandidates } from '../../../src/engine/run/prompts/decomposer';
import { namedTerms } from '../../../src/engine/run/prompts/glossary';
import { KNOWLEDGE_TOKENS, knowledgeText } from '../../../src/engine/run/prompts/knowledge';
import { plannerPlanSystem } from '../../../src/engine/run/prompts/planner-plan';
import { plannerSqlSystem } from '../../../src/engine/run/prompts/planner-sql-draft';

const tokens = (text: string) => encode(text).length;

const glossary = {
  AOV: 'AVG(orders.total_amount)',
  'active customer': 'a customer with at least one order in the last 90 days',
  'Café sales': "orders.channel = 'cafe'",
  churn: 'customers whose last order is more than a year old',
};

describe('which glossary terms a question names', () => {
  it('matches through case, accents, punctuation and plurals, in the order the question names them', () => {
    expect(namedTerms(glossary, 'How many ACTIVE customers had cafe-sales, and what was the AOV?')).toEqual([
      'active customer',
      'Café sales',
      'AOV',
    ]);
  });

  it('needs every word of a term, together', () => {
    expect(namedTerms(glossary, 'Which customer was active in May?')).toEqual([]);
    expect(namedTerms(glossary, 'the average order value')).toEqual([]);
    expect(namedTerms({ order: 'x', 'order value': 'y' }, 'order values')).toEqual(['order value', 'order']);
  });
});

describe('the knowledge block', () => {
  it('is empty for a datasource with neither instructions nor glossary', () => {
    expect(knowledgeText({}, 'anything', 'duckdb')).toBe('');
    expect(knowledgeText({ instructions: '  ', glossary: {} }, 'anything', 'duckdb')).toBe('');
  });

  it('puts the instructions first, then the named terms, then the others; a SQL meaning is shown as SQL', () => {
    const text = knowledgeText(
      { instructions: 'Revenue excludes cancelled orders.', glossary },
      'What is the churn of active customers?',
      'postgres',
    );
    expect(text).toBe(
      [
        'Business rules of this datasource (follow them):',
        'Revenue excludes cancelled orders.',
        'Terms as this datasource uses them:',
        '- churn: customers whose last order is more than a year old',
        '- active customer: a customer with at least one order in the last 90 days',
        '- AOV (SQL expression): AVG(orders.total_amount)',
        "- Café sales (SQL expression): orders.channel = 'cafe'",
      ].join('\n'),
    );
  });

  it('cuts instructions over the budget at a word, with a visible mark, and stays within the budget', () => {
    const rules = Array.from({ length: 120 }, (_, i) => `Rule ${i}: revenue excludes cancelled orders.`).join(
      ' ',
    );
    const text = knowledgeText({ instructions: rules }, 'revenue per month', 'duckdb');
    expect(text.startsWith('Business rules of this datasource (follow them):\nRule 0: revenue')).toBe(true);
    const mark = ' […cut: the rules go on beyond this prompt’s budget]';
    expect(text.endsWith(mark)).toBe(true);
    // What is kept is the rules' beginning, up to a whole word.
    const kept = text.slice(text.indexOf('\n') + 1, -mark.length);
    expect(rules.startsWith(kept)).toBe(true);
    expect(rules[kept.length]).toBe(' ');
    expect(tokens(text)).toBeLessThanOrEqual(KNOWLEDGE_TOKENS);
    expect(tokens(text)).toBeGreaterThan(KNOWLEDGE_TOKENS * 0.6);
  });

  it('keeps the named terms when the glossary is over the budget and says how many were left out', () => {
    const big: Record<string, string> = {};
    for (let i = 0; i < 60; i++)
      big[`metric ${i}`] = `sum of the amounts of kind ${i} over the fiscal year, in euros`;
    big['gross margin'] = '(revenue - cost) / revenue';
    const text = knowledgeText(
      { instructions: 'Fiscal years start in April.', glossary: big },
      'What was the gross margin in 2024?',
      'mysql',
    );
    const lines = text.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Business rules of this datasource (follow them):',
      'Fiscal years start in April.',
      'Terms as this datasource uses them:',
      '- gross margin (SQL expression): (revenue - cost) / revenue',
    ]);
    // The others follow in the config's order while the budget lasts.
    expect(lines[4]).toBe('- metric 0: sum of the amounts of kind 0 over the fiscal year, in euros');
    const shown = lines.filter((l) => l.startsWith('- metric')).length;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(60);
    expect(lines.at(-1)).toBe(`(${60 - shown} more glossary terms left out for length)`);
    expect(tokens(text)).toBeLessThanOrEqual(KNOWLEDGE_TOKENS);
  });

  it('flattens a multi-line definition to its one line', () => {
    expect(knowledgeText({ glossary: { VIP: 'a customer\nwith 10+ orders' } }, 'vip', 'sqlite')).toBe(
      'Terms as this datasource uses them:\n- VIP: a customer with 10+ orders',
    );
  });
});

describe('where the knowledge goes in the prompts', () => {
  const knowledge = knowledgeText(
    { instructions: 'Revenue excludes cancelled orders.', glossary },
    'AOV?',
    'duckdb',
  );

  it('sits among the rules, before the schema, in both planner formats', () => {
    for (const system of [
      plannerSqlSystem('duckdb', 'CREATE TABLE orders (...);', knowledge),
      plannerPlanSystem('CREATE TABLE orders (...);', knowledge),
    ]) {
      const rules = system.indexOf('Rules:');
      const at = system.indexOf('Business rules of this datasource');
      const schema = system.indexOf('Schema:\nCREATE TABLE orders');
      expect(rules).toBeGreaterThanOrEqual(0);
      expect(at).toBeGreaterThan(rules);
      expect(schema).toBeGreaterThan(system.indexOf('- AOV (SQL expression)'));
    }
  });

  it('leaves the planner prompts as they were for a datasource without knowledge', () => {
    expect(plannerSqlSystem('duckdb', 'S', '')).toBe(plannerSqlSystem('duckdb', 'S'));
    expect(plannerSqlSystem('duckdb', 'S')).toMatch(/unanswerable_reason\.\n\nSchema:\nS$/);
    expect(plannerPlanSystem('S')).toMatch(/unanswerable_reason\.\n\nSchema:\nS$/);
  });

  it("indents each decomposer candidate's knowledge under it", () => {
    expect(
      describeCandidates([
        { id: 'shop', description: 'Web shop', knowledge: 'Terms as this datasource uses them:\n- AOV: x' },
        { id: 'crm', description: null, knowledge: '' },
      ]),
    ).toBe('- shop: Web shop\n  Terms as this datasource uses them:\n  - AOV: x\n- crm: (no description)');
  });
});
