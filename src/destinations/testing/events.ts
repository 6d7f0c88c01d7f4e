// Test kit: OutboundEvents shaped as the engine makes them, and a target for a
// receiver's URL. Tests only; never imported by production code.
import { randomUUID } from 'node:crypto';
import type { DestinationTarget, OutboundEvent } from '../kind.ts';

export function anEvent(type = 'invocation.denied', data: Record<string, unknown> = {}): OutboundEvent {
  return {
    id: `evt_${randomUUID()}`,
    type,
    tenant_id: '7a1c9e2b-0000-4000-8000-000000000001',
    occurred_at: '2026-03-01T10:00:00.000Z',
    recorded_at: '2026-03-01T10:00:00.250Z',
    data: {
      invocation_id: 42,
      agent_key: 'billing-bot',
      tool_name: 'stripe.refund',
      mode: 'enforced',
      verdict: 'deny',
      reasons: ['secret: aws_access_key in arguments'],
      ...data,
    },
    evidence: {
      log_origin: 'ledger.example.com/t/7a1c9e2b',
      index: 41,
      leaf_hash: 'q83uRZkQm3eY0aC2u1cJ2zB2WmS1hQ0pC3vJ4nVqz8s=',
      checkpoint: 'ledger.example.com/t/7a1c9e2b\n42\nq83uRZk=\n',
    },
  };
}

export function aTarget(
  kind: DestinationTarget['kind'],
  url: string,
  more: Partial<DestinationTarget> = {},
): DestinationTarget {
  return {
    destinationId: randomUUID(),
    tenantId: '7a1c9e2b-0000-4000-8000-000000000001',
    name: `${kind} under test`,
    kind,
    url,
    format: 'native',
    signing: 'hmac',
    privateNetworks: 'allow',
    ...more,
  };
}
