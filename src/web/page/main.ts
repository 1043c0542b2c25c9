/** The playground page: wires the sidebar, the role field, the question form and the run view. */
import './style.css';
import { Api, ApiError } from './api';
import { byId, h } from './dom';
import { RunView } from './run-view';
import { SettingsPanel } from './settings-panel';
import { describe, renderDatasources, renderIndexStatus } from './sidebar';
import { streamQuery } from './stream';
import { SuggestionsPanel } from './suggestions-panel';
import type { PageContext } from './wire';

const ROLES_KEY = 'nl2sql.playground.roles';

const api = new Api();
const settings = new SettingsPanel(api);
const suggestions = new SuggestionsPanel(api);
const form = byId<HTMLFormElement>('ask-form');
const question = byId<HTMLTextAreaElement>('question');
const datasource = byId<HTMLSelectElement>('datasource');
const execute = byId<HTMLInputElement>('execute');
const askButton = byId<HTMLButtonElement>('ask');
const stopButton = byId<HTMLButtonElement>('stop');
const runSlot = byId('run');
let running: AbortController | null = null;

async function start(): Promise<void> {
  byId('sidebar').append(settings.el, suggestions.el);
  let ctx: PageContext;
  try {
    ctx = await api.context();
  } catch (err) {
    runSlot.replaceChildren(h('p', { class: 'error' }, `The service did not answer: ${describe(err)}`));
    return;
  }
  api.roleHeader = ctx.role_source.header;
  api.bodyRoles = !ctx.role_source.header && !ctx.role_source.static_role && ctx.role_source.trust_body_role;
  api.roles = localStorage.getItem(ROLES_KEY) ?? '';
  if (api.roles && api.roleHeader) ctx = await api.context();
  renderRoleBox(ctx);
  await settings.show(ctx.caller.may_admin);
  suggestions.show(ctx.caller.may_admin);
  const [list] = await Promise.all([
    renderDatasources(api, ctx, byId('datasources'), (q, ds) => {
      question.value = q;
      datasource.value = ds;
      form.requestSubmit();
    }),
    renderIndexStatus(api, byId('index-status')),
  ]);
  datasource.append(
    ...list.map((ds) => h('option', { value: ds.id, disabled: ds.status === 'failed' }, ds.id)),
  );
}

function renderRoleBox(ctx: PageContext): void {
  const box = byId('role-box');
  const src = ctx.role_source;
  if (src.header || api.bodyRoles) {
    const input = h('input', {
      id: 'roles',
      value: api.roles,
      placeholder: 'analyst, admin',
      'aria-label': 'roles',
      title: src.header
        ? `sent in the ${src.header} header (api.role_header)`
        : 'sent in user_context.roles (api.trust_body_role: local testing only)',
    });
    input.addEventListener('change', () => {
      api.roles = input.value;
      localStorage.setItem(ROLES_KEY, input.value);
      void api.context().then(
        (next) => {
          suggestions.show(next.caller.may_admin);
          return settings.show(next.caller.may_admin);
        },
        () => {
          suggestions.show(false);
          return settings.show(false);
        },
      );
    });
    box.replaceChildren(h('label', {}, src.header ? `Roles (${src.header})` : 'Roles (body)', input));
  } else if (src.static_role) {
    box.replaceChildren(
      h('span', { class: 'muted' }, 'role ', h('strong', {}, src.static_role), ' (api.role)'),
    );
  } else {
    box.replaceChildren(
      h(
        'span',
        { class: 'muted', title: 'set api.role, api.role_header or api.trust_body_role' },
        'no role source configured',
      ),
    );
  }
}

async function ask(): Promise<void> {
  const text = question.value.trim();
  if (!text || running) return;
  const view = new RunView(api, text);
  runSlot.replaceChildren(view.el);
  running = new AbortController();
  askButton.disabled = true;
  stopButton.hidden = false;
  const body: Record<string, unknown> = { natural_language: text, execute: execute.checked };
  if (datasource.value) body.datasource_id = datasource.value;
  const userContext = api.userContext();
  if (userContext) body.user_context = userContext;
  try {
    await streamQuery(api, body, running.signal, (event) => view.handle(event));
  } catch (err) {
    if (running.signal.aborted)
      view.fail('STOPPED', 'you stopped the run; the service cancels it before its next step');
    else if (err instanceof ApiError) view.fail(err.code ?? String(err.status), err.message);
    else view.fail('NETWORK', describe(err));
  } finally {
    running = null;
    askButton.disabled = false;
    stopButton.hidden = true;
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void ask();
});
question.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.requestSubmit();
});
stopButton.addEventListener('click', () => running?.abort());

void start();
