import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ConfigError, DEFAULT_PLANS, loadConfig } from './config.ts';

/** Asserts loadConfig refuses the environment with a one-line ConfigError naming the variable. */
function refuses(env: Record<string, string>, variable: string): string {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ConfigError, `${JSON.stringify(env)} was accepted`);
  const msg = caught.message;
  assert.ok(msg.includes(variable), `"${msg}" does not name ${variable}`);
  assert.doesNotMatch(msg, /\n/);
  return msg;
}

describe('loadConfig', () => {
  test('defaults: the embedded store on port 8080, team trials of 14 days, no operator API', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.databaseReadUrl, undefined);
    assert.equal(c.dataDir, './data');
    assert.equal(c.redisUrl, undefined);
    assert.equal(c.smtpUrl, undefined);
    assert.equal(c.operatorToken, undefined);
    assert.equal(c.ingressFallbackToken, undefined);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.trialDays, 14);
    assert.equal(c.ledgerOrigin, 'agent-ledger.local');
    assert.deepEqual(c.plans, DEFAULT_PLANS);
    assert.equal(c.signupLimitPerIp, 20);
    assert.equal(c.signupLimitPerEmail, 5);
    assert.equal(c.signupLimitWindow, 3600);
    assert.equal(c.idempotencyWaitMs, 30_000);
  });

  test('accepts good values', () => {
    const c = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db:5432/ledger',
      DATABASE_READ_URL: 'postgresql://u:p@replica/ledger',
      DATA_DIR: '/var/lib/agent-ledger',
      REDIS_URL: 'rediss://cache:6380',
      SMTP_URL: 'smtps://u:p@mail:465',
      MAIL_FROM: 'Ledger <ledger@example.com>',
      LEDGER_ORIGIN: 'ledger.example.com',
      OPERATOR_TOKEN: 'o'.repeat(16),
      INGRESS_FALLBACK_TOKEN: 'f'.repeat(32),
      PUBLIC_URL: 'https://ledger.example.com',
      LOG_LEVEL: 'debug',
      TRIAL_DAYS: '30',
      PLAN_CAPS: '{"team":{"agents":100},"free":{"invocations_per_day":0}}',
      SIGNUP_LIMIT_PER_IP: '100',
      SIGNUP_LIMIT_PER_EMAIL: '10',
      SIGNUP_LIMIT_WINDOW_SECONDS: '60',
      IDEMPOTENCY_WAIT_MS: '250',
    });
    assert.equal(c.port, 0);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.databaseUrl, 'postgres://u:p@db:5432/ledger');
    assert.equal(c.databaseReadUrl, 'postgresql://u:p@replica/ledger');
    assert.equal(c.redisUrl, 'rediss://cache:6380');
    assert.equal(c.smtpUrl, 'smtps://u:p@mail:465');
    assert.equal(c.operatorToken, 'o'.repeat(16));
    assert.equal(c.logLevel, 'debug');
    assert.equal(c.trialDays, 30);
    // PLAN_CAPS overrides only what it names.
    assert.equal(c.plans.team.agents, 100);
    assert.equal(c.plans.team.invocations_per_day, DEFAULT_PLANS.team.invocations_per_day);
    assert.equal(c.plans.free.invocations_per_day, 0);
    assert.deepEqual(c.plans.enterprise, DEFAULT_PLANS.enterprise);
    assert.equal(DEFAULT_PLANS.team.agents, 50, 'the defaults were mutated');
    assert.equal(c.signupLimitWindow, 60);
    assert.equal(c.idempotencyWaitMs, 250);
  });

  test('an empty variable counts as unset', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '', OPERATOR_TOKEN: '', LOG_LEVEL: '', PLAN_CAPS: '' });
    assert.equal(c.port, 8080);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.operatorToken, undefined);
    assert.equal(c.logLevel, 'info');
  });

  test('PORT: a whole number 0-65535', () => {
    for (const v of ['abc', '80.5', '-1', '65536', '1e3', ' 80', '0x50', '８０']) refuses({ PORT: v }, 'PORT');
  });

  test('IDEMPOTENCY_WAIT_MS: a whole number of milliseconds 0-600000', () => {
    for (const v of ['-1', '600001', '1.5', 'soon']) refuses({ IDEMPOTENCY_WAIT_MS: v }, 'IDEMPOTENCY_WAIT_MS');
    assert.equal(loadConfig({ IDEMPOTENCY_WAIT_MS: '0' }).idempotencyWaitMs, 0);
  });

  test('DATABASE_POOL_SIZE: 1-1000 connections, 10 by default', () => {
    assert.equal(loadConfig({}).databasePoolSize, 10);
    assert.equal(loadConfig({ DATABASE_POOL_SIZE: '64' }).databasePoolSize, 64);
    for (const v of ['0', '1001', 'many', '2.5']) refuses({ DATABASE_POOL_SIZE: v }, 'DATABASE_POOL_SIZE');
  });

  test('JUDGE_PRIVATE_NETWORKS: allow (the default) or deny', () => {
    assert.equal(loadConfig({}).judgePrivateNetworks, 'allow');
    assert.equal(loadConfig({ JUDGE_PRIVATE_NETWORKS: 'deny' }).judgePrivateNetworks, 'deny');
    for (const v of ['no', 'DENY', '0']) refuses({ JUDGE_PRIVATE_NETWORKS: v }, 'JUDGE_PRIVATE_NETWORKS');
  });

  test('DESTINATION_PRIVATE_NETWORKS: allow (the default) or deny', () => {
    assert.equal(loadConfig({}).destinationPrivateNetworks, 'allow');
    assert.equal(loadConfig({ DESTINATION_PRIVATE_NETWORKS: 'allow' }).destinationPrivateNetworks, 'allow');
    assert.equal(loadConfig({ DESTINATION_PRIVATE_NETWORKS: 'deny' }).destinationPrivateNetworks, 'deny');
    for (const v of ['no', 'DENY', 'false', '0', ' deny'])
      assert.match(
        refuses({ DESTINATION_PRIVATE_NETWORKS: v }, 'DESTINATION_PRIVATE_NETWORKS'),
        /must be one of allow, deny/,
      );
  });

  test('DESTINATION_POLL_MS: 10-60000 ms, 500 by default', () => {
    assert.equal(loadConfig({}).destinationPollMs, 500);
    assert.equal(loadConfig({ DESTINATION_POLL_MS: '10' }).destinationPollMs, 10);
    assert.equal(loadConfig({ DESTINATION_POLL_MS: '60000' }).destinationPollMs, 60_000);
    assert.match(refuses({ DESTINATION_POLL_MS: '9' }, 'DESTINATION_POLL_MS'), /between 10 and 60000, got 9/);
    for (const v of ['60001', '-1', '0.5', '1s', 'fast']) refuses({ DESTINATION_POLL_MS: v }, 'DESTINATION_POLL_MS');
  });

  test('DESTINATION_RETRY_BASE_MS: 10 ms-1 h, 5000 by default', () => {
    assert.equal(loadConfig({}).destinationRetryBaseMs, 5_000);
    assert.equal(loadConfig({ DESTINATION_RETRY_BASE_MS: '10' }).destinationRetryBaseMs, 10);
    assert.equal(loadConfig({ DESTINATION_RETRY_BASE_MS: '3600000' }).destinationRetryBaseMs, 3_600_000);
    assert.match(
      refuses({ DESTINATION_RETRY_BASE_MS: '3600001' }, 'DESTINATION_RETRY_BASE_MS'),
      /between 10 and 3600000/,
    );
    for (const v of ['9', '5e3', '5 s', 'xxx']) refuses({ DESTINATION_RETRY_BASE_MS: v }, 'DESTINATION_RETRY_BASE_MS');
  });

  test('DESTINATION_LEASE_MS: 1 s-1 h, 120000 by default', () => {
    assert.equal(loadConfig({}).destinationLeaseMs, 120_000);
    assert.equal(loadConfig({ DESTINATION_LEASE_MS: '1000' }).destinationLeaseMs, 1_000);
    assert.equal(loadConfig({ DESTINATION_LEASE_MS: '3600000' }).destinationLeaseMs, 3_600_000);
    assert.match(refuses({ DESTINATION_LEASE_MS: '999' }, 'DESTINATION_LEASE_MS'), /between 1000 and 3600000, got 999/);
    for (const v of ['3600001', '2m', '-5', '1e4']) refuses({ DESTINATION_LEASE_MS: v }, 'DESTINATION_LEASE_MS');
  });

  test('every DESTINATION_* variable the configuration reads is tested here and listed in docs/operations.md', () => {
    const read = new Set(
      [...readFileSync(new URL('./config.ts', import.meta.url), 'utf8').matchAll(/'(DESTINATION_[A-Z_]+)'/g)].map(
        (m) => m[1]!,
      ),
    );
    assert.ok(read.size >= 4, [...read].join());
    const tested = readFileSync(new URL(import.meta.url), 'utf8');
    const ops = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    for (const name of read) {
      assert.ok(tested.includes(`test('${name}:`), `${name} has no test of its own`);
      assert.match(ops, new RegExp(`^\\| \`${name}\` \\|`, 'm'), `${name} is not in docs/operations.md`);
    }
  });

  test('URLs: parseable and of the right scheme', () => {
    refuses({ DATABASE_URL: 'ftp://x' }, 'DATABASE_URL');
    refuses({ DATABASE_URL: 'not a url' }, 'DATABASE_URL');
    refuses({ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL');
    refuses({ DATABASE_READ_URL: 'http://x' }, 'DATABASE_READ_URL');
    refuses({ REDIS_URL: 'http://cache' }, 'REDIS_URL');
    refuses({ SMTP_URL: 'mail.example.com:25' }, 'SMTP_URL');
    refuses({ PUBLIC_URL: 'ftp://ledger' }, 'PUBLIC_URL');
  });

  test('a bad URL is reported without echoing it (it may hold a password)', () => {
    const msg = refuses({ DATABASE_URL: 'mysql://user:s3cret-pw@db/x' }, 'DATABASE_URL');
    assert.doesNotMatch(msg, /s3cret-pw/);
  });

  test('LOG_LEVEL: one of the pino levels', () => {
    const msg = refuses({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL');
    assert.match(msg, /info/);
    refuses({ LOG_LEVEL: 'INFO' }, 'LOG_LEVEL');
  });

  test('PLAN_CAPS: a JSON object of known tiers and caps, whole numbers ≥ 0', () => {
    refuses({ PLAN_CAPS: 'bad json' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '[1,2]' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '42' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: 'null' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"gold":{"agents":1}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":5}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":{"robots":1}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":{"agents":-1}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":{"agents":1.5}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":{"agents":"5"}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":{"agents":null}}' }, 'PLAN_CAPS');
  });

  test('PLAN_CAPS cannot reach the prototype', () => {
    const c = loadConfig({ PLAN_CAPS: '{"team":{"agents":7}}' });
    assert.equal(c.plans.team.agents, 7);
    refuses({ PLAN_CAPS: '{"__proto__":{"agents":1}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":{"__proto__":1}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"constructor":{"agents":1}}' }, 'PLAN_CAPS');
    refuses({ PLAN_CAPS: '{"team":{"toString":1}}' }, 'PLAN_CAPS');
    assert.equal(({} as Record<string, unknown>).agents, undefined);
  });

  test('secrets: OPERATOR_TOKEN and INGRESS_FALLBACK_TOKEN at least 16 characters, never echoed', () => {
    const msg = refuses({ OPERATOR_TOKEN: 'short-secret' }, 'OPERATOR_TOKEN');
    assert.doesNotMatch(msg, /short-secret/);
    refuses({ OPERATOR_TOKEN: 'x'.repeat(15) }, 'OPERATOR_TOKEN');
    refuses({ INGRESS_FALLBACK_TOKEN: 'abc' }, 'INGRESS_FALLBACK_TOKEN');
    assert.equal(loadConfig({ OPERATOR_TOKEN: 'x'.repeat(16) }).operatorToken, 'x'.repeat(16));
  });

  test('numbers with bounds: TRIAL_DAYS, sign-up limits and window', () => {
    refuses({ TRIAL_DAYS: '-3' }, 'TRIAL_DAYS');
    refuses({ TRIAL_DAYS: '3651' }, 'TRIAL_DAYS');
    refuses({ TRIAL_DAYS: 'two weeks' }, 'TRIAL_DAYS');
    refuses({ SIGNUP_LIMIT_PER_IP: '0' }, 'SIGNUP_LIMIT_PER_IP');
    refuses({ SIGNUP_LIMIT_PER_EMAIL: 'many' }, 'SIGNUP_LIMIT_PER_EMAIL');
    refuses({ SIGNUP_LIMIT_WINDOW_SECONDS: '0' }, 'SIGNUP_LIMIT_WINDOW_SECONDS');
    refuses({ SIGNUP_LIMIT_WINDOW_SECONDS: '86401' }, 'SIGNUP_LIMIT_WINDOW_SECONDS');
    assert.equal(loadConfig({ TRIAL_DAYS: '0' }).trialDays, 0);
  });

  test('TRUST_PROXY is a flag', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '1' }).trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    refuses({ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY');
  });

  test('LEDGER_ORIGIN and MAIL_FROM', () => {
    refuses({ LEDGER_ORIGIN: 'has space' }, 'LEDGER_ORIGIN');
    refuses({ LEDGER_ORIGIN: 'a+b' }, 'LEDGER_ORIGIN');
    refuses({ LEDGER_ORIGIN: 'x'.repeat(201) }, 'LEDGER_ORIGIN');
    refuses({ MAIL_FROM: 'nobody' }, 'MAIL_FROM');
  });
  test('LOG_PUBLISH_URL: file:///DIR or s3://BUCKET/PREFIX, with an origin that makes safe path segments', () => {
    assert.equal(loadConfig({}).logPublishUrl, undefined);
    const f = loadConfig({ LOG_PUBLISH_URL: 'file:///srv/tlog' });
    assert.equal(f.logPublishUrl, 'file:///srv/tlog');
    assert.equal(f.logPublishLeaseMs, 60_000);
    const s = loadConfig({
      LOG_PUBLISH_URL: 's3://audit-logs/tlog/v1',
      LOG_PUBLISH_S3_ENDPOINT: 'http://minio:9000',
      LOG_PUBLISH_LEASE_SECONDS: '5',
      LEDGER_ORIGIN: 'audit.example.com/agents',
    });
    assert.equal(s.logPublishS3Endpoint, 'http://minio:9000');
    assert.equal(s.logPublishLeaseMs, 5_000);
    refuses({ LOG_PUBLISH_URL: 'https://bucket.example.com/' }, 'LOG_PUBLISH_URL');
    refuses({ LOG_PUBLISH_URL: 'file://host/dir' }, 'LOG_PUBLISH_URL');
    refuses({ LOG_PUBLISH_URL: 'file:///' }, 'LOG_PUBLISH_URL');
    refuses({ LOG_PUBLISH_URL: 's3://Bad_Bucket/x' }, 'LOG_PUBLISH_URL');
    refuses({ LOG_PUBLISH_URL: 's3://logs/a%20b' }, 'LOG_PUBLISH_URL');
    refuses({ LOG_PUBLISH_S3_ENDPOINT: 'ftp://minio' }, 'LOG_PUBLISH_S3_ENDPOINT');
    refuses({ LOG_PUBLISH_LEASE_SECONDS: '0' }, 'LOG_PUBLISH_LEASE_SECONDS');
    // The origin becomes the published prefix of each log: nothing that climbs out of it or needs escaping.
    for (const origin of ['a/../b', 'a/./b', 'a//b', 'a?b', 'a#b', 'a%2e'])
      refuses({ LOG_PUBLISH_URL: 'file:///srv/tlog', LEDGER_ORIGIN: origin }, 'LOG_PUBLISH_URL');
    assert.equal(loadConfig({ LEDGER_ORIGIN: 'a/../b' }).ledgerOrigin, 'a/../b', 'unpublished, any origin still goes');
  });
  test('LOG_KEEP_IN_DB_ENTRIES: only with LOG_PUBLISH_URL, at least one full tile', () => {
    assert.equal(loadConfig({ LOG_PUBLISH_URL: 'file:///srv/tlog' }).logKeepInDbEntries, undefined);
    assert.equal(
      loadConfig({ LOG_PUBLISH_URL: 'file:///srv/tlog', LOG_KEEP_IN_DB_ENTRIES: '256' }).logKeepInDbEntries,
      256,
    );
    assert.equal(
      loadConfig({ LOG_PUBLISH_URL: 's3://logs/x', LOG_KEEP_IN_DB_ENTRIES: '1000000' }).logKeepInDbEntries,
      1_000_000,
    );
    assert.match(refuses({ LOG_KEEP_IN_DB_ENTRIES: '100000' }, 'LOG_KEEP_IN_DB_ENTRIES'), /needs LOG_PUBLISH_URL/);
    assert.match(
      refuses({ LOG_PUBLISH_URL: 'file:///srv/tlog', LOG_KEEP_IN_DB_ENTRIES: '255' }, 'LOG_KEEP_IN_DB_ENTRIES'),
      /at least 256/,
    );
    refuses({ LOG_PUBLISH_URL: 'file:///srv/tlog', LOG_KEEP_IN_DB_ENTRIES: '1e6' }, 'LOG_KEEP_IN_DB_ENTRIES');
    refuses({ LOG_PUBLISH_URL: 'file:///srv/tlog', LOG_KEEP_IN_DB_ENTRIES: '-5' }, 'LOG_KEEP_IN_DB_ENTRIES');
  });
});
