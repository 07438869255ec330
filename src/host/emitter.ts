// An event source shaped like `vscode.Event` (listener, this, disposables → disposable), for the
// host classes that are driven in plain Node by their unit tests: no `vscode` import.

export interface Disposable {
  dispose(): unknown;
}

export type Event<T> = (
  listener: (e: T) => unknown,
  thisArgs?: unknown,
  disposables?: Disposable[],
) => { dispose(): void };

export class Emitter<T> {
  private listeners: ((e: T) => unknown)[] = [];

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : (e: T) => listener.call(thisArgs, e);
    this.listeners.push(bound);
    const subscription = { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== bound)) };
    disposables?.push(subscription);
    return subscription;
  };

  fire(value: T): void {
    // As VS Code's emitter: one listener's error does not keep the others from hearing the event.
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        console.error(error);
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}
