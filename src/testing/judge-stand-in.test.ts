import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startJudgeStandIn } from './judge-stand-in.ts';

// The stand-in itself: other tests trust its counts and recordings.

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

test('answers per model in script order, the last step repeating; records and counts every request', async () => {
  const s = await startJudgeStandIn({
    m1: [{ status: 503 }, { verdict: 'allow', rationale: 'ok', rubric_points: ['R1'] }],
  });
  try {
    assert.equal((await post(s.baseUrl, { model: 'm1' })).status, 503);
    for (let i = 0; i < 2; i++) {
      const res = await post(s.baseUrl, { model: 'm1', messages: [] }, { authorization: 'Bearer k' });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { choices: { message: { content: string } }[] };
      assert.deepEqual(JSON.parse(body.choices[0]!.message.content), {
        verdict: 'allow',
        rationale: 'ok',
        rubric_points: ['R1'],
      });
    }
    assert.equal((await post(s.baseUrl, { model: 'unscripted' })).status, 404);
    assert.equal((await fetch(`${s.baseUrl}/models`)).status, 404);
    assert.equal(s.calls('m1'), 3);
    assert.equal(s.calls(), 5);
    const last = s.requestsFor('m1')[2]!;
    assert.equal(last.path, '/v1/chat/completions');
    assert.equal(last.headers.authorization, 'Bearer k');
    assert.deepEqual(last.body, { model: 'm1', messages: [] });
  } finally {
    await s.close();
  }
});

test('hold keeps a request open until release(); close() ends held requests too', async () => {
  const s = await startJudgeStandIn({ h: { hold: { content: 'released' } } });
  try {
    const pending = post(s.baseUrl, { model: 'h' });
    while (s.held('h') < 1) await new Promise((r) => setTimeout(r, 5));
    assert.equal(s.release('other'), 0);
    assert.equal(s.release('h'), 1);
    const body = (await (await pending).json()) as { choices: { message: { content: string } }[] };
    assert.equal(body.choices[0]!.message.content, 'released');
    const stuck = post(s.baseUrl, { model: 'h' }).then(
      () => 'answered',
      () => 'connection closed',
    );
    while (s.held('h') < 1) await new Promise((r) => setTimeout(r, 5));
    await s.close();
    assert.equal(await stuck, 'connection closed');
  } finally {
    await s.close().catch(() => undefined);
  }
});
