import type { Config } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import type { Mailer } from '../mail/index.ts';
import type { Metrics } from './metrics.ts';

/** Everything the modules share, built once per process by the service (or per test). */
export interface AppContext {
  config: Config;
  /** The primary database: every write and every read that must see its own write. */
  db: Db;
  /** A streaming replica for read-only endpoints (DATABASE_READ_URL), or the primary. */
  readDb: Db;
  mailer: Mailer;
  metrics: Metrics;
  /** The clock; tests move it to expire trials and codes. */
  now: () => Date;
  /** Connection to Redis for state shared by several nodes (rate limits), when REDIS_URL is set. */
  redisUrl: string | undefined;
}
