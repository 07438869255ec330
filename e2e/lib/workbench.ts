// Playwright helpers for the VS Code workbench served by code-server: open a folder, run a palette
// command, reach the Evident chat webview (two iframes deep), read the status bar, inspect the
// active editor, and keep a screenshot per check. Selectors are VS Code 1.100's DOM.

import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { EXTENSION_ID, Views } from '../../src/shared/ids';
import { artifactsDir, chromiumPath } from './paths';

/** Debian's chromium, headless, with a fresh temporary profile (Playwright's default); its crash reports stay in `home`. */
export async function launchBrowser(home: string): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'xdg-config'),
      XDG_CACHE_HOME: join(home, 'xdg-cache'),
    },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * tsx compiles with keepNames, so a function passed to page.evaluate that declares a named inner
 * function calls esbuild's `__name` helper, which the browser lacks: define it as a no-op.
 */
export const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((fn) => fn);';

export class Workbench {
  /** Console lines of the page, for failure reports (the extension host forwards its console here). */
  readonly consoleLines: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (message) => {
      this.consoleLines.push(`[${message.type()}] ${message.text()}`);
      if (this.consoleLines.length > 400) this.consoleLines.shift();
    });
    page.on('pageerror', (error) => this.consoleLines.push(`[pageerror] ${error.message}`));
  }

  /** The workbench address the page was opened at (a reload goes back to it). */
  private url = '';

  static async open(browser: Browser, url: string): Promise<Workbench> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const workbench = new Workbench(page);
    workbench.url = url;
    await page.addInitScript({ content: NAME_SHIM });
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    return workbench;
  }

  /** The activity-bar entry of the Evident view container: present only when the contribution registered. */
  activityBarItem(): Locator {
    return this.page.locator(`.activitybar a[aria-label^="${Views.containerTitle}"]`);
  }

  async waitForExtensionContributions(): Promise<void> {
    await this.activityBarItem()
      .waitFor({ timeout: 45_000 })
      .catch(() => {
        throw new Error(
          `the activity bar has no "${Views.containerTitle}" entry after 45 s: the view container "${Views.container}" is not contributed or the extension failed to load`,
        );
      });
  }

  /** Runs a command by its palette title ("Evident: Reindex Workspace"). */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`>${title}`);
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error(`the command palette has no command titled "${title}"`);
    });
    // Pick the exact row (a longer title may also match the filter).
    await this.page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
      .first()
      .click();
  }

  /** Answers an input box opened by a command (e.g. the API key prompt). */
  async answerInputBox(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(text);
    await this.page.keyboard.press('Enter');
  }

  /** Shows the Evident view container (a click on its activity-bar entry, unless it is already shown: that click would close it). */
  async openChatView(): Promise<FrameLocator> {
    if (!(await this.chatContainerShown())) await this.activityBarItem().click();
    return this.waitForChat();
  }

  /** Whether the side bar shows the Evident container (its activity-bar entry is checked). */
  async chatContainerShown(): Promise<boolean> {
    return this.activityBarItem().evaluate((a) => a.closest('.action-item')?.classList.contains('checked') === true);
  }

  /**
   * The live chat webview's inner document: webview views are two iframes deep. After a window
   * reload, the outer frame stays pending (no `ready` class, no inner frame) for seconds; after
   * the side bar is closed and opened again, the re-created outer frame's address no longer
   * carries `purpose=webviewView`. So: the extension's visible, ready outer frame (its only
   * webview is the chat), the newest one, and its active inner frame.
   */
  chatFrame(): FrameLocator {
    return this.page
      .locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`)
      .filter({ visible: true })
      .last()
      .contentFrame()
      .locator('iframe#active-frame')
      .last()
      .contentFrame();
  }

  /** Waits until the live chat frame has rendered its input (see chatFrame), and returns it. */
  async waitForChat(timeoutMs = 30_000): Promise<FrameLocator> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const chat = this.chatFrame();
      const ready = await chat
        .locator('[data-testid="chat-input"]')
        .waitFor({ timeout: Math.max(1, Math.min(3_000, deadline - Date.now())) })
        .then(() => true)
        .catch(() => false);
      if (ready) return chat;
      if (Date.now() >= deadline) {
        const frames = await this.page
          .locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`)
          .evaluateAll((els) => els.map((e) => `${e.className} visible=${(e as HTMLElement).offsetParent !== null}`));
        throw new Error(
          `the chat view "${Views.chat}" did not render its input ([data-testid="chat-input"]) within ${timeoutMs / 1000} s; webview frames: ${frames.join('; ') || 'none'}`,
        );
      }
    }
  }

  /**
   * Reloads the window (as "Developer: Reload Window" does: the same workbench address; the page's
   * own address may have moved meanwhile) and waits for the workbench and the extension.
   */
  async reload(): Promise<void> {
    await this.page.goto(this.url);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.waitForExtensionContributions();
  }

  /** Picks a colour theme by its label in the theme picker and waits until the chat view has it. */
  async selectColorTheme(label: string, chatBodyClass: string): Promise<void> {
    await this.runCommand('Preferences: Color Theme');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(label);
    await this.page
      .locator('.quick-input-list .monaco-list-row', {
        has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
      })
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => {
        throw new Error(`the theme picker has no theme "${label}"`);
      });
    // A click on the row, not Enter: Enter may land before the filter has moved the focus from the current theme.
    await this.page
      .locator('.quick-input-list .monaco-list-row', {
        has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
      })
      .first()
      .click();
    await this.chatFrame()
      .locator(`body.${chatBodyClass}`)
      .waitFor({ timeout: 15_000 })
      .catch(() => {
        throw new Error(`the chat view did not switch to the ${label} theme (body class ${chatBodyClass})`);
      });
  }

  /**
   * Sets the primary side bar to `width` CSS px by dragging its sash, as a user does, and waits
   * until the chat webview has that width. Returns the width the chat view has.
   */
  async setSideBarWidth(width: number): Promise<number> {
    const frame = this.page
      .locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`)
      .filter({ visible: true })
      .last();
    const frameWidth = async () => Math.round((await frame.boundingBox())?.width ?? 0);
    let seen = await frameWidth();
    // The side bar's border and the sash's rounding: drag, measure, correct (twice at most).
    for (let attempt = 0; attempt < 3 && seen !== width; attempt++) {
      const box = await this.page.locator('.part.sidebar').first().boundingBox();
      if (!box) throw new Error('the primary side bar is not shown');
      const right = box.x + box.width;
      const sash = await this.page.locator('.monaco-sash.vertical').evaluateAll((sashes, edge) => {
        const r = sashes
          .map((s) => s.getBoundingClientRect())
          .find((b) => b.width > 0 && b.height > 200 && Math.abs(b.left + b.width / 2 - edge) < 6);
        return r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : undefined;
      }, right);
      if (!sash) throw new Error(`no sash at the side bar's right edge (x ${right})`);
      await this.page.mouse.move(sash.x, sash.y);
      await this.page.mouse.down();
      await this.page.mouse.move(sash.x + (width - seen), sash.y, { steps: 4 });
      await this.page.mouse.up();
      for (const deadline = Date.now() + 3_000; Date.now() < deadline; await this.page.waitForTimeout(100)) {
        const now = await frameWidth();
        if (now !== seen) {
          seen = now;
          break;
        }
      }
    }
    if (seen !== width)
      throw new Error(`the chat view is ${seen} px wide after dragging the side bar towards ${width} px`);
    return seen;
  }

  /** A screenshot of the side bar only (the chat at the width under test). */
  async screenshotSideBar(check: string, variant: string): Promise<string> {
    await mkdir(artifactsDir, { recursive: true });
    const path = join(artifactsDir, `${slug(check)}.${variant}.png`);
    await this.page.locator('.part.sidebar').first().screenshot({ path });
    return path;
  }

  /** The status bar entry of the extension (its text and accessible label). */
  statusBarItem(): Locator {
    return this.page.locator(`.statusbar-item[id^="${EXTENSION_ID}"]`).first();
  }

  async statusBarText(): Promise<string> {
    const item = this.statusBarItem();
    const text = (await item.textContent()) ?? '';
    const label =
      (await item
        .locator('a')
        .first()
        .getAttribute('aria-label')
        .catch(() => null)) ?? '';
    return `${text} ${label}`.trim();
  }

  /** The active editor group's tab label and the visible text of its editor. */
  async activeEditor(): Promise<{ title: string; text: string }> {
    const tab = this.page.locator('.editor-group-container.active .tab.active').first();
    await tab.waitFor({ timeout: 15_000 });
    const title = (await tab.getAttribute('aria-label')) ?? (await tab.textContent()) ?? '';
    const text = await this.page
      .locator('.editor-group-container.active .monaco-editor .view-lines')
      .first()
      .innerText();
    return { title, text };
  }

  /**
   * Editor decorations (VS Code renders an extension's decoration types as `ced-*` classes) in
   * the active editor: the text of each line under a coloured whole-line or range overlay, and the
   * text and `::after` content of each decorated inline span.
   */
  async activeEditorDecorations(): Promise<{
    highlightedLines: string[];
    inline: { text: string; after: string; color: string }[];
  }> {
    return this.page.evaluate(() => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      if (!editor) return { highlightedLines: [], inline: [] };
      const lineByTop = new Map<string, string>();
      for (const line of Array.from(editor.querySelectorAll<HTMLElement>('.view-lines > .view-line')))
        lineByTop.set(line.style.top, line.textContent ?? '');
      const highlighted = new Set<string>();
      for (const overlay of Array.from(editor.querySelectorAll<HTMLElement>('.view-overlays > div'))) {
        const decorated = Array.from(overlay.querySelectorAll<HTMLElement>('[class*="ced-"]')).some(
          (d) => !['transparent', 'rgba(0, 0, 0, 0)'].includes(getComputedStyle(d).backgroundColor),
        );
        if (decorated) highlighted.add(lineByTop.get(overlay.style.top) ?? '');
      }
      const inline = Array.from(editor.querySelectorAll<HTMLElement>('.view-lines span[class*="ced-"]')).map(
        (span) => ({
          text: span.textContent ?? '',
          after: getComputedStyle(span, '::after').content,
          color: getComputedStyle(span).color,
        }),
      );
      return { highlightedLines: [...highlighted], inline };
    });
  }

  /** The innermost span of the active editor showing `token` (e.g. "[E1]"), for hover and click. */
  editorToken(token: string): Locator {
    return this.page
      .locator('.editor-group-container.active .monaco-editor .view-lines span span', { hasText: token })
      .first();
  }

  /** Saves `artifacts/e2e/<check>[.<variant>].png` and returns its path. */
  async screenshot(check: string, variant?: string): Promise<string> {
    await mkdir(artifactsDir, { recursive: true });
    const path = join(artifactsDir, `${slug(check)}${variant ? `.${variant}` : ''}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

/** The running check's title (screenshots are named after it). */
export function checkTitle(context: Mocha.Context): string {
  return context.test?.title ?? 'unnamed check';
}

export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
