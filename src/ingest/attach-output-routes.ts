import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import { enqueue } from '../jobs/index.ts';
import { commitment, evidenceIdOf, LEAF_VERSION, newSalt, type OpenAppend } from '../ledger/index.ts';
import { bearer, problems } from '../http/index.ts';
import type { EventGate } from './event-gate.ts';
import type { IngestDeps } from './deps.ts';
import { OUTPUT_SCAN_JOB } from './escalation.ts';
import { AttachOutputBody, OutputAttached, InvocationIdParams } from './schemas.ts';
import { oneInvocationTimeSql } from './invocation-time.ts';
import { sealText } from './sealed-output.ts';

const BY_ID = `tenant_id = $1 AND invocation_id = $2 AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`;

// A tool's result attached to the invocation already recorded for the call
// (an MCP gate records the call before it runs, its result after): stored
// sealed like a tool_output sent with the invocation, scanned by the same
// background job (tool_output_scan leaf, output_scan.flagged), and committed
// to by a `tool_output_attached` leaf. It is no new invocation: quotas and
// usage do not count it.

/** The leaf kind that commits to an attached tool_output, as sent. */
export const TOOL_OUTPUT_ATTACHED = 'tool_output_attached';

export type AttachResult = { ok: true; logIndex: number } | { ok: false; reason: 'not_found' | 'conflict' | 'erased' };

/**
 * Attaches `text` as the invocation's tool_output in the log's transaction.
 * `token`: an ingress token may attach only to the invocations it recorded
 * (another's is not found); null: an account of the workspace.
 */
export async function attachOutput(
  tx: Queryable,
  log: OpenAppend,
  a: {
    tenantId: string;
    invocationId: number;
    text: string;
    token: string | null;
    kek: Uint8Array;
    now: Date;
    /** The time before which the workspace's content is past retention: attaching there is refused as erased. */
    contentDueBefore?: (tx: Queryable, tenantId: string, now: Date) => Promise<Date>;
  },
): Promise<AttachResult> {
  const [row] = await tx.query<{ recorded_by_token: string | null; created_at: Date }>(
    `SELECT recorded_by_token, created_at FROM invocations WHERE ${BY_ID} FOR UPDATE`,
    [a.tenantId, a.invocationId],
  );
  if (!row || (a.token !== null && row.recorded_by_token !== a.token)) return { ok: false, reason: 'not_found' };
  // One tool_output per invocation; none either once its content was erased (retention, a data subject's request).
  const content = await tx.query<{ field: string; erased_at: Date | null }>(
    'SELECT field, erased_at FROM invocation_content WHERE tenant_id = $1 AND invocation_id = $2 AND created_at = $3',
    [a.tenantId, a.invocationId, row.created_at],
  );
  if (content.some((c) => c.field === 'tool_output')) return { ok: false, reason: 'conflict' };
  if (content.some((c) => c.erased_at !== null)) return { ok: false, reason: 'erased' };
  // Past retention: the sweep has erased its month's texts and does not read them again (retention_sweeps).
  const due = await a.contentDueBefore?.(tx, a.tenantId, a.now);
  if (due !== undefined && new Date(row.created_at) < due) return { ok: false, reason: 'erased' };
  const salt = newSalt();
  // As a tool_output sent with the invocation (prepare.ts): sealed, its body empty until the scan stores it redacted.
  const sealed = sealText(a.kek, a.tenantId, a.text);
  await tx.query(
    // In its invocation's month (the partition key is the invocation's created_at).
    `INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, sealed, sealed_key, created_at)
     VALUES ($1, $2, 'tool_output', '', $3, NULL, $4, $5, $6)`,
    [a.tenantId, a.invocationId, Buffer.from(salt), sealed.sealed, sealed.wrappedKey, row.created_at],
  );
  await enqueue(tx, a.tenantId, OUTPUT_SCAN_JOB, [{ invocation_id: a.invocationId }]);
  const logIndex = log.add(
    {
      v: LEAF_VERSION,
      kind: TOOL_OUTPUT_ATTACHED,
      invocation_id: a.invocationId,
      content: { tool_output: commitment(salt, a.text) },
    },
    a.now,
  );
  return { ok: true, logIndex };
}

export async function attachOutputRoutes(fastify: FastifyInstance, deps: IngestDeps, hooks: EventGate): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/v1/invocations/:invocation_id/output',
    {
      config: { auth: 'ingest', roles: hooks.roles },
      preParsing: hooks.admit,
      onResponse: hooks.released,
      schema: {
        tags: ['events'],
        summary: "Attach a tool's result to the invocation recorded for its call, as its tool_output",
        description:
          "For callers that record a call before it runs and its result after (the MCP gate, the Python guard). The text is stored sealed and scanned in the background exactly like a tool_output sent with the invocation (output_scan, a tool_output_scan leaf, output_scan.flagged); a `tool_output_attached` leaf {invocation_id, content: {tool_output: salted commitment}} commits to it. Not a new invocation: quotas do not count it. By the ingress token that recorded the invocation, or an API token of an admin or operator of its workspace. 404: no such invocation in this workspace (or, for an ingress token, one another token recorded); 409: it has a tool_output already, or its content was erased or is past the workspace's content retention.",
        security: bearer,
        params: InvocationIdParams,
        body: AttachOutputBody,
        response: { 201: OutputAttached, ...problems(400, 401, 402, 403, 404, 409, 413, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      const auth = await hooks.authorizer(req, undefined)(false);
      const p = req.principal;
      const token = p?.kind === 'ingress' ? p.tokenId : null;
      const invocationId = req.params.invocation_id;
      const result = await deps.writer.submit(auth.tenantId, (tx, log) =>
        attachOutput(tx, log, {
          tenantId: auth.tenantId,
          invocationId,
          text: req.body.tool_output,
          token,
          kek: deps.outputKek,
          now: deps.ctx.now(),
          ...(deps.contentDueBefore ? { contentDueBefore: deps.contentDueBefore } : {}),
        }),
      );
      if (!result.ok) {
        if (result.reason === 'not_found') throw notFound('No such invocation.');
        throw conflict(
          result.reason === 'erased'
            ? "This invocation's content was erased."
            : 'This invocation has a tool_output already.',
        );
      }
      deps.jobsEnqueued();
      return reply.code(201).send({ invocation_id: invocationId, evidence_id: evidenceIdOf(result.logIndex) });
    },
  );
}
