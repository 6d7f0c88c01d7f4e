import { pino, type Logger } from 'pino';
import type { Config } from '../config/index.ts';

/**
 * The process's logger, made before any module so that modules which log outside a request (background
 * jobs, witness submission, the mailer) get it at construction; the HTTP app logs through it too (Fastify
 * adds its request serializers on a child). Credentials in headers are never written.
 */
export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] });
}
