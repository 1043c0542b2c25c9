/**
 * A scripted model for the curation tests: it answers "... in <Country>" questions about the shop's
 * customers with the SQL a real model would write, the country spelt as the question spells it.
 */
import type { FakeModelServer } from './fake-model';
import { PipelineModel, questionOf } from './pipeline-model';

export function customersByCountryModel(fake: FakeModelServer, datasourceId = 'shop'): PipelineModel {
  return new PipelineModel(fake)
    .single(datasourceId)
    .on('sql_draft', (req) => {
      const country = /in (\w+)\??$/.exec(questionOf(req))?.[1] ?? 'nowhere';
      return {
        json: { sql: `SELECT name FROM customers WHERE country = '${country}'`, unanswerable_reason: null },
      };
    })
    .on('answer', { text: 'Here they are.' });
}
