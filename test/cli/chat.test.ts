/** `standing rank chat` and `standing simulate chat-*` as real processes. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('standing rank chat', () => {
  it('ranks receivers of many messages from many senders first', async () => {
    const log = [
      { from: 'a', to: ['hub'] },
      { from: 'b', to: ['hub', 'c'] },
      { from: 'c', to: 'hub' },
      { from: 'hub', to: ['a'] },
    ]
      .map((m, i) => JSON.stringify({ type: 'chat', time: i, ...m }))
      .join('\n');
    const { code, stdout } = await runCli(['rank', 'chat', '-', '--defences', 'published', '--format', 'json'], log);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { rank: number; player: string; score: number; sent: number; received: number }[];
    expect(rows.map((r) => r.player)).toEqual(['hub', 'a', 'c', 'b']);
    // hub: three new senders, each γ0 = 0.002, plus α·rep(S)/M: a 0.1/1, b 0.1/2, and c, which
    // had already received from b (0.1 + α·0.1/2 + γ0 = 0.102005), 0.102005/1
    expect(rows[0]!.score).toBeCloseTo(0.1 + 3 * 0.002 + 0.0001 * (0.1 + 0.1 / 2 + 0.102005), 15);
    expect(rows[0]).toMatchObject({ sent: 1, received: 3 });
  });

  it('takes --set recipe=2', async () => {
    const { stdout } = await runCli(['rank', 'chat', '-', '--defences', 'published', '--set', 'recipe=2', '--format', 'json'], JSON.stringify({ type: 'chat', time: 0, from: 'a', to: ['b'] }));
    expect(JSON.parse(stdout)[0]).toMatchObject({ player: 'b', score: 0.1 + 0.004 * 0.1 });
  });
});

describe('standing explain chat', () => {
  it('shows the reputation and the sender list, front first, with each sender’s β now', async () => {
    const log = ['a', 'b', 'a'].map((from, i) => JSON.stringify({ type: 'chat', time: i, from, to: ['r'] })).join('\n');
    const { code, stdout } = await runCli(['explain', 'chat', '-', '--player', 'r', '--format', 'json'], log);
    expect(code).toBe(0);
    const e = JSON.parse(stdout) as { received: number; senders: { player: string; beta: number }[] };
    expect(e.received).toBe(3);
    // a at slot 4 of 5 (γ1/2^3), b at slot 5 (γ1/2^4)
    expect(e.senders).toEqual([{ player: 'a', beta: 0.0016 / 8 }, { player: 'b', beta: 0.0016 / 16 }]);
    const table = await runCli(['explain', 'chat', '-', '--player', 'r'], log);
    expect(table.stdout).toContain('received 3 messages, sent 0');
  });
});

describe('standing simulate', () => {
  it('chat-reliability prints {"doubling": {"0.1": 892, "0.9": 517}} and writes Figure 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standing-plots-'));
    const { code, stdout } = await runCli(['simulate', 'chat-reliability', '--format', 'json', '--out', dir]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).doubling).toEqual({ '0.1': 892, '0.9': 517 });
    expect(readdirSync(dir).sort()).toEqual(['figure3-reliability.png', 'figure3-reliability.svg']);
    expect(readFileSync(join(dir, 'figure3-reliability.svg'), 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*friend's reputation 0\.9/);
    expect(readFileSync(join(dir, 'figure3-reliability.png')).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('chat-balance prints checkpoints as JSON and writes Figures 1, 2 and 4', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standing-plots-'));
    const { code, stdout } = await runCli(['simulate', 'chat-balance', '--messages', '400000', '--seed', '2', '--format', 'json', '--out', dir]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { checkpoints: { messages: number; standard: number; socializers: number }[] };
    expect(result.checkpoints.map((c) => c.messages)).toEqual([200_000, 400_000]);
    expect(result.checkpoints[1]!.socializers).toBeGreaterThan(result.checkpoints[1]!.standard);
    const names = ['figure1-histogram-200000', 'figure1-histogram-400000', 'figure2-averages', 'figure4-recipes-socializers', 'figure4-recipes-standard'];
    expect(readdirSync(dir).sort()).toEqual(names.flatMap((n) => [`${n}.png`, `${n}.svg`]));
  });

  it('rejects a bad recipe', async () => {
    const { code, stderr } = await runCli(['simulate', 'chat-balance', '--recipe', '7']);
    expect(code).toBe(2);
    expect(stderr).toBe('standing: --recipe expects 1, 2 or 3, got "7"\n');
  });
});

describe('issue 26: standing simulate where the optional PNG renderer cannot be loaded', () => {
  it('writes the SVGs, says in one line on standard error that PNGs were skipped and how to install @resvg/resvg-js, and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standing-plots-'));
    const withoutResvg = `--import=${new URL('../support/without-resvg.mjs', import.meta.url).href}`;
    const { code, stdout, stderr } = await runCli(['simulate', 'chat-reliability', '--format', 'json', '--out', dir], undefined, { NODE_OPTIONS: withoutResvg });
    expect(code).toBe(0);
    expect(stderr).toBe('standing: PNGs skipped, SVGs written: the optional package @resvg/resvg-js could not be loaded (install it with: npm install @resvg/resvg-js)\n');
    expect(readdirSync(dir)).toEqual(['figure3-reliability.svg']);
    expect(JSON.parse(stdout).plots).toEqual([join(dir, 'figure3-reliability.svg')]);
  });
});
