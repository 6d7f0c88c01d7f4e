import type { FastifyInstance } from 'fastify';
import type { ReviewModuleDeps } from './deps.ts';
import { agentRoutes } from './agent-routes.ts';
import { invocationRoutes } from './invocation-routes.ts';
import { reviewRoutes } from './review-routes.ts';
import { rogueRoutes } from './rogue-routes.ts';

/**
 * The judge panel's way to close a pending review (judges/judge-job.ts ResolveAsPanel): a function of the
 * caller's transaction that needs nothing this module is made from, so the judges, whose judgements the read
 * side below shows and which are therefore made before it, are given it.
 */
export { resolveAsPanel, resolveAsReviewer } from './review-store.ts';

// The read side: invocations, rogue events, agents and the review queue
// (API.md "Read side"). Reads go to ctx.readDb in tenant-scoped transactions;
// review decisions go through the log writer, so each one and its audit leaf
// commit together.

export interface ReviewModule {
  routes(app: FastifyInstance): Promise<void>;
}

export function createReview(deps: ReviewModuleDeps): ReviewModule {
  return {
    async routes(app) {
      await invocationRoutes(app, deps);
      await rogueRoutes(app, deps);
      await agentRoutes(app, deps);
      await reviewRoutes(app, deps);
    },
  };
}
