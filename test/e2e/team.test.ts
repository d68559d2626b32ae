/**
 * issue 28, points 6 and 7, in a real Chromium against `serve --demo` with its moderator key:
 * select two players in the queue and suspend both from the action bar — the first answer lost
 * on its way back, so the moderator sends again and nothing is recorded twice — then read the
 * team view, which counts the two suspensions. Takes the screenshots of the action bar and of the
 * team view.
 */
import { describe, expect, it } from 'vitest';
import { demoForFile, SHOTS, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;
let key: string;

demoForFile((started, moderator) => {
  demo = started;
  key = moderator;
});

interface QueueAnswer {
  rows: { player: string }[];
}
interface CaseAnswer {
  record: { sanctions: { action: string; active: boolean; moderator?: string; reason: string }[] };
}
interface AuditAnswer {
  entries: { player: string; moderator?: string; event: { id: string; bulk?: string } }[];
}
interface TeamAnswer {
  decisions: { total: number; sanctions: number };
  moderators: { rows: { moderator: string; sanctions: number; decisions: number }[] };
  waits: { case: string; by: string; count: number }[];
  queue: { length: number };
}

describe('issue 28: bulk actions from the queue, and the team view', () => {
  it('suspends two players selected in the queue, records each once though the first answer was lost, and the team view counts them', async () => {
    const me = await demo.api<{ key?: string; label?: string }>('/v1/me', key);
    const moderator = me.label !== undefined && me.label !== '' ? me.label : me.key!;
    const before = await demo.api<TeamAnswer>('/v1/team?community=default', key);
    const queue = await demo.api<QueueAnswer>('/v1/queue?community=default&limit=50', key);
    const [first, second] = queue.rows.map((r) => r.player);
    expect(second).toBeDefined();

    const page = await demo.open('#/queue?community=default', { key });
    await page.waitForSelector('table.queue tbody tr');
    expect(await page.locator('form.bulk-bar').count()).toBe(0);
    await page.getByLabel(`select ${first}`, { exact: true }).check();
    await page.getByLabel(`select ${second}`, { exact: true }).check();
    const bar = page.locator('form[aria-label="act on the selected players"]');
    expect(await bar.locator('p').first().innerText()).toMatch(/^2 selected/);
    await bar.getByLabel('Action').selectOption('suspend');
    const until = new Date(Date.now() + 3 * 86_400_000);
    await bar.getByLabel(/^Until/).fill(new Date(until.getTime() - until.getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
    expect(await bar.getByRole('button', { name: 'Apply to 2…' }).isDisabled()).toBe(true);
    await bar.getByLabel(/^Reason/).fill('boosting ring');
    await bar.getByRole('button', { name: 'Apply to 2…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'confirm the bulk action' });
    expect(await confirm.innerText()).toContain(`Suspend 2 players (${first}, ${second})`);
    expect(await confirm.innerText()).toContain('boosting ring');
    await page.screenshot({ path: `${SHOTS}queue-bulk.png`, fullPage: true });

    // The service records the request, but its answer never arrives.
    let sent = 0;
    await page.route('**/v1/moderation/bulk', async (route) => {
      sent++;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await confirm.getByRole('button', { name: 'Confirm for 2' }).click();
    await bar.getByRole('alert').filter({ hasText: 'sending again records nothing twice' }).waitFor();
    expect(sent).toBe(1);
    await page.unroute('**/v1/moderation/bulk');

    // Sent again: the same request id, so the service answers with what it stored the first time.
    await bar.getByRole('button', { name: 'Apply to 2…' }).click();
    await page.getByRole('alertdialog', { name: 'confirm the bulk action' }).getByRole('button', { name: 'Confirm for 2' }).click();
    await page.getByRole('status').filter({ hasText: 'Recorded for 2 players (2 already recorded by an earlier try).' }).waitFor();
    expect(await page.locator('form.bulk-bar').count()).toBe(0);

    // Each player has one active suspension by this moderator; the audit log one entry each, of one request.
    for (const player of [first!, second!]) {
      const record = (await demo.api<CaseAnswer>(`/v1/players/${encodeURIComponent(player)}/case?community=default`, key)).record;
      expect(record.sanctions.filter((s) => s.action === 'suspend')).toMatchObject([{ active: true, moderator, reason: 'boosting ring' }]);
    }
    const audit = await demo.api<AuditAnswer>('/v1/audit?community=default&action=sanction.suspend&limit=100', key);
    const bulk = audit.entries.filter((e) => e.event.bulk !== undefined);
    expect(bulk.map((e) => e.player).sort()).toEqual([first, second].sort());
    expect(new Set(bulk.map((e) => e.event.bulk)).size).toBe(1);
    expect(bulk.every((e) => e.moderator === moderator)).toBe(true);

    // The queue reloaded without them (handled, nothing new since).
    const after = await demo.api<QueueAnswer>('/v1/queue?community=default&limit=50', key);
    expect(after.rows.map((r) => r.player)).not.toContain(first);
    expect(after.rows.map((r) => r.player)).not.toContain(second);
    await page.waitForFunction(`document.querySelector('table.queue tbody tr')?.getAttribute('data-player') === ${JSON.stringify(after.rows[0]?.player ?? null)}`);

    // The team view: the moderator's two sanctions, the same figures as the API's.
    await page.locator('header nav a', { hasText: /^team$/ }).click();
    await page.waitForSelector('table.team-waits tbody tr');
    const team = await demo.api<TeamAnswer>('/v1/team?community=default', key);
    expect(team.decisions.sanctions).toBe(before.decisions.sanctions + 2);
    const row = team.moderators.rows.find((m) => m.moderator === moderator)!;
    expect(row.sanctions).toBeGreaterThanOrEqual(2);
    const cells = await page.locator(`table.team-moderators tbody tr[data-moderator="${moderator}"] td`).allInnerTexts();
    expect(cells[0]).toBe(moderator);
    expect(Number(cells[1]!.trim())).toBe(row.decisions);
    expect(Number(cells[3])).toBe(row.sanctions);
    const closed = await page.locator('table.team-waits tbody tr td:nth-child(3)').allInnerTexts();
    expect(closed.map(Number)).toEqual(team.waits.map((w) => w.count));
    expect(await page.getByTestId('team-queue').innerText()).toContain(String(team.queue.length));
    expect(await page.locator('.plot.bars canvas').count()).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: `${SHOTS}team.png`, fullPage: true });
    await page.close();
  });

  it('shows no team link and no selection to a key that may only read', async () => {
    const page = await demo.open('#/team?community=default');
    await page.waitForSelector('header nav a');
    await page.waitForLoadState('networkidle');
    expect(await page.locator('header nav a', { hasText: /^team$/ }).count()).toBe(0);
    expect(await page.locator('.team .error').innerText()).toContain('moderate scope');
    await page.close();
  });
});
