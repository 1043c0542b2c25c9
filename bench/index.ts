/**
 * `npm run bench -- <suite> [--data DIR] [--json OUT] [suite options]`
 * Each suite lives in bench/<suite>/index.ts and exports `run(args): Promise<object>`; the figures
 * it returns are printed by the suite and, with --json, written to OUT.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

export interface BenchArgs {
  readonly data?: string;
  readonly json?: string;
  readonly options: Record<string, string | boolean | undefined>;
}

const SUITES = [
  'roundtrip',
  'retrieval',
  'e2e',
  'results',
  'prompts',
  'accuracy',
  'soak',
  'values',
  'verified',
] as const;

async function main(): Promise<void> {
  const [suite, ...rest] = process.argv.slice(2);
  if (!suite || !(SUITES as readonly string[]).includes(suite)) {
    console.error(`usage: npm run bench -- <${SUITES.join('|')}> [--data DIR] [--json OUT]`);
    process.exit(2);
  }
  const { values } = parseArgs({
    args: joinOptionValues(rest),
    strict: false,
    options: { data: { type: 'string' }, json: { type: 'string' } },
  });
  const mod = (await import(`./${suite}/index`)) as { run(args: BenchArgs): Promise<object> };
  const figures = await mod.run({
    data: values.data as string | undefined,
    json: values.json as string | undefined,
    options: values,
  });
  if (values.json) writeFileSync(String(values.json), JSON.stringify(figures, null, 2) + '\n');
}

/**
 * `--name value` -> `--name=value`: with `strict: false`, parseArgs reads an option it was not told
 * about (a suite's own, such as --limit) as a flag and drops its value.
 */
function joinOptionValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if (arg.startsWith('--') && !arg.includes('=') && value !== undefined && !value.startsWith('--')) {
      out.push(`${arg}=${value}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
