/** Agent names per step; a missing agent falls back to `default` (spec 4.11). */
export const AGENTS = {
  router: 'datasource_resolver',
  decomposer: 'decomposer',
  planner: 'ast_planner',
  verified: 'verified_resolver',
  answer: 'answer_synthesizer',
} as const;
