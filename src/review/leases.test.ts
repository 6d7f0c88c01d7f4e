// The review queue's lease: two reviewers never get the same item.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';

eachStore('review leases', (get) => {
  test('each reviewer gets the oldest item nobody else holds; a held item cannot be decided by another; expiry frees it', async () => {
    const t = get();
    const admin = await t.signIn('ann@lease-co.com');
    const inv = await t.request({
      method: 'POST',
      url: '/api/v1/workspace/invites',
      token: admin.token,
      payload: { email: 'otto@lease-co.com', role: 'operator' },
    });
    assert.equal(inv.statusCode, 201, inv.body);
    const op = await t.signIn('otto@lease-co.com');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token: admin.token,
        payload: {
          agent_key: 'bot',
          tool_name: 'search',
          prompt: `token ghp_${'a1B2c3D4e5'.repeat(3)}123456 number ${i}`,
        },
      });
      assert.equal(r.statusCode, 201, r.body);
      assert.equal(r.json().verdict, 'flag_for_review');
      ids.push(r.json().invocation_id);
      t.clock.advance(1000);
    }
    const lease = (token: string, exclude?: number[]) =>
      t.request({ method: 'POST', url: '/api/v1/reviews/lease', token, payload: exclude ? { exclude } : {} });
    const a = (await lease(admin.token)).json();
    assert.equal(a.invocation_id, ids[0], 'oldest first');
    assert.equal(a.pending, 3);
    const o = (await lease(op.token)).json();
    assert.equal(o.invocation_id, ids[1], 'the other reviewer gets the next one');
    const again = (await lease(admin.token)).json();
    assert.equal(again.invocation_id, ids[0], 'asking again keeps your own item');
    const skipped = (await lease(admin.token, [ids[0]!])).json();
    assert.equal(skipped.invocation_id, ids[2], 'a skip moves on, never to an item held by someone else');

    const steal = await t.request({
      method: 'POST',
      url: `/api/v1/reviews/${ids[1]}`,
      token: admin.token,
      payload: { decision: 'approve', note: 'mine' },
    });
    assert.equal(steal.statusCode, 409);
    const mine = await t.request({
      method: 'POST',
      url: `/api/v1/reviews/${ids[1]}`,
      token: op.token,
      payload: { decision: 'reject', note: 'leaked token' },
    });
    assert.equal(mine.statusCode, 201, mine.body);

    t.clock.advance(6 * 60_000);
    const freed = (await lease(op.token)).json();
    assert.equal(freed.invocation_id, ids[0], "the admin's expired lease is free again");
    assert.equal(freed.pending, 2);
    const viewer = await t.request({
      method: 'POST',
      url: '/api/v1/workspace/invites',
      token: admin.token,
      payload: { email: 'vera@lease-co.com', role: 'viewer' },
    });
    assert.equal(viewer.statusCode, 201);
    const v = await t.signIn('vera@lease-co.com');
    assert.equal((await lease(v.token)).statusCode, 403, 'viewers do not review');
  });
});
