import { join } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { migrate, openDb } from '../db/index.ts';

export async function migrateCommand(_args: string[]): Promise<number> {
  const config = loadConfig();
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') });
  try {
    const applied = await migrate(db);
    process.stdout.write(
      applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'database is up to date\n',
    );
    return 0;
  } finally {
    await db.close();
  }
}
