/**
 * issue 28, the browser tier's walk, as one scenario in a real Chromium against `serve --demo`
 * (its two rules, its senior moderator key; the rules evaluated after every event and
 * fourEyes.appeals on, over the demo's configuration): the moderator finds in the rules view the
 * players the muting rule has muted; the game posts two matches that player leaves, and the
 * rule mutes them again; the game server mints the player a token, and the player's view shows
 * the mute with its reason and end; the player appeals it; a second moderator (not the rule that
 * imposed it) grants the appeal in the case page; the team view counts exactly that: one more
 * firing of the rule, one more appeal decision, one more overturn. The dashboard has no preview
 * of the player's view: the player's side is read as a game client reads it, over HTTP.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { contractFetch } from '../support/contract.js';
import { demoForFile, SHOTS, type DemoBrowser } from '../support/demo-browser.js';

const RULE = 'leaves-matches';
const RULE_MODERATOR = `rule:${RULE}`;
const LADDER_MS: Readonly<Record<string, number>> = { '10m': 600_000, '1h': 3_600_000, '1d': 86_400_000 };

let demo: DemoBrowser;
let key: string;

// intervalMinutes 0: the rules decide right after the event that makes them fire, so events
// dated just after the demo's last one (in the past of the wall clock) are enough; with the
// demo's 15 minutes, the next evaluation would wait for an event up to 15 minutes ahead.
demoForFile((started, moderator) => {
  demo = started;
  key = moderator;
}, { config: { rules: { intervalMinutes: 0 }, fourEyes: { appeals: true } } });

interface Counts {
  decisions: number;
  verdicts: number;
  reportVerdicts: number;
  sanctions: number;
  lifts: number;
  appealDecisions: number;
  sanctionsAppealed: number;
  appealsGranted: number;
  cases: number;
}
interface TeamAnswer {
  now: number;
  decisions: { total: number; verdicts: number; reportVerdicts: number; sanctions: number; lifts: number; appealDecisions: number };
  waits: { case: 'player' | 'appeal'; by: 'moderator' | 'rule'; count: number }[];
  moderators: { rows: ({ moderator: string } & Counts)[] };
  rules: { rows: { rule: string; firings: number; sanctions: number; proposals: number; overturned: number; overturnRate?: number }[] };
}
interface RulesAnswer {
  rules: { name: string; actions: number; players: number; overturned: number; sanctions: { mute: number } }[];
}
interface AuditAnswer {
  entries: { sequence: number; player?: string; moderator?: string; action: string; event: { id: string; time: number; until?: number; reason?: string } }[];
}
interface CaseAnswer {
  record: {
    sanctions: { id: string; action: string; active: boolean; moderator?: string; until?: number; reason: string; endedBy?: { kind: string } }[];
    appeals: { id: string; sanction?: string; status: string; text?: string; decided?: { moderator?: string; reason?: string } }[];
    notes: { time: number; moderator?: string }[];
  };
}
interface StandingView {
  player: string;
  now: number;
  sanctions: { id: string; action: string; since: number; until?: number; reason: string; appeal?: string }[];
  appeals: { id: string; sanction?: string; status: string }[];
  howToAppeal: { route: string; sanctions: string[]; text: string };
}

/** `path` answered `status` (checked against the OpenAPI document), as JSON. */
async function call<T>(path: string, auth: string, status: number, body?: unknown): Promise<T> {
  const init: RequestInit = body === undefined ? { headers: { authorization: `Bearer ${auth}` } } : { method: 'POST', headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const response = await contractFetch(`${demo.url}${path}`, init);
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const ZERO: Counts = { decisions: 0, verdicts: 0, reportVerdicts: 0, sanctions: 0, lifts: 0, appealDecisions: 0, sanctionsAppealed: 0, appealsGranted: 0, cases: 0 };
/** A moderator's counts (zeros before their first decision). */
const countsOf = (team: TeamAnswer, moderator: string): Counts => {
  const row = team.moderators.rows.find((m) => m.moderator === moderator) ?? { moderator, ...ZERO };
  return Object.fromEntries(Object.keys(ZERO).map((k) => [k, row[k as keyof Counts]])) as unknown as Counts;
};
const ruleOf = (team: TeamAnswer, rule: string) => team.rules.rows.find((r) => r.rule === rule)!;
const waitOf = (team: TeamAnswer, kind: 'player' | 'appeal', by: 'moderator' | 'rule') => team.waits.find((w) => w.case === kind && w.by === by)!.count;
const plus = (counts: Counts, more: Partial<Counts>): Counts => Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v + (more[k as keyof Counts] ?? 0)])) as unknown as Counts;

/** The first `n` cells of one row of a team table: the name, then counts as numbers. */
async function rowCells(page: Page, selector: string, n: number): Promise<(string | number)[]> {
  const cells = (await page.locator(`${selector} td`).allInnerTexts()).slice(0, n);
  return [cells[0]!, ...cells.slice(1).map((c) => Number(c.trim()))];
}

describe('issue 28: the walk from a rule to the team view', () => {
  it('a rule mutes a player, the player sees the mute and appeals, a second moderator grants it in the dashboard, and the team view counts it', async () => {
    const me = await call<{ key?: string; label?: string; scopes: string[] }>('/v1/me', key, 200);
    expect(me.scopes).toContain('senior');
    const moderator = me.label !== undefined && me.label !== '' ? me.label : me.key!;

    // 1. The moderator reads the rules view: the muting rule, its ladder, and (through its audit
    // link) the players it has muted, newest first. The newest of them is the walk's player.
    const page = await demo.open('#/rules?community=default', { key });
    await page.waitForSelector(`table.rules tbody tr[data-rule="${RULE}"]`);
    expect(await page.locator(`tr[data-rule="${RULE}"] td[data-label="does"]`).innerText()).toBe('mute: 10m, then 1h, then 1d');
    await page.locator(`tr[data-rule="${RULE}"] a`, { hasText: RULE_MODERATOR }).click();
    await page.waitForSelector('table.audit tbody tr');
    expect(new Set(await page.locator('table.audit tbody td[data-label="moderator"]').allInnerTexts())).toEqual(new Set([RULE_MODERATOR]));
    const player = (await page.locator('table.audit tbody tr').first().locator('td[data-label="player"]').innerText()).trim();
    expect(player).not.toBe('');

    // Its case: the rule's earlier mutes, all over by now, and reliability red.
    await page.locator('table.audit tbody tr').first().locator('td[data-label="player"] a').click();
    await page.waitForSelector('ul.sanctions li');
    expect(page.url()).toContain(`#/case/${encodeURIComponent(player)}`);
    const earlier = await page.locator('ul.sanctions li').allInnerTexts();
    expect(earlier.length).toBeGreaterThan(0);
    for (const line of earlier) expect(line).toMatch(new RegExp(`^mute until .* · ended \\(expired\\)\\n.* by ${RULE_MODERATOR}: “Leaves matches: `));
    expect(await page.locator('ul.sanctions li.active').count()).toBe(0);
    expect(await page.locator('.case-scores .card[data-scorer="reliability"] .band').innerText()).toMatch(/^red/);

    // Whether the player's case is open: a report or a rule's proposal after the rule's last mute
    // of them (the demo's only handling: its people decide nothing). The new mute closes it.
    const lastMute = (await call<AuditAnswer>(`/v1/audit?community=default&moderator=${encodeURIComponent(RULE_MODERATOR)}&limit=1`, key, 200)).entries[0]!;
    expect(lastMute.player).toBe(player);
    const caseBefore = await call<CaseAnswer & { evidence: { time: number; kind: string }[] }>(`/v1/players/${encodeURIComponent(player)}/case?community=default`, key, 200);
    const openCase =
      caseBefore.evidence.some((e) => e.kind === 'report' && e.time > lastMute.event.time) ||
      caseBefore.record.notes.some((n) => n.moderator?.startsWith('rule:') === true && n.time > lastMute.event.time);

    const before = await call<TeamAnswer>('/v1/team?community=default', key, 200);
    const rulesBefore = await call<RulesAnswer>('/v1/rules?community=default', key, 200);

    // 2. The game reports two matches the player leaves, dated just after the demo's last event
    // (the community's clock): the rule fires on the second drop.
    const t0 = before.now;
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const batch = [
      { type: 'match.start', id: 'walk-start-1', match: 'walk-m1', players: [player, 'F1'], time: at(1) },
      { type: 'disconnect', id: 'walk-drop-1', player, time: at(2) },
      { type: 'match.start', id: 'walk-start-2', match: 'walk-m2', players: [player, 'F1'], time: at(3) },
      { type: 'disconnect', id: 'walk-drop-2', player, time: at(4) },
    ];
    expect(await call<{ accepted: number }>('/v1/events', demo.ingestKey, 200, batch)).toMatchObject({ accepted: 4 });
    const ruled = await call<AuditAnswer>(`/v1/audit?community=default&moderator=${encodeURIComponent(RULE_MODERATOR)}&limit=1`, key, 200);
    const mute = ruled.entries[0]!;
    expect(mute).toMatchObject({ player, moderator: RULE_MODERATOR, action: 'sanction.mute', event: { time: t0 + 4 } });
    const step = /^Leaves matches: left at least two matches within a day, and reliability is red \(offence (\d+): mute for (10m|1h|1d)\)$/.exec(mute.event.reason!);
    expect(step, mute.event.reason).not.toBeNull();
    expect(Number(step![1])).toBe(earlier.length + 1);
    expect(mute.event.until).toBe(t0 + 4 + LADDER_MS[step![2]!]!);
    const sanction = mute.event.id;

    // The case page, reloaded, shows the rule's mute as active.
    await page.reload();
    const active = page.locator(`ul.sanctions li.active[data-id="${sanction}"]`);
    await active.waitFor();
    expect(await active.innerText()).toContain(`by ${RULE_MODERATOR}: “${mute.event.reason}”`);
    expect(await active.locator('.state').innerText()).toBe('active');

    // 3. The game server (a key that may mint player tokens, made with `standing keys create`)
    // gives the player a token; the player's view shows the mute, its reason and its end.
    const made = await runCli(['keys', 'create', '--scope', 'player-view', '--label', 'walk game server', '--db', demo.db]);
    expect(made.code, made.stderr).toBe(0);
    const gameServer = made.stdout.trim().split('\n')[0]!;
    const minted = await call<{ token: string; player: string; community: string }>('/v1/player-tokens', gameServer, 201, { player, community: 'default' });
    expect(minted).toMatchObject({ player, community: 'default' });
    const token = minted.token;
    const standing = `/v1/players/${encodeURIComponent(player)}/standing?community=default`;
    const view = await call<StandingView>(standing, token, 200);
    expect(view.sanctions).toEqual([{ id: sanction, action: 'mute', since: t0 + 4, until: mute.event.until, reason: mute.event.reason }]);
    expect(view.howToAppeal).toMatchObject({ route: `POST /v1/players/${encodeURIComponent(player)}/standing/appeals`, sanctions: [sanction] });
    expect(view.appeals).toEqual([]);
    // The view names no moderator, the rule's name as moderator included.
    expect(JSON.stringify(view)).not.toContain(RULE_MODERATOR);

    // 4. The player appeals the rule's mute, by the route their view names.
    const [method, route] = view.howToAppeal.route.split(' ');
    expect(method).toBe('POST');
    const opened = await call<{ event: { id: string; type: string; status: string; sanction: string; moderator?: string } }>(route!, token, 201, { community: 'default', sanction, text: 'my router dropped twice' });
    expect(opened.event).toMatchObject({ type: 'appeal', status: 'opened', sanction });
    expect(opened.event.moderator).toBeUndefined();
    const appeal = opened.event.id;
    const waiting = await call<StandingView>(standing, token, 200);
    expect(waiting.appeals).toMatchObject([{ id: appeal, sanction, status: 'open' }]);
    expect(waiting.sanctions).toMatchObject([{ id: sanction, appeal }]);

    // 5. A second moderator (the demo's senior key, not the rule that imposed the mute) finds the
    // appeal from the queue and grants it in the case page.
    await page.goto(`${demo.url}/#/queue?community=default`);
    const row = page.locator(`table.queue tbody tr[data-player="${player}"]`);
    await row.waitFor();
    expect(await row.locator('.reasons li').allInnerTexts()).toContain('1 open appeal waiting for a decision');
    await row.locator('td:nth-child(2) a').click();
    const appealItem = page.locator(`ul.appeals li.open[data-id="${appeal}"]`);
    await appealItem.waitFor();
    expect(await appealItem.innerText()).toContain('open · against mute · “my router dropped twice”');
    await appealItem.getByLabel('Reason for the decision').fill('the two drops were a server outage');
    await page.screenshot({ path: `${SHOTS}walk-appeal.png`, fullPage: true });
    await appealItem.getByRole('button', { name: 'Grant' }).click();
    await page.locator(`ul.appeals li.granted[data-id="${appeal}"]`, { hasText: `by ${moderator}: “the two drops were a server outage”` }).waitFor();
    await page.locator(`ul.sanctions li.ended[data-id="${sanction}"]`, { hasText: 'ended (appeal granted)' }).waitFor();

    const record = (await call<CaseAnswer>(`/v1/players/${encodeURIComponent(player)}/case?community=default`, key, 200)).record;
    const decided = record.appeals.find((a) => a.id === appeal)!;
    const lifted = record.sanctions.find((s) => s.id === sanction)!;
    expect(decided).toMatchObject({ status: 'granted', sanction, decided: { moderator, reason: 'the two drops were a server outage' } });
    expect(lifted).toMatchObject({ active: false, moderator: RULE_MODERATOR, endedBy: { kind: 'appeal' } });
    expect(decided.decided!.moderator).not.toBe(lifted.moderator); // four eyes: not the one who imposed it

    // The audit view names the key each human action was made with; the rule's mute has none.
    await page.goto(`${demo.url}/#/audit?community=default&player=${encodeURIComponent(player)}`);
    const granted = page.locator('table.audit tbody tr', { hasText: 'appeal: granted' });
    await granted.waitFor();
    expect(await granted.locator('td[data-label="details"] .key').innerText()).toBe(`key ${me.key!}`);
    const muted = page.locator('table.audit tbody tr', { hasText: mute.event.reason! });
    expect(await muted.locator('td[data-label="moderator"]').innerText()).toBe(RULE_MODERATOR);
    expect(await muted.locator('td[data-label="details"] .key').count()).toBe(0);

    // The player's view: no active sanction, the appeal granted.
    const after = await call<StandingView>(standing, token, 200);
    expect(after.sanctions).toEqual([]);
    expect(after.appeals).toMatchObject([{ id: appeal, sanction, status: 'granted' }]);

    // 6. The team figures moved by exactly this walk: the rule's mute (a firing, a sanction), the
    // appeal against it (granted: the firing overturned), the moderator's one appeal decision,
    // which closed one appeal case.
    const team = await call<TeamAnswer>('/v1/team?community=default', key, 200);
    expect(team.decisions).toEqual({ ...before.decisions, total: before.decisions.total + 2, sanctions: before.decisions.sanctions + 1, appealDecisions: before.decisions.appealDecisions + 1 });
    expect(countsOf(team, moderator)).toEqual(plus(countsOf(before, moderator), { decisions: 1, appealDecisions: 1, cases: 1 }));
    // The new mute closes the player's case when one was open (a case opens at a report or a
    // proposal after the last handling).
    const closed = openCase ? 1 : 0;
    expect(countsOf(team, RULE_MODERATOR)).toEqual(plus(countsOf(before, RULE_MODERATOR), { decisions: 1, sanctions: 1, sanctionsAppealed: 1, appealsGranted: 1, cases: closed }));
    const moved = (w: { case: string; by: string }) => (w.case === 'appeal' && w.by === 'moderator' ? 1 : w.case === 'player' && w.by === 'rule' ? closed : 0);
    expect(team.waits.map((w) => [w.case, w.by, w.count])).toEqual(before.waits.map((w) => [w.case, w.by, w.count + moved(w)]));
    const firing = ruleOf(team, RULE);
    const wasFiring = ruleOf(before, RULE);
    expect(firing).toMatchObject({ firings: wasFiring.firings + 1, sanctions: wasFiring.sanctions + 1, proposals: wasFiring.proposals, overturned: wasFiring.overturned + 1 });
    expect(ruleOf(team, 'reported-often')).toEqual(ruleOf(before, 'reported-often'));
    const rulesAfter = await call<RulesAnswer>('/v1/rules?community=default', key, 200);
    const wasRule = rulesBefore.rules.find((r) => r.name === RULE)!;
    expect(rulesAfter.rules.find((r) => r.name === RULE)).toMatchObject({ actions: wasRule.actions + 1, overturned: wasRule.overturned + 1, sanctions: { mute: wasRule.sanctions.mute + 1 } });

    // The team view shows those figures.
    await page.locator('header nav a', { hasText: /^team$/ }).click();
    await page.waitForSelector('table.team-rules tbody tr');
    expect(await page.getByTestId('team-decisions').innerText()).toContain(
      `${team.decisions.verdicts} verdicts · ${team.decisions.sanctions} sanctions · ${team.decisions.appealDecisions} appeal decisions`,
    );
    const mine = countsOf(team, moderator);
    expect(await rowCells(page, `table.team-moderators tbody tr[data-moderator="${moderator}"]`, 8)).toEqual([moderator, mine.decisions, mine.verdicts + mine.reportVerdicts, mine.sanctions, mine.lifts, mine.appealDecisions, mine.sanctionsAppealed, mine.appealsGranted]);
    const rules = countsOf(team, RULE_MODERATOR);
    expect(await rowCells(page, `table.team-moderators tbody tr[data-moderator="${RULE_MODERATOR}"]`, 8)).toEqual([
      RULE_MODERATOR,
      rules.decisions,
      rules.verdicts + rules.reportVerdicts,
      rules.sanctions,
      rules.lifts,
      rules.appealDecisions,
      rules.sanctionsAppealed,
      rules.appealsGranted,
    ]);
    expect(await rowCells(page, `table.team-rules tbody tr[data-rule="${RULE}"]`, 5)).toEqual([RULE, firing.firings, firing.sanctions, firing.proposals, firing.overturned]);
    expect(Number(await page.locator('table.team-waits tbody tr[data-case="appeal"][data-by="moderator"] td:nth-child(3)').innerText())).toBe(waitOf(team, 'appeal', 'moderator'));
    await page.screenshot({ path: `${SHOTS}walk-team.png`, fullPage: true });
    await page.close();
  });
});
