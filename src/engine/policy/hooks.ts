/**
 * Hooks decide allow or deny for a run (scope `run`) or each sub-query (scope `sub_query`).
 * Configured as modules (`hooks: [{module, scope}]`, a CommonJS module exporting `decide` or a
 * default function) or registered in code. A denied sub-query is `dropped` and the run goes on.
 * Every decision goes to the operator subscription, never to the caller's stream.
 */
import type { HookConfig } from '../../config/schema';
import type { OperatorEvents } from '../events/operator-events';

export type HookScope = 'run' | 'sub_query';

export interface HookInput {
  readonly scope: HookScope;
  readonly question: string;
  readonly roles: readonly string[];
  readonly userId: string | null;
  readonly traceId: string;
  /** For scope sub_query. */
  readonly subQuery?: { readonly id: string; readonly intent: string; readonly datasourceId: string };
}

export interface HookDecision {
  readonly allow: boolean;
  readonly reason?: string;
}

export type Hook = (input: HookInput) => HookDecision | Promise<HookDecision>;

interface Registered {
  readonly name: string;
  readonly scope: HookScope;
  readonly hook: Hook;
}

export class HookRunner {
  private readonly hooks: Registered[] = [];

  constructor(
    configured: readonly HookConfig[],
    private readonly operator: OperatorEvents,
  ) {
    for (const h of configured)
      this.hooks.push({ name: h.module, scope: h.scope ?? 'run', hook: loadHook(h.module) });
  }

  register(name: string, scope: HookScope, hook: Hook): void {
    this.hooks.push({ name, scope, hook });
  }

  /** The first deny wins; a hook that throws denies (fail closed) with its error as the reason. */
  async decide(input: HookInput): Promise<HookDecision & { hook: string | null }> {
    for (const h of this.hooks.filter((x) => x.scope === input.scope)) {
      let decision: HookDecision;
      try {
        decision = await h.hook(input);
      } catch (err) {
        decision = {
          allow: false,
          reason: `hook failed: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
      this.operator.emit(
        'hook.decision',
        {
          hook: h.name,
          scope: input.scope,
          allow: decision.allow,
          reason: decision.reason ?? null,
          sub_query_id: input.subQuery?.id ?? null,
        },
        input.traceId,
      );
      if (!decision.allow) return { ...decision, hook: h.name };
    }
    return { allow: true, hook: null };
  }
}

function loadHook(path: string): Hook {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path) as { decide?: Hook; default?: Hook } | Hook;
  const fn = typeof mod === 'function' ? mod : (mod.decide ?? mod.default);
  if (typeof fn !== 'function')
    throw new Error(`hook module ${path} exports no function (export decide or a default function)`);
  return fn;
}
