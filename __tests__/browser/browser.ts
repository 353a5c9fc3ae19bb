/**
 * The browser of the browser tier: Debian's `chromium` (`apt-get install -y chromium`), driven by
 * playwright-core, which downloads no browser of its own. `CHROMIUM_PATH` names another binary.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No browser at ${CHROMIUM}: install Debian's chromium (apt-get update && apt-get install -y chromium), ` +
        'or set CHROMIUM_PATH. `npm test` needs none; .ci/run installs it.',
    );
  return chromium.launch({ executablePath: CHROMIUM });
}

/** A page that records every address it requested and every dialog (alert) it was made to open. */
export async function openPage(
  browser: Browser,
): Promise<{ page: Page; requested: string[]; dialogs: string[] }> {
  const page = await browser.newPage();
  const requested: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { page, requested, dialogs };
}
