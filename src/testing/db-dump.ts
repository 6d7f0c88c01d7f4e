import type { Db } from '../db/db.ts';

/**
 * Every row of every table of a database, as text (bytes as hex and as raw
 * latin1): what someone holding a dump of the database would see.
 */
export async function dumpTables(db: Db): Promise<{ text: string; tables: string[] }> {
  const tables = await db.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
     ORDER BY 1, 2`,
  );
  const parts: string[] = [];
  for (const { schema, name } of tables) {
    const rows = await db.query(`SELECT * FROM "${schema}"."${name}"`);
    for (const row of rows) {
      for (const [col, v] of Object.entries(row)) {
        let s: string;
        if (v instanceof Uint8Array) s = `${Buffer.from(v).toString('hex')} ${Buffer.from(v).toString('latin1')}`;
        else if (v instanceof Date) s = v.toISOString();
        else s = typeof v === 'string' ? v : JSON.stringify(v);
        parts.push(`${schema}.${name}.${col}=${s}`);
      }
    }
  }
  return { text: parts.join('\n'), tables: tables.map((x) => `${x.schema}.${x.name}`) };
}
