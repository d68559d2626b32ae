/** Runs `node SCRIPT ARGS…` as a child process and measures its wall-clock time, start to exit. */
import { spawn } from 'node:child_process';
import { now } from './measure.js';

export interface ChildRun {
  /** Wall-clock seconds from spawn to exit. */
  readonly seconds: number;
  /** Standard output when it was kept, else ''. */
  readonly stdout: string;
}

/** Fails when the child exits with a non-zero status, quoting its standard error. `env` adds to this process's environment. */
export function runNode(script: string, args: readonly string[], keepStdout: boolean, env: Record<string, string> = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const start = now();
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const seconds = now() - start;
      if (code === 0) resolve({ seconds, stdout });
      else reject(new Error(`node ${script} ${args.join(' ')} exited with ${code ?? signal}:\n${stderr.slice(0, 2000)}`));
    });
  });
}
