/**
 * issue 28: the dashboard's answers forbid framing (X-Frame-Options: DENY, CSP frame-ancestors
 * 'none') and let the page run only the service's own files; the API's answers do not carry the
 * dashboard's headers. Real HTTP requests to a real service serving the built dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t.close());

const DASHBOARD_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function expectDashboardHeaders(response: Response, path: string): void {
  expect({ path, status: response.status, frame: response.headers.get('x-frame-options'), csp: response.headers.get('content-security-policy'), sniff: response.headers.get('x-content-type-options'), referrer: response.headers.get('referrer-policy') }).toEqual({
    path,
    status: 200,
    frame: 'DENY',
    csp: DASHBOARD_CSP,
    sniff: 'nosniff',
    referrer: 'no-referrer',
  });
}

describe('issue 28: the dashboard cannot be framed', () => {
  it('sends X-Frame-Options DENY and a CSP with frame-ancestors none on its page, every script and style it loads, and its icon', async () => {
    const page = await fetch(`${t.url}/`);
    expectDashboardHeaders(page, '/');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => `/${m[1]!}`);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    expect(assets).toContain('/favicon.svg');
    for (const asset of ['/index.html', ...assets]) {
      const response = await fetch(`${t.url}${asset}`);
      expectDashboardHeaders(response, asset);
      await response.arrayBuffer();
    }
    // The page holds no inline script or style the policy would block.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  });

  it('leaves the API’s answers without the dashboard’s headers', async () => {
    for (const path of ['/healthz', '/v1/scorers']) {
      const response = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${t.keys.read}` } });
      expect({ path, status: response.status, frame: response.headers.get('x-frame-options'), csp: response.headers.get('content-security-policy') }).toEqual({ path, status: 200, frame: null, csp: null });
      await response.arrayBuffer();
    }
  });
});
