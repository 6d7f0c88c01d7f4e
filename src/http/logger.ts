import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { withoutAddresses } from '../mail/index.ts';

/**
 * The process's logger, made before any module so that modules which log outside a request (background
 * jobs, witness submission, the mailer) get it at construction; the HTTP app logs through it too (Fastify
 * adds its request serializers on a child). Credentials in headers are never written, and a logged error
 * names no e-mail address: a database error's detail ("Key (email)=(…) already exists"), an SMTP answer or
 * any other message quoting one has it replaced (logs carry ids, not personal data).
 */
export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: { err: (err: Error) => scrub(pino.stdSerializers.err(err)) },
  };
  // Fastify's request loggers are children of this one and keep its err serializer over their own.
  return destination ? pino(options, destination) : pino(options);
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutAddresses(value);
  if (value === null || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
  return out;
}
