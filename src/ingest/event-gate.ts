import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authorized } from './event-authorizer.ts';

/**
 * What every route that records events shares (event-routes.ts makes it once):
 * a request's authorization, the workspace's share of this node taken before
 * the body is read and given back after the answer, and who may write.
 */
export interface EventGate {
  /** The fallback token names its workspace in the body: `bodyTenant`. */
  authorizer: (req: FastifyRequest, bodyTenant: string | undefined) => (fresh: boolean) => Promise<Authorized>;
  admit: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  released: (req: FastifyRequest) => Promise<void>;
  roles: readonly ('admin' | 'operator')[];
}
