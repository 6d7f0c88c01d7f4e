// Configuration comes from the environment only. Every variable is validated at
// start; a bad value stops the start with one line naming the variable.

export type PlanTier = 'free' | 'team' | 'enterprise';

export interface PlanCaps {
  invocations_per_day: number;
  multi_judge_calls_per_month: number;
  personas: number;
  agents: number;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  databaseReadUrl: string | undefined;
  /** Connections each node keeps to PostgreSQL (and as many again to DATABASE_READ_URL). */
  databasePoolSize: number;
  dataDir: string;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  ledgerOrigin: string;
  ledgerSigningKey: string | undefined;
  ingressFallbackToken: string | undefined;
  operatorToken: string | undefined;
  /** Bearer token for GET /metrics; unset: /metrics is off (404). */
  metricsToken: string | undefined;
  publicUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trialDays: number;
  plans: Record<PlanTier, PlanCaps>;
  signupLimitPerIp: number;
  signupLimitPerEmail: number;
  /** Seconds of the sign-up rate-limit window. */
  signupLimitWindow: number;
  /** Invitation mails per workspace, and to one address from all workspaces, per window (INVITE_LIMIT_*). */
  inviteLimitPerWorkspace: number;
  inviteLimitPerEmail: number;
  /** Seconds of the invitation rate-limit window. */
  inviteLimitWindow: number;
  /** Take the client address from X-Forwarded-For (behind a load balancer). */
  trustProxy: boolean;
  /**
   * C2SP witnesses every new checkpoint is submitted to: add-checkpoint prefix and cosigner key, as given.
   * The key's text is the witness module's to interpret (witness/witnesses.ts), at the service's start.
   */
  witnesses: ConfiguredWitness[];
  /** Longest wait before a down witness is tried again. */
  witnessRetryMaxSeconds: number;
  /** Where each workspace's log is published as tlog-tiles: file:///DIR or s3://BUCKET/PREFIX; unset: not published. */
  logPublishUrl: string | undefined;
  /** An S3-compatible endpoint for s3:// (MinIO, Ceph RGW, ...), addressed path-style; unset: AWS S3. */
  logPublishS3Endpoint: string | undefined;
  /** How long a node holds a log it publishes before another node may take it over. */
  logPublishLeaseMs: number;
  /**
   * Log entries each workspace keeps in the database (LOG_KEEP_IN_DB_ENTRIES,
   * at least MIN_LOG_KEEP_IN_DB_ENTRIES, only with LOG_PUBLISH_URL): whole
   * published tiles before the newest N are dropped and read back from the
   * store. Unset: every entry stays.
   */
  logKeepInDbEntries: number | undefined;
  /**
   * Days invocations and rogue events are kept (RECORDS_RETENTION_DAYS, at
   * least 183): whole months past it are dropped, their leaves kept. Unset:
   * kept forever.
   */
  recordsRetentionDays: number | undefined;
  /** Worker threads running the detectors on events with long texts; 0 scans on the event loop. */
  detectWorkers: number;
  /** Most milliseconds the event loop scans events before it looks at I/O again (ingest/scan-scheduler.ts). */
  scanSliceMs: number;
  /** Most request body bytes one workspace has in processing on the event endpoints of a node (ingest/admission.ts). */
  ingestWorkspaceBytes: number;
  /** Longest an event request waits for its workspace's room before a 429. */
  ingestWorkspaceWaitMs: number;
  /** Per request to a judge of the panel, answer included. */
  judgeTimeoutMs: number;
  /** Requests per judge for timeouts, 429s and 5xx before it abstains. */
  judgeMaxAttempts: number;
  /** Whether judges may be on loopback/private addresses (a local Ollama); link-local and metadata addresses never. */
  judgePrivateNetworks: 'allow' | 'deny';
  /** Whether destinations (webhooks, SIEM) may be on loopback/private addresses; link-local and metadata never. */
  destinationPrivateNetworks: 'allow' | 'deny';
  /** How often the delivery worker looks for new audit-trail entries to deliver. */
  destinationPollMs: number;
  /** The first retry delay of a failed delivery; each next one is longer (destinations/backoff.ts). */
  destinationRetryBaseMs: number;
  /** How long a node holds a destination it sends to; a node killed mid-pass holds it this long. */
  destinationLeaseMs: number;
  /** How long a worker holds a background job before another node may take it (a crashed node's jobs wait this long). */
  jobLeaseMs: number;
  /** Jobs a worker takes per poll. */
  jobBatch: number;
  /**
   * Milliseconds a request waits for another request with its idempotency key
   * (on this node) to finish before it is answered 409 idempotency_key_in_flight.
   */
  idempotencyWaitMs: number;
  /**
   * Milliseconds a client has to send a whole request, headers and body: a
   * slow upload holds a connection (and on OTLP an export slot) no longer.
   */
  requestTimeoutMs: number;
}

export const DEFAULT_PLANS: Record<PlanTier, PlanCaps> = {
  free: { invocations_per_day: 1_000, multi_judge_calls_per_month: 0, personas: 1, agents: 3 },
  team: { invocations_per_day: 100_000, multi_judge_calls_per_month: 1_000, personas: 10, agents: 50 },
  enterprise: { invocations_per_day: 10_000_000, multi_judge_calls_per_month: 100_000, personas: 100, agents: 10_000 },
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Six months: the least log retention the EU AI Act asks of deployers of high-risk systems (Art. 19, 26(6)). */
export const MIN_RECORDS_RETENTION_DAYS = 183;

function recordsRetention(env: Env): number | undefined {
  const raw = env['RECORDS_RETENTION_DAYS'];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < MIN_RECORDS_RETENTION_DAYS || Number(raw) > 36_500)
    throw new ConfigError(
      `RECORDS_RETENTION_DAYS must be a whole number of days from ${MIN_RECORDS_RETENTION_DAYS} (six months, the least ` +
        `log retention the EU AI Act asks of deployers of high-risk systems) to 36500, got ${JSON.stringify(raw)}; ` +
        'unset keeps records forever',
    );
  return Number(raw);
}

/**
 * The least LOG_KEEP_IN_DB_ENTRIES: one full tile. Pruning drops whole
 * published tiles only, so with at least 256 kept the newest full tile and the
 * partial tile after it (not published as a full one yet) always stay, and
 * every append finds the log's right edge in the database.
 */
export const MIN_LOG_KEEP_IN_DB_ENTRIES = 256;

function logKeepInDb(env: Env, publishUrl: string | undefined): number | undefined {
  const raw = env['LOG_KEEP_IN_DB_ENTRIES'];
  if (raw === undefined || raw === '') return undefined;
  if (publishUrl === undefined)
    throw new ConfigError(
      'LOG_KEEP_IN_DB_ENTRIES needs LOG_PUBLISH_URL: entries are dropped from the database only once published there, ' +
        'and read back from it',
    );
  if (!/^\d+$/.test(raw) || Number(raw) < MIN_LOG_KEEP_IN_DB_ENTRIES || !Number.isSafeInteger(Number(raw)))
    throw new ConfigError(
      `LOG_KEEP_IN_DB_ENTRIES must be a whole number of entries, at least ${MIN_LOG_KEEP_IN_DB_ENTRIES} (one full tile), ` +
        `got ${JSON.stringify(raw)}; unset keeps every entry in the database`,
    );
  return Number(raw);
}

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

function secret(env: Env, name: string): string | undefined {
  const v = str(env, name);
  if (v !== undefined && v.length < 16) throw new ConfigError(`${name} must be at least 16 characters long`);
  return v;
}

function flag(env: Env, name: string): boolean {
  const v = str(env, name);
  if (v === undefined || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0 (true or false), got ${JSON.stringify(v)}`);
}

function oneOf<const T extends readonly string[]>(env: Env, name: string, values: T, fallback: T[number]): T[number] {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!(values as readonly string[]).includes(v)) throw new ConfigError(`${name} must be one of ${values.join(', ')}`);
  return v as T[number];
}

function plans(env: Env): Record<PlanTier, PlanCaps> {
  const raw = str(env, 'PLAN_CAPS');
  if (raw === undefined) return DEFAULT_PLANS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('PLAN_CAPS must be JSON, e.g. {"team":{"agents":100}}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('PLAN_CAPS must be a JSON object keyed by plan tier');
  }
  const out = structuredClone(DEFAULT_PLANS);
  for (const [tier, caps] of Object.entries(parsed)) {
    // Own keys only: `in` would accept inherited names such as __proto__ or toString.
    if (!Object.hasOwn(out, tier))
      throw new ConfigError(`PLAN_CAPS names an unknown plan tier ${JSON.stringify(tier)}`);
    if (!caps || typeof caps !== 'object') throw new ConfigError(`PLAN_CAPS.${tier} must be an object`);
    for (const [k, v] of Object.entries(caps)) {
      if (!Object.hasOwn(out[tier as PlanTier], k))
        throw new ConfigError(`PLAN_CAPS.${tier} has an unknown cap ${JSON.stringify(k)}`);
      if (!Number.isSafeInteger(v) || (v as number) < 0) {
        throw new ConfigError(`PLAN_CAPS.${tier}.${k} must be a whole number ≥ 0`);
      }
      out[tier as PlanTier][k as keyof PlanCaps] = v as number;
    }
  }
  return out;
}

/** A witness as WITNESS_URLS and WITNESS_KEYS name it: its URL checked, its key text not yet parsed. */
export interface ConfiguredWitness {
  /** The submission prefix (no trailing '/'): POST <url>/add-checkpoint. */
  url: string;
  /** The witness's cosigner verifier key as written (name+hex8+base64(0x04 ‖ key)). */
  key: string;
}

/** WITNESS_URLS and WITNESS_KEYS: two comma-separated lists, the n-th key is the n-th witness's. */
function witnesses(env: Env): ConfiguredWitness[] {
  const list = (name: string) =>
    (str(env, name) ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  const urls = list('WITNESS_URLS');
  const keys = list('WITNESS_KEYS');
  if (urls.length !== keys.length) {
    throw new ConfigError(
      `WITNESS_URLS names ${urls.length} witness(es) but WITNESS_KEYS ${keys.length}: give one cosigner key per URL`,
    );
  }
  return urls.map((raw, i) => {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new ConfigError(`WITNESS_URLS: ${JSON.stringify(raw)} is not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError('WITNESS_URLS must be http(s) URLs');
    return { url: raw.replace(/\/+$/, ''), key: keys[i]! };
  });
}

/**
 * Each log is published under its origin (LEDGER_ORIGIN/<workspace id>), so
 * the origin becomes path segments of files and object keys: none may be "."
 * or "..", nor hold characters a static web server would need escaped.
 */
function checkPublishing(raw: string, origin: string): void {
  const u = new URL(raw);
  if (u.protocol === 'file:' && (u.host !== '' || u.pathname === '/' || u.search !== '' || u.hash !== ''))
    throw new ConfigError('LOG_PUBLISH_URL must be file:///ABSOLUTE/DIR');
  if (
    u.protocol === 's3:' &&
    (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(u.hostname) || u.search !== '' || u.hash !== '')
  )
    throw new ConfigError('LOG_PUBLISH_URL must be s3://BUCKET/PREFIX with a valid bucket name');
  if (u.protocol === 's3:' && !/^[A-Za-z0-9._~:/-]*$/.test(u.pathname))
    throw new ConfigError('LOG_PUBLISH_URL: the key prefix may hold letters, digits and ._~:-/ only');
  if (origin.split('/').some((p) => p === '.' || p === '..' || !/^[A-Za-z0-9._~:-]+$/.test(p)))
    throw new ConfigError(
      'LOG_PUBLISH_URL needs a LEDGER_ORIGIN of path segments made of letters, digits and ._~:- (the published prefix of each log)',
    );
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const origin = str(env, 'LEDGER_ORIGIN') ?? 'agent-ledger.local';
  // The origin is the first line of every checkpoint and the signing key's name:
  // it must not hold spaces, '+' (the verifier-key separator) or newlines.
  if (!/^[\x21-\x2a\x2c-\x7e]{1,200}$/.test(origin)) {
    throw new ConfigError('LEDGER_ORIGIN must be 1-200 printable ASCII characters without spaces or "+"');
  }
  const logPublishUrl = url(env, 'LOG_PUBLISH_URL', ['file:', 's3:']);
  if (logPublishUrl !== undefined) checkPublishing(logPublishUrl, origin);
  const recordsRetentionDays = recordsRetention(env);
  const mailFrom = str(env, 'MAIL_FROM') ?? 'agent-ledger <no-reply@agent-ledger.local>';
  if (!/@/.test(mailFrom)) throw new ConfigError('MAIL_FROM must hold an e-mail address');
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseReadUrl: url(env, 'DATABASE_READ_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    dataDir: str(env, 'DATA_DIR') ?? './data',
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    ledgerOrigin: origin,
    ledgerSigningKey: str(env, 'LEDGER_SIGNING_KEY'),
    ingressFallbackToken: secret(env, 'INGRESS_FALLBACK_TOKEN'),
    operatorToken: secret(env, 'OPERATOR_TOKEN'),
    metricsToken: secret(env, 'METRICS_TOKEN'),
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']),
    logLevel: logLevel as Config['logLevel'],
    trialDays: int(env, 'TRIAL_DAYS', 14, 0, 3650),
    plans: plans(env),
    signupLimitPerIp: int(env, 'SIGNUP_LIMIT_PER_IP', 20, 1, 1_000_000),
    signupLimitPerEmail: int(env, 'SIGNUP_LIMIT_PER_EMAIL', 5, 1, 1_000_000),
    signupLimitWindow: int(env, 'SIGNUP_LIMIT_WINDOW_SECONDS', 3600, 1, 86_400),
    inviteLimitPerWorkspace: int(env, 'INVITE_LIMIT_PER_WORKSPACE', 20, 1, 1_000_000),
    inviteLimitPerEmail: int(env, 'INVITE_LIMIT_PER_EMAIL', 3, 1, 1_000_000),
    inviteLimitWindow: int(env, 'INVITE_LIMIT_WINDOW_SECONDS', 3600, 1, 86_400),
    trustProxy: flag(env, 'TRUST_PROXY'),
    witnesses: witnesses(env),
    witnessRetryMaxSeconds: int(env, 'WITNESS_RETRY_MAX_SECONDS', 300, 1, 86_400),
    logPublishUrl,
    logPublishS3Endpoint: url(env, 'LOG_PUBLISH_S3_ENDPOINT', ['http:', 'https:']),
    logPublishLeaseMs: int(env, 'LOG_PUBLISH_LEASE_SECONDS', 60, 1, 86_400) * 1000,
    logKeepInDbEntries: logKeepInDb(env, logPublishUrl),
    recordsRetentionDays,
    detectWorkers: int(env, 'DETECT_WORKERS', 0, 0, 64),
    scanSliceMs: int(env, 'SCAN_SLICE_MS', 5, 1, 1000),
    ingestWorkspaceBytes: int(env, 'INGEST_WORKSPACE_BYTES', 8 * 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
    ingestWorkspaceWaitMs: int(env, 'INGEST_WORKSPACE_WAIT_MS', 30_000, 0, 600_000),
    judgeTimeoutMs: int(env, 'JUDGE_TIMEOUT_MS', 15_000, 100, 600_000),
    judgeMaxAttempts: int(env, 'JUDGE_MAX_ATTEMPTS', 3, 1, 10),
    judgePrivateNetworks: oneOf(env, 'JUDGE_PRIVATE_NETWORKS', ['allow', 'deny'] as const, 'allow'),
    destinationPrivateNetworks: oneOf(env, 'DESTINATION_PRIVATE_NETWORKS', ['allow', 'deny'] as const, 'allow'),
    destinationPollMs: int(env, 'DESTINATION_POLL_MS', 500, 10, 60_000),
    destinationRetryBaseMs: int(env, 'DESTINATION_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    destinationLeaseMs: int(env, 'DESTINATION_LEASE_MS', 120_000, 1_000, 3_600_000),
    jobLeaseMs: int(env, 'JOB_LEASE_SECONDS', 120, 1, 86_400) * 1000,
    jobBatch: int(env, 'JOB_BATCH', 16, 1, 1000),
    idempotencyWaitMs: int(env, 'IDEMPOTENCY_WAIT_MS', 30_000, 0, 600_000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
  };
}
