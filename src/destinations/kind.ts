// The contract between the delivery engine and each kind of destination: the
// engine reads the audit trail, makes OutboundEvents and hands a batch to the
// kind's sender; the sender only speaks the destination's protocol and says
// what happened (DeliveryOutcome). Members may be added, never renamed: the
// kinds (slack, splunk_hec, syslog, email) are written against it.

/** Where an event sits in its workspace's audit trail, so a receiver can verify it against a signed checkpoint. */
export interface Evidence {
  log_origin: string;
  index: number;
  leaf_hash: string;
  checkpoint?: string;
}

/** One event as it leaves (the `native` payload): `data` redacted exactly as the read side shows it. */
export interface OutboundEvent {
  id: string;
  type: string;
  tenant_id: string;
  occurred_at: string;
  recorded_at: string;
  data: Record<string, unknown>;
  evidence: Evidence;
}

/** A destination as a sender sees it: its secret and token already decrypted, for this send only. */
export interface DestinationTarget {
  destinationId: string;
  tenantId: string;
  name: string;
  kind: 'webhook' | 'slack' | 'splunk_hec' | 'syslog' | 'email';
  url: string;
  format: 'native' | 'ocsf';
  signing: 'hmac' | 'ed25519';
  token?: string;
  /**
   * The Standard Webhooks signing key, for kinds that sign (webhook): `whsec_…` (base64 of the HMAC key) when
   * signing is 'hmac', `whsk_…` (base64 of the Ed25519 private key's 32-byte seed; seed and public key as 64 bytes are read too) when 'ed25519'.
   */
  secret?: string;
  /** The console's base URL (…/console), for links to an invocation in human-readable kinds (slack, email). */
  consoleUrl?: string;
  /**
   * PEM certificates to trust instead of the system's roots for a TLS
   * destination (syslog+tls): an operator's private CA. Absent: the system's roots.
   */
  tlsCa?: string;
  /** DESTINATION_PRIVATE_NETWORKS: whether loopback and private addresses may be reached ('allow' when absent). Link-local and metadata never are. */
  privateNetworks?: 'allow' | 'deny';
}

/** What one send did: ok means the receiver took every event of the batch (a 2xx, or its protocol's equivalent). */
export interface DeliveryOutcome {
  ok: boolean;
  status?: number;
  retryAfterMs?: number;
  gone?: boolean;
  error?: string;
  latencyMs: number;
}

export interface KindSender {
  readonly kind: DestinationTarget['kind'];
  /** How many events one send may carry (1 for kinds that send one event per request). */
  readonly maxBatch: number;
  /** A problem text for a URL this kind cannot use, or undefined when it can. */
  validateUrl(url: string): string | undefined;
  send(target: DestinationTarget, events: readonly OutboundEvent[], signal: AbortSignal): Promise<DeliveryOutcome>;
}
