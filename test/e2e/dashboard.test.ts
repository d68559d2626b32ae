/**
 * The dashboard in a real headless Chromium (Debian's, driven by playwright-core; never a
 * downloaded browser) against a real `standing serve --demo`: rankings show, a click opens the
 * player page with the API's scores, and an event that crosses a threshold appears in the alert
 * feed. Takes screenshots of the main views: into a temporary folder, or into docs/screenshots/
 * with `npm run screenshots` (STANDING_SCREENSHOTS names the folder).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { SHOTS, startDemoBrowser, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;
let url: string;
let readKey: string;
let ingestKey: string;

beforeAll(async () => {
  demo = await startDemoBrowser();
  ({ url, readKey, ingestKey } = demo);
});

afterAll(async () => {
  await demo?.close();
});

function open(path: string, viewport = { width: 1280, height: 860 }): Promise<Page> {
  return demo.open(path, { viewport });
}

function api<T>(path: string): Promise<T> {
  return demo.api<T>(path);
}

describe('dashboard', () => {
  it('asks for a key when it has none, and shows the rankings once given one', async () => {
    const page = await demo.browser.newPage();
    await page.goto(`${url}/`);
    await page.getByLabel('API key with the read scope').fill(readKey);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.waitForSelector('table.ranking tbody tr');
    // A read key's home is the first ranking (the queue needs the moderate scope).
    expect(await page.locator('#ranking-title').innerText()).toContain('cqr');
    await page.close();
  });

  it('shows a ranking worst first, with bars, sortable and paged through the API', async () => {
    const page = await open('#/rankings/cqr?community=default');
    await page.waitForSelector('table.ranking tbody tr');
    const rows = await page.locator('table.ranking tbody tr').allInnerTexts();
    const worst = await api<{ total: number; rows: { player: string; score: number }[] }>('/v1/rankings/cqr?order=desc&limit=1');
    expect(rows[0]).toContain(worst.rows[0]!.player);
    // Every player of the community (the demo's 20, and the newcomer of the alert test when it ran first).
    expect(rows).toHaveLength(worst.total);
    expect(await page.locator('.bar .fill').count()).toBe(worst.total);
    await page.screenshot({ path: `${SHOTS}rankings.png`, fullPage: true });
    // Sort by player: the URL says so, and the first row is the first id in code-point order.
    await page.getByRole('link', { name: 'player' }).click();
    await page.waitForFunction("location.hash.includes('sort=player')");
    await page.waitForFunction("document.querySelector('table.ranking tbody tr td:nth-child(2)')?.textContent === 'D1'");
    // Reliability: bars coloured by band.
    const expected = await api<{ rows: { player: string; band: string; score: number }[] }>('/v1/rankings/reliability?order=desc&limit=50');
    await page.getByRole('link', { name: 'reliability', exact: true }).click();
    // Wait for reliability's own rows: until the new route has rendered, the cqr page may still be on screen.
    await page.waitForFunction(
      `location.hash.includes('/rankings/reliability') && document.querySelector('table.ranking tbody tr td:nth-child(2)')?.textContent === ${JSON.stringify(expected.rows[0]!.player)}`,
    );
    // Its columns are its own rows' fields (beyond rank, player, score and those drawn as the bar), never cqr's.
    // (reliability's one such field, confidence, under its plain label).
    const headers = await page.locator('table.ranking thead th').evaluateAll((cells) => cells.map((c) => (c.textContent ?? '').replace(/ [▲▼]$/, '')));
    const ownFields = Object.keys(expected.rows[0]!).filter((c) => !['rank', 'player', 'score', 'community', 'bar', 'band'].includes(c));
    expect(ownFields).toEqual(['confidence']);
    expect(headers).toEqual(['rank', 'player', 'score', 'confidence (events)']);
    // Every row's bar: coloured by the API's band, as long as the score on [0, 1] (issue 28: not the confidence).
    const shown = await page.locator('table.ranking tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const r = row as unknown as { querySelector(s: string): { textContent: string; style: { background: string; width: string } } };
        return { player: r.querySelector('td:nth-child(2)').textContent, colour: r.querySelector('.bar .fill').style.background, width: r.querySelector('.bar .fill').style.width };
      }),
    );
    const RGB: Record<string, string> = { green: 'rgb(46, 158, 79)', yellow: 'rgb(217, 179, 0)', orange: 'rgb(232, 119, 46)', red: 'rgb(210, 59, 59)' };
    expect(shown.map((r) => [r.player, r.colour])).toEqual(expected.rows.map((r) => [r.player, RGB[r.band]]));
    shown.forEach((r, i) => expect(Number.parseFloat(r.width)).toBeCloseTo(Math.min(1, Math.max(0, expected.rows[i]!.score)) * 100, 3));
    expect(new Set(expected.rows.map((r) => r.band)).size).toBeGreaterThan(1); // the demo has several bands
    await page.screenshot({ path: `${SHOTS}reliability.png`, fullPage: true });
    await page.close();
  });

  it('opens a player page from the ranking, with the scores the API gives', async () => {
    const page = await open('#/rankings/cqr?community=default');
    const explains: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/explain?')) explains.push(request.url());
    });
    const first = page.locator('table.ranking tbody tr td:nth-child(2) a').first();
    const player = await first.innerText();
    await first.click();
    await page.waitForSelector('.cards .card');
    expect(page.url()).toContain(`#/player/${player}`);
    const expected = await api<{ communities: { scores: { scorer: string; score: number; rank: number; of: number }[] }[] }>(`/v1/players/${player}?community=default`);
    const scores = expected.communities[0]!.scores;
    expect(await page.locator('.cards .card').count()).toBe(scores.length);
    // The dashboard shows integers whole, |x| ≥ 100 to one decimal, |x| ≥ 1 to two, smaller ones to 3 significant digits.
    const shownAs = (x: number) =>
      Number.isInteger(x) ? x.toLocaleString('en') : Math.abs(x) >= 1 ? x.toLocaleString('en', { maximumFractionDigits: Math.abs(x) >= 100 ? 1 : 2 }) : String(Number(x.toPrecision(3)));
    for (const s of scores) {
      const card = (await page.locator(`.card[data-scorer="${s.scorer}"]`).innerText()).split('\n').map((line) => line.trim());
      expect(card).toContain(shownAs(s.score));
      expect(card).toContain(`rank ${s.rank} of ${s.of}`);
    }
    // Every scorer's history plots, though the service runs fewer history jobs at once than the
    // page asks for (maxHistoryJobs 2): a busy answer (503, Retry-After) is asked again.
    await page.waitForFunction(`document.querySelectorAll('.plot canvas').length >= ${scores.length}`, undefined, { timeout: 60_000 });
    expect(await page.locator('.detail p.muted', { hasText: 'history' }).count()).toBe(0);
    await page.locator('details summary').first().click();
    await page.waitForSelector('.explanation');
    // Each explanation asks for the last 25 entries of its list, the most it shows.
    expect(explains.length).toBe(scores.length);
    for (const u of explains) expect(new URL(u).searchParams.get('limit')).toBe('25');
    await page.screenshot({ path: `${SHOTS}player.png`, fullPage: true });
    await page.close();
  });

  it('finds a player by id, and reads well on a phone', async () => {
    const page = await open('#/rankings/reports?community=default', { width: 390, height: 844 });
    await page.getByLabel('Player id').fill('F2');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.cards .card');
    expect(page.url()).toContain('#/player/F2');
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(width).toBeLessThanOrEqual(390);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${SHOTS}phone-player.png` });
    await page.close();
  });

  it('can be used from the keyboard alone', async () => {
    const page = await open('#/rankings/chat?community=default');
    await page.waitForSelector('table.ranking tbody tr');
    // Tab until the first player link has focus, then open it with Enter.
    let focused = '';
    for (let i = 0; i < 40 && !focused.startsWith('#/player/'); i++) {
      await page.keyboard.press('Tab');
      focused = (await page.evaluate('document.activeElement?.getAttribute("href") ?? ""')) as string;
    }
    expect(focused).toMatch(/^#\/player\//);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.cards .card');
    expect(page.url()).toContain(focused.split('?')[0]);
    await page.close();
  });

  it('switches community from the header, and the URL follows', async () => {
    const response = await contractFetch(`${url}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ type: 'action', time: new Date().toISOString(), community: 'eu-west', player: 'zoe', delta: 40 }]),
    });
    expect(response.status).toBe(200);
    const page = await open('#/rankings/cqr?community=default');
    await page.waitForSelector('table.ranking tbody tr');
    await page.getByLabel('Community').selectOption('eu-west');
    await page.waitForFunction("location.hash.includes('community=eu-west')");
    await page.waitForFunction("document.querySelector('table.ranking tbody tr td:nth-child(2)')?.textContent === 'zoe'");
    expect(await page.locator('table.ranking tbody tr').count()).toBe(1);
    await page.close();
  });

  it('pages a large ranking through the API, loading only the page shown', async () => {
    const events = Array.from({ length: 60 }, (_, i) => ({ type: 'action', time: new Date().toISOString(), community: 'big', player: `p${String(i).padStart(2, '0')}`, delta: i }));
    await contractFetch(`${url}/v1/events`, { method: 'POST', headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' }, body: JSON.stringify(events) });
    const page = await demo.browser.newPage({ bypassCSP: true }); // as demo.open's pages, for waitForFunction
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/rankings/')) asked.push(request.url());
    });
    await page.goto(`${url}/#key=${readKey}`);
    await page.waitForSelector('header nav a');
    await page.goto(`${url}/#/rankings/cqr?community=big`);
    await page.waitForSelector('table.ranking tbody tr');
    expect(await page.locator('table.ranking tbody tr').count()).toBe(50);
    expect(await page.locator('.pager').innerText()).toContain('page 1 of 2');
    await page.getByRole('link', { name: 'next →' }).click();
    await page.waitForFunction("location.hash.includes('page=2')");
    await page.waitForFunction("document.querySelectorAll('table.ranking tbody tr').length === 10");
    expect(asked.every((u) => u.includes('limit=50'))).toBe(true);
    expect(asked.some((u) => u.includes('offset=50'))).toBe(true);
    await page.close();
  });

  it('shows a new alert live when an ingested event crosses a threshold', async () => {
    const page = await open('#/alerts?community=default');
    await page.waitForSelector('.live.on');
    const response = await contractFetch(`${url}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ type: 'action', time: new Date().toISOString(), player: 'newcomer', delta: -90 }]),
    });
    expect(response.status).toBe(200);
    const item = page.locator('.feed li', { hasText: 'newcomer' });
    await item.waitFor({ timeout: 15_000 });
    expect(await item.innerText()).toContain('cqr-below-50');
    await page.screenshot({ path: `${SHOTS}alerts.png`, fullPage: true });
    await item.getByRole('link', { name: 'newcomer' }).click();
    await page.waitForSelector('.cards .card');
    expect(page.url()).toContain('#/player/newcomer');
    await page.close();
  });
});
