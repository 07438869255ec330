// The Evident chat webview as the checks use it: ask a question and get the turn it produced,
// wait for the turn to settle. Selectors are the data-testid list at the top of src/webview/main.ts.

import type { FrameLocator, Locator } from 'playwright-core';

export type TurnStatus = 'pending' | 'done' | 'failed' | 'cancelled';

export class ChatView {
  constructor(readonly frame: FrameLocator) {}

  byTestId(id: string): Locator {
    return this.frame.locator(`[data-testid="${id}"]`);
  }

  turns(): Locator {
    return this.byTestId('turn');
  }

  /** Types the question, sends it with Enter, and returns the locator of the new turn. */
  async ask(question: string): Promise<Locator> {
    const before = await this.turns().count();
    const input = this.byTestId('chat-input');
    await input.fill(question);
    await input.press('Enter');
    const turn = this.turns().nth(before);
    await turn.waitFor({ timeout: 15_000 }).catch(() => {
      throw new Error(`no new turn appeared in the chat after sending "${question}"`);
    });
    return turn;
  }

  async waitForStatus(turn: Locator, statuses: TurnStatus[], timeoutMs = 60_000): Promise<TurnStatus> {
    const selector = statuses.map((s) => `[data-status="${s}"]`).join(', ');
    await turn
      .and(this.frame.locator(selector))
      .waitFor({ timeout: timeoutMs })
      .catch(async () => {
        throw new Error(
          `turn did not reach ${statuses.join('|')} within ${timeoutMs / 1000} s (status: ${await turn.getAttribute('data-status')})`,
        );
      });
    return (await turn.getAttribute('data-status')) as TurnStatus;
  }
}
