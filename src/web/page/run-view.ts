/**
 * One run, shown live from its events: each step as it starts and ends with its duration, the
 * answer's summary as it streams, warnings and errors with their codes, then each sub-query's
 * SQL and rows, and the run's tokens, cost and source.
 */
import type { Api } from './api';
import { fill, h, seconds } from './dom';
import { FeedbackBar } from './feedback-bar';
import { SubQueryCard } from './sub-query-card';
import type { QueryResponse, RunEvent, UsageRecord } from './wire';

export class RunView {
  readonly el: HTMLElement;
  private readonly status = h('span', { class: 'badge running', id: 'run-status' }, 'running');
  private readonly traceId = h('code', { class: 'trace-id' });
  private readonly duration = h('span', { class: 'duration' });
  private readonly steps = h('ol', { class: 'steps', id: 'steps' });
  private readonly summary = h('p', { class: 'summary', id: 'answer-summary' });
  private readonly content = h('pre', { class: 'content', id: 'answer-content' });
  private readonly contentBox = h(
    'details',
    { class: 'answer-content', hidden: true },
    h('summary', {}, 'Answer content'),
    this.content,
  );
  private readonly issues = h('ul', { class: 'issues', id: 'issues' });
  private readonly cards = h('div', { class: 'sub-queries', id: 'sub-queries' });
  private readonly footer = h('footer', { class: 'run-footer', id: 'run-footer' });
  private readonly running = new Map<string, { li: HTMLElement; started: number }>();
  private readonly subQueries = new Map<string, SubQueryCard>();
  private request = '';
  private timer: number | undefined;

  constructor(
    private readonly api: Api,
    question: string,
  ) {
    this.el = h(
      'article',
      { class: 'run' },
      h(
        'header',
        { class: 'run-head' },
        h('h2', {}, question),
        h('div', { class: 'run-line' }, this.status, this.duration, this.traceId),
      ),
      h(
        'div',
        { class: 'run-grid' },
        h('section', { class: 'card timeline' }, h('h3', {}, 'Steps'), this.steps),
        h(
          'section',
          { class: 'card answer' },
          h('h3', {}, 'Answer'),
          this.summary,
          this.contentBox,
          this.issues,
        ),
      ),
      this.cards,
      this.footer,
    );
    const begun = performance.now();
    this.timer = window.setInterval(() => {
      for (const { li, started } of this.running.values()) {
        const t = li.querySelector('.t');
        if (t) t.textContent = seconds((performance.now() - started) / 1000);
      }
      this.duration.textContent = seconds((performance.now() - begun) / 1000);
    }, 100);
  }

  handle(event: RunEvent): void {
    switch (event.name) {
      case 'run.started':
        this.request = event.trace_id;
        this.traceId.textContent = `trace ${event.trace_id}`;
        break;
      case 'node.started': {
        const { node, sub_query_id } = event.data;
        const li = h(
          'li',
          { class: 'step running', 'data-node': node },
          h('span', { class: 'dot' }),
          h('span', { class: 'name' }, node),
          sub_query_id ? h('span', { class: 'sq' }, sub_query_id) : null,
          h('span', { class: 't' }, '…'),
        );
        this.steps.append(li);
        this.running.set(stepKey(node, sub_query_id), { li, started: performance.now() });
        break;
      }
      case 'node.finished': {
        const { node, sub_query_id, seconds: s, ok } = event.data;
        const key = stepKey(node, sub_query_id);
        const step = this.running.get(key);
        this.running.delete(key);
        const li =
          step?.li ??
          h(
            'li',
            { class: 'step', 'data-node': node },
            h('span', { class: 'dot' }),
            h('span', { class: 'name' }, node),
            h('span', { class: 't' }),
          );
        if (!step) this.steps.append(li);
        li.className = `step ${ok ? 'ok' : 'failed'}`;
        const t = li.querySelector('.t');
        if (t) t.textContent = seconds(s);
        break;
      }
      case 'result.manifest':
        for (const summary of event.data.results) this.card(summary.node_id).showResult(summary);
        break;
      case 'answer.delta':
        if (event.data.field === 'summary') {
          this.summary.textContent += event.data.text;
          // How many pieces the summary came in: the streaming is visible to tests and curious users.
          this.summary.dataset.deltas = String(Number(this.summary.dataset.deltas ?? 0) + 1);
        } else {
          this.contentBox.hidden = false;
          this.content.textContent += event.data.text;
        }
        break;
      case 'sanity.flagged':
        this.issue('warning', event.data.check, event.data.message);
        break;
      case 'run.limit_reached':
        this.issue(
          'warning',
          `limit ${event.data.limit}`,
          `reached ${event.data.used} of ${event.data.value} at ${event.data.node}`,
        );
        break;
      case 'run.finished':
        this.finish(event.data.result, event.data.status, event.data.duration_s);
        break;
      case 'run.failed':
        this.stop('error', null);
        this.issue('error', event.data.error_code, event.data.message);
        break;
    }
  }

  /** The request failed before or outside the stream (401, network, aborted). */
  fail(code: string, message: string): void {
    this.stop('error', null);
    this.issue('error', code, message);
  }

  private finish(result: QueryResponse, status: string, duration: number): void {
    this.stop(status, duration);
    if (result.final_answer) {
      // The deltas joined equal the final answer; the final text wins if a piece was missed.
      this.summary.textContent = result.final_answer.summary;
      const { content, summary, format_type } = result.final_answer;
      this.content.textContent = content;
      this.contentBox.hidden = !content || content === summary;
      // A table answer repeats the result table below; other answers (a list, a number) are read here.
      this.contentBox.open = format_type !== 'table';
    }
    this.summary.hidden = !this.summary.textContent;
    for (const w of result.warnings) this.issue('warning', w.code, w.message);
    for (const e of result.errors)
      this.issue(e.severity === 'WARNING' ? 'warning' : 'error', e.error_code, e.message, e.node);
    for (const sq of result.sub_queries) this.card(sq.id).show(sq);
    fill(
      this.footer,
      h(
        'span',
        { class: 'source', id: 'run-source' },
        'source: ',
        h('strong', {}, result.source.type),
        result.source.id ? ` · ${result.source.id}` : '',
        result.source.params && Object.keys(result.source.params).length
          ? ` · ${JSON.stringify(result.source.params)}`
          : '',
      ),
      ...usageParts(result.usage.total),
      result.usage.plan_cache_hits ? h('span', {}, `plan cache hits: ${result.usage.plan_cache_hits}`) : null,
      new FeedbackBar(this.api, result).el,
    );
  }

  private stop(status: string, duration: number | null): void {
    window.clearInterval(this.timer);
    this.status.textContent = status;
    this.status.className = `badge ${status}`;
    if (duration !== null) this.duration.textContent = seconds(duration);
    for (const { li } of this.running.values()) li.className = 'step stopped';
    this.running.clear();
    this.summary.hidden = !this.summary.textContent;
  }

  private issue(kind: 'warning' | 'error', code: string, message: string, node?: string): void {
    this.issues.append(
      h(
        'li',
        { class: kind },
        h('code', {}, code),
        node ? h('span', { class: 'node' }, node) : null,
        h('span', {}, message),
      ),
    );
  }

  private card(id: string): SubQueryCard {
    let card = this.subQueries.get(id);
    if (!card) {
      card = new SubQueryCard(this.api, id, this.request);
      this.subQueries.set(id, card);
      this.cards.append(card.el);
    }
    return card;
  }
}

function stepKey(node: string, subQuery: string | null): string {
  return `${node}\u0000${subQuery ?? ''}`;
}

function usageParts(u: UsageRecord): HTMLElement[] {
  return [
    h(
      'span',
      { id: 'run-tokens' },
      `tokens: ${u.input_tokens} in${u.cached_input_tokens ? ` (${u.cached_input_tokens} cached)` : ''} · ${u.output_tokens} out · ${u.total_tokens} total`,
    ),
    h('span', {}, `model calls: ${u.calls}`),
    h(
      'span',
      { id: 'run-cost' },
      `cost: ${u.cost === null ? 'not priced' : `$${u.cost.toFixed(u.cost < 0.01 ? 5 : 3)}`}`,
    ),
  ];
}
