/** The address a per-address limit counts against (issue 25, point 6). */
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { clientOf } from '../../../src/http/auth.js';
import { clientAddress } from '../../../src/http/client-address.js';

describe('issue 25: the address a connection counts against', () => {
  it('is an IPv4 address itself, an IPv4-mapped one in its IPv4 form, an IPv6 one by its /64', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(clientAddress('2001:0DB8:00aa:bb::9')).toBe('2001:db8:aa:bb::/64');
    expect(clientAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddress('::ffff:1.2.3.4')).not.toBe(clientAddress('::ffff:1.2.3.5'));
    expect(clientAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    expect(clientAddress(undefined)).toBe('unknown');
  });

  it('is one for every address of a /64 and differs across /64 blocks', () => {
    expect(clientAddress('2001:db8:1:2::a')).toBe(clientAddress('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientAddress('2001:db8:1:2::a')).not.toBe(clientAddress('2001:db8:1:3::a'));
  });

  it('is what the rate limit and the alert-stream caps count a request without a key against, as the connection caps do', () => {
    const from = (remoteAddress: string) => ({ headers: {}, socket: { remoteAddress } }) as unknown as FastifyRequest;
    expect(clientOf(from('2001:db8:1:2::a'))).toBe(clientOf(from('2001:db8:1:2::b')));
    expect(clientOf(from('2001:db8:1:2::a'))).toBe(`address ${clientAddress('2001:db8:1:2::a')}`);
    expect(clientOf(from('::ffff:203.0.113.7'))).toBe('address 203.0.113.7');
  });
});
