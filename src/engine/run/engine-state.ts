/** Whether the engine still takes runs: closed once shutdown begins. */
export class EngineState {
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  close(): void {
    this.isClosed = true;
  }
}
