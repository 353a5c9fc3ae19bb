/**
 * Which remoteConfig values are registered as secrets: credentials at any depth and inside URLs,
 * never a common word that would garble the whole job log.
 */
import {
  isCredentialName,
  looksSecret,
  maskRemoteConfig,
  MAX_MASKED,
  remoteConfigSecrets,
  urlSecrets,
} from '../../src/sessions/masking.js';
import { createTestIO } from '../../testkit/world/io.js';

describe('maskRemoteConfig', () => {
  it('masks the documented secrets, nested credentials and credentials in URLs, before anything else', () => {
    const io = createTestIO();
    maskRemoteConfig(io, {
      agentDeviceRemoteSessionUrl: 'https://dev.example/s/1?token=QueryTok3n0001&mode=full',
      agentDeviceRemoteSessionToken: 'adr_0123456789',
      toolsAuthToken: 'short1',
      appiumUrl: 'https://robot:P%40ssw0rd-9@hub.example/wd/hub',
      capabilities: {
        'appium:options': { accessKey: 'Acc3ssKey-XYZ', 'sauce:options': { apiKey: 'nested-api-key-1' } },
        'browserstack.key': 'bs_Key_998877',
        app: 'https://ghp_TokenAsUser0123@files.example/app.ipa',
        list: [{ password: 'p4ssw0rd!' }],
      },
      webPreviewUrl: 'https://preview.example/p#sig=FragSig123456&x=1',
      note: 'see wss://relay.example/ws?X-Amz-Signature=abcdef0123456789 for details',
    });
    expect(io.masks.sort()).toEqual(
      [
        'adr_0123456789',
        'short1',
        'QueryTok3n0001',
        'P%40ssw0rd-9',
        'P@ssw0rd-9',
        'Acc3ssKey-XYZ',
        'nested-api-key-1',
        'bs_Key_998877',
        'ghp_TokenAsUser0123',
        // Every string value of capabilities of 8 characters or more: a URL as well.
        'https://ghp_TokenAsUser0123@files.example/app.ipa',
        'p4ssw0rd!',
        'FragSig123456',
        'abcdef0123456789',
      ].sort(),
    );
    expect(io.log).toEqual([]);
  });

  it('never registers a common word or a short value found by its name', () => {
    expect(
      remoteConfigSecrets({
        keyboardLayout: 'true',
        monkey: 'success',
        password: 'en-US',
        capabilities: {
          autoAcceptAlerts: true,
          key: 'true',
          token: 'success',
          secret: 'abc',
          platformName: 'Android',
          locale: 'en_US',
          'appium:platformVersion': '18.2',
          'appium:tokenType': 'Bearer',
        },
        agentDeviceRemoteSessionToken: 'true',
        previewUrl: 'https://preview.example/?key=true&token=success',
      }),
    ).toEqual([]);
  });

  it('takes every string value of capabilities for a secret, but short and common ones', () => {
    expect(
      remoteConfigSecrets({
        capabilities: {
          platformName: 'iOS',
          'appium:automationName': 'XCUITest',
          'vendor:opaque': 'zq8Ws1pLmN',
          login: { user: 'ci-bot', pass: 'p4s5', userpassword: 'hunter2' },
          headers: { 'X-Proxy': 'Basic dXNlcjpwYXNz' },
          timeout: 300,
          list: ['short', 'long enough value'],
        },
      }).sort(),
    ).toEqual(
      [
        'XCUITest',
        'zq8Ws1pLmN',
        'p4s5',
        'hunter2',
        'Basic dXNlcjpwYXNz',
        'dXNlcjpwYXNz',
        'long enough value',
      ].sort(),
    );
  });

  it('matches names by words, in every naming style, and one-word names by their parts', () => {
    for (const name of ['pass', 'apitoken', 'authkey', 'refreshtoken', 'privatekeypem', 'userpassword'])
      expect(isCredentialName(name)).toBe(true);
    for (const name of [
      'apiKey',
      'API_KEY',
      'x-amz-signature',
      'appium:accessKey',
      'browserstack.key',
      'AuthToken',
      'sig',
    ])
      expect(isCredentialName(name)).toBe(true);
    for (const name of ['keyboardLayout', 'monkey', 'authorName', 'designName'])
      expect(isCredentialName(name)).toBe(false);
  });

  it('looksSecret: generated credentials yes, words and settings no', () => {
    expect(['0123456789ab', 'AbCdEfGh', 'p@ssword', 'abcdefghijklmnopq'].map(looksSecret)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['true', 'success', 'disabled', 'in-progress', 'portrait', '1234567'].map(looksSecret)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('registers at most MAX_MASKED values (lines counted), the documented secrets first, and says so', () => {
    const io = createTestIO();
    const many = Object.fromEntries(
      Array.from({ length: MAX_MASKED + 10 }, (_, i) => [`token${i}`, `tok_${String(i).padStart(8, '0')}`]),
    );
    maskRemoteConfig(io, { capabilities: many, agentDeviceRemoteSessionToken: 'adr_documented_1' });
    expect(io.masks).toHaveLength(MAX_MASKED);
    expect(io.masks[0]).toBe('adr_documented_1');
    expect(io.text()).toContain(`warning: The session's connection details hold more values`);
    expect(io.text()).toContain('11 were not registered');
  });

  it('finds URLs from their `://`, in text of any shape', () => {
    expect(urlSecrets('x.y.https://h.example/?token=QueryTok3n0001 and ftp://u:Pw0rd-9999@h/')).toEqual([
      'QueryTok3n0001',
      'Pw0rd-9999',
    ]);
    expect(urlSecrets(`${'a.'.repeat(1000)}://`)).toEqual([]);
    expect(urlSecrets('://h/?token=QueryTok3n0001')).toEqual([]);
  });

  it('survives deep nesting', () => {
    let deep: unknown = { token: 'deep-token-123456' };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    expect(() => remoteConfigSecrets({ capabilities: deep })).not.toThrow();
  });
});
