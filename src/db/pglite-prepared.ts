// Named prepared statements on PGlite. Its query() sends every statement as
// new text: Parse, Describe, Bind, Describe, Execute and Sync, each a call into
// the WebAssembly backend of its own, and the backend parses, analyses and
// plans the text every time (a workspace's write statement is a long one).
// A statement that repeats is parsed here once (Parse and Describe under a
// name), and each run is then one call: Bind, Describe, Execute, Sync, the
// backend keeping the statement and its plan like a PostgreSQL server does
// for a named statement (postgres.ts). Parameters are serialized and rows
// parsed exactly as query() does it, with the same instance's serializers
// and parsers, so a statement answers the same whichever way it ran — but
// for arrays of the types binary-arrays.ts knows and bytea, which go in
// binary as they do to a PostgreSQL server instead of as text written here
// and parsed back by array_in (metadata singles on PGlite: named with text
// arrays 1.16x the events/s of query(), with binary ones 1.36x).
import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import { ARRAY_OID_ELEMENT, encodeBinaryArray } from './binary-arrays.ts';
import type { Row } from './db.ts';
import { StatementNames } from './statement-names.ts';

type Value = string | Uint8Array | null;

const BYTEA = 17;

export class PgliteStatements {
  readonly #pg: PGlite;
  readonly #names = new StatementNames(256, 3, 'alp_');
  /** The parameter types of each statement parsed under its name. */
  readonly #parsed = new Map<string, number[]>();

  constructor(pg: PGlite) {
    this.#pg = pg;
  }

  /**
   * Runs a statement that has repeated as a named one; undefined (nothing
   * run) for one that has not yet, which the caller runs with query().
   * `inTransaction`: whether it runs inside a transaction (then the files
   * are written at its COMMIT, not after each statement, as query() does).
   */
  run<R extends Row>(sql: string, params: readonly unknown[], inTransaction: boolean): Promise<R[]> | undefined {
    const name = this.#names.nameOf(sql);
    if (name === undefined) return undefined;
    // The backend is one session: nothing else may send between this statement's messages
    // (the query lock); and outside a transaction, as PGlite's query() does, none may be open
    // (the transaction lock), or the statement would run inside it.
    const exclusive = <T>(fn: () => Promise<T>) =>
      inTransaction ? this.#pg.runExclusive(fn) : this.#pg._runExclusiveTransaction(() => this.#pg.runExclusive(fn));
    return exclusive(async () => {
      let types = this.#parsed.get(name);
      if (types === undefined) {
        const described = await this.#pg.execProtocol(
          join([
            protocol.serialize.parse({ name, text: sql }),
            protocol.serialize.describe({ type: 'S', name }),
            protocol.serialize.sync(),
          ]),
          {
            syncToFs: false,
          },
        );
        types = parse.parseDescribeStatementResults(described.messages);
        this.#parsed.set(name, types);
      }
      const values = params.map((v, i): Value => {
        if (v === null || v === undefined) return null;
        const type = types[i]!;
        if (type === BYTEA && v instanceof Uint8Array) return v;
        const element = ARRAY_OID_ELEMENT.get(type);
        const binary = element && Array.isArray(v) ? encodeBinaryArray(element, v) : undefined;
        if (binary) return binary;
        const serialize = this.#pg.serializers[type];
        return serialize ? serialize(v) : String(v);
      });
      const ran = await this.#pg.execProtocol(
        join([
          protocol.serialize.bind({ statement: name, values }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
        { syncToFs: !inTransaction },
      );
      return (parse.parseResults(ran.messages, this.#pg.parsers)[0]?.rows ?? []) as R[];
    });
  }
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
