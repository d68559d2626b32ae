/**
 * issue 28, point 8, in a real Chromium against `serve --demo`: the audit view's details name the
 * key each action was made with (two moderators may read alike, their keys do not), and a
 * verdict on a report whose reporter was since erased stays in the audit log, marked "reporter
 * erased", without the reporter.
 */
import { describe, expect, it } from 'vitest';
import { demoEvents } from '../../src/service/demo.js';
import { runCli } from '../support/cli.js';
import { contractFetch } from '../support/contract.js';
import { demoForFile, type DemoBrowser } from '../support/demo-browser.js';

let demo: DemoBrowser;
let key: string;

demoForFile((started, moderator) => {
  demo = started;
  key = moderator;
});

async function call<T>(method: string, path: string, auth: string, body?: unknown): Promise<T> {
  const response = await contractFetch(`${demo.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text) as T;
}

describe('issue 28: the audit view names the key, and keeps a verdict whose reporter was erased', () => {
  it('shows "key <id>" beside a moderator verdict, and "reporter erased" once the reporter is erased', async () => {
    // A report of the demo log: the reporter will be erased, the reported player stays.
    const report = demoEvents().find((e) => e.type === 'report' && e.from !== e.to)!;
    const reporter = report.from as string;
    const reported = report.to as string;
    const me = await call<{ key: string; label?: string }>('GET', '/v1/me', key);

    await call('POST', '/v1/reports/verdicts', key, { community: 'default', report: report.id, outcome: 'upheld', reason: 'seen in the replay' });
    const made = await runCli(['keys', 'create', '--scope', 'admin', '--label', 'audit test admin', '--db', demo.db]);
    expect(made.code, made.stderr).toBe(0);
    await call('DELETE', `/v1/players/${encodeURIComponent(reporter)}`, made.stdout.trim().split('\n')[0]!);

    const page = await demo.open(`#/audit?community=default&player=${encodeURIComponent(reported)}`, { key });
    const row = page.locator('table.audit tbody tr', { hasText: 'seen in the replay' });
    await row.waitFor();
    expect(await row.locator('td[data-label="action"]').innerText()).toBe('verdict: upheld');
    const details = await row.locator('td[data-label="details"]').innerText();
    expect(details).toBe(`“seen in the replay” · key ${me.key} · reporter erased`);
    expect(await row.locator('td[data-label="player"]').innerText()).toBe(reported);
    await page.close();
  });
});
