import type { Mailer } from '../../mail/index.ts';
import { withoutAddresses } from '../../mail/index.ts';
import type { DeliveryOutcome, DestinationTarget, KindSender, OutboundEvent } from '../kind.ts';
import { describe } from './describe.ts';

// E-mail through the service's own mailer (SMTP_URL, or the outbox): the
// recipients are in the URL (`mailto:a@example.com,b@example.com`), each gets
// one plain-text mail per send of up to EMAIL_MAX_BATCH events, so a burst of
// denies is a handful of mails, not hundreds. The mailer is the service's, so
// the sender is made with it (emailSender(mailer)); the registry's default has
// none and says so rather than pretend to deliver.
//
// Addresses are personal data: they never appear in an outcome's error or a
// log line (the mailer's errors are stripped of them already, and so is what
// this file adds).

export const EMAIL_MAX_BATCH = 20;
export const EMAIL_MAX_RECIPIENTS = 10;
// The mailer's own rule: one bare address, no display name or list tricks.
const ADDRESS_RE = /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\]+$/;

function recipients(url: string): string[] | string {
  if (!url.toLowerCase().startsWith('mailto:')) return 'must be mailto:address[,address…]';
  const rest = url.slice('mailto:'.length);
  if (rest.includes('?') || rest.includes('#')) return 'must hold only addresses (no subject, body or other headers)';
  let list: string[];
  try {
    list = rest.split(',').map((a) => decodeURIComponent(a).trim());
  } catch {
    return 'holds a badly escaped address';
  }
  if (list.length === 0 || list.some((a) => !ADDRESS_RE.test(a)))
    return 'must list bare e-mail addresses separated by commas';
  if (list.length > EMAIL_MAX_RECIPIENTS) return `must list at most ${EMAIL_MAX_RECIPIENTS} addresses`;
  if (new Set(list.map((a) => a.toLowerCase())).size !== list.length) return 'lists an address twice';
  return list;
}

export function emailUrlProblem(url: string): string | undefined {
  const r = recipients(url);
  return typeof r === 'string' ? r : undefined;
}

/** One line, for a subject: what tenants wrote may hold line breaks. */
function line(s: string, max = 180): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function eventText(event: OutboundEvent, consoleUrl?: string): string {
  const d = describe(event, consoleUrl);
  const out = [line(d.headline, 400), ''];
  for (const [label, value] of d.fields) out.push(`${label}: ${line(value, 400)}`);
  if (d.reasons.length > 0) {
    out.push('', 'Reasons:');
    for (const r of d.reasons) out.push(`  - ${line(r, 400)}`);
  }
  if (d.link) out.push('', `Open in agent-ledger: ${d.link}`);
  out.push('', `Event id: ${event.id}`, `Leaf hash: ${event.evidence.leaf_hash}`);
  return out.join('\n');
}

/** Subject and text of the mail for a batch. */
export function emailMessage(
  events: readonly OutboundEvent[],
  target: Pick<DestinationTarget, 'name' | 'consoleUrl'>,
): { subject: string; text: string } {
  const first = events[0]!;
  const subject =
    events.length === 1
      ? `agent-ledger: ${line(describe(first).headline)}`
      : `agent-ledger: ${events.length} events (${summary(events)})`;
  const parts = events.map((e) => eventText(e, target.consoleUrl));
  const footer = [
    '',
    '--',
    `Sent by agent-ledger to the destination "${line(target.name, 100)}". Each event names its audit-trail entry;`,
    'its leaf hash can be checked against a signed checkpoint of the workspace log.',
  ];
  return { subject: line(subject, 200), text: [parts.join('\n\n========\n\n'), ...footer].join('\n') };
}

function summary(events: readonly OutboundEvent[]): string {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return [...counts].map(([t, n]) => `${n} ${t}`).join(', ');
}

/** The e-mail kind, sending through `mailer`; without one every send fails saying so. */
export function emailSender(mailer?: Pick<Mailer, 'send'>): KindSender {
  return {
    kind: 'email',
    maxBatch: EMAIL_MAX_BATCH,
    validateUrl: emailUrlProblem,
    async send(target, events, signal): Promise<DeliveryOutcome> {
      const started = performance.now();
      const latency = () => Math.round(performance.now() - started);
      if (events.length === 0) return { ok: true, latencyMs: 0 };
      if (events.length > EMAIL_MAX_BATCH)
        return { ok: false, error: `at most ${EMAIL_MAX_BATCH} events a mail`, latencyMs: 0 };
      if (!mailer) return { ok: false, error: 'no mailer: the e-mail sender was made without one', latencyMs: 0 };
      const to = recipients(target.url);
      if (typeof to === 'string') return { ok: false, error: `url ${to}`, latencyMs: 0 };
      const { subject, text } = emailMessage(events, target);
      const ref = `destination:${target.destinationId}:event:${events[0]!.id}`;
      // Every recipient is tried; the send is ok only when all took it (a retry mails all of them again).
      let failed = 0;
      let firstError: string | undefined;
      for (const address of to) {
        if (signal.aborted) return { ok: false, error: 'aborted', latencyMs: latency() };
        try {
          await mailer.send({ to: address, subject, text, ref });
        } catch (err) {
          failed += 1;
          firstError ??= withoutAddresses(err instanceof Error ? err.message : String(err));
        }
      }
      if (failed === 0) return { ok: true, latencyMs: latency() };
      return {
        ok: false,
        error: `${failed} of ${to.length} recipients failed: ${firstError ?? ''}`.slice(0, 300),
        latencyMs: latency(),
      };
    },
  };
}
