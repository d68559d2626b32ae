/** `standing simulate attacks` through the real binary: the JSON document, the table, the figures and bad options. */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('standing simulate attacks', () => {
  it('prints one JSON document with a row per defence setting, and writes the figures', async () => {
    const out = mkdtempSync(join(tmpdir(), 'standing-attacks-'));
    const { code, stdout, stderr } = await runCli(['simulate', 'attacks', '--attack', 'reports/insiders', '--attack', 'reliability/farming', '--players', '300', '--format', 'json', '--out', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { attacks: { attack: string; defence: string; cost: Record<string, number>; effect: { value: number | null }; goal: string | null; met: boolean | null }[] };
    expect(new Set(doc.attacks.map((r) => r.attack))).toEqual(new Set(['reports/insiders', 'reliability/farming']));
    for (const row of doc.attacks) {
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['attack', 'defence', 'cost', 'effect', 'goal', 'met']));
      expect(row.cost.accounts).toBeGreaterThan(0);
    }
    expect(doc.attacks.find((r) => r.attack === 'reports/insiders' && r.defence === 'published')!.effect.value).toBe(1);
    expect(readdirSync(out).sort()).toEqual(expect.arrayContaining(['reliability-farming.svg', 'reports-insiders.svg']));
  });

  it('prints a table', async () => {
    const { code, stdout } = await runCli(['simulate', 'attacks', '--attack', 'reports/outsiders', '--players', '300']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^attack suite: seed 1; 300 players/);
    expect(stdout).toMatch(/reports\/outsiders\s+published\s+accounts 100/);
  });

  it('names the scenarios it knows when given another', async () => {
    const { code, stderr } = await runCli(['simulate', 'attacks', '--attack', 'reports/everyone']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown scenario "reports/everyone" (known: reports/outsiders, reports/insiders, reports/retaliation, trust/sybil-ring, chat/farming, reliability/farming)');
  });

  it('takes table or json, and says so for any other format', async () => {
    for (const other of ['xml', 'csv']) {
      const { code, stderr } = await runCli(['simulate', 'attacks', '--format', other]);
      expect(code).toBe(2);
      expect(stderr).toBe(`standing: --format expects table or json for simulate attacks, got "${other}"\n`);
    }
  });

  it('refuses a community too small to have reported bad players to attack, in one line (it ended in a TypeError)', async () => {
    const { code, stderr } = await runCli(['simulate', 'attacks', '--players', '10']);
    expect(code).toBe(2);
    expect(stderr).toBe('standing: --players expects at least 100 (every scenario needs reported bad players in the honest community), got 10\n');
  });

  it('shows the default of --attack once', async () => {
    const { stdout } = await runCli(['simulate', 'attacks', '--help']);
    const help = stdout.replace(/\s+/g, ' ');
    expect(help).toContain('a scenario to run, repeatable (default: all of reports/outsiders, reports/insiders, reports/retaliation, trust/sybil-ring, chat/farming, reliability/farming)');
    expect(help).not.toContain('(default: [])');
    expect(help.match(/\(default:/g)).toHaveLength(4); // --attack, --seed, --players and --format, once each
  });
});
