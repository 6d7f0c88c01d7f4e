import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type AppContext, conflict, type FieldError, notFound, unprocessable } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import { accountOf, bearer, NullableTimestamp, problems, Timestamp, Uuid } from '../http/index.ts';
import {
  type AppendEntryInTx,
  encodeBase64,
  LEAF_VERSION,
  latestCheckpoint,
  readEntries,
  readHead,
} from '../ledger/index.ts';
import { blockedReason } from '../outbound/index.ts';
import { targetOf } from './engine.ts';
import { EVENT_TYPES, type Filter, MODES, TEST_EVENT } from './events.ts';
import type { KindSender, OutboundEvent } from './kind.ts';
import { OCSF_READY } from './ocsf/index.ts';
import { newSigningKey } from './kinds/webhook.ts';
import { clearUrl, originOfUrl, seal, shownUrl } from './secret-box.ts';
import {
  type DestinationRow,
  deleteDestination,
  findDestination,
  insertDestination,
  listDestinations,
  recentDeliveries,
  recordAttempts,
  setPaused,
  updateDestination,
} from './store.ts';

// The destinations of a workspace (issue 39): admins manage them, every
// change is an audit-trail entry (`destination_change`: what changed, never a
// URL, secret or token). The signing secret is shown once, at creation; the
// token is never returned.

export interface DestinationRoutesDeps {
  ctx: AppContext;
  kek: Uint8Array;
  senders: ReadonlyMap<string, KindSender>;
  appendInTx: AppendEntryInTx;
  origin(tenantId: string): string;
  privateNetworks: 'allow' | 'deny';
  consoleUrl?: string | undefined;
  /** A destination was created or changed here (committed): a node that delivers only while some exist starts at once. */
  changed?: () => void;
}

const ADMINS = ['admin'] as const;
const KINDS = ['webhook', 'slack', 'splunk_hec', 'syslog', 'email'] as const;
const MAX_DESTINATIONS = 50;

const Glob = Type.String({ minLength: 1, maxLength: 256 });
const FilterSchema = Type.Object(
  {
    agents: Type.Optional(Type.Array(Glob, { maxItems: 50, description: 'Agent key globs (`*`, `?`)' })),
    tools: Type.Optional(Type.Array(Glob, { maxItems: 50, description: 'Tool name globs (`*`, `?`)' })),
    modes: Type.Optional(
      Type.Array(Type.Union([Type.Literal(MODES[0]), Type.Literal(MODES[1]), Type.Literal(MODES[2])]), {
        maxItems: 3,
        uniqueItems: true,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Narrows the events about an agent (invocations, rogue events, scans, reviews, judgements): each field given must match. ' +
      'Events about the workspace (policy, tokens, members, destinations) pass.',
  },
);
// An enum in the OpenAPI document: the console's generated API types carry the
// list (its form is checked against them), and an unknown type is a validation 422.
const EventType = Type.Union(
  [...EVENT_TYPES, '*'].map((t) => Type.Literal(t)),
  { description: 'An event type, or "*" for all' },
);
const Events = Type.Array(EventType, { minItems: 1, maxItems: 32, uniqueItems: true });
const Url = Type.String({ minLength: 1, maxLength: 2048 });
const Token = Type.String({ minLength: 1, maxLength: 4096 });
const Name = Type.String({ minLength: 1, maxLength: 64 });

const DestinationIn = Type.Object(
  {
    name: Name,
    kind: Type.String({ minLength: 1, maxLength: 32, description: KINDS.join(', ') }),
    url: Url,
    events: Events,
    format: Type.Optional(Type.Union([Type.Literal('native'), Type.Literal('ocsf')])),
    signing: Type.Optional(Type.Union([Type.Literal('hmac'), Type.Literal('ed25519')])),
    token: Type.Optional(Token),
    filter: Type.Optional(FilterSchema),
  },
  { additionalProperties: false },
);
const DestinationPatch = Type.Object(
  {
    name: Type.Optional(Name),
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    filter: Type.Optional(FilterSchema),
    paused: Type.Optional(Type.Boolean()),
    token: Type.Optional(
      Type.Union([Token, Type.Null()], {
        description:
          'A new token, or null to remove it. Omitted, the token is kept, as long as url keeps its origin; with another origin, omitting it is 422.',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
const DestinationView = Type.Object({
  destination_id: Uuid,
  name: Type.String(),
  kind: Type.String(),
  url: Type.String({
    description:
      'Redacted: scheme://host[:port] and /… for a path or query (webhook, slack, splunk_hec), scheme://host:port ' +
      '(syslog), the addresses (email). The full URL is stored encrypted and never returned.',
  }),
  events: Type.Array(Type.String()),
  format: Type.String(),
  signing: Type.String(),
  filter: FilterSchema,
  public_key: Type.Union([Type.String(), Type.Null()], {
    description: 'ed25519: the whpk_ key receivers verify with',
  }),
  token_set: Type.Boolean(),
  paused: Type.Boolean(),
  state: Type.Union([Type.Literal('active'), Type.Literal('failing'), Type.Literal('disabled')]),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  failing_since: NullableTimestamp,
  last_error: Type.Union([Type.String(), Type.Null()]),
  next_index: Type.Integer({ description: 'The next audit-trail index to deliver' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const Created = Type.Intersect([
  DestinationView,
  Type.Object({
    secret: Type.String({
      description:
        'Shown once: the Standard Webhooks verification secret (whsec_… for hmac, the whpk_… public key for ed25519)',
    }),
  }),
]);
const Delivery = Type.Object({
  event_id: Type.String(),
  event_type: Type.String(),
  log_index: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.Union([Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  latency_ms: Type.Union([Type.Integer(), Type.Null()]),
  first_attempt_at: Timestamp,
  last_attempt_at: Timestamp,
});
const TestResult = Type.Object({
  event_id: Type.String(),
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status, when it answered" }),
  error: Type.Union([Type.String(), Type.Null()]),
  latency_ms: Type.Integer(),
});

function view(kek: Uint8Array, d: DestinationRow) {
  return {
    destination_id: d.destination_id,
    name: d.name,
    kind: d.kind,
    url: shownUrl(d.kind, clearUrl(kek, d)),
    events: d.events,
    format: d.format,
    signing: d.signing,
    filter: d.filter,
    public_key: d.public_key,
    token_set: d.token_sealed !== null,
    paused: d.paused,
    state: d.state,
    disabled_reason: d.disabled_reason,
    failing_since: d.failing_since,
    last_error: d.last_error,
    next_index: d.next_index,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/**
 * Why a URL's host may never be a destination: an address literal, or every
 * address its name resolves to now, checked by the address guard the sends go
 * through (which checks again on each connection, so a name re-pointed later
 * is refused then). A name that does not resolve now is accepted: the guard
 * still stands between it and any address it may get.
 */
export async function addressProblem(url: string, privateNetworks: 'allow' | 'deny'): Promise<string | undefined> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
  if (!host) return undefined;
  if (isIP(host)) return blockedReason(host, privateNetworks) ?? undefined;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return undefined;
  }
  for (const a of addresses) {
    const why = blockedReason(a.address, privateNetworks);
    if (why) return `${host}: ${why}`;
  }
  return undefined;
}

export async function destinationRoutes(fastify: FastifyInstance, deps: DestinationRoutesDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['destinations'];
  const Params = Type.Object({ destination_id: Uuid });

  async function checkUrl(sender: KindSender, url: string): Promise<void> {
    const errors: FieldError[] = [];
    const kindSays = sender.validateUrl(url);
    if (kindSays) errors.push({ field: '/url', message: kindSays });
    else {
      const why = await addressProblem(url, deps.privateNetworks);
      if (why) errors.push({ field: '/url', message: `address refused: ${why}` });
    }
    if (errors.length > 0) throw unprocessable('This URL cannot be a destination.', errors);
  }

  const append = (
    tx: Queryable,
    tenantId: string,
    change: string,
    d: { destination_id: string; kind: string },
    by: string,
    extra: Record<string, unknown> = {},
  ) =>
    deps.appendInTx(tx, tenantId, {
      v: LEAF_VERSION,
      kind: 'destination_change',
      change,
      destination_id: d.destination_id,
      destination_kind: d.kind,
      ...extra,
      by_account_id: by,
    });

  app.post(
    '/api/v1/destinations',
    {
      config: { auth: 'account', roles: ADMINS, write: true },
      schema: {
        tags,
        summary:
          'Add a destination (admin): audit-trail events delivered to a webhook, Slack, Splunk HEC, syslog or e-mail',
        description:
          'The answer carries `secret` once: the Standard Webhooks verification secret (`whsec_…`, hmac) or public key ' +
          '(`whpk_…`, ed25519). `token` (a bearer or HEC token) is stored encrypted and never returned. Delivery starts with ' +
          'the entries appended after it is created. 422: unknown kind or event type, a URL the kind cannot use, a ' +
          'link-local or metadata address (a private one too when DESTINATION_PRIVATE_NETWORKS=deny), format ocsf before it ' +
          'is available. Appends a `destination_change` entry.',
        security: bearer,
        body: DestinationIn,
        response: { 201: Created, ...problems(400, 401, 403, 409, 422) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const body = req.body;
      const sender = deps.senders.get(body.kind);
      if (!sender)
        throw unprocessable(`Unknown destination kind "${body.kind}".`, [
          { field: '/kind', message: `must be one of ${[...deps.senders.keys()].join(', ') || '(none available)'}` },
        ]);
      const format = body.format ?? 'native';
      if (format === 'ocsf' && !OCSF_READY)
        throw unprocessable('The OCSF format is not available yet.', [{ field: '/format', message: 'must be native' }]);
      await checkUrl(sender, body.url);
      const signing = body.signing ?? 'hmac';
      const id = randomUUID();
      const key = newSigningKey(signing);
      const filter: Filter = body.filter ?? {};
      const now = ctx.now();
      const row = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const [{ n } = { n: 0 }] = await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM destinations WHERE tenant_id = $1',
          [me.tenantId],
        );
        if (n >= MAX_DESTINATIONS) throw conflict(`A workspace has at most ${MAX_DESTINATIONS} destinations.`);
        const [taken] = await tx.query('SELECT 1 FROM destinations WHERE tenant_id = $1 AND name = $2', [
          me.tenantId,
          body.name,
        ]);
        if (taken) throw conflict('A destination of this name exists.');
        await append(tx, me.tenantId, 'created', { destination_id: id, kind: body.kind }, me.accountId, {
          events: body.events,
        });
        const head = await readHead(tx, me.tenantId);
        await insertDestination(tx, {
          tenantId: me.tenantId,
          destinationId: id,
          name: body.name,
          kind: body.kind,
          urlSealed: seal(deps.kek, me.tenantId, id, 'url', '', body.url),
          events: body.events,
          format,
          signing,
          filter,
          secretSealed: seal(deps.kek, me.tenantId, id, 'secret', body.url, key.signingKey),
          publicKey: signing === 'ed25519' ? key.secret : null,
          tokenSealed: body.token === undefined ? null : seal(deps.kek, me.tenantId, id, 'token', body.url, body.token),
          by: me.accountId,
          now,
          nextIndex: head.size,
        });
        return findDestination(tx, me.tenantId, id);
      });
      deps.changed?.();
      return reply.code(201).send({ ...view(deps.kek, row!), secret: key.secret });
    },
  );

  app.get(
    '/api/v1/destinations',
    {
      config: { auth: 'account', roles: ADMINS },
      schema: {
        tags,
        summary: "The workspace's destinations (admin); secrets and tokens are never returned",
        security: bearer,
        response: { 200: Type.Object({ destinations: Type.Array(DestinationView) }), ...problems(401, 403) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const rows = await ctx.db.withTenant(me.tenantId, (tx) => listDestinations(tx, me.tenantId));
      return { destinations: rows.map((r) => view(deps.kek, r)) };
    },
  );

  app.get(
    '/api/v1/destinations/:destination_id',
    {
      config: { auth: 'account', roles: ADMINS },
      schema: {
        tags,
        summary: 'One destination (admin)',
        security: bearer,
        params: Params,
        response: { 200: DestinationView, ...problems(401, 403, 404) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const d = await ctx.db.withTenant(me.tenantId, (tx) =>
        findDestination(tx, me.tenantId, req.params.destination_id),
      );
      if (!d) throw notFound('No such destination.');
      return view(deps.kek, d);
    },
  );

  app.patch(
    '/api/v1/destinations/:destination_id',
    {
      config: { auth: 'account', roles: ADMINS, write: true },
      schema: {
        tags,
        summary: 'Change a destination (admin): name, url, events, filter, token; pause or resume it',
        description:
          '`{"paused": false}` also re-enables a destination that was disabled (410, or failing for 72 h); it goes on from ' +
          'its cursor. Appends a `destination_change` entry.',
        security: bearer,
        params: Params,
        body: DestinationPatch,
        response: { 200: DestinationView, ...problems(400, 401, 403, 404, 409, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const id = req.params.destination_id;
      const body = req.body;
      const before = await ctx.db.withTenant(me.tenantId, (tx) => findDestination(tx, me.tenantId, id));
      if (!before) throw notFound('No such destination.');
      const beforeUrl = clearUrl(deps.kek, before);
      const url = body.url ?? beforeUrl;
      if (body.url !== undefined) {
        const sender = deps.senders.get(before.kind);
        if (sender) await checkUrl(sender, body.url);
      }
      // A token stays bound to the origin it was given for (outbound/bound-secret.ts explains why).
      const moved = body.url !== undefined && originOfUrl(body.url) !== originOfUrl(beforeUrl);
      if (moved && before.token_sealed !== null && body.token === undefined)
        throw unprocessable('The URL points elsewhere: give the token again, or null to send none.', [
          { field: '/token', message: 'required when url changes its origin' },
        ]);
      let tokenSealed: string | null | undefined;
      if (typeof body.token === 'string') tokenSealed = seal(deps.kek, me.tenantId, id, 'token', url, body.token);
      else if (body.token === null) tokenSealed = null;
      const now = ctx.now();
      const row = await ctx.db.withTenant(me.tenantId, async (tx) => {
        if (body.name !== undefined && body.name !== before.name) {
          const [taken] = await tx.query('SELECT 1 FROM destinations WHERE tenant_id = $1 AND name = $2', [
            me.tenantId,
            body.name,
          ]);
          if (taken) throw conflict('A destination of this name exists.');
        }
        const change: Parameters<typeof updateDestination>[3] = {};
        if (body.name !== undefined) change.name = body.name;
        if (body.url !== undefined) change.urlSealed = seal(deps.kek, me.tenantId, id, 'url', '', body.url);
        if (body.events !== undefined) change.events = body.events;
        if (body.filter !== undefined) change.filter = body.filter;
        if (tokenSealed !== undefined) change.tokenSealed = tokenSealed;
        await updateDestination(tx, me.tenantId, id, change, now);
        if (body.paused !== undefined) await setPaused(tx, me.tenantId, id, body.paused);
        await append(tx, me.tenantId, 'updated', before, me.accountId, {
          fields: Object.keys(body)
            .filter((k) => k !== 'token')
            .concat(body.token !== undefined ? ['token'] : [])
            .sort(),
          ...(body.paused !== undefined ? { paused: body.paused } : {}),
        });
        return findDestination(tx, me.tenantId, id);
      });
      if (!row) throw notFound('No such destination.');
      deps.changed?.();
      return view(deps.kek, row);
    },
  );

  app.delete(
    '/api/v1/destinations/:destination_id',
    {
      config: { auth: 'account', roles: ADMINS, write: true },
      schema: {
        tags,
        summary: 'Remove a destination (admin); nothing more is delivered to it',
        security: bearer,
        params: Params,
        response: { 204: Type.Null({ description: 'Removed' }), ...problems(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const id = req.params.destination_id;
      const done = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const d = await findDestination(tx, me.tenantId, id);
        if (!d) return false;
        await deleteDestination(tx, me.tenantId, id);
        await append(tx, me.tenantId, 'deleted', d, me.accountId);
        return true;
      });
      if (!done) throw notFound('No such destination.');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/destinations/:destination_id/test',
    {
      config: { auth: 'account', roles: ADMINS, write: true },
      schema: {
        tags,
        summary: 'Deliver one destination.test event now (admin) and answer what the receiver said',
        description:
          'The event is signed and shaped like every other; its evidence names the latest audit-trail entry. It does not ' +
          'move the cursor. Answers 200 whatever the receiver said: `ok`, `status`, `error`.',
        security: bearer,
        params: Params,
        response: { 200: TestResult, ...problems(401, 403, 404, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const id = req.params.destination_id;
      const read = await ctx.db.withTenant(me.tenantId, async (tx) => {
        const d = await findDestination(tx, me.tenantId, id);
        if (!d) return null;
        const head = await readHead(tx, me.tenantId);
        const [last] = head.size > 0 ? await readEntries(tx, me.tenantId, head.size - 1, head.size) : [];
        const cp = await latestCheckpoint(tx, me.tenantId);
        return { d, last, cp };
      });
      if (!read) throw notFound('No such destination.');
      const { d, last, cp } = read;
      const sender = deps.senders.get(d.kind);
      if (!sender)
        throw unprocessable(`The kind ${d.kind} is not available on this node.`, [
          { field: '/kind', message: 'not available' },
        ]);
      const now = ctx.now().toISOString();
      const event: OutboundEvent = {
        id: `evt_test_${randomUUID().replace(/-/g, '')}`,
        type: TEST_EVENT,
        tenant_id: me.tenantId,
        occurred_at: now,
        recorded_at: now,
        data: { destination_id: d.destination_id, name: d.name, message: 'A test event from agent-ledger.' },
        evidence: {
          log_origin: deps.origin(me.tenantId),
          index: last?.index ?? 0,
          leaf_hash: last ? encodeBase64(last.leafHash) : '',
          ...(cp && last && cp.size > last.index ? { checkpoint: cp.note } : {}),
        },
      };
      const outcome = await sender.send(targetOf(deps, d), [event], AbortSignal.timeout(60_000));
      await ctx.db.withTenant(me.tenantId, (tx) =>
        recordAttempts(
          tx,
          me.tenantId,
          d.destination_id,
          [
            {
              eventId: event.id,
              eventType: event.type,
              logIndex: null,
              status: outcome.ok ? 'delivered' : 'failed',
              httpStatus: outcome.status ?? null,
              error: outcome.ok ? null : (outcome.error ?? null),
              latencyMs: outcome.latencyMs,
            },
          ],
          ctx.now(),
        ),
      );
      return {
        event_id: event.id,
        ok: outcome.ok,
        status: outcome.status ?? null,
        error: outcome.ok ? null : (outcome.error ?? null),
        latency_ms: outcome.latencyMs,
      };
    },
  );

  app.get(
    '/api/v1/destinations/:destination_id/deliveries',
    {
      config: { auth: 'account', roles: ADMINS },
      schema: {
        tags,
        summary: 'Recent delivery attempts of a destination (admin), newest first: one row per event, retries counted',
        security: bearer,
        params: Params,
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }) }),
        response: { 200: Type.Object({ deliveries: Type.Array(Delivery) }), ...problems(401, 403, 404) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const id = req.params.destination_id;
      const rows = await ctx.db.withTenant(me.tenantId, async (tx) => {
        if (!(await findDestination(tx, me.tenantId, id))) return null;
        return recentDeliveries(tx, me.tenantId, id, req.query.limit);
      });
      if (!rows) throw notFound('No such destination.');
      return { deliveries: rows };
    },
  );
}
