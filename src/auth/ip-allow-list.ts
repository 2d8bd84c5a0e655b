import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Parses one allow-list entry (a CIDR, or a single address meaning /32 or /128) into its canonical
 * text, or null when it is not one. An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) becomes the
 * IPv4 range it denotes, so one rule covers both ways the same client can show up.
 */
export function canonicalCidr(raw: string): string | null {
  const range = parseRange(raw.trim());
  if (!range) return null;
  const [addr, bits] = range;
  return `${addr.toString()}/${bits}`;
}

function parseRange(s: string): Range | null {
  // ipaddr.js also takes "10" or "0x0a.1" as IPv4; an allow-list wants the plain dotted form only.
  if (s.includes('%')) return null;
  if (!s.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(s) && !ipaddr.IPv4.isValidCIDRFourPartDecimal(s)) return null;
  let range: Range;
  if (ipaddr.isValidCIDR(s)) range = ipaddr.parseCIDR(s);
  else if (ipaddr.isValid(s) && !s.includes('/')) {
    const addr = ipaddr.parse(s);
    range = [addr, addr.kind() === 'ipv4' ? 32 : 128];
  } else return null;
  const [addr, bits] = range;
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return range;
}

/** The address a request comes from, IPv4-mapped IPv6 reduced to IPv4; null when unknown. */
export function clientAddress(req: Request, trustProxy: boolean): string | null {
  // With trusted proxies express derives req.ip from X-Forwarded-For; otherwise the socket decides.
  const raw = trustProxy ? req.ip : req.socket.remoteAddress;
  if (!raw) return null;
  // Every request line logs it: each address text is parsed once (ipaddr.js), not per request.
  return parsedOnce(processed, raw, processAddress);
}

/** `parse(text)`, kept in `kept` (at most 10,000 texts; emptied when full). */
function parsedOnce<T>(kept: Map<string, T>, text: string, parse: (text: string) => T): T {
  let value = kept.get(text);
  if (value === undefined) {
    value = parse(text);
    if (kept.size >= 10_000) kept.clear();
    kept.set(text, value);
  }
  return value;
}

/** An address text as clientAddress gives it (test/auth/ip-allow-list.spec.ts compares the cached answers with it). */
export function processAddress(raw: string): string | null {
  const zoneless = raw.replace(/%.*$/, '');
  return ipaddr.isValid(zoneless) ? ipaddr.process(zoneless).toString() : null;
}

const processed = new Map<string, string | null>();

// Keys keep their allow-list as canonical CIDR text; each entry is parsed once per process, not on
// every request of the key. Bounded: entries come from the keys an operator made.
const parsed = new Map<string, Range | null>();

/** Whether an address (as clientAddress gives it) lies in any range of the allow-list. */
export function ipAllowed(address: string | null, allowList: string[]): boolean {
  if (!address) return false;
  const addr = ipaddr.process(address);
  return allowList.some((entry) => {
    const range = parsedOnce(parsed, entry, parseRange);
    if (!range) return false;
    const [net, bits] = range;
    if (addr.kind() === net.kind()) return addr.match(net, bits);
    // An IPv4 client against a native IPv6 range (e.g. ::/0): compare its mapped form.
    if (addr.kind() === 'ipv4' && net.kind() === 'ipv6') return (addr as ipaddr.IPv4).toIPv4MappedAddress().match(net, bits);
    return false;
  });
}
