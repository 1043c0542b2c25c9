/**
 * The run's only way to call a model. Before each call it checks cancellation and the caps
 * (`settings.pipeline.max_model_calls`, `max_cost_usd`); after it, it records the call in the
 * run's usage and tells operators (never the caller's stream) that a model was called. Every
 * string a model writes is capped in length here, where it enters the run.
 */
import { RunCancelledError, RunLimitError } from '../errors';
import type { OperatorEvents } from '../events/operator-events';
import type { RunEventEmitter } from '../events/run-events';
import { questionUsage, type CallRecord, type QuestionUsage } from '../llm/usage';
import type { ChatMessage, JsonSchema } from '../llm/providers/provider';
import type { LlmSet } from '../llm/llm-set';
import type { PlannerFormat } from '../llm/section';
import { CappedTextStream, capModelAnswer, capModelText } from '../redaction/model-text';

export interface ModelLimits {
  readonly maxModelCalls: number;
  readonly maxCostUsd: number | null;
}

export class ModelGateway {
  private readonly calls: CallRecord[] = [];
  /** The dearest call so far: the estimate of the next call's cost for the cost cap. */
  private dearest = 0;

  constructor(
    private readonly llm: LlmSet,
    private readonly limits: ModelLimits,
    private readonly emitter: RunEventEmitter,
    private readonly operator: OperatorEvents,
    private readonly signal: AbortSignal,
    private readonly traceId: string,
  ) {}

  async structured<T>(
    agent: string,
    node: string,
    system: string,
    messages: readonly ChatMessage[],
    schema: JsonSchema,
    name: string,
  ): Promise<T> {
    this.beforeCall(node);
    try {
      const { value, calls } = await this.llm.structured<T>(
        agent,
        { system, messages, schema, schemaName: name },
        { node, signal: this.signal },
      );
      this.record(agent, calls);
      return capModelAnswer(value);
    } catch (err) {
      this.record(agent, callsOf(err));
      throw err;
    }
  }

  async text(
    agent: string,
    node: string,
    system: string,
    messages: readonly ChatMessage[],
    onDelta?: (t: string) => void,
  ): Promise<string> {
    this.beforeCall(node);
    try {
      const request = { system, messages };
      const options = { node, signal: this.signal };
      // The streamed pieces are capped as the whole text is (redaction/model-text.ts).
      const capped = onDelta ? new CappedTextStream(onDelta) : null;
      const { text, calls } = capped
        ? await this.llm.streamText(agent, request, (piece) => capped.push(piece), options)
        : await this.llm.text(agent, request, options);
      capped?.end();
      this.record(agent, calls);
      return capModelText(text);
    } catch (err) {
      this.record(agent, callsOf(err));
      throw err;
    }
  }

  private beforeCall(node: string): void {
    if (this.signal.aborted) throw new RunCancelledError();
    const used = this.calls.length;
    if (used + 1 > this.limits.maxModelCalls) {
      this.emitter.emit('run.limit_reached', {
        limit: 'max_model_calls',
        value: this.limits.maxModelCalls,
        used,
        node,
      });
      throw new RunLimitError(
        'RUN_CALL_LIMIT',
        `the run stopped before model call ${used + 1} at ${node}: settings.pipeline.max_model_calls is ${this.limits.maxModelCalls}`,
      );
    }
    const cap = this.limits.maxCostUsd;
    if (cap !== null) {
      const spent = this.spent();
      if (spent + this.dearest > cap) {
        this.emitter.emit('run.limit_reached', { limit: 'max_cost_usd', value: cap, used: spent, node });
        throw new RunLimitError(
          'RUN_COST_LIMIT',
          `the run stopped before a model call at ${node}: $${spent.toFixed(6)} spent and the next call may cost ` +
            `$${this.dearest.toFixed(6)}, which would cross settings.pipeline.max_cost_usd ($${cap})`,
        );
      }
    }
  }

  private record(agent: string, calls: readonly CallRecord[]): void {
    for (const call of calls) {
      this.calls.push(call);
      this.dearest = Math.max(this.dearest, call.cost ?? 0);
      this.operator.emit('model.call', { ...call, agent }, this.traceId);
    }
  }

  private spent(): number {
    return this.calls.reduce((sum, c) => sum + (c.cost ?? 0), 0);
  }

  /** How `agent` answers when it plans (llm section `planner_format`). */
  plannerFormat(agent: string): PlannerFormat {
    return this.llm.plannerFormat(agent);
  }

  get callCount(): number {
    return this.calls.length;
  }

  usage(planCacheHits: number): QuestionUsage {
    return questionUsage(this.calls, planCacheHits);
  }
}

function callsOf(err: unknown): CallRecord[] {
  const calls = (err as { calls?: unknown })?.calls;
  return Array.isArray(calls) ? (calls as CallRecord[]) : [];
}
