/**
 * issue 28: the dashboard's rules view in a real Chromium against `serve --demo` and its two
 * example rules: each rule with its label, condition, action and ladder, what it did (the same
 * figures as GET /v1/rules) and its precision; a link to its audit entries; the queue showing
 * the rules' labels. Takes the screenshot of the rules view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, startDemoBrowser, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;

beforeAll(async () => {
  demo = await startDemoBrowser();
});

afterAll(async () => {
  await demo?.close();
});

interface RuleList {
  rules: { name: string; label: string; actions: number; players: number; escalations: number }[];
}

describe('issue 28: rules on the dashboard', () => {
  it('lists each live rule with what it did, links to its audit entries, and the queue shows the rules’ labels', async () => {
    const key = demo.moderatorKey!;
    const api = await demo.api<RuleList>('/v1/rules', key);
    expect(api.rules.map((r) => r.name)).toEqual(['reported-often', 'leaves-matches']);
    const page = await demo.open('#/rules', { key });
    await page.waitForSelector('table.rules tbody tr');
    for (const rule of api.rules) {
      const row = page.locator(`table.rules tbody tr[data-rule="${rule.name}"]`);
      expect(await row.locator('td[data-label="rule"] strong').innerText()).toBe(rule.label);
      const fired = await row.locator('td[data-label="fired"]').innerText();
      expect(fired).toMatch(new RegExp(`^${rule.actions} times on ${rule.players} players: `));
      if (rule.escalations > 0) expect(fired).toContain(` · ${rule.escalations} escalations`);
      expect(await row.locator('td[data-label="moderators agreed"]').innerText()).toBe('no verdict yet');
    }
    expect(await page.locator('tr[data-rule="leaves-matches"] td[data-label="does"]').innerText()).toBe('mute: 10m, then 1h, then 1d');
    await page.screenshot({ path: `${SHOTS}rules.png`, fullPage: true });
    await page.locator('tr[data-rule="leaves-matches"] a', { hasText: 'rule:leaves-matches' }).click();
    await page.waitForSelector('table.audit tbody tr');
    expect(page.url()).toContain('moderator=rule%3Aleaves-matches');
    const moderators = await page.locator('table.audit tbody td[data-label="moderator"]').allInnerTexts();
    expect(new Set(moderators)).toEqual(new Set(['rule:leaves-matches']));
    expect(new Set(await page.locator('table.audit tbody td[data-label="action"]').allInnerTexts())).toEqual(new Set(['sanction: mute']));

    await page.goto(`${demo.url}/#/queue`);
    await page.waitForSelector('table.queue tbody tr');
    const why = await page.locator('table.queue').innerText();
    expect(why).toContain('rule reported-often (Reported by several players) proposes a look');
    expect(why).toContain('muted by rule leaves-matches (Leaves matches)');
    await page.close();
  });
});
