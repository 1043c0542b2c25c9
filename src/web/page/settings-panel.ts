/**
 * The LLM settings panel, for callers who may use the admin routes: it shows the llm section as
 * the service lists it, and replaces the whole section through PUT /api/v1/settings/llm with the
 * header that records the change as `via: playground` (spec 4.16).
 */
import type { Api } from './api';
import { h } from './dom';
import { describe } from './sidebar';
import type { AgentEntry } from './wire';

interface LlmChange {
  by: { via: string; user_id?: string | null; roles?: string[] };
  changes: Record<string, { old: string | null; new: string | null }>;
}

export class SettingsPanel {
  readonly el: HTMLElement;
  private readonly text = h('textarea', {
    id: 'llm-section',
    rows: 10,
    spellcheck: 'false',
    'aria-label': 'llm section as JSON',
  });
  private readonly outcome = h('div', { class: 'outcome', id: 'llm-outcome', role: 'status' });

  constructor(private readonly api: Api) {
    this.el = h(
      'section',
      { class: 'settings', id: 'settings', hidden: true },
      h('h2', {}, 'Model settings'),
      h(
        'p',
        { class: 'muted' },
        'The whole llm section, as in the llm config file. Replacing it swaps every agent at once; keys and endpoints not written here fall back to their defaults. Runs already going finish on the old models.',
      ),
      this.text,
      h(
        'div',
        { class: 'buttons' },
        h(
          'button',
          { type: 'button', id: 'llm-replace', onclick: () => void this.replace() },
          'Replace llm section',
        ),
        h(
          'button',
          { type: 'button', class: 'secondary', onclick: () => void this.load() },
          'Reload current',
        ),
      ),
      this.outcome,
    );
  }

  async show(visible: boolean): Promise<void> {
    this.el.hidden = !visible;
    if (visible && !this.text.value) await this.load();
  }

  /** The section rebuilt from GET /api/v1/llm: the default agent's fields, and each agent's own differences. */
  async load(): Promise<void> {
    try {
      const { llms } = await this.api.get<{ llms: Record<string, AgentEntry> }>('/api/v1/llm');
      const base = llms.default;
      const section: Record<string, unknown> = base
        ? { provider: base.provider, model: base.model, temperature: base.temperature ?? null }
        : {};
      const agents: Record<string, unknown> = {};
      for (const [name, a] of Object.entries(llms)) {
        if (name === 'default' || a.inherited) continue;
        const own: Record<string, unknown> = {};
        if (a.provider !== base?.provider) own.provider = a.provider;
        if (a.model !== base?.model) own.model = a.model;
        if (a.temperature !== base?.temperature) own.temperature = a.temperature;
        agents[name] = own;
      }
      if (Object.keys(agents).length) section.agents = agents;
      this.text.value = JSON.stringify(section, null, 2);
    } catch (err) {
      this.outcome.replaceChildren(h('p', { class: 'error' }, describe(err)));
    }
  }

  private async replace(): Promise<void> {
    let section: unknown;
    try {
      section = JSON.parse(this.text.value);
    } catch (err) {
      this.outcome.replaceChildren(h('p', { class: 'error' }, `not JSON: ${(err as Error).message}`));
      return;
    }
    try {
      const change = await this.api.send<LlmChange>('PUT', '/api/v1/settings/llm', section, {
        'X-NL2SQL-Via': 'playground',
      });
      const lines = Object.entries(change.changes).map(([agent, c]) =>
        h('li', {}, `${agent}: ${c.old ?? '–'} → ${c.new ?? '–'}`),
      );
      this.outcome.replaceChildren(
        h('p', { class: 'ok' }, `Replaced (via ${change.by.via}).`),
        lines.length ? h('ul', {}, ...lines) : h('p', { class: 'muted' }, 'No provider or model changed.'),
      );
    } catch (err) {
      this.outcome.replaceChildren(h('p', { class: 'error' }, describe(err)));
    }
  }
}
