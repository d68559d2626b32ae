/**
 * What a new user of the dashboard met, in a real Chromium against `serve --demo` (issue 17):
 * bars on each scorer's meaningful range, the reports received beside a score built from them,
 * the rank direction said for every scorer, rounded numbers, local times with the zone, plain
 * labels and named parameters, a favicon, a phone layout that cuts nothing off, and rankings
 * reachable by scorer id.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, startDemoBrowser, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;

beforeAll(async () => {
  demo = await startDemoBrowser();
});

afterAll(async () => {
  await demo?.close();
});

interface Row {
  player: string;
  score: number;
  [field: string]: unknown;
}
interface Ranking {
  scorer: string;
  total: number;
  range: { min: number; max: number };
  rows: Row[];
}
interface Scorer {
  name: string;
  scorer: string;
  params: string;
  rankOneIsWorst: boolean;
}

const scorers = () => demo.api<{ scorers: Scorer[] }>('/v1/scorers').then((r) => r.scorers);

/** The rows of the ranking on screen once `player` heads it. */
async function rowsOf(page: Page, first: string): Promise<void> {
  await page.waitForFunction(`document.querySelector('table.ranking tbody tr td:nth-child(2)')?.textContent === ${JSON.stringify(first)}`);
}

describe('issue 17: the dashboard reads right', () => {
  it('issue 17: chat bars span its floor (repMin) to its ceiling (repMax), so the worst chatter shows an empty red bar', async () => {
    const worst = await demo.api<Ranking>('/v1/rankings/chat?order=desc&limit=50');
    const page = await demo.open('#/rankings/chat?community=default');
    await rowsOf(page, worst.rows[0]!.player);
    const bars = (await page.evaluate(
      "[...document.querySelectorAll('table.ranking tbody tr .bar .fill')].map((f) => ({ width: f.style.width, colour: f.style.background }))",
    )) as { width: string; colour: string }[];
    expect(bars).toHaveLength(worst.rows.length);
    // The demo runs chat's defaults: floor 0.1, ceiling 1.
    worst.rows.forEach((row, i) => expect(Number.parseFloat(bars[i]!.width)).toBeCloseTo(((row.score - 0.1) / 0.9) * 100, 3));
    // The worst chatter sits near the floor: a sliver of a bar (not half of it), red.
    expect(worst.rows[0]!.score).toBeLessThan(0.12);
    expect(Number.parseFloat(bars[0]!.width)).toBeLessThan(3);
    const [r, g] = /rgb\((\d+), (\d+)/.exec(bars[0]!.colour)!.slice(1).map(Number) as [number, number];
    expect(r).toBeGreaterThan(g * 2);
    await page.close();
  });

  it('issue 17: the reports ranking shows the reports each player received beside the score built from them, and names the reports made as such', async () => {
    const ranking = await demo.api<Ranking>('/v1/rankings/reports?limit=50');
    const page = await demo.open('#/rankings/reports?community=default');
    await rowsOf(page, ranking.rows[0]!.player);
    const headers = await page.locator('table.ranking thead th').evaluateAll((cells) => cells.map((c) => (c.textContent ?? '').replace(/ [▲▼]$/, '')));
    expect(headers.slice(0, 4)).toEqual(['rank', 'player', 'score', 'reports received']);
    expect(headers).toContain('reports made');
    expect(headers).not.toContain('reports');
    // Each player's reports received: as many as the reports scorer's explanation lists against them.
    for (const row of ranking.rows.slice(0, 5)) {
      const explained = await demo.api<{ page: { total: number } }>(`/v1/players/${encodeURIComponent(row.player)}/explain?scorer=reports&limit=1`);
      expect(row.reported).toBe(explained.page.total);
      const cell = await page.locator('table.ranking tbody tr', { has: page.locator(`td:nth-child(2) a:text-is("${row.player}")`) }).locator('td:nth-child(4)').innerText();
      expect(cell.replace(/^reports received\s*/, '')).toBe(String(explained.page.total));
    }
    await page.close();
  });

  it('issue 17: every ranking says which end is worse, and the player page says each score\'s direction', async () => {
    const page = await demo.open('#/rankings/cqr?community=default');
    for (const s of await scorers()) {
      await page.goto(`${demo.url}/#/rankings/${encodeURIComponent(s.name)}?community=default`);
      await page.waitForFunction(`location.hash.includes(${JSON.stringify(encodeURIComponent(s.name))}) && document.querySelector('[data-testid=rank-hint]') !== null`);
      const hint = await page.getByTestId('rank-hint').innerText();
      expect(hint).toBe(s.rankOneIsWorst ? 'Score: higher is worse: rank 1 is the worst.' : 'Score: higher is better: rank 1 is the best, the last rank the worst.');
    }
    await page.goto(`${demo.url}/#/player/D3?community=default`);
    await page.waitForSelector('.cards .card');
    expect(await page.locator('.card[data-scorer="reports"] .direction').innerText()).toBe('higher is worse');
    expect(await page.locator('.card[data-scorer="cqr"] .direction').innerText()).toBe('higher is better');
    await page.close();
  });

  it('issue 17: numbers are rounded (no floating-point noise), times are local with the zone, labels are plain and parameters named', async () => {
    const ranking = await demo.api<Ranking>('/v1/rankings/reports?limit=50');
    const page = await demo.open('#/rankings/reports?community=default', { context: { timezoneId: 'Asia/Kolkata', locale: 'en-US' } });
    await rowsOf(page, ranking.rows[0]!.player);
    const cells = await page.locator('table.ranking tbody td.num').allInnerTexts();
    for (const text of cells) expect(text.replace(/^[a-z ]+\s*/, '')).toMatch(/^-?[\d,]+(\.\d{1,3})?$/);
    // Floating-point noise reads rounded: the demo's reliability confidences are sums of the
    // defences' weights, some with noise (12.899999999999999), shown to two decimals.
    const confidences = await demo.api<Ranking>('/v1/rankings/reliability?order=desc&limit=50'); // worst first, as the page shows it
    const noisy = confidences.rows.find((r) => String(r.confidence).length > 12);
    expect(noisy).toBeDefined();
    await page.goto(`${demo.url}/#/rankings/reliability?community=default`);
    await rowsOf(page, confidences.rows[0]!.player);
    const confidenceColumn = (await page.locator('table.ranking thead th').allInnerTexts()).findIndex((h) => h.startsWith('confidence'));
    const noisyCell = await page.locator('table.ranking tbody tr', { has: page.locator(`td:nth-child(2) a:text-is("${noisy!.player}")`) }).locator(`td:nth-child(${confidenceColumn + 1})`).innerText();
    const rounded = String(Number((noisy!.confidence as number).toFixed(2)));
    expect(rounded).not.toBe(String(noisy!.confidence));
    expect(noisyCell.replace(/^confidence \(events\)\s*/, '')).toBe(rounded);
    // A player page's explanations: reliability's events at local times (India: UTC+5:30, no summer time).
    const events = await demo.api<{ explanation: { events: { time: number }[] } }>('/v1/players/D3/explain?scorer=reliability&limit=25&order=desc');
    await page.goto(`${demo.url}/#/player/D3?community=default`);
    await page.waitForSelector('.cards .card');
    for (const summary of await page.locator('details:not(.params) > summary').all()) await summary.click();
    await page.waitForFunction("document.querySelectorAll('.explanation').length === 5");
    const reliability = page.locator('section.detail[aria-label="reliability details"]');
    const times = await reliability.locator('td time').evaluateAll((ts) => ts.map((t) => ({ at: t.getAttribute('datetime'), text: t.textContent })));
    expect(times.map((t) => t.at)).toEqual(events.explanation.events.map((e) => new Date(e.time).toISOString()).reverse());
    for (const t of times) expect(t.text).toContain('GMT+5:30');
    // Plain labels: no camelCase field name in any heading or fact, no JSON anywhere.
    const labels = await page.locator('.explanation th, .explanation dt:not(:has(code)), .explanation caption').allInnerTexts();
    expect(labels.length).toBeGreaterThan(10);
    for (const text of labels) expect(text).not.toMatch(/[a-z][A-Z]/);
    // Rounded: no number with more than 3 significant digits after the point, no exponent.
    const values = await page.locator('.explanation td, .explanation > dl dd').allInnerTexts();
    expect(values.length).toBeGreaterThan(10);
    for (const text of values) {
      expect(text).not.toMatch(/[{}"]/);
      expect(text).not.toMatch(/\d\.0*[1-9]\d{3,}|e-\d/);
    }
    // Parameters: each by its name with its value (chat's floor among them).
    const chat = page.locator('section.detail[aria-label="chat details"] details.params');
    await chat.locator('summary').click();
    expect(await chat.locator('dl > div', { has: page.locator('dt code:text-is("repMin")') }).locator('dd').innerText()).toBe('0.1');
    await page.close();
  });

  it('issue 17: the page has a favicon', async () => {
    const page = await demo.open('#/rankings/cqr?community=default');
    const icon = (await page.evaluate('document.querySelector(\'link[rel="icon"]\').href')) as string;
    const response = await fetch(icon);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/svg+xml');
    expect(await response.text()).toContain('<svg');
    await page.close();
  });

  it('issue 17: on a phone (390×844) no ranking cuts off a column and every view of the navigation is in sight', async () => {
    const page = await demo.open('#/rankings/cqr?community=default', { viewport: { width: 390, height: 844 } });
    for (const s of await scorers()) {
      await page.goto(`${demo.url}/#/rankings/${encodeURIComponent(s.name)}?community=default`);
      await page.waitForFunction(`location.hash.includes(${JSON.stringify(encodeURIComponent(s.name))}) && document.querySelector('table.ranking tbody tr') !== null`);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      const rights = await page.locator('table.ranking tbody td').evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().right));
      expect(rights.length).toBeGreaterThan(0);
      for (const right of rights) expect(right).toBeLessThanOrEqual(390);
      // Each cell names its column.
      const labels = (await page.evaluate("[...document.querySelectorAll('table.ranking tbody tr:first-child td')].map((c) => getComputedStyle(c, '::before').content)")) as string[];
      expect(labels.every((l) => l.length > 2)).toBe(true);
      const links = await page.locator('header nav a').evaluateAll((as) => as.map((a) => a.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, width: r.width })));
      for (const link of links) {
        expect(link.width).toBeGreaterThan(0);
        expect(link.left).toBeGreaterThanOrEqual(0);
        expect(link.right).toBeLessThanOrEqual(390);
      }
    }
    await page.screenshot({ path: `${SHOTS}phone-ranking.png` });
    await page.close();
  });

  it('issue 17: #/rankings/trust opens the one trust instance, whatever its name', async () => {
    const trust = (await scorers()).find((s) => s.scorer === 'trust')!;
    expect(trust.name).not.toBe('trust'); // the demo names it by its observers
    const expected = await demo.api<Ranking>(`/v1/rankings/trust?order=desc&limit=1`);
    const page = await demo.open('#/rankings/trust?community=default');
    await rowsOf(page, expected.rows[0]!.player);
    expect(await page.locator('#ranking-title').innerText()).toContain(trust.name);
    expect(await page.locator('header nav a[aria-current="page"]').innerText()).toBe(trust.name);
    expect(await page.locator('.error').count()).toBe(0);
    await page.goto(`${demo.url}/#/rankings/nosuch?community=default`);
    await page.waitForSelector('.error');
    expect(await page.locator('.error').innerText()).toContain('No scorer instance “nosuch”');
    await page.close();
  });
});
