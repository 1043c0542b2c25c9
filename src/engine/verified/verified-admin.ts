/**
 * Verified queries at runtime (what the verified-queries routes call): list those a caller may
 * run (every one, with its status, for an admin), add one (checked exactly like a configured one,
 * then persisted so it survives a restart), remove one added at runtime (configured ones are
 * read-only). Additions and removals are audited.
 */
import { Inject, Injectable } from '@nestjs/common';
import { validateStrict } from '../../config/strict-validate';
import { VerifiedQuerySchema, type VerifiedQueryConfig } from '../../config/schema';
import { DatasourceRegistry } from '../datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { OperatorEvents } from '../events/operator-events';
import { getLogger } from '../logging/logger';
import { verifiedVisibleTo } from '../policy/verified-visibility';
import { VerifiedQueryStore } from './verified-query-store';
import {
  VerifiedQueries,
  VerifiedQueryInvalidError,
  type VerifiedEntry,
  type VerifiedOrigin,
  type VerifiedStatus,
} from './verified-queries';

const log = getLogger('nl2sql.verified');

/** Who lists or changes verified queries. */
export interface VerifiedCaller {
  readonly roles: readonly string[];
  readonly userId: string | null;
  /** Passes the admin routes' check: sees every verified query with its status. */
  readonly admin: boolean;
}

/** A verified query as the routes list it (wire, snake_case). */
export interface ListedVerifiedQuery {
  readonly id: string;
  readonly datasource_id: string;
  readonly question: string;
  readonly paraphrases: string[];
  readonly sql: string;
  readonly params: NonNullable<VerifiedQueryConfig['params']>;
  readonly origin: VerifiedOrigin;
  readonly status: VerifiedStatus;
  /** Why it is disabled; null when it is not. */
  readonly reason: string | null;
  /** When it was added (runtime ones); null for a configured one. */
  readonly created_at: string | null;
}

@Injectable()
export class VerifiedQueryAdmin {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly verified: VerifiedQueries,
    private readonly store: VerifiedQueryStore,
    private readonly datasources: DatasourceRegistry,
    private readonly events: OperatorEvents,
  ) {}

  /** Reads the runtime verified queries back from storage (at start-up, before the checks). */
  async load(): Promise<void> {
    for (const stored of await this.store.list(this.config.tenant_id)) {
      if (!this.verified.restore(stored.definition, stored.provenance))
        log.warn('a stored verified query is shadowed by a configured one of the same id', {
          id: stored.definition.id,
        });
    }
  }

  /**
   * The verified queries a caller may run (the policy decision that guards every compile): only
   * enabled ones. An admin sees every one, with its status and the reason when disabled.
   */
  list(caller: VerifiedCaller): ListedVerifiedQuery[] {
    const visible = verifiedVisibleTo(
      caller.roles,
      this.config.policies.roles,
      (id) => this.datasources.get(id)?.snapshot,
    );
    return this.verified
      .list()
      .filter((e) => caller.admin || (e.checked !== null && visible(e.checked)))
      .map(listed);
  }

  /**
   * Adds a verified query: the body is a `verified_queries` entry of the config file, checked the
   * same way against its datasource's current schema. VERIFIED_QUERY_INVALID names every problem
   * (shape, unknown datasource, SQL, parameters); VERIFIED_QUERY_EXISTS a taken id.
   */
  async add(raw: unknown, by: VerifiedCaller): Promise<ListedVerifiedQuery> {
    const shape = validateStrict(VerifiedQuerySchema, raw);
    const id = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : '?';
    if (shape.length) throw new VerifiedQueryInvalidError(id, shape);
    const definition = raw as VerifiedQueryConfig;
    if (!this.datasources.has(definition.datasource_id))
      throw new VerifiedQueryInvalidError(definition.id, [
        {
          path: 'datasource_id',
          message: `unknown datasource '${definition.datasource_id}' (known: ${this.datasources.ids().join(', ') || 'none'})`,
        },
      ]);
    const { snapshot } = await this.datasources.use(definition.datasource_id);
    if (!snapshot) throw new Error(`datasource '${definition.datasource_id}' has no schema`);
    const provenance = { created_at: new Date().toISOString(), roles: [...by.roles], user_id: by.userId };
    const entry = this.verified.addRuntime(definition, snapshot, provenance);
    try {
      await this.store.put(this.config.tenant_id, { definition, provenance });
    } catch (err) {
      // Not durable, so not added: a query that would vanish at the next restart is worse than an error.
      this.verified.removeRuntime(definition.id);
      throw err;
    }
    this.events.audit('verified_query.added', {
      id: definition.id,
      datasource_id: definition.datasource_id,
      roles: by.roles,
      user_id: by.userId,
    });
    log.info('verified query added at runtime', {
      id: definition.id,
      datasource_id: definition.datasource_id,
    });
    return listed(entry);
  }

  /** Removes a runtime verified query (NOT_FOUND unknown, VERIFIED_QUERY_READ_ONLY configured). */
  async remove(id: string, by: VerifiedCaller): Promise<void> {
    // Refused (unknown, configured) before anything is removed from storage.
    const entry = this.verified.removable(id);
    await this.store.remove(this.config.tenant_id, id);
    this.verified.removeRuntime(id);
    this.events.audit('verified_query.removed', {
      id,
      datasource_id: entry.definition.datasource_id,
      roles: by.roles,
      user_id: by.userId,
    });
    log.info('verified query removed at runtime', { id });
  }
}

function listed(e: VerifiedEntry): ListedVerifiedQuery {
  const d = e.definition;
  return {
    id: d.id,
    datasource_id: d.datasource_id,
    question: d.question,
    paraphrases: [...(d.paraphrases ?? [])],
    sql: d.sql,
    params: d.params ?? {},
    origin: e.origin,
    status: e.status,
    reason: e.reason,
    created_at: e.provenance?.created_at ?? null,
  };
}
