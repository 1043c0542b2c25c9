/** One thing wrong in a configuration: where (a dotted path to the key) and what. */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * A configuration that cannot be used. The message gives the problem count and a path to each
 * faulty key, so that the same text serves the start-up log and the 422 of PUT /settings/llm.
 */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(
    readonly problems: readonly ConfigProblem[],
    readonly source = 'config',
  ) {
    super(formatProblems(problems, source));
    this.name = 'ConfigError';
  }
}

export function formatProblems(problems: readonly ConfigProblem[], source: string): string {
  const n = problems.length;
  const lines = problems.map((p) => `  - ${p.path || '(top level)'}: ${p.message}`);
  return `${n} problem${n === 1 ? '' : 's'} in ${source}:\n${lines.join('\n')}`;
}
