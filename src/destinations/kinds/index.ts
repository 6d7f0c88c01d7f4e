import type { Mailer } from '../../mail/index.ts';
import type { DestinationTarget, KindSender } from '../kind.ts';
import { emailSender } from './email.ts';
import { slackSender } from './slack.ts';
import { splunkHecSender } from './splunk-hec.ts';
import { syslogSender } from './syslog.ts';
import { webhookSender } from './webhook.ts';

// Every kind of destination the service can deliver to, by name. A kind that
// is not here cannot be created (the API answers 422).
//
// Most kinds need nothing but the target; e-mail needs the service's mailer.
// `senders` is the registry to validate against (its e-mail sender has no
// mailer and fails every send saying so); the delivery engine sends through
// `createSenders({ mailer })`, the same kinds with e-mail bound to the mailer.

export interface SenderDeps {
  /** The service's mailer (SMTP or outbox), for the e-mail kind. */
  mailer?: Pick<Mailer, 'send'>;
}

export function createSenders(deps: SenderDeps = {}): Map<DestinationTarget['kind'], KindSender> {
  return new Map<DestinationTarget['kind'], KindSender>([
    ['webhook', webhookSender],
    ['slack', slackSender],
    ['splunk_hec', splunkHecSender],
    ['syslog', syslogSender],
    ['email', emailSender(deps.mailer)],
  ]);
}

export const senders = createSenders();
