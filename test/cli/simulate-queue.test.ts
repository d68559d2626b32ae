/** `standing simulate queue` through the real binary: the JSON document, the table, and bad options. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const SCENARIOS = 'honest, reports/outsiders, reports/insiders, reports/retaliation, reports/spammers, reports/combined, trust/sybil-ring, chat/farming, reliability/farming';

describe("issue 28: standing simulate queue", () => {
  it('prints one JSON document: the community, the k, a row per scenario and order, and the target', async () => {
    const { code, stdout, stderr } = await runCli(['simulate', 'queue', '--scenario', 'reports/outsiders', '--defences', 'recommended', '--players', '200', '--seed', '3', '--format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as Record<string, unknown> & {
      community: Record<string, number>;
      ks: number[];
      rows: { scenario: string; order: string; configuration: string | null; length: number; precision: Record<string, number>; innocents: { player: string; place: number | null }[]; hidden: unknown[] }[];
      targets: { scenario: string; precision: number; mostReports: number; leadChecked: boolean; innocentsInCutoff: number | null; met: boolean }[];
    };
    expect(Object.keys(doc)).toEqual(['community', 'ks', 'scenarios', 'rows', 'goal', 'targets']);
    expect(doc.community).toMatchObject({ seed: 3, players: 200, trulyBad: 10 });
    expect(doc.ks).toEqual([10, 50, 100]); // the number of truly bad players, 10, is one of them
    expect(doc.scenarios).toEqual([{ name: 'reports/outsiders', description: '100 established outsiders report an innocent player', events: 200 }]);
    expect(doc.rows.map((r) => [r.scenario, r.order, r.configuration])).toEqual([
      ['reports/outsiders', 'most reports', null],
      ['reports/outsiders', 'latest report', null],
      ['reports/outsiders', 'queue', 'recommended'],
    ]);
    for (const row of doc.rows) {
      expect(Object.keys(row.precision)).toEqual(['10', '50', '100']);
      for (const p of Object.values(row.precision)) expect(p).toBeGreaterThanOrEqual(0);
      expect(row.innocents).toHaveLength(1);
      expect(row.length).toBeGreaterThan(0);
    }
    // The outsiders' 100 reports put the innocent first in both report orders.
    expect(doc.rows[0]!.innocents[0]!.place).toBe(1);
    expect(doc.rows[1]!.innocents[0]!.place).toBe(1);
    expect(doc.targets).toHaveLength(1);
    expect(Object.keys(doc.targets[0]!)).toEqual(['scenario', 'precision', 'mostReports', 'leadChecked', 'innocentsInCutoff', 'met']);
    expect(doc.goal).toMatch(/^the recommended queue: precision at the number of truly bad players ≥ 0\.9/);
  });

  it('prints one table, the undefended and recommended queues beside the report orders', async () => {
    const { code, stdout, stderr } = await runCli(['simulate', 'queue', '--scenario', 'honest', '--players', '150']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^queue simulation: seed 1; 150 players \(8 truly bad\)/);
    expect(stdout).toMatch(/scenario\s+order\s+P@8 \(k = truly bad\)\s+P@10\s+P@50\s+P@100\s+innocent targets' places\s+hiding bad player's place/);
    for (const order of ['most reports', 'latest report', 'queue, undefended', 'queue, recommended']) expect(stdout).toMatch(new RegExp(`\\nhonest\\s+${order}\\s+\\d\\.\\d{3}\\s+\\d\\.\\d{3}\\s+\\d\\.\\d{3}\\s+\\d\\.\\d{3}`));
    expect(stdout).toMatch(/\ntarget: the recommended queue: .*: (met|NOT met under honest)\n$/);
  });

  it('names the scenarios and settings it knows when given others, and refuses a community too small', async () => {
    const unknown = await runCli(['simulate', 'queue', '--scenario', 'reports/everyone']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`standing: --scenario: unknown scenario "reports/everyone" (known: ${SCENARIOS})\n`);
    const defences = await runCli(['simulate', 'queue', '--defences', 'published']);
    expect(defences.code).toBe(2);
    expect(defences.stderr).toBe('standing: --defences expects undefended or recommended, got "published"\n');
    const small = await runCli(['simulate', 'queue', '--players', '99']);
    expect(small.code).toBe(2);
    expect(small.stderr).toBe('standing: --players expects at least 100 (the scenarios need reported bad players in the honest community), got 99\n');
    const format = await runCli(['simulate', 'queue', '--format', 'csv']);
    expect(format.code).toBe(2);
    expect(format.stderr).toBe('standing: --format expects table or json for simulate queue, got "csv"\n');
  });
});
