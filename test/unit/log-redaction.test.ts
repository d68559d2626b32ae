/** What the access log keeps of a URL (issue 14, points 6 and 7): no key, and no player id. */
import { describe, expect, it } from 'vitest';
import { urlRedactor } from '../../src/http/log-redaction.js';

const redact = urlRedactor(Buffer.alloc(32, 7));

describe('issue 14: the access log URL', () => {
  it('hashes player ids in paths, player= and a params= value naming trust observers, keyed per start', () => {
    const logged = [
      redact('/v1/players/ann%20smith/history?scorer=cqr'),
      redact('/v1/alerts?player=ann%20smith&limit=5'),
      redact('/v1/rankings/trust?params=observers%3Dann%20smith%2Cbob'),
    ];
    for (const line of logged) expect(line).not.toMatch(/ann|bob/);
    expect(logged[0]).toMatch(/^\/v1\/players\/~[A-Za-z0-9_-]{16}\/history\?scorer=cqr$/);
    expect(logged[1]!.split('&')[0]!.slice('/v1/alerts?player='.length)).toBe(logged[0]!.split('/')[3]); // one player, one hash
    expect(redact('/v1/rankings/cqr?params=T%3D8%2Cx%3D10')).toBe('/v1/rankings/cqr?params=T%3D8%2Cx%3D10');
    expect(urlRedactor(Buffer.alloc(32, 8))('/v1/players/ann')).not.toBe(redact('/v1/players/ann'));
  });

  it('drops the value of key-named parameters and the secret of key-shaped text', () => {
    expect(redact('/v1/rankings/cqr?api_key=stk_abcdefghijkl_s3cr3t&limit=2')).toBe('/v1/rankings/cqr?api_key=[redacted]&limit=2');
    expect(redact('/v1/rankings/cqr?x=stk_abcdefghijkl_s3cr3t')).toBe('/v1/rankings/cqr?x=stk_abcdefghijkl_[redacted]');
  });
});
