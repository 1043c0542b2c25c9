/** The datasources with their status and clickable sample questions, and the schema index's status. */
import { ApiError, type Api } from './api';
import { h } from './dom';
import type { IndexStatus, ListedDatasource, PageContext } from './wire';

export async function renderDatasources(
  api: Api,
  ctx: PageContext,
  list: HTMLElement,
  ask: (question: string, datasourceId: string) => void,
): Promise<ListedDatasource[]> {
  try {
    const { datasources } = await api.get<{ datasources: ListedDatasource[] }>('/api/v1/datasource');
    list.replaceChildren(
      ...datasources.map((ds) =>
        h(
          'li',
          { class: 'datasource', 'data-datasource': ds.id },
          h(
            'div',
            { class: 'ds-head' },
            h('strong', {}, ds.id),
            h('span', { class: 'muted' }, ds.type),
            h('span', { class: `badge ${ds.status}` }, ds.status),
          ),
          ds.reason ? h('p', { class: 'error' }, ds.reason) : null,
          ds.description ? h('p', { class: 'ds-description', title: ds.description }, ds.description) : null,
          ...sampleQuestions(ctx.sample_questions[ds.id] ?? [], ds.id, ask),
        ),
      ),
    );
    if (!datasources.length)
      list.replaceChildren(h('li', { class: 'muted' }, 'No datasource is configured.'));
    return datasources;
  } catch (err) {
    list.replaceChildren(h('li', { class: 'error' }, describe(err)));
    return [];
  }
}

function sampleQuestions(
  questions: string[],
  datasourceId: string,
  ask: (q: string, ds: string) => void,
): HTMLElement[] {
  if (!questions.length) return [];
  return [
    h(
      'ul',
      { class: 'samples' },
      ...questions.map((q) =>
        h('li', {}, h('button', { type: 'button', class: 'sample', onclick: () => ask(q, datasourceId) }, q)),
      ),
    ),
  ];
}

export async function renderIndexStatus(api: Api, box: HTMLElement): Promise<void> {
  try {
    const s = await api.get<IndexStatus>('/api/v1/index/status');
    box.replaceChildren(
      h(
        'div',
        { class: 'ds-head' },
        h('span', {}, `${s.total} entries`),
        h('span', { class: `badge index-${s.status}`, id: 'index-badge' }, s.status),
      ),
      h(
        'p',
        { class: 'muted' },
        `embedding model ${s.embedding_model}`,
        s.built_at ? ` · built ${new Date(s.built_at).toLocaleString()}` : '',
      ),
      ...(s.datasources.length
        ? [
            h(
              'p',
              { class: 'muted' },
              s.datasources.map((d) => `${d.datasource_id}: ${d.entries} entries`).join(' · '),
            ),
          ]
        : []),
      ...(s.problems.length
        ? [
            h(
              'ul',
              { class: 'problems' },
              ...s.problems.map((p) =>
                h('li', {}, h('code', {}, p.code), ' ', p.message, h('span', { class: 'fix' }, p.fix)),
              ),
            ),
          ]
        : []),
    );
  } catch (err) {
    box.replaceChildren(h('p', { class: 'error' }, describe(err)));
  }
}

export function describe(err: unknown): string {
  if (err instanceof ApiError) return `${err.code ?? err.status}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
