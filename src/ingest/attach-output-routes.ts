import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { conflict, type HttpProblem, internalError, notFound } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import { evidenceIdOf, ItemFailed, type OpenAppend } from '../ledger/index.ts';
import { bearer, problems } from '../http/index.ts';
import { attachItem, attachOutputs, type AttachResult } from './attach-outputs.ts';
import type { EventGate } from './event-gate.ts';
import type { IngestDeps } from './deps.ts';
import {
  AttachOutputBody,
  BATCH_BODY_LIMIT,
  AttachOutputsBody,
  OutputAttached,
  OutputsAttached,
  InvocationIdParams,
} from './schemas.ts';

// POST /api/v1/invocations/{id}/output, and /api/v1/invocations/outputs for
// many at once: a tool's result attached to the invocation recorded before
// the call ran (attach-outputs.ts). The texts are sealed before the log's
// transaction; concurrent requests to a workspace share one (its set job).

/** Attaches one text in the log's transaction (a caller that has one open: the gateway's post-hook). */
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
    contentDaysSql?: (tenant: string) => string;
  },
): Promise<AttachResult> {
  const item = attachItem(a.kek, a.tenantId, a.invocationId, a.text, a.token);
  const [result] = await attachOutputs(tx, log, a.tenantId, [item], {
    now: a.now,
    ...(a.contentDaysSql ? { contentDaysSql: a.contentDaysSql } : {}),
  });
  return result!;
}

/** The problem an attach that was not stored answers with. */
function refusal(result: Exclude<AttachResult, { ok: true }>): HttpProblem {
  if (result.reason === 'not_found') return notFound('No such invocation.');
  return conflict(
    result.reason === 'erased' ? "This invocation's content was erased." : 'This invocation has a tool_output already.',
  );
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
      const item = attachItem(deps.outputKek, auth.tenantId, invocationId, req.body.tool_output, token);
      const result = (await deps.writer.submitSet(auth.tenantId, deps.attachSet, [item]))[0]!;
      if (result instanceof ItemFailed) throw result.cause;
      if (!result.ok) throw refusal(result);
      deps.jobsEnqueued();
      return reply.code(201).send({ invocation_id: invocationId, evidence_id: evidenceIdOf(result.logIndex) });
    },
  );
  app.post(
    '/api/v1/invocations/outputs',
    {
      config: { auth: 'ingest', roles: hooks.roles },
      bodyLimit: BATCH_BODY_LIMIT,
      preParsing: hooks.admit,
      onResponse: hooks.released,
      schema: {
        tags: ['events'],
        summary: "Attach up to 100 tools' results at once; each gets the answer its single endpoint would give",
        description:
          'The results of many calls in one request and one transaction, each as `POST /api/v1/invocations/{invocation_id}/output` would take it: 207 with one answer per item in request order — `status` 201 with its `evidence_id`, or the problem that endpoint would answer (404, 409). Authentication, role, workspace, the 402 gate: for the whole request.',
        security: bearer,
        body: AttachOutputsBody,
        response: { 207: OutputsAttached, ...problems(400, 401, 402, 403, 413, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      const auth = await hooks.authorizer(req, undefined)(false);
      const p = req.principal;
      const token = p?.kind === 'ingress' ? p.tokenId : null;
      const { outputs } = req.body;
      const items = outputs.map((o) =>
        attachItem(deps.outputKek, auth.tenantId, o.invocation_id, o.tool_output, token),
      );
      const results = await deps.writer.submitSet(auth.tenantId, deps.attachSet, items);
      if (results.some((r) => !(r instanceof ItemFailed) && r.ok)) deps.jobsEnqueued();
      return reply.code(207).send({
        results: results.map((r, index) => {
          const invocation_id = outputs[index]!.invocation_id;
          if (!(r instanceof ItemFailed) && r.ok) {
            return { index, invocation_id, status: 201, evidence_id: evidenceIdOf(r.logIndex) };
          }
          if (r instanceof ItemFailed) req.log.error({ err: r.cause, index }, 'tool result not attached');
          const problem = r instanceof ItemFailed ? internalError() : refusal(r);
          return { index, invocation_id, status: problem.status, code: problem.code, detail: problem.message };
        }),
      });
    },
  );
}
