/**
 * A program written against the TypeScript client that @hey-api/openapi-ts generates from
 * /openapi.json (into ./generated, by test/contract/generated-client.spec.ts, which also compiles
 * this file with tsc and runs it). It calls every route of a running app and branches on typed
 * error codes; it prints one JSON line per call and exits non-zero on the first surprise.
 * It is not part of the project's own compilation: ./generated exists only in the test's temp folder.
 */
import { client } from './generated/client.gen';
import * as sdk from './generated/sdk.gen';
import type { ErrorBody, ErrorCode, RunEvent } from './generated/types.gen';

// Fails to compile when the generator types error_code as a plain string instead of the closed list.
type IsClosedList = string extends ErrorCode ? false : true;
const errorCodeIsTyped: IsClosedList = true;

const [baseUrl, datasourceId, sqlitePath, roleHeader, modelBaseUrl] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
let role: string | undefined = 'analyst';
client.setConfig({ baseUrl, auth: () => role });

interface Outcome {
  readonly status: number;
  readonly error?: ErrorBody;
}

function report(operation: string, outcome: { response?: Response; error?: unknown }): Outcome {
  const status = outcome.response?.status ?? 0;
  const error = outcome.error as ErrorBody | undefined;
  console.log(JSON.stringify({ operation, status, error_code: error?.error_code ?? null }));
  return { status, error };
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`unexpected: ${what}`);
}

/** Every branch a client of this API takes on a failure: the codes are a closed union. */
function explain(code: ErrorCode): string {
  switch (code) {
    case 'ROLE_REQUIRED':
      return `send the ${roleHeader} header`;
    case 'ROLE_FORBIDDEN':
      return 'this needs an admin role';
    case 'NOT_FOUND':
    case 'DATASOURCE_NOT_FOUND':
    case 'LLM_AGENT_UNKNOWN':
      return 'no such thing';
    case 'REQUEST_INVALID':
    case 'CONFIG_INVALID':
      return 'fix the request';
    default:
      return 'other';
  }
}

async function main(): Promise<void> {
  check(errorCodeIsTyped, 'error_code is a closed union');

  // Health: no role needed.
  const health = await sdk.health();
  report('health', health);
  check(health.data?.status === 'ok', 'health is ok');
  const ready = await sdk.ready();
  report('ready', ready);
  check(ready.data?.status === 'ready', 'ready');

  // Datasources.
  const list = await sdk.listDatasources();
  report('listDatasources', list);
  check(list.data?.datasources.some((d) => d.id === datasourceId) === true, 'the datasource is listed');
  const one = await sdk.getDatasource({ path: { datasource_id: datasourceId } });
  report('getDatasource', one);
  check(one.data?.status === 'ready', 'the datasource is ready');
  const missing = await sdk.getDatasource({ path: { datasource_id: 'no_such_datasource' } });
  const missed = report('getDatasource', missing);
  check(
    missed.status === 404 && explain(missing.error!.error_code) === 'no such thing',
    'unknown datasource is 404',
  );
  // @ts-expect-error -- a code outside the closed list cannot even be compared
  check(missing.error?.error_code !== 'NO_SUCH_CODE', 'typed comparison');

  // A question: no role is 401, a blank question 422, then a real run.
  role = undefined;
  const anonymous = await sdk.query({ body: { natural_language: 'How many orders are there?' } });
  report('query', anonymous);
  check(anonymous.error?.error_code === 'ROLE_REQUIRED', '401 ROLE_REQUIRED without the role header');
  role = 'analyst';
  const blank = await sdk.query({ body: { natural_language: '   ' } });
  report('query', blank);
  check(
    blank.response.status === 422 && blank.error?.error_code === 'REQUEST_INVALID',
    'blank question is 422',
  );
  const answer = await sdk.query({
    body: { natural_language: 'List the orders', datasource_id: datasourceId },
  });
  report('query', answer);
  check(answer.data?.status === 'success', `the run succeeded: ${JSON.stringify(answer.data?.errors)}`);
  const traceId = answer.data.trace_id;
  const resultId = answer.data.result_manifest[0]!.node_id;
  const rows = answer.data.sub_queries[0]!.rows;
  check(rows !== null && rows.total_rows === 3, 'three rows in the sample');

  // The stream, narrowed by event name.
  const names: RunEvent['name'][] = [];
  let streamed: string | null = null;
  const { stream } = await sdk.stream({
    body: { natural_language: 'List the orders', datasource_id: datasourceId },
    sseMaxRetryAttempts: 1,
  });
  for await (const event of stream) {
    names.push(event.name);
    if (event.name === 'run.finished') streamed = event.data.result.status;
    if (event.name === 'run.failed') throw new Error(`run.failed: ${event.data.error_code}`);
  }
  console.log(JSON.stringify({ operation: 'stream', status: 200, events: names }));
  check(names[0] === 'run.started' && streamed === 'success', 'the stream starts and finishes');

  // Results.
  const page = await sdk.resultPage({
    path: { request_id: traceId, result_id: resultId },
    query: { limit: 2 },
  });
  report('resultPage', page);
  check(page.data?.rows.length === 2 && page.data.next_offset === 2, 'a page of two rows');
  const badPage = await sdk.resultPage({
    path: { request_id: traceId, result_id: resultId },
    query: { offset: -1 },
  });
  report('resultPage', badPage);
  check(badPage.response.status === 422, 'a negative offset is 422');
  const csv = await sdk.resultCsv({ path: { request_id: traceId, result_id: resultId }, parseAs: 'text' });
  report('resultCsv', csv);
  check(typeof csv.data === 'string' && csv.data.split('\n')[0] === 'id,customer_id,amount', 'CSV header');
  const noCsv = await sdk.resultCsv({ path: { request_id: 'nope', result_id: resultId } });
  report('resultCsv', noCsv);
  check(noCsv.error?.error_code === 'NOT_FOUND', 'unknown run is 404 NOT_FOUND, as JSON');
  const arrow = await sdk.resultArrow({
    path: { request_id: traceId, result_id: resultId },
    parseAs: 'arrayBuffer',
  });
  report('resultArrow', arrow);
  // An IPC stream opens with the continuation marker 0xFFFFFFFF before its schema message.
  const head = arrow.data instanceof ArrayBuffer ? new Uint32Array(arrow.data, 0, 1)[0] : undefined;
  check(head === 0xffffffff, 'an Arrow IPC stream');
  const noArrow = await sdk.resultArrow({ path: { request_id: 'nope', result_id: resultId } });
  report('resultArrow', noArrow);
  check(noArrow.error?.error_code === 'NOT_FOUND', 'unknown run is 404 NOT_FOUND, as JSON');

  // Feedback on the run, and the verified queries this role may run.
  const rated = await sdk.rateRun({
    path: { request_id: traceId },
    body: { rating: 'up', comment: 'right' },
  });
  report('rateRun', rated);
  check(rated.data?.success === true && rated.data.request_id === traceId, 'rated');
  const badRating = await sdk.rateRun({
    path: { request_id: traceId },
    body: { rating: 'down', corrected_sql: 'SELECT nope FROM orders' },
  });
  report('rateRun', badRating);
  check(
    badRating.error?.error_code === 'CORRECTED_SQL_INVALID',
    'a correction that does not validate is 422',
  );
  const noRun = await sdk.rateRun({ path: { request_id: 'nope' }, body: { rating: 'up' } });
  report('rateRun', noRun);
  check(noRun.error?.error_code === 'NOT_FOUND', 'rating an unknown run is 404');
  const verifiedList = await sdk.listVerifiedQueries();
  report('listVerifiedQueries', verifiedList);
  check(Array.isArray(verifiedList.data?.verified_queries), 'a list of verified queries');

  // Models.
  const llms = await sdk.listLlms();
  report('listLlms', llms);
  check(llms.data?.llms.default !== undefined, 'a default agent');
  const defaults = await sdk.getLlm({ path: { agent: 'default' } });
  report('getLlm', defaults);
  check(defaults.data?.model === 'fake-model', 'the default agent runs the fake model');
  const noAgent = await sdk.getLlm({ path: { agent: 'no_such_agent' } });
  report('getLlm', noAgent);
  check(noAgent.response.status === 404, 'unknown agent is 404');
  const forbidden = await sdk.replaceLlm({ body: { provider: 'ollama', model: 'qwen2.5-coder:3b' } });
  report('replaceLlm', forbidden);
  check(forbidden.error?.error_code === 'ROLE_FORBIDDEN', 'analyst may not replace the models');
  role = 'admin';
  const invalid = await sdk.replaceLlm({ body: { provider: 'openai_compatible', model: 'fake-model' } });
  report('replaceLlm', invalid);
  check(
    invalid.response.status === 422 && explain(invalid.error!.error_code) === 'fix the request',
    'no base_url',
  );
  const replaced = await sdk.replaceLlm({
    body: { provider: 'openai_compatible', model: 'fake-model', base_url: modelBaseUrl },
  });
  report('replaceLlm', replaced);
  check(replaced.data?.by.via === 'api', 'replaced by the api');

  // Admin: datasources and the index.
  const added = await sdk.addDatasource({
    body: { config: { id: 'inventory', type: 'sqlite', connection: { path: sqlitePath } } },
  });
  report('addDatasource', added);
  check(added.data?.datasource_id === 'inventory', 'added');
  const indexed = await sdk.indexDatasource({ path: { datasource_id: datasourceId } });
  report('indexDatasource', indexed);
  check(indexed.data?.success === true, 'indexed one');
  const all = await sdk.indexAll();
  report('indexAll', all);
  const status = await sdk.indexStatus();
  report('indexStatus', status);
  check(status.data !== undefined && status.data.total > 0, 'the index has entries');
  const cleared = await sdk.clearIndex();
  report('clearIndex', cleared);
  check(cleared.data?.success === true, 'cleared');
  const removed = await sdk.deleteDatasource({ path: { datasource_id: 'inventory' } });
  report('deleteDatasource', removed);
  check(removed.data?.success === true, 'removed');
  const removedAgain = await sdk.deleteDatasource({ path: { datasource_id: 'inventory' } });
  report('deleteDatasource', removedAgain);
  check(removedAgain.response.status === 404, 'removing twice is 404');

  // Admin: ratings, suggestions and runtime verified queries.
  const feedback = await sdk.listFeedback({ query: { request_id: traceId } });
  report('listFeedback', feedback);
  check(feedback.data?.feedback[0]?.rating === 'up', 'the rating is listed');
  const suggestions = await sdk.listVerifiedQuerySuggestions();
  report('listVerifiedQuerySuggestions', suggestions);
  check(Array.isArray(suggestions.data?.suggestions), 'a list of suggestions');
  const addedQuery = await sdk.addVerifiedQuery({
    body: {
      id: 'orders_above',
      datasource_id: datasourceId,
      question: 'Which orders are above :minimum?',
      sql: 'SELECT id FROM orders WHERE amount > :minimum',
      params: { minimum: { type: 'number', description: 'orders.amount, e.g. 10', example: 10 } },
    },
  });
  report('addVerifiedQuery', addedQuery);
  check(addedQuery.data?.verified_query.status === 'enabled', 'a verified query added');
  const again = await sdk.addVerifiedQuery({
    body: { id: 'orders_above', datasource_id: datasourceId, question: 'q', sql: 'SELECT id FROM orders' },
  });
  report('addVerifiedQuery', again);
  check(again.error?.error_code === 'VERIFIED_QUERY_EXISTS', 'the same id twice is 409');
  const removedQuery = await sdk.deleteVerifiedQuery({ path: { id: 'orders_above' } });
  report('deleteVerifiedQuery', removedQuery);
  check(removedQuery.data?.success === true, 'removed');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
