import { lookup } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';
import { AppError } from '../../errors/app-error';

// Where webhooks may go (docs/webhooks.md): https only unless WEBHOOK_ALLOW_HTTP; never to a
// loopback, private, link-local, unique-local or metadata address unless WEBHOOK_ALLOW_PRIVATE,
// checked at create/update on every address the name resolves to, and again on the address a
// delivery actually connects to (a name may resolve elsewhere later: DNS rebinding).

/** ipaddr.js ranges that are not the public internet. */
const REFUSED = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', 'loopback', 'private', 'uniqueLocal', 'carrierGradeNat', 'reserved', 'ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo', 'benchmarking', 'amt', 'as112', 'as112v6', 'orchid2', 'droneRemoteIdProtocolEntityTags', 'deprecated']);

/** Why an address may not receive webhooks, or null when it may. */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let ip = ipaddr.parse(address);
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  return REFUSED.has(range) ? `${address} is a ${range} address` : null;
}

const lookupAll = promisify(lookup);

export interface UrlRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** Checks an endpoint URL (400 naming `url`); resolves the host with every address it has. */
export async function checkEndpointUrl(raw: string, rules: UrlRules): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.field('url', 'must be an absolute https:// URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) {
    throw AppError.field('url', rules.allowHttp ? 'must be an http:// or https:// URL' : 'must be an https:// URL');
  }
  if (url.username || url.password) throw AppError.field('url', 'must not carry a user name or password');
  if (rules.allowPrivate) return url.toString();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await lookupAll(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw AppError.field('url', `host ${host} does not resolve`);
    }
  }
  for (const a of addresses) {
    const why = refusedAddress(a);
    if (why) throw AppError.field('url', `must not point to a private, loopback, link-local or metadata address (${why})`);
  }
  return url.toString();
}

let undiciLib: typeof import('undici') | undefined;
/** undici, loaded with the first delivery a process makes (a process that never delivers never loads it). */
export const undici = () => (undiciLib ??= require('undici') as typeof import('undici'));

/**
 * The undici dispatcher of deliveries: its connect lookup refuses private addresses (unless
 * allowed), so the address actually connected to is the one checked. Redirects are not followed
 * (undici's request never follows them).
 */
export function deliveryAgent(rules: UrlRules, timeoutMs: number): Agent {
  const { Agent } = undici();
  return new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    connections: 64,
    connect: {
      lookup(hostname, options, callback) {
        lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
          if (err) return callback(err, '', 0);
          const list = addresses as unknown as Array<{ address: string; family: number }>;
          if (!rules.allowPrivate) {
            const bad = list.map((a) => refusedAddress(a.address)).find(Boolean);
            if (bad) return callback(Object.assign(new Error(`refused address: ${bad}`), { code: 'EWEBHOOKPRIVATE' }), '', 0);
          }
          if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
          callback(null, list[0].address, list[0].family);
        });
      },
    },
  });
}

/** A host that is an IP literal is connected to without a lookup: checked here instead. */
export function refusedLiteral(url: string, rules: UrlRules): string | null {
  if (rules.allowPrivate) return null;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? refusedAddress(host) : null;
}
