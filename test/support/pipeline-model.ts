/**
 * Scripts the fake model server by pipeline step: each request is recognised by the name of the
 * tool (or JSON schema) the step asks for, and answered by that step's responder. The answer step
 * asks for plain text. Unscripted steps fail the request loudly (HTTP 500 from the fake).
 */
import type { FakeModelServer, RecordedRequest } from './fake-model';
import type { FakeReply } from './fake-model';

export type Step =
  'route_question' | 'decompose_question' | 'query_plan' | 'sql_draft' | 'match_verified_query' | 'answer';

export type Responder = (req: RecordedRequest, n: number) => FakeReply;

export function stepOf(req: RecordedRequest): Step {
  const body = req.body ?? {};
  const name: string | undefined =
    req.wire === 'openai'
      ? (body.tools?.[0]?.function?.name ?? body.response_format?.json_schema?.name)
      : body.tools?.[0]?.name;
  return (name as Step | undefined) ?? 'answer';
}

/** The user message text of a request (both wires). */
export function userText(req: RecordedRequest): string {
  const msgs: any[] = req.body?.messages ?? [];
  return msgs
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string' ? m.content : (m.content ?? []).map((c: any) => c.text ?? '').join(''),
    )
    .join('\n');
}

/** The whole prompt of a request: its system text (both wires), then its user messages. */
export function promptText(req: RecordedRequest): string {
  const body = req.body ?? {};
  const system =
    req.wire === 'anthropic'
      ? typeof body.system === 'string'
        ? body.system
        : (body.system ?? []).map((b: any) => b.text ?? '').join('')
      : (body.messages ?? [])
          .filter((m: any) => m.role === 'system')
          .map((m: any) => (typeof m.content === 'string' ? m.content : ''))
          .join('\n');
  return `${system}\n${userText(req)}`;
}

export class PipelineModel {
  readonly counts: Record<string, number> = {};
  private readonly responders = new Map<Step, Responder>();

  constructor(private readonly fake: FakeModelServer) {
    fake.onRequest((req) => {
      const step = stepOf(req);
      const n = (this.counts[step] = (this.counts[step] ?? 0) + 1);
      const responder = this.responders.get(step);
      return responder
        ? responder(req, n)
        : { status: 500, body: { error: { message: `unscripted step ${step}` } } };
    });
  }

  on(step: Step, responder: Responder | FakeReply): this {
    this.responders.set(step, typeof responder === 'function' ? responder : () => responder);
    return this;
  }

  /** One sub-query with the question as its intent, on the given datasource. */
  single(datasourceId: string): this {
    return this.on('decompose_question', (req) => ({
      json: { sub_queries: [{ intent: questionOf(req), datasource_id: datasourceId }] },
    }));
  }

  requestsOf(step: Step): RecordedRequest[] {
    return this.fake.requests.filter((r) => stepOf(r) === step);
  }
}

/** The question line of a decomposer or planner prompt. */
export function questionOf(req: RecordedRequest): string {
  const m = /Question: (.*)/.exec(userText(req));
  return m?.[1]?.trim() ?? '';
}
