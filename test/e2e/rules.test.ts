/**
 * issue 28: the dashboard's rules view in a real Chromium against `serve --demo` and its two
 * example rules: each rule with its label, condition, action and ladder, what it did (the same
 * figures as GET /v1/rules) and its precision; a link to its audit entries; the queue showing
 * the rules' labels; a senior moderator setting how a rule runs (with a reason, confirmed before
 * it is recorded), which a moderator without `senior` is not offered. Takes the screenshot of the
 * rules view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
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

interface RuleStates {
  rules: { name: string; state: string; stateChange?: { state: string; reason: string; moderator?: string } }[];
}

describe('issue 28: a senior moderator sets how a rule runs from the dashboard', () => {
  it('pauses a rule with a reason, confirmed first; the view and GET /v1/rules show who set it and why; a moderate key sees no control', async () => {
    const key = demo.moderatorKey!; // the demo's moderator is senior
    const page = await demo.open('#/rules', { key });
    const row = page.locator('table.rules tbody tr[data-rule="reported-often"]');
    await row.locator('[data-testid="rule-state"]').waitFor();
    expect(await row.locator('[data-testid="rule-state"]').innerText()).toBe('live');
    // The control is folded under each rule's state until opened.
    const form = row.locator('form.rule-state');
    expect(await form.isVisible()).toBe(false);
    await row.locator('details.rule-state-change summary', { hasText: 'Change…' }).click();
    await form.locator('select[name="rule-state"]').selectOption('paused');
    await form.locator('textarea[name="rule-state-reason"]').fill('proposes too many after the patch');
    await form.locator('button[type="submit"]', { hasText: 'Set…' }).click();
    // Confirmed before anything is recorded.
    const confirm = form.locator('[role="alertdialog"]');
    expect(await confirm.locator('p').innerText()).toMatch(/^Set rule reported-often to paused in \S+ because “proposes too many after the patch”\?$/);
    expect((await demo.api<RuleStates>('/v1/rules', key)).rules.find((r) => r.name === 'reported-often')!.state).toBe('live');
    await confirm.locator('button', { hasText: 'Confirm paused' }).click();
    await form.locator('p.ok').waitFor();
    expect(await form.locator('p.ok').innerText()).toMatch(/^Rule reported-often is paused in \S+\.$/);
    await expect.poll(() => row.locator('[data-testid="rule-state"]').innerText()).toBe('paused');
    expect(await row.locator('td[data-label="runs"]').innerText()).toContain('“proposes too many after the patch”');
    const api = (await demo.api<RuleStates>('/v1/rules', key)).rules;
    expect(api.find((r) => r.name === 'reported-often')).toMatchObject({ state: 'paused', stateChange: { state: 'paused', reason: 'proposes too many after the patch' } });
    expect(api.find((r) => r.name === 'leaves-matches')!.state).toBe('live');
    await page.screenshot({ path: `${SHOTS}rules-state.png`, fullPage: true });

    // Back to live, the same way.
    await form.locator('select[name="rule-state"]').selectOption('live');
    await form.locator('textarea[name="rule-state-reason"]').fill('patch reverted');
    await form.locator('button[type="submit"]', { hasText: 'Set…' }).click();
    await form.locator('[role="alertdialog"] button', { hasText: 'Confirm live' }).click();
    await expect.poll(() => row.locator('[data-testid="rule-state"]').innerText()).toBe('live');
    expect((await demo.api<RuleStates>('/v1/rules', key)).rules.find((r) => r.name === 'reported-often')!.stateChange).toMatchObject({ state: 'live', reason: 'patch reverted' });
    await page.close();

    // A moderator without `senior` reads the states, with no control to change them.
    const made = await runCli(['keys', 'create', '--scope', 'moderate', '--label', 'rules test moderator', '--db', demo.db]);
    expect(made.code, made.stderr).toBe(0);
    const moderator = await demo.open('#/rules', { key: made.stdout.trim().split('\n')[0]! });
    await moderator.locator('tr[data-rule="reported-often"] [data-testid="rule-state"]').waitFor();
    expect(await moderator.locator('tr[data-rule="reported-often"] [data-testid="rule-state"]').innerText()).toBe('live');
    expect(await moderator.locator('form.rule-state').count()).toBe(0);
    await moderator.close();
  });
});
