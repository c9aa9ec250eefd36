// URLs the egress guard must refuse in every observe mode: loopback, private, link-local, metadata,
// CGNAT, multicast and reserved addresses in every spelling, and schemes other than http(s).
export const REFUSED_URLS = ['http://127.0.0.1:9/', 'http://localhost:9/', 'http://0.0.0.0/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/',
  'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://172.16.5.4/', 'http://192.168.0.1/', 'http://100.64.0.1/',
  'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f000001/', 'http://[fe80::1]/', 'http://[fd00::1]/', 'http://224.0.0.1/',
  'file:///etc/passwd', 'data:text/html,<h1>hi</h1>', 'chrome://settings', 'ftp://10.0.0.1/', 'gopher://localhost/'];
