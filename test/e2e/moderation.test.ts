/**
 * issue 17: the moderator's loop in a real Chromium against `serve --demo` with its moderator
 * key: open the queue, open the top case, read why, record a verdict and a sanction, see them in
 * the audit log, see the queue update, open and grant an appeal. Takes the screenshots of the
 * queue, a case and the audit log.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoForFile, SHOTS, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;
let moderatorKey: string;

demoForFile((started, moderator) => {
  demo = started;
  moderatorKey = moderator;
});

interface QueueAnswer {
  rows: { player: string; reasons: string[] }[];
}
interface CaseAnswer {
  queue?: { reasons: string[] };
  record: { sanctions: { id: string; action: string; active: boolean }[]; appeals: { id: string; status: string }[] };
}

const players = (page: Page) => page.locator('table.queue tbody tr td:nth-child(2)').allInnerTexts();

describe('issue 17: the moderator loop', () => {
  it('issue 17: a key that may only read sees the first ranking at home, with a line saying the queue needs the moderate scope', async () => {
    const page = await demo.open('#/');
    await page.waitForSelector('table.ranking tbody tr');
    expect(await page.getByTestId('queue-needs-moderate').innerText()).toContain('moderate scope');
    expect(await page.locator('header nav a', { hasText: /^queue$/ }).count()).toBe(0);
    // Its player links lead to the player page, not to a case.
    expect(await page.locator('table.ranking tbody tr td:nth-child(2) a').first().getAttribute('href')).toMatch(/^#\/player\//);
    await page.close();
  });

  it('issue 17: open the queue, the top case, read why, record a verdict and a sanction, see the audit entries and the queue update, open and grant an appeal', async () => {
    const key = moderatorKey;
    const me = await demo.api<{ key?: string; label?: string; scopes: string[] }>('/v1/me', key);
    expect(me.scopes).toContain('senior'); // the demo's moderator suspends and decides appeals
    const moderator = me.label !== undefined && me.label !== '' ? me.label : me.key!;

    // The home is the queue, most urgent first, each row saying why.
    const queue = await demo.api<QueueAnswer>('/v1/queue?community=default&limit=50', key);
    expect(queue.rows.length).toBeGreaterThan(0);
    const page = await demo.open('#/', { key });
    await page.waitForFunction("location.hash.startsWith('#/queue')");
    await page.waitForSelector('table.queue tbody tr');
    expect(await players(page)).toEqual(queue.rows.map((r) => r.player));
    const top = queue.rows[0]!;
    const why = await page.locator(`table.queue tbody tr[data-player="${top.player}"] .reasons li`).allInnerTexts();
    expect(why).toEqual(top.reasons);
    expect(why.length).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}queue.png`, fullPage: true });

    // The top case: why it is there, the five scores with what good and bad mean.
    const histories: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/history')) histories.push(request.url());
    });
    await page.locator(`table.queue tbody tr[data-player="${top.player}"] td:nth-child(2) a`).click();
    await page.waitForSelector('.why-box .reasons li');
    expect(page.url()).toContain(`#/case/${encodeURIComponent(top.player)}`);
    expect(await page.locator('.why-box .reasons li').allInnerTexts()).toEqual(top.reasons);
    expect(await page.locator('.case-scores .card').count()).toBe(5);
    for (const card of await page.locator('.case-scores .card').all()) {
      expect(await card.locator('.good').innerText()).toMatch(/^good: ./);
      expect(await card.locator('.bad').innerText()).toMatch(/^bad: ./);
      expect(await card.locator('.direction').innerText()).toMatch(/^higher is (better|worse)$/);
    }
    // A score's history is a replay: asked for only when its "Over time" section is opened.
    expect(histories).toEqual([]);
    const first = page.locator('.case-scores .card').first();
    await first.locator('summary', { hasText: 'Over time' }).click();
    await first.locator('details .plot, details p.muted:not(:text("Loading…"))').first().waitFor();
    expect(histories).toHaveLength(1);
    expect(new URL(histories[0]!).searchParams.get('scorer')).toBe(await first.getAttribute('data-scorer'));
    await page.screenshot({ path: `${SHOTS}case.png`, fullPage: true });

    // A verdict on the player.
    const verdict = page.locator('form[aria-label="verdict"]');
    await verdict.getByLabel(/upheld/).check();
    await verdict.getByLabel('Reason').fill('left 4 of the last 10 matches');
    await verdict.getByRole('button', { name: 'Record verdict' }).click();
    await verdict.getByText('Verdict recorded: upheld.').waitFor();
    await page.locator('ul.verdicts li', { hasText: 'left 4 of the last 10 matches' }).waitFor();

    // A sanction: the reason is required, and it is confirmed before it is recorded.
    const sanction = page.locator('form[aria-label="sanction"]');
    await sanction.getByLabel('Action').selectOption('suspend');
    const until = new Date(Date.now() + 3 * 86_400_000);
    const local = new Date(until.getTime() - until.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await sanction.getByLabel(/^Until/).fill(local);
    expect(await sanction.getByRole('button', { name: 'Sanction…' }).isDisabled()).toBe(true);
    await sanction.getByLabel(/^Reason/).fill('repeated match abandonment');
    await sanction.getByRole('button', { name: 'Sanction…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'confirm the sanction' });
    expect(await confirm.innerText()).toContain(`Suspend ${top.player}`);
    expect(await confirm.innerText()).toContain('repeated match abandonment');
    await confirm.getByRole('button', { name: 'Confirm suspend' }).click();
    await sanction.getByText('Sanction recorded: suspend.').waitFor();
    await page.locator('ul.sanctions li.active', { hasText: 'suspend' }).waitFor();

    // The audit log shows both, by this moderator.
    await page.goto(`${demo.url}/#/audit?community=default&player=${encodeURIComponent(top.player)}`);
    await page.waitForSelector('table.audit tbody tr');
    const rows = await page.locator('table.audit tbody tr').allInnerTexts();
    expect(rows.some((r) => r.includes(moderator) && r.includes('verdict') && r.includes('left 4 of the last 10 matches'))).toBe(true);
    expect(rows.some((r) => r.includes(moderator) && r.includes('sanction') && r.includes('repeated match abandonment'))).toBe(true);

    // The queue no longer lists the handled player (no new evidence since), and shows what the API says.
    const after = await demo.api<QueueAnswer>('/v1/queue?community=default&limit=50', key);
    expect(after.rows.map((r) => r.player)).not.toContain(top.player);
    await page.goto(`${demo.url}/#/queue?community=default`);
    await page.waitForFunction(`document.querySelector('table.queue tbody tr')?.getAttribute('data-player') === ${JSON.stringify(after.rows[0]?.player ?? null)}`);
    expect(await players(page)).toEqual(after.rows.map((r) => r.player));

    // An appeal against the suspension, opened for the player and granted: the suspension ends.
    await page.goto(`${demo.url}/#/case/${encodeURIComponent(top.player)}?community=default`);
    const open = page.locator('form[aria-label="open an appeal"]');
    await open.waitFor();
    const suspension = (await demo.api<CaseAnswer>(`/v1/players/${encodeURIComponent(top.player)}/case?community=default`, key)).record.sanctions.find((s) => s.active && s.action === 'suspend')!;
    await open.getByLabel('Against').selectOption(suspension.id);
    await open.getByLabel('What the player says').fill('my connection kept dropping');
    await open.getByRole('button', { name: 'Open appeal' }).click();
    const appealItem = page.locator('ul.appeals li.open', { hasText: 'my connection kept dropping' });
    await appealItem.waitFor();
    await appealItem.getByLabel('Reason for the decision').fill('router logs confirm the outages');
    await appealItem.getByRole('button', { name: 'Grant' }).click();
    await page.locator('ul.appeals li.granted', { hasText: 'router logs confirm the outages' }).waitFor();
    await page.locator(`ul.sanctions li[data-id="${suspension.id}"]`, { hasText: 'appeal granted' }).waitFor();
    const record = (await demo.api<CaseAnswer>(`/v1/players/${encodeURIComponent(top.player)}/case?community=default`, key)).record;
    expect(record.sanctions.find((s) => s.id === suspension.id)!.active).toBe(false);
    expect(record.appeals[0]!.status).toBe('granted');

    // The whole audit log, newest first: the grant, the appeal, the suspension, the verdict.
    await page.goto(`${demo.url}/#/audit?community=default`);
    await page.waitForFunction("document.querySelectorAll('table.audit tbody tr').length >= 4");
    const actions = await page.locator('table.audit tbody tr td[data-label="action"]').allInnerTexts();
    expect(actions.slice(0, 4)).toEqual(['appeal: granted', 'appeal: opened', 'sanction: suspend', 'verdict: upheld']);
    await page.screenshot({ path: `${SHOTS}audit.png`, fullPage: true });
    await page.close();
  });

  it('issue 17: a case reads on a phone (390×844) with nothing cut off, and a read key gets no actions', async () => {
    const queue = await demo.api<QueueAnswer>('/v1/queue?community=default&limit=1', moderatorKey);
    const player = queue.rows[0]!.player;
    const page = await demo.open(`#/case/${encodeURIComponent(player)}?community=default`, { key: moderatorKey, viewport: { width: 390, height: 844 } });
    await page.waitForSelector('.case-scores .card');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}phone-case.png`, fullPage: true });
    await page.goto(`${demo.url}/#/queue?community=default`);
    await page.waitForSelector('table.queue tbody tr');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.close();
    const reader = await demo.open(`#/case/${encodeURIComponent(player)}?community=default`);
    await reader.waitForSelector('#case-title');
    await reader.waitForLoadState('networkidle');
    expect(await reader.locator('section.actions').count()).toBe(0);
    expect(await reader.locator('.decide').count()).toBe(0);
    await reader.close();
  });
});
