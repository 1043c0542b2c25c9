/** What the start-up probe found of each agent's model endpoint, for /ready (which it never fails). */
import type { AgentReachability } from '../llm/reachability';

export class ModelReachability {
  private found: readonly AgentReachability[] = [];

  record(found: readonly AgentReachability[]): void {
    this.found = found;
  }

  agents(): readonly AgentReachability[] {
    return this.found;
  }
}
