/**
 * Suggested verified queries, for callers who may use the admin routes: GET
 * /api/v1/verified-queries/suggestions lists candidates built from runs rated up, corrections and
 * plans the plan cache served repeatedly, each with its lifted parameters and evidence; Accept
 * sends its verified query to POST /api/v1/verified-queries (the id may be edited first).
 */
import type { Api } from './api';
import { h } from './dom';
import { describe } from './sidebar';
import { sqlBlock } from './sql-highlight';
import type { Suggestion } from './wire';

export class SuggestionsPanel {
  readonly el: HTMLElement;
  private readonly list = h('ul', { class: 'suggestions', id: 'suggestions' });

  constructor(private readonly api: Api) {
    this.el = h(
      'section',
      { class: 'suggestions-panel', id: 'suggestions-panel', hidden: true },
      h('h2', {}, 'Suggested verified queries'),
      h(
        'p',
        { class: 'muted' },
        'From answers rated up, corrections and plans served again and again. Accepting one makes it a verified query: the next paraphrase is answered by it, with no model call.',
      ),
      h(
        'button',
        { type: 'button', class: 'secondary', id: 'suggestions-load', onclick: () => void this.load() },
        'Load suggestions',
      ),
      this.list,
    );
  }

  show(visible: boolean): void {
    this.el.hidden = !visible;
  }

  async load(): Promise<void> {
    try {
      const { suggestions } = await this.api.get<{ suggestions: Suggestion[] }>(
        '/api/v1/verified-queries/suggestions',
      );
      this.list.replaceChildren(...suggestions.map((s) => this.item(s)));
      if (!suggestions.length)
        this.list.replaceChildren(h('li', { class: 'muted' }, 'No suggestion yet: rate some answers up.'));
    } catch (err) {
      this.list.replaceChildren(h('li', { class: 'error' }, describe(err)));
    }
  }

  private item(s: Suggestion): HTMLElement {
    const vq = s.verified_query;
    const e = s.evidence;
    const id = h('input', { class: 'suggestion-id', value: vq.id, 'aria-label': 'verified query id' });
    const outcome = h('p', { class: 'outcome', role: 'status' });
    const accept = h('button', { type: 'button', class: 'accept' }, 'Accept');
    const li = h(
      'li',
      { class: 'suggestion', 'data-suggestion': s.id },
      h('p', { class: 'suggestion-question' }, vq.question),
      vq.paraphrases.length
        ? h('ul', { class: 'paraphrases' }, ...vq.paraphrases.map((p) => h('li', {}, p)))
        : null,
      sqlBlock(vq.sql),
      Object.keys(vq.params).length
        ? h(
            'ul',
            { class: 'params' },
            ...Object.entries(vq.params).map(([name, p]) =>
              h(
                'li',
                {},
                h('code', {}, `:${name}`),
                ` ${p.type}`,
                p.description ? ` · ${p.description}` : '',
              ),
            ),
          )
        : null,
      h(
        'p',
        { class: 'evidence muted' },
        `${s.datasource_id} · rated up ${e.ratings.up} · down ${e.ratings.down}`,
        e.corrections ? ` · ${e.corrections} correction(s)` : '',
        e.plan_cache.hits ? ` · served ${e.plan_cache.hits} times from the plan cache` : '',
      ),
      h('div', { class: 'buttons' }, id, accept),
      outcome,
    );
    accept.addEventListener('click', () => {
      accept.disabled = true;
      this.api
        .send<{ message: string }>('POST', '/api/v1/verified-queries', { ...vq, id: id.value.trim() })
        .then(
          (res) => {
            li.classList.add('accepted');
            outcome.className = 'outcome ok';
            outcome.textContent = res.message;
          },
          (err: unknown) => {
            accept.disabled = false;
            outcome.className = 'outcome error';
            outcome.textContent = describe(err);
          },
        );
    });
    return li;
  }
}
