/**
 * Shared by the postgres and mysql adapters: the knex instance whose pool they draw raw driver
 * connections from, and the connection settings built from `connection` with the password (or
 * the URL holding it) resolved through the SecretManager only now, when the pool opens.
 */
import knex, { type Knex } from 'knex';
import type { ConnectionConfig } from '../../config/schema';
import type { SecretManager } from '../../config/secrets';
import { DatasourceError, causeMessage } from './errors';

export { DEFAULT_POOL_MAX } from '../../config/schema';

export interface ServerSettings {
  readonly host?: string;
  readonly port?: number;
  readonly user?: string;
  readonly password?: string;
  readonly database?: string;
  readonly url?: string;
  readonly ssl: boolean;
}

export function resolveServerSettings(
  id: string,
  conn: ConnectionConfig,
  secrets: SecretManager,
): ServerSettings {
  try {
    return {
      host: conn.host,
      port: conn.port,
      user: conn.user,
      password:
        conn.password === undefined ? undefined : secrets.resolve(conn.password, 'connection.password'),
      database: conn.database,
      url: conn.url === undefined ? undefined : secrets.resolve(conn.url, 'connection.url'),
      ssl: conn.ssl === true,
    };
  } catch (error) {
    throw new DatasourceError('DATASOURCE_CONFIG_INVALID', id, causeMessage(error));
  }
}

/** Raw driver connections from knex's pool (the adapters drive the drivers themselves). */
export interface RawPool<C> {
  readonly knex: Knex;
  /**
   * A connection of the pool, in turn. `signal` ends the wait: an aborted request leaves the queue
   * at once (it never takes a connection later) and the call rejects with the signal's reason.
   */
  acquire(signal?: AbortSignal): Promise<C>;
  /** Returns a connection; a broken one (`broken` true) is destroyed instead of reused. */
  release(connection: C, broken?: boolean): Promise<void>;
  /** A connection outside the pool, for a cancel that must not wait for a free slot. */
  withSideConnection<T>(work: (connection: C) => Promise<T>): Promise<T>;
  destroy(): Promise<void>;
}

/** knex warns on the console about connections the adapter disposes on purpose; the adapter
 * reports real failures itself, as typed errors. */
const quiet = {
  warn: () => undefined,
  deprecate: () => undefined,
  debug: () => undefined,
  error: () => undefined,
};

/**
 * Creates the pool and proves it with one connection (`probe` runs on it), so a wrong address or
 * password fails at connect; a pool that fails its probe is destroyed.
 */
export async function openRawPool<C extends object>(
  config: Knex.Config,
  probe: (connection: C) => Promise<void>,
): Promise<RawPool<C>> {
  const pool = createRawPool<C>(config);
  try {
    const connection = await pool.acquire();
    try {
      await probe(connection);
    } finally {
      await pool.release(connection);
    }
  } catch (error) {
    await pool.destroy().catch(() => undefined);
    throw error;
  }
  return pool;
}

/** tarn's pool under knex: `acquire()` gives a pending request that `abort()` takes off the queue. */
interface TarnPool<C> {
  acquire(): { promise: Promise<C>; abort(): void };
}

/** tarn's timeout error has no name of its own: it is told by its class name. */
const isTarnTimeout = (error: unknown) => (error as Error)?.constructor?.name === 'TimeoutError';

function createRawPool<C extends object>(config: Knex.Config): RawPool<C> {
  const k = knex({ log: quiet, ...config });
  const client = k.client as {
    pool: TarnPool<C> | undefined;
    releaseConnection(c: C): Promise<void>;
    acquireRawConnection(): Promise<C>;
    destroyRawConnection(c: C): Promise<void>;
  };
  return {
    knex: k,
    // knex's acquireConnection() cannot be abandoned: its request would stay queued and take a
    // connection after the caller left. tarn's own request can, so it is used directly.
    async acquire(signal) {
      signal?.throwIfAborted();
      const pool = client.pool;
      if (!pool) throw new Error('Unable to acquire a connection: the pool is closed');
      const request = pool.acquire();
      const onAbort = () => request.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const connection = await request.promise;
        hidePassword(connection);
        return connection;
      } catch (error) {
        if (signal?.aborted) throw signal.reason as Error;
        // the message the adapters classify as DATASOURCE_UNAVAILABLE, as knex words it
        if (isTarnTimeout(error))
          throw new Error('Knex: Timeout acquiring a connection. The pool is probably full.', {
            cause: error,
          });
        throw error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async release(connection, broken = false) {
      // knex's pool validates a connection before reuse and drops one marked disposed
      if (broken)
        (connection as { __knex__disposed?: unknown }).__knex__disposed = 'abandoned by the adapter';
      await client.releaseConnection(connection);
    },
    async withSideConnection(work) {
      const raw = await client.acquireRawConnection();
      try {
        return await work(raw);
      } finally {
        await client.destroyRawConnection(raw).catch(() => undefined);
      }
    },
    destroy: () => k.destroy(),
  };
}

/** As knex does on acquire: the driver's copy of the password is kept out of logs and dumps. */
function hidePassword(connection: object): void {
  const config = (connection as { config?: { password?: unknown } }).config;
  if (config && typeof config === 'object' && config.password)
    Object.defineProperty(config, 'password', { enumerable: false, value: config.password });
}
