/**
 * Runs `node SCRIPT ARGS…` as a child process and measures its wall-clock time, start to exit,
 * and the CPU time it used, every thread included (./child-cpu.ts tells it at exit).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { now } from './measure.js';

const CHILD_CPU = fileURLToPath(new URL('./child-cpu.js', import.meta.url));
let children = 0;

export interface ChildRun {
  /** Wall-clock seconds from spawn to exit. */
  readonly seconds: number;
  /** CPU seconds the child used (user plus system, all its threads), start-up included. */
  readonly cpuSeconds: number;
  /** Standard output when it was kept, else ''. */
  readonly stdout: string;
}

/** Fails when the child exits with a non-zero status, quoting its standard error. `env` adds to this process's environment. */
export function runNode(script: string, args: readonly string[], keepStdout: boolean, env: Record<string, string> = {}): Promise<ChildRun> {
  const cpuFile = join(tmpdir(), `standing-bench-cpu-${process.pid}-${children++}`);
  return new Promise<ChildRun>((resolve, reject) => {
    const start = now();
    const child = spawn(process.execPath, ['--import', CHILD_CPU, script, ...args], {
      stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'pipe'],
      env: { ...process.env, ...env, STANDING_BENCH_CPU_FILE: cpuFile },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const seconds = now() - start;
      if (code !== 0) {
        reject(new Error(`node ${script} ${args.join(' ')} exited with ${code ?? signal}:\n${stderr.slice(0, 2000)}`));
        return;
      }
      const cpuSeconds = Number(readFileSync(cpuFile, 'utf8'));
      resolve({ seconds, cpuSeconds, stdout });
    });
  }).finally(() => rmSync(cpuFile, { force: true }));
}
