import type { DestinationTarget, KindSender } from '../kind.ts';
import { slackSender } from './slack.ts';
import { splunkHecSender } from './splunk-hec.ts';
import { syslogSender } from './syslog.ts';
import { webhookSender } from './webhook.ts';

// Every kind of destination the service can deliver to, by name. A kind that
// is not here cannot be created (the API answers 422).

export const senders = new Map<DestinationTarget['kind'], KindSender>([
  ['webhook', webhookSender],
  ['slack', slackSender],
  ['splunk_hec', splunkHecSender],
  ['syslog', syslogSender],
]);
