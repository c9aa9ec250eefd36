// The one table of URLs the egress guard must refuse, run by every door that loads a caller's URL
// (read, map, visual, the client library): loopback, private, link-local, metadata, CGNAT, multicast
// and reserved addresses in every spelling (IPv4 forms, IPv6 forms that carry or hide an IPv4), and
// schemes other than http(s), which are not valid URLs for the API (400) rather than refused (403).
export interface GuardCase { url: string; status: 400 | 403; error: 'invalid_url' | 'blocked_url' }

const blocked = (url: string): GuardCase => ({ url, status: 403, error: 'blocked_url' });
const invalid = (url: string): GuardCase => ({ url, status: 400, error: 'invalid_url' });

export const GUARD_CASES: GuardCase[] = [
  // IPv4 in every spelling the URL parser normalises.
  ...['http://127.0.0.1:9/', 'http://localhost:9/', 'http://0.0.0.0/', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/',
    'http://172.16.5.4/', 'http://192.168.0.1/', 'http://100.64.0.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f000001/',
    'http://224.0.0.1/', 'https://127.1/'].map(blocked),
  // IPv6: loopback, mapped, IPv4-compatible (the parser turns [::127.0.0.1] into [::7f00:1]), SIIT,
  // local-use NAT64 (RFC 8215), well-known NAT64 of a private IPv4, and what is not global unicast.
  ...['http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::127.0.0.1]/', 'http://[::169.254.169.254]/', 'http://[::a9fe:a9fe]/',
    'http://[::ffff:0:127.0.0.1]/', 'http://[::ffff:0:a9fe:a9fe]/', 'http://[64:ff9b:1::a9fe:a9fe]/', 'http://[64:ff9b::10.0.0.1]/',
    'http://[fe80::1]/', 'http://[fd00::1]/', 'http://[ff02::1]/', 'http://[::]/', 'http://[100::1]/', 'http://[2001:db8::1]/',
    'http://[2002:7f00:1::1]/'].map(blocked),
  // Not http(s): not a valid URL for the API.
  ...['file:///etc/passwd', 'data:text/html,<h1>hi</h1>', 'chrome://settings', 'ftp://10.0.0.1/', 'gopher://localhost/',
    'javascript:alert(1)'].map(invalid),
];
