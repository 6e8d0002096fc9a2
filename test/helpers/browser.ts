/**
 * Headless Chromium for the tests of the pages the gateway serves (Debian's `chromium` package, or CHROMIUM_PATH),
 * driven through playwright-core, and the accessibility check every page passes (axe-core).
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM } from './prerequisites.ts';

/**
 * True when no Chromium was found as the run began: a file of browser tests wraps its suites in
 * `describe.skipIf(chromiumMissing)` (the run says so once, and fails under CI).
 */
export const chromiumMissing = !inject('prerequisites').chromium;
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
}

const AXE_SOURCE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * The value of a JavaScript expression in the page (written as text: the test's TypeScript knows no DOM).
 * @example await inPage<string>(page, 'document.activeElement?.tagName')
 */
export function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

interface AxeResults {
  readonly violations: ReadonlyArray<{
    readonly id: string;
    readonly impact: string | null;
    readonly help: string;
    readonly nodes: ReadonlyArray<{ readonly target: readonly unknown[] }>;
  }>;
}

/**
 * axe-core's violations of the page as it is now, "serious" and "critical" ones only. axe is evaluated through the
 * browser's debugging protocol: a script tag would be refused by the page's Content-Security-Policy, as it should.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await inPage<AxeResults>(page, 'axe.run()');
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Every axe-core violation of the page as it is now, whatever its impact (the staff side's pages have none). */
export async function allAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await inPage<AxeResults>(page, 'axe.run()');
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
