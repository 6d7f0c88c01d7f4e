// GET /api/v1/invocations/stats: counts per bucket by verdict, zeros for empty
// buckets, only the caller's workspace, bounded ranges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';

eachStore('invocation stats', (get) => {
  test('counts by verdict per hour, empty hours as zeros, another workspace never counted', async () => {
    const t = get();
    const a = await t.signIn('sam@stats-co.com');
    const b = await t.signIn('bea@other-stats-co.com');
    const base = Date.parse('2026-06-01T10:00:00.000Z');
    const post = (token: string, prompt: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token,
        payload: { agent_key: 'bot', tool_name: 'search', prompt },
      });
    t.clock.set(new Date(base + 5 * 60_000));
    assert.equal((await post(a.token, 'hello')).json().verdict, 'allow');
    assert.equal((await post(a.token, 'hi again')).json().verdict, 'allow');
    assert.equal((await post(b.token, 'not mine')).statusCode, 201);
    t.clock.set(new Date(base + 2 * 3_600_000 + 60_000));
    assert.equal((await post(a.token, `token ghp_${'k1L2m3N4o5'.repeat(3)}123456`)).json().verdict, 'flag_for_review');
    const q = (token: string, qs: string) =>
      t.request({ method: 'GET', url: `/api/v1/invocations/stats?${qs}`, token });
    const since = new Date(base).toISOString();
    const until = new Date(base + 4 * 3_600_000).toISOString();
    const res = await q(a.token, `since=${since}&until=${until}&bucket=hour`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res
        .json()
        .buckets.map((x: { allow: number; flag_for_review: number; deny: number }) => [
          x.allow,
          x.flag_for_review,
          x.deny,
        ]),
      [
        [2, 0, 0],
        [0, 0, 0],
        [0, 1, 0],
        [0, 0, 0],
      ],
    );
    assert.equal(res.json().buckets[2].start, new Date(base + 2 * 3_600_000).toISOString());
    const day = await q(a.token, `since=${since}&until=${new Date(base + 86_400_000).toISOString()}&bucket=day`);
    assert.deepEqual(
      day.json().buckets.map((x: { allow: number }) => x.allow),
      [2],
    );
    const tooLong = await q(
      a.token,
      `since=${since}&until=${new Date(base + 8 * 86_400_000).toISOString()}&bucket=hour`,
    );
    assert.equal(tooLong.statusCode, 422);
    assert.equal((await q(a.token, `since=${until}&until=${since}&bucket=hour`)).statusCode, 422);
  });
});
