/**
 * issue 28: what a moderator misread, tried again as a new moderator would, in a real Chromium
 * against `serve --demo` with its moderator key: the reasons say what a band reads and when, the
 * figures have legends, "worse than" is plain, the player page leads to the case, each alert
 * shows its own time, the phone layout reads; texts from outside cannot widen or reorder the
 * page; a retried action is recorded once.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoForFile, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;
let key: string;

demoForFile((started, moderator) => {
  demo = started;
  key = moderator;
});

interface QueueAnswer {
  weights: { tail: number; tailShare: number; breadth: number; alert: number; appeal: number; recency: number; recencyHalfLifeDays: number };
  rows: { player: string; attention: number; reasons: string[]; scorers: { scorer: string; rank: number; of: number; worseThan: number }[] }[];
}
interface AlertAnswer {
  alerts: { id: number; player: string; time: number }[];
}
interface CaseAnswer {
  alerts: { id: number; time: number }[];
  scores: { scorer: string; worseThan: number; of: number }[];
}

/** POSTs a moderator action with the demo's moderator key. */
async function act(path: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${demo.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(201);
}

const queueOf = () => demo.api<QueueAnswer>('/v1/queue?community=default&limit=50', key);

async function openQueue(options: { viewport?: { width: number; height: number } } = {}): Promise<Page> {
  const page = await demo.open('#/queue?community=default', { key, ...options });
  await page.waitForSelector('table.queue tbody tr');
  return page;
}

describe('issue 28: what a moderator misread', () => {
  it('issue 28: the queue has a legend for attention and each value its parts; its reasons say what the band reads and when', async () => {
    const queue = await queueOf();
    const page = await openQueue();
    const legend = await page.getByTestId('attention-legend').innerText();
    expect(legend).toContain('Attention');
    expect(legend).toContain(`${queue.weights.alert} per open alert`);
    expect(legend).toContain(`halving every ${queue.weights.recencyHalfLifeDays} days`);
    // Each value's parts add up to it (each part rounded to two decimals).
    for (const row of queue.rows) {
      const parts = await page.locator(`table.queue tbody tr[data-player="${row.player}"] [data-testid="attention-parts"]`).innerText();
      const sum = [...parts.matchAll(/(\w+) ([\d.]+)/g)].reduce((s, m) => s + Number(m[2]), 0);
      expect(Math.abs(sum - row.attention), parts).toBeLessThan(0.03);
    }
    const reasons = (await page.locator('table.queue .reasons li').allInnerTexts()).map((r) => r.trim());
    expect(reasons).toEqual(queue.rows.flatMap((r) => r.reasons));
    // Reliability's line names the window its band reads; chat's says what is wrong; the dated ones say when.
    const reliability = reasons.filter((r) => r.includes('— reliability '));
    expect(reliability.length).toBeGreaterThan(0);
    for (const r of reliability) expect(r).toMatch(/in the last 100 days.* — reliability [\d.-]+ over those 100 days: \w+ \((from|below) [\d.]+\)/);
    expect(reasons.some((r) => /talks far more than others write to them|few players write to them/.test(r))).toBe(true);
    expect(reasons.some((r) => /\((the latest|the newest raised|raised) \d+ \w+ ago\)/.test(r))).toBe(true);
    // A tail chip says whom the player is worse than, in plain words.
    const titles = await page.locator('table.queue .tails .chip').evaluateAll((chips) => chips.map((c) => c.getAttribute('title') ?? ''));
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) {
      expect(title).toMatch(/rank \d+ of \d+, worse than (all \d+ other players|\d+ of the \d+ other players \(\d+%\))/);
      expect(title).not.toContain('as bad as');
    }
    await page.close();
  });

  it('issue 28: reliability bars are drawn from the score, under a legend of the bands and the days they read; every ranking has a legend', async () => {
    const page = await demo.open('#/rankings/reliability?community=default', { key });
    await page.waitForSelector('table.ranking tbody tr .bar .fill');
    const legend = await page.getByTestId('bar-legend').innerText();
    expect(legend).toContain('over the last 100 days');
    for (const band of ['green from 0.95', 'yellow from 0.85', 'orange from 0.65', 'red below 0.65']) expect(legend).toContain(band);
    const ranking = await demo.api<{ rows: { score: number; confidence: number }[] }>('/v1/rankings/reliability?order=desc&limit=50', key);
    const widths = await page.locator('table.ranking tbody tr .bar .fill').evaluateAll((fills) => fills.map((f) => Number.parseFloat((f as unknown as { style: { width: string } }).style.width)));
    widths.forEach((w, i) => expect(w).toBeCloseTo(Math.min(1, Math.max(0, ranking.rows[i]!.score)) * 100, 3));
    // Not the confidence: two players with full confidence bars but different scores have different bars.
    expect(new Set(widths.map((w) => Math.round(w))).size).toBeGreaterThan(3);
    await page.goto(`${demo.url}/#/rankings/cqr?community=default`);
    await page.waitForFunction("document.querySelector('[data-testid=bar-legend]')?.textContent.includes('middle line at 0')");
    await page.close();
  });

  it('issue 28: a case says whom the player is worse than in plain words and each open alert with its own time; the player page leads to the case', async () => {
    const top = (await queueOf()).rows[0]!;
    const c = await demo.api<CaseAnswer>(`/v1/players/${encodeURIComponent(top.player)}/case?community=default`, key);
    const page = await demo.open(`#/player/${encodeURIComponent(top.player)}?community=default`, { key });
    const link = page.getByTestId('case-link');
    expect(await link.innerText()).toContain('#1 in the attention queue');
    await link.getByRole('link', { name: 'open the case' }).click();
    await page.waitForSelector('.why-box .reasons li');
    expect(page.url()).toContain(`#/case/${encodeURIComponent(top.player)}?community=default`);
    const worse = await page.locator('.case-scores .worse-than').allInnerTexts();
    expect(worse).toHaveLength(c.scores.length);
    for (const text of worse) expect(text).toMatch(/^worse than (all \d+ other players|none of the \d+ other players|\d+ of the \d+ other players \(\d+%\))$/);
    expect(await page.locator('main').innerText()).not.toContain('as bad as');
    // Each open alert with the time it was raised, as the API gives it.
    const times = await page.locator('#alerts-title + ul.entries li time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')));
    expect(times).toEqual(c.alerts.map((a) => new Date(a.time).toISOString()));
    await page.close();
    // A key that may only read has no case to be led to.
    const reader = await demo.open(`#/player/${encodeURIComponent(top.player)}?community=default`);
    await reader.waitForSelector('.cards .card');
    expect(await reader.getByTestId('case-link').count()).toBe(0);
    await reader.close();
  });

  it('issue 28: the alert feed shows each alert at its own time, not one load time for all', async () => {
    const { alerts } = await demo.api<AlertAnswer>('/v1/alerts?community=default&order=desc&limit=100', key);
    expect(new Set(alerts.map((a) => a.time)).size).toBeGreaterThanOrEqual(4);
    const page = await demo.open('#/alerts?community=default', { key });
    await page.waitForFunction(`document.querySelectorAll('.feed li').length === ${alerts.length}`);
    const shown = await page.locator('.feed li time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')));
    expect(shown).toEqual(alerts.map((a) => new Date(a.time).toISOString()));
    await page.close();
  });

  it('issue 28: on a phone the header is compact and scrolls away, and the reasons read left-aligned', async () => {
    const page = await openQueue({ viewport: { width: 390, height: 844 } });
    const header = await page.locator('header').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(130);
    expect(await page.evaluate("getComputedStyle(document.querySelector('header')).position")).toBe('static');
    const why = page.locator('table.queue tbody tr:first-child td.why');
    expect(await page.evaluate("getComputedStyle(document.querySelector('table.queue tbody tr:first-child td.why')).textAlign")).toBe('left');
    const cell = (await why.boundingBox())!;
    const reason = (await why.locator('li').first().boundingBox())!;
    expect(reason.x - cell.x).toBeLessThan(40); // starts at the card's left, not pushed to its right edge
    expect(reason.width).toBeGreaterThan(cell.width * 0.7);
    await page.evaluate('window.scrollTo(0, 800)');
    expect((await page.locator('header').boundingBox())!.y + header!.height).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('issue 28: texts from outside: a 4,000-character word keeps the audit log as wide as the page; bidi overrides and hidden characters are shown, not obeyed', async () => {
    const community = 'texts';
    await act('/v1/players/x1/notes', { community, text: 'w'.repeat(4000) });
    await act('/v1/players/x1/notes', { community, text: 'adm\u202Enimda\u202C said hi\u200B' });
    await act('/v1/players/x1/verdicts', { community, outcome: 'dismissed', reason: 'see \u2067the logs\u2069 \u0007' });
    for (const width of [1280, 390]) {
      const page = await demo.open(`#/audit?community=${community}`, { key, viewport: { width, height: 800 } });
      await page.waitForFunction("document.querySelectorAll('table.audit tbody tr').length === 3");
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      expect((await page.locator('table.audit').boundingBox())!.width).toBeLessThanOrEqual(width);
      const details = await page.locator('table.audit td[data-label="details"]').allInnerTexts();
      expect(details.join('\n')).toContain('adm⟨U+202E⟩nimda⟨U+202C⟩ said hi⟨U+200B⟩');
      expect(details.join('\n')).toContain('see ⟨U+2067⟩the logs⟨U+2069⟩ ⟨U+0007⟩');
      expect(details.join('')).not.toMatch(/[\u202E\u202C\u200B\u2067\u2069\u0007]/);
      await page.close();
    }
    const page = await demo.open(`#/case/x1?community=${community}`, { key });
    await page.waitForSelector('ul.notes li');
    expect(await page.locator('ul.notes li > bdi.user-text').count()).toBe(2);
    expect(await page.locator('ul.notes').innerText()).toContain('adm⟨U+202E⟩nimda⟨U+202C⟩ said hi⟨U+200B⟩');
    expect(await page.locator('ul.verdicts li .hidden-char').count()).toBe(3);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
    await page.close();
  });

  it('issue 28: a dashboard action carries an event id, sent again with a retry after a lost answer, and is recorded once', async () => {
    const community = 'retry';
    await act('/v1/players/y1/notes', { community, text: 'first contact' });
    const page = await demo.open(`#/case/y1?community=${community}`, { key });
    const form = page.locator('form[aria-label="note"]');
    await form.waitFor();
    const ids: string[] = [];
    let lose = true;
    await page.route('**/v1/players/y1/notes', async (route) => {
      ids.push((JSON.parse(route.request().postData() ?? '{}') as { id: string }).id);
      if (!lose) return route.continue();
      lose = false;
      await route.fetch(); // the service records the note…
      await route.abort('timedout'); // …but its answer never reaches the page
    });
    await form.getByLabel('Text').fill('asked to stop leaving matches');
    await form.getByRole('button', { name: 'Add note' }).click();
    expect(await form.getByRole('alert').innerText()).toContain('sending it again is safe');
    // The text is still there: the moderator sends it again.
    await form.getByRole('button', { name: 'Add note' }).click();
    await form.getByRole('status').filter({ hasText: 'recorded once' }).waitFor();
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^dashboard-[0-9a-f]{32}$/);
    expect(ids[1]).toBe(ids[0]);
    const audit = await demo.api<{ entries: { event: { id: string; text?: string } }[] }>(`/v1/audit?community=${community}&player=y1&action=note`, key);
    expect(audit.entries.filter((e) => e.event.text === 'asked to stop leaving matches').map((e) => e.event.id)).toEqual([ids[0]]);
    // Another note is another action, with its own id.
    await form.getByLabel('Text').fill('second warning given');
    await form.getByRole('button', { name: 'Add note' }).click();
    await page.locator('ul.notes li', { hasText: 'second warning given' }).waitFor();
    expect(ids).toHaveLength(3);
    expect(ids[2]).not.toBe(ids[0]);
    await page.close();
  });
});
