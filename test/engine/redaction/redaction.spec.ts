/**
 * The boundary redaction's parts (src/engine/redaction): a streamed text is redacted as if it had
 * come whole, however it is cut into pieces; model text is capped with a mark and never cut
 * through a known secret; a run's result is redacted everywhere but in its cells, which lose only
 * exact known secrets; and the emitter redacts every event it sends.
 */
import fc from 'fast-check';
import { MASK, redact, registerSecret } from '../../../src/config/redact';
import { RunEventEmitter, type RunEvent } from '../../../src/engine/events/run-events';
import { LlmError } from '../../../src/engine/llm/errors';
import {
  CappedTextStream,
  capModelAnswer,
  capModelText,
  MODEL_TEXT_MAX_CHARS,
  TRUNCATION_MARK,
} from '../../../src/engine/redaction/model-text';
import { redactResult } from '../../../src/engine/redaction/outgoing';
import { StreamRedactor } from '../../../src/engine/redaction/stream-redactor';

const KEY = 'proxy-Key-7fQ2xLm9Zr'; // matches no pattern: only the known-secret net catches it
const PASSWORD = 'correct horse battery'; // a known secret with spaces
registerSecret(KEY);
registerSecret(PASSWORD);

/** Cuts `text` at the given positions. */
function cutAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

function streamed(pieces: readonly string[]): string {
  const r = new StreamRedactor();
  return pieces.map((p) => r.push(p)).join('') + r.flush();
}

describe('StreamRedactor', () => {
  const TEXTS = [
    `The key is ${KEY} and nothing else.`,
    `Login with password: hunter2-Secret then ${PASSWORD}, ok`,
    `Header Authorization: Bearer abcdefghijklmnop123 was sent to https://user:pa55word@db.example/x`,
    `token=${KEY}`,
    KEY,
  ];

  it.each(TEXTS)('masks whatever two pieces the text is split into: %s', (text) => {
    for (let i = 0; i <= text.length; i++) {
      const out = streamed([text.slice(0, i), text.slice(i)]);
      expect(out).toBe(redact(text));
    }
  });

  it('equals redacting the whole text for any cutting into pieces', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TEXTS), fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const out = streamed(cutAt(text, cuts));
        return out === redact(text) && !out.includes(KEY) && !out.includes(PASSWORD);
      }),
    );
  });

  it('passes plain text on as it comes, holding back only its last words', () => {
    const r = new StreamRedactor();
    expect(r.push('Three orders came ')).toBe('');
    expect(r.push('from France and two from Finland.')).toBe('Three orders came from France and ');
    expect(r.flush()).toBe('two from Finland.');
  });

  it('masks the start of a known secret that the text ends with', () => {
    expect(streamed(['the key: ', KEY.slice(0, 12)])).toBe(`the key: ${MASK}`);
  });
});

describe('model text cap', () => {
  it('cuts a 20 MB reason to the cap with a visible mark', () => {
    const reason = 'x'.repeat(20 * 1024 * 1024);
    const capped = capModelText(reason);
    expect(capped.length).toBe(MODEL_TEXT_MAX_CHARS + TRUNCATION_MARK.length);
    expect(capped.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(capModelText('short')).toBe('short');
  });

  it('caps every string of a structured answer and leaves the rest as it is', () => {
    const answer = {
      sql: null,
      unanswerable_reason: 'y'.repeat(MODEL_TEXT_MAX_CHARS + 5),
      n: 3,
      list: ['a'],
    };
    const capped = capModelAnswer(answer);
    expect(capped.unanswerable_reason.endsWith(TRUNCATION_MARK)).toBe(true);
    expect({ ...capped, unanswerable_reason: '' }).toEqual({ ...answer, unanswerable_reason: '' });
    const small = { a: 'b', c: [1, 'd'] };
    expect(capModelAnswer(small)).toBe(small);
  });

  it('never cuts through a known secret, so no part of one is left', () => {
    for (let at = 0; at <= KEY.length + PASSWORD.length + 2; at++) {
      const max = 50;
      const text = `${'w'.repeat(max - at)}${KEY} ${PASSWORD} ${'z'.repeat(80)}`;
      const capped = capModelText(text, max);
      const kept = capped.slice(0, capped.length - TRUNCATION_MARK.length);
      for (const secret of [KEY, PASSWORD])
        for (let k = 4; k < secret.length; k++) expect(kept.endsWith(secret.slice(0, k))).toBe(false);
    }
  });

  it('streams the same text the whole-text cap gives, however the model cuts its pieces', () => {
    const max = 60;
    fc.assert(
      fc.property(
        fc.constantFrom(
          `${'a '.repeat(20)}${KEY} and ${PASSWORD} then ${'b'.repeat(90)}`,
          'short answer',
          `${'c'.repeat(59)}${KEY}${'d'.repeat(40)}`,
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (text, cuts) => {
          let out = '';
          const stream = new CappedTextStream((t) => (out += t), max);
          for (const p of cutAt(text, cuts)) stream.push(p);
          stream.end();
          return out === capModelText(text, max);
        },
      ),
    );
  });
});

it("caps a provider's error text as it caps a model's", () => {
  const err = new LlmError('PROVIDER_ERROR', `failed: ${'e'.repeat(1_000_000)}`, {
    providerResponse: { error: { message: 'm'.repeat(1_000_000), key: KEY } },
  });
  expect(err.message.endsWith(TRUNCATION_MARK)).toBe(true);
  expect(err.message.length).toBeLessThanOrEqual(MODEL_TEXT_MAX_CHARS + TRUNCATION_MARK.length);
  const body = JSON.stringify(err.providerResponse);
  expect(body.length).toBeLessThan(MODEL_TEXT_MAX_CHARS + 200);
  expect(body).not.toContain(KEY);
});

describe('redactResult', () => {
  it('redacts every string of a response but masks cells of known secrets only', () => {
    const response = {
      errors: [{ message: `cannot answer: ${KEY}`, provider_response: { body: `password=abc123 ${KEY}` } }],
      final_answer: { summary: `see ${PASSWORD}` },
      reasoning: [{ reason: `Bearer abcdefghijk12345` }],
      sub_queries: [
        {
          intent: `about ${KEY}`,
          sql: 'SELECT 1',
          rows: {
            columns: ['note'],
            rows: [[`token=abc12345 (looks like a key)`], [KEY], [42]],
            total_rows: 3,
          },
        },
      ],
    };
    const text = JSON.stringify(redactResult(response));
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('abcdefghijk12345');
    expect(text).not.toContain('abc123 ');
    // A cell keeps data that merely looks like a secret; an exact known secret is masked.
    expect(text).toContain('token=abc12345 (looks like a key)');
    expect((redactResult(response) as any).sub_queries[0].rows.rows).toEqual([
      ['token=abc12345 (looks like a key)'],
      [MASK],
      [42],
    ]);
  });
});

describe('RunEventEmitter', () => {
  it('sends every event redacted, the answer pieces joined before the next event', () => {
    const sent: RunEvent[] = [];
    const emitter = new RunEventEmitter('t', 'default', (e) => sent.push(e), true);
    emitter.emit('node.started', { node: 'answer_synthesizer', sub_query_id: null });
    for (const piece of ['The key is proxy-Ke', 'y-7fQ2xL', 'm9Zr, as asked.'])
      emitter.emit('answer.delta', { field: 'summary', text: piece });
    emitter.emit('answer.delta', { field: 'content', text: `| ${KEY} |` });
    emitter.emit('run.failed', { message: `failed: ${KEY}`, error_code: 'INTERNAL_ERROR' });
    const text = JSON.stringify(sent);
    expect(text).not.toContain(KEY);
    const summary = sent
      .filter((e) => e.name === 'answer.delta' && (e.data as any).field === 'summary')
      .map((e) => (e.data as any).text)
      .join('');
    expect(summary).toBe(`The key is ${MASK}, as asked.`);
    expect(sent.map((e) => e.name)).toEqual([
      'node.started',
      ...sent.slice(1, -2).map(() => 'answer.delta'),
      'answer.delta',
      'run.failed',
    ]);
    expect((sent.at(-1)!.data as any).message).toBe(`failed: ${MASK}`);
  });
});
