import { startSession, stopSession, session } from './lib/session';
import { Workbench } from './lib/workbench';
import { paletteTitle } from './lib/manifest';
void (async () => {
const s = await startSession();
try {
  const wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.sitePolicy));
  await wb.waitForExtensionContributions();
  await wb.page.waitForTimeout(3000);
  await wb.runCommand(paletteTitle('evident.reindex'));
  for (let i = 0; i < 30; i++) {
    const snap = await wb.page.evaluate(() => ({
      toasts: Array.from(document.querySelectorAll('.notifications-toasts .notification-toast')).map((t) => t.textContent),
      sb: Array.from(document.querySelectorAll('.statusbar-item')).map((t) => t.id + '=' + t.textContent).filter((x) => /evident/i.test(x)),
    }));
    console.log(Date.now() % 100000, JSON.stringify(snap));
    await wb.page.waitForTimeout(100);
  }
  await wb.page.screenshot({ path: '/tmp/e2edbg/after.png' });
} finally { await stopSession(false); }
})();
