/**
 * The `connection` block of a datasource: its checks (done when the adapter is built, without
 * opening anything; which keys each type takes is the config schema's) and the masked form shown
 * by listings.
 */
import { MASK } from '../../config/redact';
import { formatProblems, type ConfigProblem } from '../../config/config-error';
import { DatasourceConfigSchema, type ConnectionConfig, type DatasourceConfig } from '../../config/schema';
import { validateStrict } from '../../config/strict-validate';
import { DATASOURCE_TYPES } from './adapter';
import { DatasourceError } from './errors';

/** Keys whose whole value is a secret. `url` is masked only in its password part. */
const SECRET_KEYS = new Set(['password']);

/** Checks `config.connection` for its type; throws DATASOURCE_CONFIG_INVALID listing every problem. */
export function validateConnection(config: DatasourceConfig): void {
  const id = typeof config?.id === 'string' && config.id ? config.id : '(no id)';
  const type = config?.type;
  if (!DATASOURCE_TYPES.includes(type)) {
    throw invalid(id, [
      {
        path: 'type',
        message: `unknown datasource type '${String(type)}' (valid: ${DATASOURCE_TYPES.join(', ')})`,
      },
    ]);
  }
  const conn = (config.connection ?? {}) as Record<string, unknown>;
  if (typeof conn !== 'object' || Array.isArray(conn)) {
    throw invalid(id, [{ path: 'connection', message: 'must be an object' }]);
  }
  // Keys and value types per type come from the config schema (its keyed union), as for a config
  // file; what one key means for another is checked here.
  const problems = validateStrict(DatasourceConfigSchema, config).filter(
    (p) => p.path === 'connection' || p.path.startsWith('connection.'),
  );
  if (type === 'duckdb' || type === 'sqlite') {
    if (typeof conn.path !== 'string' || !conn.path.trim()) {
      problems.push({
        path: 'connection.path',
        message: `required for a ${type} datasource: the database file`,
      });
    }
  } else {
    checkServer(type, conn, problems);
  }
  if (problems.length) throw invalid(id, problems);
}

function checkServer(
  type: 'postgres' | 'mysql',
  conn: Record<string, unknown>,
  problems: ConfigProblem[],
): void {
  if (conn.url !== undefined) {
    for (const k of ['host', 'port', 'user', 'password', 'database']) {
      if (conn[k] !== undefined)
        problems.push({ path: `connection.${k}`, message: `give either 'url' or '${k}', not both` });
    }
    // The scheme is the schema's to check (connection.url of each type); what it must hold is here.
    if (typeof conn.url === 'string') {
      const parsed = parseUrl(conn.url);
      if (parsed && type === 'mysql' && parsed.pathname.replace(/^\//, '') === '') {
        problems.push({
          path: 'connection.url',
          message: 'must name the database, e.g. mysql://user@host:3306/shop',
        });
      }
    }
    return;
  }
  if (conn.host === undefined)
    problems.push({ path: 'connection.host', message: `required for a ${type} datasource (or give 'url')` });
  if (conn.database === undefined)
    problems.push({
      path: 'connection.database',
      message: `required for a ${type} datasource (or give 'url')`,
    });
}

/** A URL, tolerating a `${env:...}` reference in its password (resolved only at connect). */
export function parseUrl(url: string): URL | null {
  try {
    return new URL(url.replace(/\$\{[^}]*\}/g, 'ref'));
  } catch {
    return null;
  }
}

function invalid(id: string, problems: ConfigProblem[]): DatasourceError {
  return new DatasourceError('DATASOURCE_CONFIG_INVALID', id, formatProblems(problems, 'connection config'), {
    problems,
  });
}

/** The connection as listings show it: every secret `***`, a password inside a URL `***`. */
export function maskConnection(
  connection: ConnectionConfig | Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(connection ?? {})) {
    if (SECRET_KEYS.has(key) && value !== undefined && value !== null) out[key] = MASK;
    else if (key === 'url' && typeof value === 'string') out[key] = maskUrl(value);
    else out[key] = value;
  }
  return out;
}

/** `postgres://app:s3cret@db/shop?password=x` -> `postgres://app:***@db/shop?password=***`. */
export function maskUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*:)(.*)@(?=[^@]*$)/i, `$1${MASK}@`)
    .replace(/([?&](?:password|passwd|pwd|sslpassword)=)[^&#]*/gi, `$1${MASK}`);
}
