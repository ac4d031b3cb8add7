import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';

/** Debian's chromium; Playwright's own browser download cannot be fetched here. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Why a browser test skips here, or null when Chromium is installed. */
export const noChromium = (): string | null =>
  existsSync(CHROMIUM) ? null : `${CHROMIUM} not found: apt-get install -y chromium to run this test`;

/**
 * Writes `html` to a file of its own, opens it in Chromium at `viewport` (Playwright's default 1280 × 720 when left
 * out) and hands the page to `check` with the problems seen while it loaded: console errors, page errors, and any
 * request that is not the file itself (a report page must fetch nothing).
 */
export async function inChromium(
  html: string,
  viewport: { width: number; height: number } | null,
  check: (page: Page, problems: string[]) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-page-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const file = path.join(dir, 'index.html');
    await writeFile(file, html);
    const page = await browser.newPage(viewport ? { viewport } : {});
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) problems.push(`request: ${request.url()}`);
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await check(page, problems);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}
