/**
 * The address a per-address limit counts a connection against: an IPv4 address as it is (an
 * IPv4-mapped IPv6 address as its IPv4 form), an IPv6 address by its /64 prefix, the block one
 * host is usually given, so a client cannot take a fresh limit from each address of its own
 * block. An unknown address (a socket already closed) counts as one address of its own.
 */
import { isIPv6 } from 'node:net';

export function clientAddress(remote: string | undefined): string {
  if (remote === undefined) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped !== null) return mapped[1]!;
  if (!isIPv6(remote)) return remote;
  return `${expandIPv6(remote).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hexadecimal without leading zeros ("::" expanded, a zone dropped). */
function expandIPv6(address: string): string[] {
  const [text] = address.split('%');
  const [head, tail] = text!.includes('::') ? text!.split('::') : [text!, undefined];
  const groups = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = groups(tail);
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const last = right.length > 0 ? right : left;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(last[last.length - 1] ?? '');
  if (v4 !== null) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    last.splice(last.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g, 16).toString(16));
}
