/** Agents this process has seen registered: agents are never deleted, so the check can be skipped. */
export class KnownAgents {
  // Per workspace, its agents' keys: asked several times for every event of a set, a lookup must not
  // build a string (a joined key is a new string to hash each time; an event's own agent_key is hashed once).
  readonly #byTenant = new Map<string, Set<string>>();
  #size = 0;
  has(tenantId: string, agentKey: string): boolean {
    return this.#byTenant.get(tenantId)?.has(agentKey) ?? false;
  }
  add(tenantId: string, agentKey: string): void {
    if (this.#size >= 200_000) {
      this.#byTenant.clear();
      this.#size = 0;
    }
    let keys = this.#byTenant.get(tenantId);
    if (!keys) this.#byTenant.set(tenantId, (keys = new Set()));
    if (!keys.has(agentKey)) {
      keys.add(agentKey);
      this.#size++;
    }
  }
}
