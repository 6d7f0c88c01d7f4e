import { isIP } from 'node:net';
import type { DeliveryOutcome, DestinationTarget, KindSender, OutboundEvent } from '../kind.ts';
import { httpUrlProblem, postToDestination } from '../outbound-http.ts';
import { describe } from './describe.ts';

// Slack incoming webhooks: one readable message per event (Block Kit, with a
// plain `text` for notifications and screen readers), a button to the event
// in the console. The URL is a secret (whoever has it can post); it is only
// ever sent to Slack's hosts — or to a loopback/private IP literal, for a
// local stand-in or a Slack-compatible chat server (Mattermost), which the
// address guard allows only when private networks are.

const SLACK_HOSTS = new Set(['hooks.slack.com', 'hooks.slack-gov.com']);

export function slackUrlProblem(url: string): string | undefined {
  const p = httpUrlProblem(url);
  if (p) return p;
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (SLACK_HOSTS.has(host)) return u.protocol === 'https:' ? undefined : 'must be https';
  if (isIP(host) !== 0) return undefined;
  return 'must be a Slack incoming-webhook URL (https://hooks.slack.com/services/…)';
}

/** Slack mrkdwn treats <, > and & as control characters (links, mentions): what a tenant wrote must not be read as them. */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function slackMessage(event: OutboundEvent, consoleUrl?: string): Record<string, unknown> {
  const d = describe(event, consoleUrl);
  const blocks: Array<Record<string, unknown>> = [
    { type: 'header', text: { type: 'plain_text', text: d.headline.slice(0, 150), emoji: false } },
    {
      type: 'section',
      fields: d.fields.slice(0, 10).map(([label, value]) => ({ type: 'mrkdwn', text: `*${label}*\n${esc(value)}` })),
    },
  ];
  if (d.reasons.length > 0)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `*Reasons*\n${d.reasons.map((r) => `• ${esc(r)}`).join('\n')}`.slice(0, 3000) },
    });
  if (d.link)
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in agent-ledger' }, url: d.link }],
    });
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: esc(`event ${event.id} · leaf ${event.evidence.leaf_hash.slice(0, 16)}…`) }],
  });
  const text = esc(d.link ? `${d.headline} — ${d.link}` : d.headline);
  return { text, blocks, unfurl_links: false, unfurl_media: false };
}

export const slackSender: KindSender = {
  kind: 'slack',
  maxBatch: 1,
  validateUrl: slackUrlProblem,
  async send(
    target: DestinationTarget,
    events: readonly OutboundEvent[],
    signal: AbortSignal,
  ): Promise<DeliveryOutcome> {
    const event = events[0];
    if (events.length !== 1 || !event)
      return { ok: false, error: 'a Slack message carries exactly one event', latencyMs: 0 };
    const problem = slackUrlProblem(target.url);
    if (problem) return { ok: false, error: `url ${problem}`, latencyMs: 0 };
    return postToDestination(target, {
      url: target.url,
      headers: { 'content-type': 'application/json', 'user-agent': 'agent-ledger' },
      body: JSON.stringify(slackMessage(event, target.consoleUrl)),
      signal,
    });
  },
};
