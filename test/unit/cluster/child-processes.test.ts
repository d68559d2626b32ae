import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exited, startRole, stopChild } from '../../../src/cluster/child-processes.js';

/** A script that says it runs (or not), and ignores SIGTERM. */
function script(says: boolean): string {
  const path = join(mkdtempSync(join(tmpdir(), 'standing-child-')), 'role.mjs');
  writeFileSync(path, `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); ${says ? "console.log('standing role runs');" : ''}`);
  return path;
}

describe('child processes of the cluster tools', () => {
  it('issue 18: a role that never says it runs is killed after the bound, and its caller had it from the spawn', async () => {
    let seen: ChildProcess | undefined;
    await expect(startRole(script(false), ['role'], /runs/, { spawned: (child) => (seen = child), timeoutMs: 300, stderr: 'pipe' })).rejects.toThrow(/did not say it runs within 300 ms/);
    await exited(seen!);
    expect(seen!.signalCode).toBe('SIGKILL');
  });

  it('issue 18: a process ignoring SIGTERM is killed after the grace', async () => {
    const { child } = await startRole(script(true), ['role'], /standing role runs/, { stderr: 'pipe' });
    await stopChild(child, 200);
    expect(child.signalCode).toBe('SIGKILL');
  });

  it('issue 18: a child outlives no parent: when the parent exits without stopping it, it is killed', () => {
    const module = fileURLToPath(new URL('../../../src/cluster/child-processes.ts', import.meta.url));
    const parent = join(mkdtempSync(join(tmpdir(), 'standing-parent-')), 'parent.ts');
    writeFileSync(
      parent,
      `import { spawn } from 'node:child_process';\nimport { killWithParent } from ${JSON.stringify(module)};\n` +
        `const child = killWithParent(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }));\n` +
        `console.log(child.pid);\nprocess.exit(0);\n`,
    );
    const pid = Number(execFileSync(process.execPath, ['--import', 'tsx', parent], { encoding: 'utf8' }).trim());
    expect(pid).toBeGreaterThan(0);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // SIGKILL is delivered before the parent's exit returns; the child is gone or a zombie being reaped.
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      gone = !alive() || execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim().startsWith('Z');
      if (!gone) execFileSync('sleep', ['0.1']);
    }
    expect(gone).toBe(true);
  });
});
