/**
 * The run's model gateway against the real OpenAI client and the fake model server: the call cap
 * and the cost cap stop a run BEFORE the call that would cross them, tell the run's followers
 * (`run.limit_reached`), and a cancelled run makes no further call.
 */
import { SecretManager } from '../../../src/config/secrets';
import { RunCancelledError } from '../../../src/engine/errors';
import { OperatorEvents } from '../../../src/engine/events/operator-events';
import { RunEventEmitter, type RunEvent } from '../../../src/engine/events/run-events';
import { LlmService } from '../../../src/engine/llm/llm-service';
import { ModelGateway, type ModelLimits } from '../../../src/engine/run/model-gateway';
import { FakeModelServer } from '../../support/fake-model';

let fake: FakeModelServer;
let llm: LlmService;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  llm = new LlmService({
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      api_key: 'k',
      max_retries: 0,
      // 100 input + 20 output tokens per fake call: $0.12 a call at these prices.
      prices: { 'fake-model': { input: 1000, output: 1000 } },
    },
    secrets: new SecretManager({}),
  });
});
afterAll(async () => {
  await llm.close();
  await fake.close();
});
beforeEach(() => fake.reset());

function gateway(limits: ModelLimits, signal = new AbortController().signal) {
  const events: RunEvent[] = [];
  const emitter = new RunEventEmitter('t1', 'default', (e) => events.push(e), true);
  const set = llm.acquire();
  return { gw: new ModelGateway(set, limits, emitter, new OperatorEvents(), signal, 't1'), events };
}

const ask = (gw: ModelGateway) =>
  gw.text('default', 'answer_synthesizer', 'system', [{ role: 'user', content: 'hello' }]);

it('stops before call N+1 with RUN_CALL_LIMIT and says so on the stream', async () => {
  fake.reply({ text: 'one' }, { text: 'two' });
  const { gw, events } = gateway({ maxModelCalls: 1, maxCostUsd: null });
  await expect(ask(gw)).resolves.toBe('one');
  await expect(ask(gw)).rejects.toMatchObject({ code: 'RUN_CALL_LIMIT' });
  expect(fake.requests).toHaveLength(1);
  expect(gw.callCount).toBe(1);
  expect(events.map((e) => e.name)).toEqual(['run.limit_reached']);
  expect(events[0]!.data).toMatchObject({ limit: 'max_model_calls', value: 1, used: 1 });
});

it('stops before a call that may cross max_cost_usd, estimating it by the dearest call so far', async () => {
  fake.reply({ text: 'one' }, { text: 'two' });
  const { gw, events } = gateway({ maxModelCalls: 20, maxCostUsd: 0.2 });
  await ask(gw);
  await expect(ask(gw)).rejects.toMatchObject({ code: 'RUN_COST_LIMIT' });
  expect(fake.requests).toHaveLength(1);
  expect(events[0]!.data).toMatchObject({ limit: 'max_cost_usd', value: 0.2 });
  expect(gw.usage(0).total.cost).toBeCloseTo(0.12, 6);
});

it('makes no call once the run is cancelled', async () => {
  const abort = new AbortController();
  const { gw } = gateway({ maxModelCalls: 20, maxCostUsd: null }, abort.signal);
  abort.abort();
  await expect(ask(gw)).rejects.toBeInstanceOf(RunCancelledError);
  expect(fake.requests).toHaveLength(0);
});
