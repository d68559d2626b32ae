/** The bench's count of failed requests by kind (bench/failures.ts), as part 6 prints it. */
import { describe, expect, it } from 'vitest';
import { Failures } from '../../bench/failures.js';

describe('bench failures by kind', () => {
  it('names each non-2xx answer by status and error code, a timeout and a connection error by kind, most frequent first', () => {
    const failures = new Failures();
    failures.answer(503, '{"error":"STORE_BUSY","message":"…"}');
    failures.answer(500, '{"error":"INTERNAL","message":"…"}');
    failures.answer(503, '{"error":"STORE_BUSY","message":"…"}');
    failures.answer(502, '<html>bad gateway</html>');
    failures.error(new Error('request timed out'));
    failures.error(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expect(failures.total).toBe(6);
    expect(failures.text()).toBe('2 × 503 STORE_BUSY, 1 × 500 INTERNAL, 1 × 502, 1 × error ECONNRESET, 1 × timeout');
  });

  it('is empty when nothing failed', () => {
    expect([new Failures().total, new Failures().text()]).toEqual([0, '']);
  });
});
