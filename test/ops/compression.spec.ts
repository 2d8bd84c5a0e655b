import { COMPRESS_MIN_BYTES, tooSmall } from '../../src/ops/compression';

// The compression wrapper measures a string body only when its length leaves the answer open:
// the same answer as measuring every body.
describe('tooSmall', () => {
  it('answers as Buffer.byteLength does, for strings of every length around the bound and every kind of character', () => {
    const pieces = ['a', '{"k":1}', 'é', '€', '😀', '\ud800', '\udc00x'];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let checked = 0;
    for (let n = 0; n < 4000; n++) {
      let s = '';
      const target = Math.floor(random() * (COMPRESS_MIN_BYTES * 1.5));
      while (s.length < target) s += pieces[Math.floor(random() * pieces.length)];
      expect(tooSmall(s)).toBe(Buffer.byteLength(s) < COMPRESS_MIN_BYTES);
      checked++;
    }
    for (const len of [0, 1, 340, 341, 342, 1023, 1024, 1025]) {
      for (const c of pieces) {
        const s = c.repeat(Math.ceil(len / c.length)).slice(0, len);
        expect(tooSmall(s)).toBe(Buffer.byteLength(s) < COMPRESS_MIN_BYTES);
      }
    }
    expect(tooSmall(Buffer.alloc(COMPRESS_MIN_BYTES - 1))).toBe(true);
    expect(tooSmall(Buffer.alloc(COMPRESS_MIN_BYTES))).toBe(false);
    expect(tooSmall(undefined)).toBe(true);
    expect(tooSmall({ a: 1 })).toBe(true);
    expect(checked).toBe(4000);
  });
});
