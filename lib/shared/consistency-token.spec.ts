import { seededRandom } from '../../test/support/seeded-random.js';
import { formatWalPosition, laterToken, parseWalPosition } from './consistency-token.js';

describe('consistency tokens', () => {
  it('reads and writes positions as PostgreSQL does', () => {
    expect(parseWalPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatWalPosition(parseWalPosition('0/16b3748')!)).toBe('0/16B3748');
    for (const text of ['', '16', '16/', '/1', '123456789/0', '0/G', ' 0/1', '0/1 ', '-1/0']) {
      expect(parseWalPosition(text)).toBeUndefined();
    }
  });

  it('orders positions as numbers, whatever their text (seeded)', () => {
    const random = seededRandom(7);
    const position = () => (BigInt(random.int(2 ** 16)) << 32n) | BigInt(random.int(2 ** 32));
    for (let i = 0; i < 500; i++) {
      const [a, b] = [position(), position()];
      expect(parseWalPosition(formatWalPosition(a))).toBe(a);
      const later = a >= b ? a : b;
      expect(laterToken(formatWalPosition(a), formatWalPosition(b))).toBe(formatWalPosition(later));
    }
    expect(laterToken(undefined, '0/1')).toBe('0/1');
    expect(laterToken('0/1', 'not a token')).toBe('0/1');
  });
});
