/**
 * The pipeline's topology as data: the steps before the sub-queries, the steps of one sub-query
 * (retried as a unit by the refiner), and the steps after. The pipeline loop reads this and nothing
 * else to know what runs in which order; node names are spelt here once.
 *
 *   before        datasource_resolver -> decomposer
 *   per sub-query [hook sub_query] -> verified_resolver | plan cache | ast_planner
 *                 -> logical_validator -> generator -> executor (when execute)
 *   after         result.manifest -> answer_synthesizer
 */
export const TOPOLOGY = {
  before: ['datasource_resolver', 'decomposer'],
  perSubQuery: ['verified_resolver', 'ast_planner', 'logical_validator', 'generator', 'executor'],
  after: ['answer_synthesizer'],
} as const;

export type RunNodeName = (typeof TOPOLOGY)['before' | 'after'][number];
export type SubQueryNodeName = (typeof TOPOLOGY)['perSubQuery'][number];
export type NodeName = RunNodeName | SubQueryNodeName;
