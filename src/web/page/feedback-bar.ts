/**
 * Thumbs up or down on a finished run, with an optional comment and, for an answer that was wrong,
 * the SQL that answers the question (pre-filled with the run's own): POST
 * /api/v1/query/{request_id}/feedback. A correction is checked by the service like a SQL draft;
 * its refusal (CORRECTED_SQL_INVALID) is shown with its code so it can be fixed and sent again.
 */
import type { Api } from './api';
import { h } from './dom';
import { describe } from './sidebar';
import type { FeedbackResponse, QueryResponse } from './wire';

export class FeedbackBar {
  readonly el: HTMLElement;
  private rating: 'up' | 'down' | null = null;
  private readonly up = h(
    'button',
    { type: 'button', class: 'thumb', id: 'rate-up', 'aria-label': 'rate up', title: 'Right answer' },
    thumb(false),
  );
  private readonly down = h(
    'button',
    { type: 'button', class: 'thumb', id: 'rate-down', 'aria-label': 'rate down', title: 'Wrong answer' },
    thumb(true),
  );
  private readonly comment = h('input', {
    id: 'feedback-comment',
    placeholder: 'Why? (optional)',
    'aria-label': 'comment',
  });
  private readonly correction = h('textarea', {
    id: 'feedback-sql',
    rows: 4,
    spellcheck: 'false',
    'aria-label': 'corrected SQL',
    placeholder: 'The SQL that answers the question (optional)',
  });
  private readonly correctionBox = h(
    'label',
    { class: 'correction', hidden: true },
    'Corrected SQL (optional; checked against the schema and your roles)',
    this.correction,
  );
  private readonly send = h('button', { type: 'button', id: 'feedback-send' }, 'Send');
  private readonly form = h(
    'div',
    { class: 'feedback-form', hidden: true },
    this.comment,
    this.correctionBox,
    this.send,
  );
  private readonly outcome = h('span', { class: 'feedback-outcome', id: 'feedback-outcome', role: 'status' });

  constructor(
    private readonly api: Api,
    private readonly result: QueryResponse,
  ) {
    this.el = h(
      'div',
      { class: 'feedback', id: 'feedback' },
      h('span', { class: 'muted' }, 'Was this right?'),
      this.up,
      this.down,
      this.outcome,
      this.form,
    );
    this.up.addEventListener('click', () => this.choose('up'));
    this.down.addEventListener('click', () => this.choose('down'));
    this.send.addEventListener('click', () => void this.submit());
  }

  private choose(rating: 'up' | 'down'): void {
    this.rating = rating;
    this.up.classList.toggle('chosen', rating === 'up');
    this.down.classList.toggle('chosen', rating === 'down');
    this.form.hidden = false;
    this.correctionBox.hidden = rating === 'up';
    if (rating === 'down' && !this.correction.value)
      this.correction.value = this.result.sub_queries.find((s) => s.sql)?.sql ?? '';
    this.outcome.textContent = '';
  }

  private async submit(): Promise<void> {
    if (!this.rating) return;
    const body: Record<string, unknown> = { rating: this.rating };
    if (this.comment.value.trim()) body.comment = this.comment.value.trim();
    const sql = this.correction.value.trim();
    const ran = this.result.sub_queries.find((s) => s.sql)?.sql?.trim();
    // The run's own SQL sent back is no correction.
    if (this.rating === 'down' && sql && sql !== ran) body.corrected_sql = sql;
    const userContext = this.api.userContext();
    if (userContext) body.user_context = userContext;
    this.send.disabled = true;
    try {
      const res = await this.api.send<FeedbackResponse>(
        'POST',
        `/api/v1/query/${encodeURIComponent(this.result.trace_id)}/feedback`,
        body,
      );
      this.form.hidden = true;
      this.outcome.className = 'feedback-outcome ok';
      this.outcome.textContent = `Thanks: ${res.message}.`;
    } catch (err) {
      this.outcome.className = 'feedback-outcome error';
      this.outcome.textContent = describe(err);
    } finally {
      this.send.disabled = false;
    }
  }
}

const SVG = 'http://www.w3.org/2000/svg';

/** A thumb drawn inline (an emoji needs a font the machine may lack; the page loads none). */
function thumb(down: boolean): SVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  const g = document.createElementNS(SVG, 'g');
  if (down) g.setAttribute('transform', 'rotate(180 8 8)');
  const cuff = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ x: '1', y: '7', width: '3', height: '8', rx: '0.6' }))
    cuff.setAttribute(k, v);
  const hand = document.createElementNS(SVG, 'path');
  hand.setAttribute(
    'd',
    'M5 7.5 L8 2.2 C8.3 1.6 9.5 1.6 9.8 2.6 L9.4 6 H13.6 C14.5 6 15.1 6.8 14.9 7.6 L13.8 13.6 C13.6 14.4 13 15 12.2 15 H5 Z',
  );
  g.append(cuff, hand);
  svg.append(g);
  svg.setAttribute('fill', 'currentColor');
  return svg;
}
