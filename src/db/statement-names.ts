/**
 * Which statements run as named prepared statements: the server parses and
 * analyses a named statement once per connection instead of at every call,
 * which is much of what a short statement costs it (a metadata event's
 * transaction is a few of them). A text is named once it has run a few times
 * — the hot paths' fixed statements — and at most `maxNamed` texts ever are, so
 * that statements whose text varies with the data never pile up on the server.
 */
export class StatementNames {
  readonly #maxNamed: number;
  readonly #runsBeforeNamed: number;
  readonly #named = new Map<string, string>();
  readonly #runs = new Map<string, number>();

  readonly #prefix: string;

  /** `prefix`: of the names, so that two namings never hand out the same one. */
  constructor(maxNamed = 256, runsBeforeNamed = 3, prefix = 'al_') {
    this.#maxNamed = maxNamed;
    this.#runsBeforeNamed = runsBeforeNamed;
    this.#prefix = prefix;
  }

  nameOf(sql: string): string | undefined {
    const name = this.#named.get(sql);
    if (name !== undefined || this.#named.size >= this.#maxNamed) return name;
    const runs = (this.#runs.get(sql) ?? 0) + 1;
    if (runs < this.#runsBeforeNamed) {
      if (this.#runs.size >= 10_000) this.#runs.clear();
      this.#runs.set(sql, runs);
      return undefined;
    }
    this.#runs.delete(sql);
    const named = `${this.#prefix}${this.#named.size}`;
    this.#named.set(sql, named);
    return named;
  }
}
