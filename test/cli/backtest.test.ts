/**
 * issue 28: `standing backtest` as a real process, on the hand-written log of
 * test/fixtures/rules/: what each rule would have done, by hand. With rules.json, `quitter` mutes
 * ann at 10:11 (two drops within a day: 10m) and again at 10:31 (a third drop after that mute
 * ended, a second offence: 1h); a person upheld ann, so its precision and recall are 1.
 * `reported` proposes cat at 10:52 (two reports, after cat was last handled at 10:41); a person
 * dismissed cat, so its precision is 0, and it found none of the one player upheld (recall 0).
 * stricter.json's `quitter` suspends ann once, at 10:31 (three drops).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const DIR = 'test/fixtures/rules';
const LOG = `${DIR}/log.ndjson`;
const RULES = `${DIR}/rules.json`;
const STRICTER = `${DIR}/stricter.json`;
const at = (hhmm: string) => Date.parse(`2026-03-01T${hhmm}:00Z`);

describe('issue 28: standing backtest', () => {
  it('prints what each rule would have done, with precision and recall against the verdicts in the log', async () => {
    const { code, stdout, stderr } = await runCli(['backtest', '--rules', RULES, LOG]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `standing backtest: 12 events of ${LOG}, 1 community`,
        '',
        `rules of ${RULES}:`,
        'rule      action        actions  players  escalations  overturned  trips  judged  precision  recall',
        'quitter   mute 10m, 1h        2        1            1           0      0       1          1       1',
        'reported  propose             1        1            0           0      0       1          0       0',
        '',
        'judged: players acted on that a person gave a verdict on; precision: the share of them upheld; recall: the share of the players a person upheld that the rule acted on.',
        '',
      ].join('\n'),
    );
  });

  it('gives every decision in JSON, with the ids the service would give its events', async () => {
    const { code, stdout } = await runCli(['backtest', '--rules', RULES, LOG, '--format', 'json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { rules: { events: number; decisions: { rule: string; player: string; time: number; action: string; until?: number; step?: number; id: string }[]; reports: { name: string; precision: number | null }[] } };
    expect(out.rules.events).toBe(12);
    expect(out.rules.decisions.map((d) => [d.rule, d.player, d.time, d.action, d.until ?? null, d.step ?? null])).toEqual([
      ['quitter', 'ann', at('10:11'), 'mute', at('10:21'), 0],
      ['quitter', 'ann', at('10:31'), 'mute', at('11:31'), 1],
      ['reported', 'cat', at('10:52'), 'propose', null, null],
    ]);
    expect(out.rules.decisions.every((d) => /^rule-[A-Za-z0-9_-]{27}$/.test(d.id))).toBe(true);
    expect(out.rules.reports.map((r) => [r.name, r.precision])).toEqual([
      ['quitter', 1],
      ['reported', 0],
    ]);
  });

  it('--compare sets two rule sets side by side', async () => {
    const { code, stdout } = await runCli(['backtest', '--rules', RULES, '--compare', STRICTER, LOG]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      [
        `rules of ${STRICTER}:`,
        'rule     action      actions  players  escalations  overturned  trips  judged  precision  recall',
        'quitter  suspend 1d        1        1            0           0      0       1          1       1',
        '',
        `${RULES} → ${STRICTER}:`,
        'rule      actions  players  precision  recall  acted on only by the first  only by the second',
        'quitter   2 → 1    1 → 1    1 → 1      1 → 1                            0                   0',
        'reported  1 → —    1 → —    0 → —      0 → —                            1                   0',
      ].join('\n'),
    );
    const json = JSON.parse((await runCli(['backtest', '--rules', RULES, '--compare', STRICTER, LOG, '--format', 'json'])).stdout) as { diff: unknown[] };
    expect(json.diff).toEqual([
      { rule: 'quitter', in: 'both', actions: [2, 1], players: [1, 1], precision: [1, 1], recall: [1, 1], onlyRules: 0, onlyCompare: 0 },
      { rule: 'reported', in: 'rules', actions: [1, null], players: [1, null], precision: [0, null], recall: [0, null], onlyRules: 1, onlyCompare: 0 },
    ]);
  });

  it('refuses a rule file with a bad condition, naming the file, the rule and the column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standing-backtest-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ rules: { list: [{ name: 'typo', label: 'Typo', when: 'recent.drop > 1', action: 'propose' }] } }));
    const { code, stdout, stderr } = await runCli(['backtest', '--rules', bad, LOG]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`standing: ${bad}: rules.list[0].when (rule "typo") reads a field "drop" at column 7 that does not exist (fields: drops, reports, negativeRatings, hours)\n`);
    const usage = await runCli(['backtest', LOG]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("required option '--rules <file>' not specified");
  });
});
