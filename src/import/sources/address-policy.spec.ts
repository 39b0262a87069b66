import { isSpecialAddress } from './address-policy';

describe('isSpecialAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(isSpecialAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2a00:1450:4001:82b::200e',
    '2606:4700::1111',
  ])('allows the public address %s', (address) => {
    expect(isSpecialAddress(address)).toBe(false);
  });

  it('rejects what is not an IP literal', () => {
    expect(() => isSpecialAddress('localhost')).toThrow('not an IP address');
  });
});
