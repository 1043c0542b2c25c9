/**
 * Where the playground's built files are (`npm run build` bundles src/web/page into dist/web) and
 * which of them may be served: only plain file names found in that folder, never a path.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** dist/web of the project, from src/ (tests) and from dist/ (a build) alike. */
const DEFAULT_WEB_DIR = resolve(__dirname, '..', '..', '..', 'dist', 'web');

/** NL2SQL_WEB_DIR points at another build of the page (the browser tests build one into their temp folder). */
export function webDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.NL2SQL_WEB_DIR ? resolve(env.NL2SQL_WEB_DIR) : DEFAULT_WEB_DIR;
}

const PLAIN_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The absolute path of a built asset, or null when the name is not one of the folder's files. */
export function assetPath(dir: string, name: string): string | null {
  if (!PLAIN_NAME.test(name) || !existsSync(dir)) return null;
  return readdirSync(dir).includes(name) ? join(dir, name) : null;
}
