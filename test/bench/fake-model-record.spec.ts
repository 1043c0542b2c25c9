/**
 * The e2e bench's oracle starts its fake model server with `record: false`: thousands of planning
 * requests a pass are answered and none is kept (keeping them cost the oracle's thread about a fifth
 * of its busy time per run, 0.90 to 0.96 ms against 0.71 to 0.75). Tests that script the fake still
 * see every request.
 */
import { FakeModelServer } from '../support/fake-model';

async function ask(fake: FakeModelServer): Promise<number> {
  const res = await fetch(`${fake.openaiBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Question: how many?' }] }),
  });
  await res.text();
  return res.status;
}

it.each([
  [{}, 1],
  [{ record: false }, 0],
])('with options %j answers and keeps %d request(s)', async (options, kept) => {
  const fake = await FakeModelServer.start(options);
  try {
    fake.onRequest(() => ({ text: 'an answer' }));
    expect(await ask(fake)).toBe(200);
    expect(fake.requests).toHaveLength(kept);
  } finally {
    await fake.close();
  }
});
