/**
 * issue 28: the dashboard runs whole under its Content-Security-Policy (no directive is violated on
 * any view, the history plots included), and Chromium refuses to show it in a frame. A real
 * headless Chromium against a real `standing serve --demo`.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoBrowser, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;
let context: BrowserContext;

beforeAll(async () => {
  demo = await startDemoBrowser();
  context = await demo.browser.newContext({ viewport: { width: 1280, height: 860 } });
  // Every violation of the page's policy, as the browser reports it to the page.
  await context.addInitScript({
    content: "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));",
  });
});

afterAll(async () => {
  await context?.close();
  await demo?.close();
});

const violations = async (page: Page) => (await page.evaluate('window.violations')) as string[];

describe('issue 28: the dashboard under its policy', () => {
  it('shows every view with no violation of its Content-Security-Policy', async () => {
    const key = demo.moderatorKey!;
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${demo.url}/#key=${key}`);
    await page.waitForSelector('table.queue tbody tr');
    const player = await page.locator('table.queue tbody tr td a').first().innerText();
    const views: [string, string][] = [
      [`#/case/${encodeURIComponent(player)}?community=default`, '.case-scores .card'],
      [`#/player/${encodeURIComponent(player)}?community=default`, '.plot canvas'],
      ['#/audit?community=default', 'main'],
      ['#/alerts?community=default', 'main'],
      ['#/rankings/cqr?community=default', 'table.ranking tbody tr .fill'],
    ];
    for (const [view, ready] of views) {
      await page.goto(`${demo.url}/${view}`);
      await page.waitForSelector(ready, { timeout: 60_000 });
      expect({ view, violations: await violations(page) }).toEqual({ view, violations: [] });
    }
    // The score bars' widths and colours are set through the CSSOM, which the policy allows.
    expect(await page.locator('table.ranking tbody tr .fill').first().getAttribute('style')).toMatch(/width: [\d.]+%/);
    expect(refused).toEqual([]);
    // What the policy is for: a script injected into the page does not run, and the page hears of it.
    await page.evaluate("const s = document.createElement('script'); s.textContent = 'window.ran = true'; document.body.append(s)");
    expect(await page.evaluate('window.ran === true')).toBe(false);
    expect(await violations(page)).toEqual([expect.stringMatching(/^script-src/)]);
    await page.close();
  });

  it('is refused in a frame: the framing page gets no dashboard', async () => {
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto(`${demo.url}/healthz`); // an origin of the service's own: even it may not frame the dashboard
    await page.setContent(`<iframe id="d" src="${demo.url}/" width="800" height="600"></iframe>`);
    await page.waitForLoadState('load');
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(frame).toBeDefined();
    // A refused frame shows the browser's error page, never the dashboard's document.
    expect(frame.url()).not.toBe(`${demo.url}/`);
    expect(await page.frameLocator('#d').locator('#app').count()).toBe(0);
    expect(messages.join('\n')).toMatch(/frame-ancestors|X-Frame-Options/);
    await page.close();
  });
});
