/** Loopback is told by the address, never by how a host name starts. */
import { isLoopbackHost } from '../../src/service/loopback.js';

const hostOf = (url: string): string => new URL(url).hostname;

it.each([
  'http://localhost:8080',
  'http://LOCALHOST./',
  'http://127.0.0.1/',
  'http://127.0.0.2/',
  'http://127.255.255.254/',
  'http://127.1/',
  'http://0x7f000001/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/',
])('%s is loopback', (url) => expect(isLoopbackHost(hostOf(url))).toBe(true));

it.each([
  'http://127.attacker.example/',
  'http://127.0.0.1.attacker.example/',
  'http://localhost.attacker.example/',
  'http://128.0.0.1/',
  'http://10.0.0.1/',
  'http://0.0.0.0/',
  'http://[::2]/',
  'http://[::ffff:10.0.0.1]/',
  'http://svc.example.com/',
])('%s is not', (url) => expect(isLoopbackHost(hostOf(url))).toBe(false));

it('takes a bare address too', () => {
  expect(isLoopbackHost('::1')).toBe(true);
  expect(isLoopbackHost('127.0.0.1')).toBe(true);
  expect(isLoopbackHost('')).toBe(false);
});
