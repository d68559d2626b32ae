/**
 * The headers every answer of the dashboard's routes carries (its page, scripts, styles and
 * icon): no other site may show it in a frame (`X-Frame-Options: DENY`, and CSP
 * `frame-ancestors 'none'`), so a page elsewhere cannot lay itself over a moderator's buttons;
 * and the page runs only what the service itself serves. The dashboard's scripts and styles are
 * files of the service's own origin, it asks only the API on that origin, and it sets styles only
 * through the CSSOM (never inline markup), so `'self'` is all it needs.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
