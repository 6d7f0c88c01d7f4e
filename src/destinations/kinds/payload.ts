import type { DestinationTarget, OutboundEvent } from '../kind.ts';
import { toOcsf } from '../ocsf/index.ts';

// What one event looks like on the wire for a destination's format: the
// native payload as the engine made it (data already redacted), or its OCSF
// mapping. Nothing is added from elsewhere, so nothing unredacted can leave.

export function payloadOf(target: Pick<DestinationTarget, 'format'>, event: OutboundEvent): Record<string, unknown> {
  if (target.format === 'ocsf') return toOcsf(event);
  return {
    id: event.id,
    type: event.type,
    tenant_id: event.tenant_id,
    occurred_at: event.occurred_at,
    recorded_at: event.recorded_at,
    data: event.data,
    evidence: event.evidence,
  };
}
